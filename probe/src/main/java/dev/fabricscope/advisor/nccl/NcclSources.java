package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.SourceRef;

/** Where the NCCL rules come from (backend-rules.md §4), and when NCCL applies them. */
final class NcclSources {

    /** NCCL 2.30.7 (the newest commit of the mirror, 2026-06-11), as the inventory reads it (docs/upstream-coverage.md). */
    static final String COMMIT = "5067397c2676d5aed50042fc39e5c8ee96eb0027";
    /** NCCL 2.20.5 (tag v2.20.5-1, 2024-02-26): the lines the 2.20 rule set follows. */
    static final String COMMIT_2_20 = "48bb7fec7953112ff37499a272317f6663f8f600";

    /** How NCCL_NVLS_ENABLE decides NVLS support (0 off, 2 reads the multicast attribute, 1 forces it on). */
    static final SourceRef DOCS = new SourceRef("NVIDIA/nccl", COMMIT, "src/transport/nvls.cc", "262-277");
    /** Where NCCL reads NCCL_MNNVL_ENABLE and the NCCL_P2P_DISABLE level before its MNNVL check. */
    static final SourceRef DOCS_ENV = new SourceRef("NVIDIA/nccl", COMMIT, "src/init.cc", "1072");
    /** Where torch reads TORCH_SYMM_MEM_DISABLE_MULTICAST (as vLLM symm_mem.py / SGLang torch_symm_mem.py rely on it). */
    static final SourceRef TORCH = new SourceRef("pytorch/pytorch", "09a6d12f637dceff0c8060e81122a50db4127691",
            "torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemoryUtils.cpp", "22-24");
    /** The format of the NVLS bind failure a user's log printed (backend-rules.md §4). */
    static final SourceRef USER_LOG = new SourceRef("NVIDIA/nccl", COMMIT, "src/transport/nvls.cc", "376");
    /** The macro that prints the text; that rendezvous fails so on H20 is a third-party report, low confidence. */
    static final SourceRef RENDEZVOUS_REPORT = new SourceRef("pytorch/pytorch", "0007e752d518810f0f8942a830dbbbfc69f34577",
            "c10/cuda/driver_api.h", "6-19");

    static final String REPO = "NVIDIA/nccl";
    /** NCCL 2.30.7 (tag v2.30.7-1 is 73cf1122; master 5067397c carries the same src/). */
    static final String C2307 = "5067397c2676d5aed50042fc39e5c8ee96eb0027";
    /** {@code NCCL_NVLS_ENABLE=1}: nvlsSupport = 1 without reading CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (only 2 reads it). */
    static final SourceRef NVLS_INIT = new SourceRef(REPO, C2307, "src/transport/nvls.cc", "270-277");
    /** The NVLS graph is dropped only without an NVSwitch or below SM90. */
    static final SourceRef NVLS_SEARCH = new SourceRef(REPO, C2307, "src/graph/search.cc", "1124");
    /** The multicast allocation that then fails, and NCCL's CUCHECKGOTO text. */
    static final SourceRef NVLS_ALLOC = new SourceRef(REPO, C2307, "src/transport/nvls.cc", "325");

    /** ncclMnnvlCheck returns success (MNNVL off) without CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED. */
    static final SourceRef MNNVL_FABRIC_ATTR = new SourceRef(REPO, C2307, "src/mnnvl.cc", "26");
    /** … when some rank's fabric state is not COMPLETED. */
    static final SourceRef MNNVL_FABRIC_STATE = new SourceRef(REPO, C2307, "src/mnnvl.cc", "29");
    /** … when some rank's cluster UUID is zero. */
    static final SourceRef MNNVL_ZERO_UUID = new SourceRef(REPO, C2307, "src/mnnvl.cc", "45");
    /** … when no second rank shares the clique or the NVL domain. */
    static final SourceRef MNNVL_ONE_RANK = new SourceRef(REPO, C2307, "src/mnnvl.cc", "60");
    /** ncclCuMemAlloc(CU_MEM_HANDLE_TYPE_FABRIC) failed: WARN and ncclSystemError (the IMEX channel message). */
    static final SourceRef MNNVL_IMEX_CHANNEL = new SourceRef(REPO, C2307, "src/mnnvl.cc", "74");
    /** Exporting or importing the FABRIC handle failed: WARN and ncclSystemError (the IMEX configuration message). */
    static final SourceRef MNNVL_IMEX_EXPORT = new SourceRef(REPO, C2307, "src/mnnvl.cc", "86");
    static final SourceRef MNNVL_GATE = new SourceRef(REPO, C2307, "src/init.cc", "1072");
    /** ncclMnnvlCheck's first return: without cuMem it returns success, MNNVL off, and prints nothing (L15 is a comment). */
    static final SourceRef MNNVL_CUMEM = new SourceRef(REPO, C2307, "src/mnnvl.cc", "15-16");
    /** NCCL 2.24.3 (tag v2.24.3-1, 2025-01-07), the last release before mnnvl.cc. */
    static final String C2243 = "6aae37927840b2bd7b7d42d2f0050e75f88ee97f";
    /**
     * NCCL 2.21–2.24: several nodes, checkMNNVL false (cuMem off, no FABRIC handles, fabric not COMPLETED, zero cluster
     * UUID) and NCCL_MNNVL_ENABLE=1: WARN and ncclSystemError (v2.21.5-1 L951, v2.22.3-1 L747, v2.23.4-1 L792).
     */
    static final SourceRef MNNVL_FORCED_2_24 = new SourceRef(REPO, C2243, "src/init.cc", "786-790");
    /** NCCL 2.20.5 reads NCCL_MNNVL, not NCCL_MNNVL_ENABLE (NCCL_PARAM(MNNVL, "MNNVL", -2)); 2.17–2.19 have no MNNVL. */
    static final SourceRef MNNVL_PARAM_2_20 = new SourceRef(REPO, COMMIT_2_20, "src/init.cc", "820");
    static final SourceRef P2P_LEVEL = new SourceRef(REPO, C2307, "src/graph/paths.cc", "251");

    static final String WHEN_INIT = "NCCL communicator init";

    private NcclSources() {
    }
}
