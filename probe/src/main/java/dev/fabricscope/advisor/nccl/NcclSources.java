package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.SourceRef;
/** Where the NCCL rules come from (backend-rules.md §4), and when NCCL applies them. */
final class NcclSources {

    static final SourceRef DOCS = new SourceRef("NVIDIA/nccl docs", null, "env.html", "NCCL_NVLS_ENABLE");
    static final SourceRef DOCS_ENV = new SourceRef("NVIDIA/nccl docs", null, "env.html", "environment variables");
    static final SourceRef DOCS_OLD = new SourceRef("NVIDIA/nccl docs", null, "env.html (2.17–2.20 archives)", "NCCL_NVLS_ENABLE");
    static final SourceRef TORCH = new SourceRef("pytorch/pytorch", null, "torch/distributed/_symmetric_memory",
            "TORCH_SYMM_MEM_DISABLE_MULTICAST (as read by vLLM symm_mem.py / SGLang torch_symm_mem.py)");
    /** A user's log, not NCCL's source: the text is NCCL's, the file that prints it was not read. */
    static final SourceRef USER_LOG = new SourceRef("NVIDIA/nccl", null, "user log quoted in backend-rules.md §4 (NCCL source not read)", null);
    /** A third-party report (H20), low confidence. */
    static final SourceRef RENDEZVOUS_REPORT = new SourceRef("pytorch/pytorch", null,
            "third-party report quoted in backend-rules.md §4 (symmetric-memory rendezvous on H20)", null);

    static final String REPO = "NVIDIA/nccl";
    /** NCCL 2.30.7 (tag v2.30.7-1 is 73cf1122; master 5067397c carries the same src/). */
    static final String C2307 = "5067397c2676d5aed50042fc39e5c8ee96eb0027";
    /** {@code NCCL_NVLS_ENABLE=1}: nvlsSupport = 1 without reading CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (only 2 reads it). */
    static final SourceRef NVLS_INIT = new SourceRef(REPO, C2307, "src/transport/nvls.cc", "270-277");
    /** The NVLS graph is dropped only without an NVSwitch or below SM90. */
    static final SourceRef NVLS_SEARCH = new SourceRef(REPO, C2307, "src/graph/search.cc", "1124");
    /** The multicast allocation that then fails, and NCCL's CUCHECKGOTO text. */
    static final SourceRef NVLS_ALLOC = new SourceRef(REPO, C2307, "src/transport/nvls.cc", "325");

    static final SourceRef MNNVL_CHECK = new SourceRef(REPO, C2307, "src/mnnvl.cc", "14-100");
    static final SourceRef MNNVL_GATE = new SourceRef(REPO, C2307, "src/init.cc", "1072");
    static final SourceRef P2P_LEVEL = new SourceRef(REPO, C2307, "src/graph/paths.cc", "251");

    static final String WHEN_INIT = "NCCL communicator init";

    private NcclSources() {
    }
}
