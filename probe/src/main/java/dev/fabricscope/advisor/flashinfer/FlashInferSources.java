package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.SourceRef;

/** Where the FlashInfer rules come from (backend-rules.md §3), and when FlashInfer applies them. */
final class FlashInferSources {

    static final String REPO = "flashinfer-ai/flashinfer";
    /** {@code create_allreduce_fusion_workspace}. */
    static final SourceRef FACTORY = new SourceRef(REPO, "0006e88adb1a928a97b3ad99cb7f47c0db6ae057",
            "flashinfer/comm/allreduce.py", "358-539");
    /** The commit the audit read (backend-rules.md §0), 2026-08-22: the newest of the mirror. */
    static final String AUDIT_COMMIT = "fb28d7242b3506a2348265962041acc1fb56cca4";
    static final SourceRef MNNVL = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/mnnvl.py", "786-789");
    static final SourceRef FD_EXCHANGE = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/fd_exchange.py", "108-110");
    static final SourceRef CONFIDENTIAL = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/allreduce.py",
            "506-511");
    /** {@code is_mnnvl_fabric_supported}. */
    static final SourceRef FABRIC = new SourceRef(REPO, "0006e88adb1a928a97b3ad99cb7f47c0db6ae057",
            "flashinfer/comm/mnnvl.py", "586-607");
    /** Before is_mnnvl_fabric_supported (519671d9): the fabric-handle attribute alone, checked inline for multi-node. */
    static final SourceRef FABRIC_LIGHT = new SourceRef(REPO, "07d8568688e7da432ee13e27b9964684c037bdab", "flashinfer/comm/mnnvl.py",
            "844-858");
    /** {@code trtllm_allreduce_fusion}, whose kernels exist for 2, 4, 8 and 16 ranks. */
    static final SourceRef TRTLLM = new SourceRef(REPO, "01021e502b3a904d9d4c07c157fcd928417aae30",
            "flashinfer/comm/trtllm_ar.py", "802-924");
    static final SourceRef TRTLLM_SYMM = new SourceRef(REPO, FlashInferWorldSizes.FB28, "flashinfer/comm/trtllm_ar.py",
            "688-696");
    /** v0.6.9 (a1aa6761): SymmDeviceMemory.__init__ raises without multicast whatever enable_multicast says. */
    static final SourceRef TRTLLM_MULTICAST = new SourceRef(REPO, "a1aa676196f798435248d9ea205c67674476f473", "flashinfer/comm/mnnvl.py",
            "930-940");
    /** v0.6.12 (d768c14e): the TRT-LLM workspace's buffers from PyTorch symmetric memory. */
    static final SourceRef TRTLLM_TORCH_SYMM = new SourceRef(REPO, "d768c14e7cf5dd5df45a8a1de78ae815879f108a", "flashinfer/comm/trtllm_ar.py",
            "643-668");
    /** flashinfer/comm/__init__.py exports PcieIpcAllReduceWorkspace (l.42) at fb28d724, since 299e6d11 (2026-08-20). */
    static final SourceRef PCIE_IPC_EXPORT = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/__init__.py", "42");
    /** v0.6.9 (a1aa6761): _mnnvl_workspace_check returns True, so 'auto' always finds mnnvl suitable. */
    static final SourceRef AUTO_OLD = new SourceRef(REPO, "a1aa676196f798435248d9ea205c67674476f473", "flashinfer/comm/allreduce.py", "208-221");
    static final SourceRef CUDA_IPC = new SourceRef(REPO, FlashInferWorldSizes.FB28, "flashinfer/comm/cuda_ipc.py", "214-244");
    /** {@code gen_trtllm_mnnvl_comm_module}: {@code supported_major_versions=[9, 10]}. */
    static final SourceRef JIT = new SourceRef(REPO, "033c1d9e97e43fb14d4ee0efc8b56c204e9e3f8c", "flashinfer/jit/comm.py",
            "43-60");

    static final String WHEN_CREATE = "create_allreduce_fusion_workspace call (framework start-up)";
    static final String WHEN_LAUNCH = "first allreduce_fusion kernel launch (CUDA-graph capture or first batch)";
    static final String WHEN_PCIE_IPC = "PcieIpcAllReduceWorkspace construction (framework start-up)";

    private FlashInferSources() {
    }
}
