package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;

/** What SGLang (and argparse for it) prints, verbatim, with where each text was read (backend-rules.md §1). */
public enum SglangMessage implements UpstreamMessage {
    PCIE_IPC_NO_FLASHINFER("SGLANG_ENABLE_PCIE_IPC_ALLREDUCE is set but this FlashInfer build has no pcie_ipc_comm; falling back to NCCL "
            + "all-reduce.", SglangSources.PCIE_IPC_NO_FI),
    PCIE_IPC_WORLD("FlashInfer PCIe-IPC all-reduce skipped: unsupported world size %d", SglangSources.PCIE_IPC_WORLD),
    PCIE_IPC_BUILD_FAILED("FlashInfer PCIe-IPC workspace (max_numel=%s) failed: %s; reductions stay on NCCL", SglangSources.PCIE_IPC_BUILD),
    /** check_server_args: {@code (tp_size * pp_size) % nnodes == 0}. */
    NODES_DIVIDE("tp_size must be divisible by number of nodes", SglangSources.NODES_DIVIDE),
    DEPRECATED("--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead.",
            SglangSources.DEPRECATED),
    AUTO_ENABLE("Auto-enabling FlashInfer AllReduce Fusion on SM90/SM10X for %s",
            SglangSources.AUTO),
    ENFORCE("FlashInfer allreduce fusion is forcibly disabled via --enforce-disable-flashinfer-allreduce-fusion.",
            SglangSources.ENFORCE),
    DETERMINISTIC("Disable --flashinfer-allreduce-fusion-backend because deterministic inference is enabled.",
            SglangSources.DETERMINISTIC),
    /** _resolve_backend R1: the architecture check, first for every value. */
    R1("FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            SglangSources.R1),
    /** _resolve_backend R2: 'auto' across nodes off SM10x. */
    R2("FlashInfer allreduce fusion does not support multi-node on non-Blackwell systems.",
            SglangSources.R2),
    /** _resolve_backend R3: trtllm across nodes. */
    R3("FlashInfer allreduce fusion trtllm backend supports single-node only.",
            SglangSources.R3),
    /** _resolve_backend R4: mnnvl across nodes off SM10x. */
    R4("FlashInfer allreduce fusion mnnvl backend requires a Blackwell system, or SM90 single-node.",
            SglangSources.R4),
    PREFLIGHT_PROBE("FlashInfer workspace preflight probe failed (%s). Skipping allreduce fusion.",
            SglangSources.PREFLIGHT),
    /** The preflight probe's reason when the multicast-granularity query fails. */
    MULTICAST_GRANULARITY("cuMulticastGetGranularity failed for FlashInfer workspace preflight: %s",
            SglangSources.PREFLIGHT),
    PREFLIGHT_VOTE("FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank. Skipping allreduce fusion to avoid cross-rank desync inside the flashinfer collective.",
            SglangSources.PREFLIGHT),
    WORKSPACE_FAILED("Failed to initialize FlashInfer workspace (backend=%s): %s. Disabling flashinfer allreduce fusion permanently.",
            SglangSources.WORKSPACE_WARNING),
    WORKSPACE_FAILED_GLOBAL("FlashInfer allreduce fusion disabled globally because workspace initialization failed on at least one rank.",
            SglangSources.WORKSPACE_GLOBAL),
    TWOSHOT("Could not allocate a FlashInfer MNNVL workspace whose TWOSHOT stage offset is 32B-aligned after 3 attempts; disabling allreduce fusion. The trtllm backend sizes its workspace differently and is unaffected.",
            SglangSources.TWOSHOT),
    TRANSPORT("Applying FlashInfer transport workaround: forcing PosixFD symmetric-memory handle exchange on aarch64 + sm10x to avoid known data corruption with Fabric handle exchange on GB systems. Set SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 to disable.",
            SglangSources.TRANSPORT),
    /** argparse's words for a flag the parser does not have; the program name as sglang issue #37646 shows it. */
    UNRECOGNIZED("sglang serve: error: unrecognized arguments: %s",
            SglangSources.ARGPARSE),
    /** argparse's words for a value outside the seed server_args.py's choices. */
    INVALID_CHOICE("sglang serve: error: argument --flashinfer-allreduce-fusion-backend: invalid choice: '%s' (choose from 'auto', 'trtllm', 'mnnvl')",
            SglangSources.ARGPARSE),
    /** The same parser at exec_.py@01d795f8, where cutedsl is a choice (argparse's wording as for the seed). */
    INVALID_CHOICE_NEWEST("sglang serve: error: argument --flashinfer-allreduce-fusion-backend: invalid choice: '%s' (choose from 'auto', 'trtllm', 'mnnvl', 'cutedsl')",
            SglangSources.EXEC_COMM),
    /**
     * CustomAllReduceV2's warnings: V2 hands {@code cls_name="CustomAllReduceV2"} to the NVLink helper it shares with the
     * classic class (custom_all_reduce_v2.py@50e143a6 L41-49); the texts are the helper's f-strings
     * (custom_all_reduce_utils.py@0cd72ba4 can_use_custom_all_reduce_with_nvlink) with that name in front.
     */
    CAR_V2_SPANS_NODES("CustomAllReduceV2 is disabled because this process group spans across nodes.",
            SglangSources.carUtilsLine("423-425")),
    CAR_V2_WORLD_SIZE("CustomAllReduceV2 is disabled due to an unsupported world size: %d. Supported world sizes: %s. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            SglangSources.carUtilsLine("430-434")),
    CAR_V2_PCIE_ONLY("CustomAllReduceV2 is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            SglangSources.carUtilsLine("455-459")),
    CAR_V2_P2P("CustomAllReduceV2 is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            SglangSources.carUtilsLine("467-471")),
    CP_DSV32_ZIGZAG("DeepSeek V3.2 prefill CP does not support --cp-strategy zigzag; use interleave.",
            SglangSources.cpLine("38-46")),
    CP_MIMO_ZIGZAG("MiMo V2 prefill CP only supports --cp-strategy zigzag.",
            SglangSources.cpLine("47-54")),
    CP_STRATEGY_REQUIRED("--cp-strategy must be set when --enable-prefill-cp is enabled.",
            SglangSources.cpLine("65-68")),
    CP_TP_ATTN("tp_size must be divisible by attn_cp_size",
            SglangSources.cpLine("73-75")),
    CP_TP_DP_ATTN("tp_size must be divisible by dp_size * attn_cp_size",
            SglangSources.cpLine("76-78")),
    KIMI_K3_SYMM_MEM("Kimi-K3 DCP disables --enable-symm-mem due to decode CUDA graph correctness issues.",
            SglangSources.KIMI_K3_DCP),
    KIMI_K3_REPLICATE_Q("Kimi-K3 DCP enables replicated Q projection by default.",
            SglangSources.KIMI_K3_DCP),
    CUTEDSL_SUPPRESS("SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION owns both Qwen3.5 AllReduce fusion patterns; suppressing the separately configured --flashinfer-allreduce-fusion-backend=%s",
            SglangSources.AUTO),
    TP_DCP("tensor_model_parallel_size (%d) must be divisible by decode_context_parallel_size (%d)",
            SglangSources.PARALLEL_STATE),
    DCP_SELECTS("DCP (dcp_size=%d) selects communication backend '%s'.",
            SglangSources.DCP_DEFAULT),
    DCP1("Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size=%d.",
            SglangSources.DCP),
    DCP2("--dcp-comm-backend %s only affects the decode context-parallel attention reduction and therefore requires --dcp-size / --decode-context-parallel-size > 1, but got dcp_size=%d.",
            SglangSources.DCP),
    DCP3("--dcp-comm-backend fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel, which requires an NVIDIA CUDA platform with SM90+ and MNNVL fabric memory (e.g. GB200 NVL72). The authoritative fabric probe runs at model-runner init; use 'a2a' or 'ag_rs' on clusters without MNNVL.",
            SglangSources.DCP),
    DCP4A("--dcp-replicate-q-proj requires --dcp-size > 1.",
            SglangSources.DCP),
    DCP4B("--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend=%s.",
            SglangSources.DCP),
    FI_A2A_IMPORT("--dcp-comm-backend fi_a2a requires FlashInfer with the DCP all-to-all kernel (flashinfer #2951); could not import flashinfer.comm.dcp_alltoall.",
            SglangSources.FI_A2A),
    FI_A2A_UNSUPPORTED("--dcp-comm-backend fi_a2a needs a Blackwell system whose DCP group shares one MNNVL domain: either MNNVL fabric memory (GB200/GB300) or a DCP group inside one node (got dcp_size=%d, tp_size=%d, pp_size=%d, nnodes=%d). Use --dcp-comm-backend a2a or ag_rs otherwise.",
            SglangSources.FI_A2A_SUPPORTED),
    FI_A2A_FABRIC("--dcp-comm-backend fi_a2a requires MNNVL fabric memory (e.g. GB200 NVL72); is_mnnvl_fabric_supported() returned False. Use --dcp-comm-backend a2a or ag_rs on clusters without MNNVL.",
            SglangSources.FI_A2A),
    TSM_UNAVAILABLE("TorchSymmMemCommunicator requires torch symmetric memory support, but it is not available.",
            SglangSources.TSM),
    TSM_CAPABILITY("TorchSymmMemCommunicator: Device capability %d not supported, communicator is not available.",
            SglangSources.TSM),
    TSM_WORLD("TorchSymmMemCommunicator: World size %d not supported, communicator is not available.",
            SglangSources.TSM),
    TSM_MULTICAST("TorchSymmMemCommunicator: torch symmetric memory multicast operations are not supported.",
            SglangSources.TSM),
    /** server_args.py@001067ff L7647-7649 (AssertionError). */
    A2A_FLASHINFER_DP("Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention",
            SglangSources.A2A_FLASHINFER_DP),
    /** server_args.py@001067ff L7701-7704 (AssertionError). */
    A2A_PPLX_DP("moe_a2a_backend='pplx' requires --enable-dp-attention with at least 2 DP groups (--dp-size >= 2).",
            SglangSources.A2A_PPLX_DP),
    /** server_args.py@001067ff L9170: deterministic inference at TP > 1 on CUDA. */
    DETERMINISTIC_NCCL("NCCL_ALGO is set to 'allreduce:tree', the NCCL channel count is pinned, and custom and symmetric-memory all reduce are disabled for deterministic inference when TP size > 1.",
            SglangSources.DETERMINISTIC_TP_WARNING);

    private final String text;
    private final SourceRef source;

    SglangMessage(String text, SourceRef source) {
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
