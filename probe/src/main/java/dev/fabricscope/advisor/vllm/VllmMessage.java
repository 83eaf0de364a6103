package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;

/** What vLLM prints or raises, verbatim, with where each text was read (backend-rules.md §2). */
public enum VllmMessage implements UpstreamMessage {
    USING_BACKEND("Using flashinfer allreduce backend: %s",
            VllmSources.BACKEND_OLD),
    AUTO_SELECTED("Auto-selected flashinfer allreduce backend: %s",
            VllmSources.BACKEND_OLD),
    TRTLLM_MULTI("Flashinfer allreduce is not supported for multi-node allreduce with 'trtllm' backend. Please use 'mnnvl' backend instead.",
            VllmSources.TRTLLM_MULTI),
    MNNVL_FALLBACK("FlashInfer mnnvl allreduce workspace unavailable (likely no NVSwitch multicast support); falling back to trtllm backend for single node.",
            VllmSources.BACKEND_NEW),
    WS_INIT_OK("Initialized FlashInfer Allreduce norm fusion workspace with backend=%s",
            VllmSources.BACKEND_NEW),
    WS_INIT_FAILED("Failed to initialize FlashInfer Allreduce norm fusion workspace with backend=%s",
            VllmSources.BACKEND_NEW),
    CREATE_FAILED_MULTICAST("Failed to initialize FlashInfer All Reduce workspace: %s. This is expected on GPUs without NVSwitch (e.g., NVLink bridge-only or PCIe topologies).",
            VllmSources.CREATE_WORKSPACE),
    CREATE_FAILED("Failed to initialize FlashInfer All Reduce workspace: %s.",
            VllmSources.CREATE_WORKSPACE),
    PASS_TP1("AllReduce fusion pass is disabled for tp_size <= 1.",
            VllmSources.PASS),
    PASS_NO_FLASHINFER("Flashinfer is not installed or comm module not found, skipping allreduce fusion pass",
            VllmSources.PASS),
    PASS_WORLD("Flashinfer allreduce fusion is not supported for world size %s or max size is not provided",
            VllmSources.PASS),
    PASS_NO_WORKSPACE("Failed to initialize Flashinfer allreduce workspace. Flashinfer allreduce-norm fusion will be disabled.",
            VllmSources.PASS),
    PCIE_IPC_NO_FLASHINFER("FlashInfer PCIe IPC all-reduce was requested but this FlashInfer build does not provide PcieIpcAllReduceWorkspace; "
            + "falling back to another all-reduce backend.", VllmSources.PCIE_IPC_NO_FI),
    PCIE_IPC_CUDA("FlashInfer PCIe IPC all-reduce requires the CUDA platform.", VllmSources.PCIE_IPC_CUDA),
    PCIE_IPC_DBO("FlashInfer PCIe IPC all-reduce does not yet support DBO or multi-ubatch execution; falling back to another backend.",
            VllmSources.PCIE_IPC_DBO),
    PCIE_IPC_WORLD("FlashInfer PCIe IPC all-reduce does not support world_size=%d; supported sizes are %s.", VllmSources.PCIE_IPC_WORLD),
    PCIE_IPC_NODE("FlashInfer PCIe IPC all-reduce requires every rank in the TP group to be on one node.", VllmSources.PCIE_IPC_NODE),
    FIAR_UNAVAILABLE("FlashInfer All Reduce is disabled because flashinfer is not available",
            VllmSources.FIAR),
    FIAR_CUDA("FlashInfer All Reduce is disabled because it requires CUDA platform",
            VllmSources.FIAR),
    FIAR_WORLD("FlashInfer All Reduce is disabled because it is not supported for world_size=%d.",
            VllmSources.FIAR),
    CAR_PLATFORM("Disabled the custom all-reduce kernel because it is not supported on current platform.",
            VllmSources.VERIFY),
    SYMM_UNAVAILABLE("SymmMemCommunicator: symmetric memory is not available.",
            VllmSources.SYMM),
    SYMM_CAPABILITY("SymmMemCommunicator: Device capability %s not supported, communicator is not available.",
            VllmSources.SYMM),
    SYMM_WORLD("SymmMemCommunicator: World size %d not supported, communicator is not available.",
            VllmSources.SYMM),
    SYMM_MULTICAST("SymmMemCommunicator: symmetric memory multicast operations are not supported.",
            VllmSources.SYMM),
    DCP_DIVISIBLE("tp_size=%d must be divisible by dcp_size=%d.",
            VllmSources.PARALLEL),
    /** Older copies: an assert in create_engine_config with the "bydcp_size" string-concatenation bug, verbatim. */
    DCP_DIVISIBLE_OLD("tp_size=%d must be divisible bydcp_size=%d.",
            VllmSources.DCP_ASSERT_OLD),
    PCP_DCP("When PCP is enabled, DCP must be disabled, span the PCP axis, or span the full TP x PCP axis. Got TP=%d, PCP=%d, DCP=%d; valid DCP sizes are %s.",
            VllmSources.PARALLEL),
    DCP_A2A("dcp_comm_backend='a2a' requires decode_context_parallel_size > 1.",
            VllmSources.PARALLEL),
    PCP_DP("PCP does not support data parallelism yet.",
            VllmSources.PARALLEL),
    /** MultiprocExecutor._get_parallel_sizes: the world size over the nodes of one DP replica. */
    NODES_DIVIDE("global world_size (%d) must be divisible by nnodes_within_dp (%d). ", VllmSources.NODES_DIVIDE),
    WORLD_GPUS("World size (%d) is larger than the number of available GPUs (%d) in this node. If this is intentional and you are using:\n"
            + "- ray, set '--distributed-executor-backend ray'.\n- multiprocessing, set '--nnodes' appropriately.",
            VllmSources.WORLD_SIZE),
    /** The list names every V1-unsupported feature of the config; with PCP alone it is this. */
    PCP_V1("Model Runner V1 does not support: prefill context parallel",
            VllmSources.RUNNER),
    DCP_KV_HEADS_TP("tensor parallel size %d must be greater than total num kv heads %d when enable decode context parallel for GQA/MQA",
            VllmSources.MODEL_DCP),
    DCP_KV_HEADS_MAX("decode context parallel size must less than or equal to (tensor parallel size %d // total num kv heads %d) = %d, but got %d",
            VllmSources.MODEL_DCP),
    DCP_Q_PER_KV("Total number of q per kv attn heads (%d) must be divisible by dcp world size when enable decode context parallel for GQA (%d).",
            VllmSources.MODEL_DCP);

    private final String text;
    private final SourceRef source;

    VllmMessage(String text, SourceRef source) {
        this.text = text;
        this.source = source;
    }

    @Override
    public String text() {
        return text;
    }

    @Override
    public SourceRef source() {
        return source;
    }
}
