package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.SourceRef;
import java.util.List;
import java.util.stream.Stream;

/** SGLang's knobs the advisor knows, in every modelled version (backend-rules.md §1). */
final class SglangKnobs {

    static final String FW = "sglang";

    static final KnobSpec FUSION_BACKEND = KnobSpec.flag(FW, "flashinfer-allreduce-fusion-backend", KnobSpec.Type.CHOICE, "unset",
            "FlashInfer all-reduce + RMSNorm fusion backend (cutedsl: newest only; cute-dsl, FlashInfer's kernel spelling, is refused)",
            "auto", "trtllm", "mnnvl", "cutedsl", "cute-dsl");
    static final KnobSpec FUSION_DEPRECATED = KnobSpec.flag(FW, "enable-flashinfer-allreduce-fusion", KnobSpec.Type.BOOL, "false",
            "deprecated: same as --flashinfer-allreduce-fusion-backend=auto");
    static final KnobSpec ENFORCE_DISABLE = KnobSpec.flag(FW, "enforce-disable-flashinfer-allreduce-fusion", KnobSpec.Type.BOOL, "false",
            "force FlashInfer all-reduce fusion off");
    static final KnobSpec DETERMINISTIC = KnobSpec.flag(FW, "enable-deterministic-inference", KnobSpec.Type.BOOL, "false",
            "deterministic inference (turns fusion off)");
    static final KnobSpec DP_ATTENTION = KnobSpec.flag(FW, "enable-dp-attention", KnobSpec.Type.BOOL, "false",
            "data-parallel attention (fusion is neither auto-enabled nor used with it)");
    /**
     * --moe-a2a-backend's argparse choices, as ExecMoe.moe_a2a_backend declares them (exec_.py@01d795f8 L754,
     * {@link SglangSources#A2A_CHOICES}); the stored older lists (server_args.py MOE_A2A_BACKEND_CHOICES) are subsets.
     */
    static final List<String> MOE_A2A_CHOICES = List.of("none", "deepep", "mooncake", "nixl", "mori", "ascend_fuseep", "flashinfer",
            "megamoe", "deepep_v2", "pplx", "ascend_tp", "flashinfer_megamoe");
    static final KnobSpec MOE_A2A = new KnobSpec(FW, "moe-a2a-backend", KnobSpec.Kind.FLAG, KnobSpec.Type.CHOICE, MOE_A2A_CHOICES, "none",
            "MoE all-to-all backend (fusion is auto-enabled only with none); another value is argparse's invalid choice", null);
    static final KnobSpec CUTEDSL_ENV = KnobSpec.env(FW, "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", KnobSpec.Type.BOOL, "unset",
            "CuTe-DSL MNNVL all-reduce fusion for Qwen3.5-MoE");
    static final KnobSpec PURE_ALLREDUCE = KnobSpec.flag(FW, "enable-flashinfer-pure-allreduce", KnobSpec.Type.BOOL, "false",
            "never an upstream flag (PR #30700's spelling): argparse rejects it").scope(KnobSpec.Scope.ABSENT);
    static final KnobSpec ALLREDUCE_ONLY = KnobSpec.flag(FW, "enable-flashinfer-allreduce-only", KnobSpec.Type.BOOL, "false",
            "never an upstream flag: the allreduce-only path switches on with the fusion backend").scope(KnobSpec.Scope.ABSENT);
    static final KnobSpec DCP_SIZE = new KnobSpec(FW, "dcp-size", KnobSpec.Kind.DEPLOYMENT, KnobSpec.Type.INT, List.of(), "1",
            "decode context parallel size (from --dcp)", null);
    static final KnobSpec DCP_BACKEND = KnobSpec.flag(FW, "dcp-comm-backend", KnobSpec.Type.CHOICE, "ag_rs",
            "DCP attention reduction: ag_rs, a2a or fi_a2a", "ag_rs", "a2a", "fi_a2a");
    static final KnobSpec DCP_REPLICATE_Q = KnobSpec.flag(FW, "dcp-replicate-q-proj", KnobSpec.Type.BOOL, "unset",
            "replicate the Q projection for a2a/fi_a2a DCP");
    static final KnobSpec DISABLE_CUSTOM_AR = KnobSpec.flag(FW, "disable-custom-all-reduce", KnobSpec.Type.BOOL, "false",
            "turn the custom all-reduce kernel off");
    static final KnobSpec P2P_CHECK = KnobSpec.flag(FW, "enable-p2p-check", KnobSpec.Type.BOOL, "false",
            "run the real GPU P2P test for custom all-reduce");
    static final KnobSpec SKIP_P2P_ENV = KnobSpec.env(FW, "SGLANG_SKIP_P2P_CHECK", KnobSpec.Type.PY_EQ_ONE, "unset",
            "1: trust torch.cuda.can_device_access_peer instead of the P2P test (read as == \"1\")");
    static final KnobSpec TORCH_SYMM_MEM = KnobSpec.flag(FW, "enable-torch-symm-mem", KnobSpec.Type.BOOL, "false",
            "torch symmetric-memory all-reduce");
    static final KnobSpec NCCL_NVLS = KnobSpec.flag(FW, "enable-nccl-nvls", KnobSpec.Type.BOOL, "false",
            "export NCCL_NVLS_ENABLE=1");
    static final KnobSpec SYMM_MEM = KnobSpec.flag(FW, "enable-symm-mem", KnobSpec.Type.BOOL, "false",
            "NCCL symmetric memory (exports NCCL_NVLS_ENABLE=1 and NCCL_CUMEM_ENABLE=1)");
    static final KnobSpec NVLS_ENV = KnobSpec.env(FW, "NCCL_NVLS_ENABLE", KnobSpec.Type.CHOICE, "unset",
            "as exported before SGLang starts", "0", "1", "2");
    static final KnobSpec CUMEM_ENV = KnobSpec.env(FW, "NCCL_CUMEM_ENABLE", KnobSpec.Type.CHOICE, "unset",
            "as exported before SGLang starts", "0", "1");
    static final KnobSpec CAR_V2_ENV = KnobSpec.env(FW, "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", KnobSpec.Type.BOOL, "true",
            "CustomAllReduceV2 instead of the classic kernel (default on; world sizes 2-8, full NVLink)").only("newest");
    // prefill context parallel: modelled at the newest argument surface (parallel_hook.py@008b79d2)
    static final KnobSpec ENABLE_PREFILL_CP = KnobSpec.flag(FW, "enable-prefill-cp", KnobSpec.Type.BOOL, "false",
            "prefill context parallel (needs --cp-strategy)");
    static final KnobSpec CP_STRATEGY = KnobSpec.flag(FW, "cp-strategy", KnobSpec.Type.CHOICE, "unset",
            "prefill CP sharding: zigzag or interleave", "zigzag", "interleave");
    /** handle_context_parallelism's MoE data-parallel checks (parallel_hook.py@008b79d2:84-106). */
    static final KnobSpec MOE_DP_SIZE = KnobSpec.flag(FW, "moe-dp-size", KnobSpec.Type.INT, "1",
            "MoE data-parallel size (--moe-data-parallel-size): divides TP, with --ep-size and --attn-cp-size rules");
    static final KnobSpec ATTN_CP_SIZE = KnobSpec.flag(FW, "attn-cp-size", KnobSpec.Type.INT, "1",
            "attention context-parallel size (must divide TP)");
    static final KnobSpec DP_SIZE = KnobSpec.flag(FW, "dp-size", KnobSpec.Type.INT, "1", "data-parallel size").scope(KnobSpec.Scope.KNOWN);
    // known upstream, effect on the all-reduce backends not modelled (set: an "unknown" verdict naming where it was read)
    private static final java.util.Map<KnobSpec, SourceRef> KNOWN_SOURCES = new java.util.LinkedHashMap<>();
    static final List<KnobSpec> KNOWN = List.of(
            known(KnobSpec.flag(FW, "enable-mscclpp", KnobSpec.Type.BOOL, "false", "MSCCL++ for tuned all-reduce / all-gather, NCCL fallback"),
                    SglangSources.EXEC_COMM),
            known(KnobSpec.flag(FW, "enable-quant-communications", KnobSpec.Type.BOOL, "false", "INT8 quantisation of TP communications"),
                    SglangSources.EXEC_COMM),
            known(KnobSpec.flag(FW, "pre-warm-nccl", KnobSpec.Type.BOOL, "false", "pre-warm NCCL communicators at start-up"), SglangSources.EXEC_COMM),
            known(KnobSpec.flag(FW, "enable-scattered-sconv", KnobSpec.Type.BOOL, "false",
                    "Inkling: reduce-scatter + all-gather around the output short convolution instead of the all-reduce"), SglangSources.EXEC_COMM),
            known(KnobSpec.flag(FW, "boundary-reduction", KnobSpec.Type.CHOICE, "auto",
                    "FFN boundary reduction: all-reduce or (variable-size) reduce-scatter", "auto", "ar", "rs", "rsv", "rs+rsv"),
                    SglangSources.BOUNDARY_REDUCTION),
            known(DP_SIZE, SglangSources.PARALLEL_FIELDS),
            known(KnobSpec.flag(FW, "ep-size", KnobSpec.Type.INT, "1", "expert-parallel size"), SglangSources.PARALLEL_FIELDS),
            known(KnobSpec.flag(FW, "dwdp-size", KnobSpec.Type.INT, "1", "distributed weight data parallelism (must equal TP)"),
                    SglangSources.PARALLEL_FIELDS),
            known(KnobSpec.flag(FW, "enable-cp-decode-attn-tp", KnobSpec.Type.BOOL, "false",
                    "attention TP weight slicing during decode under context parallel"), SglangSources.PARALLEL_FIELDS),
            known(KnobSpec.flag(FW, "enable-layernorm-sp", KnobSpec.Type.BOOL, "false",
                    "sequence parallel LayerNorm: reduce-scatter + all-gather instead of the row-parallel all-reduce"), SglangSources.PARALLEL_FIELDS),
            known(KnobSpec.env(FW, "SGLANG_USE_JIT_ALL_REDUCE", KnobSpec.Type.BOOL, "unset", "JIT-built custom all-reduce (older copies' switch for V2)"),
                    SglangSources.ENVIRON_CAR_V2),
            known(KnobSpec.env(FW, "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE", KnobSpec.Type.BOOL, "unset",
                    "CustomAllReduceV2 across nodes (auto-enabled on MNNVL-fabric trays in some copies)"), SglangSources.ENVIRON_CAR_V2),
            known(KnobSpec.env(FW, "SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB", KnobSpec.Type.INT, "16384",
                    "CustomAllReduceV2 per-direction workspace cap in KiB"), SglangSources.ENVIRON_CAR_V2),
            known(KnobSpec.env(FW, "SGLANG_FORCE_CUSTOM_ALL_REDUCE_V2_PULL_SIZE_KB", KnobSpec.Type.INT, "unset",
                    "CustomAllReduceV2 pull workspace size in KiB"), SglangSources.ENVIRON_CAR_V2),
            known(KnobSpec.env(FW, "SGLANG_FORCE_CUSTOM_ALL_REDUCE_V2_PUSH_SIZE_KB", KnobSpec.Type.INT, "unset",
                    "CustomAllReduceV2 push workspace size in KiB"), SglangSources.ENVIRON_CAR_V2),
            known(KnobSpec.env(FW, "SGLANG_TORCH_SYMM_MEM_ALLREDUCE_MAX_BYTES", KnobSpec.Type.INT, "unset",
                    "bytes > 0 replacing TorchSymmMemCommunicator's size-table entry; read in a stored copy of all_reduce_utils.py "
                            + "without a commit, not in the pinned copies"), SglangSources.TSM_MAX_SIZES));

    private static KnobSpec known(KnobSpec k, SourceRef source) {
        KnobSpec spec = k.scope(KnobSpec.Scope.KNOWN);
        KNOWN_SOURCES.put(spec, source);
        return spec;
    }

    /** Where a {@link KnobSpec.Scope#KNOWN} knob was read. */
    static SourceRef knownSource(KnobSpec k) {
        return KNOWN_SOURCES.get(k);
    }
    static final List<KnobSpec> ROCM_ONLY = List.of(
            KnobSpec.flag(FW, "enable-aiter-allreduce-fusion", KnobSpec.Type.BOOL, "false", "ROCm: AITER all-reduce fusion"),
            KnobSpec.env(FW, "SGLANG_USE_AITER_AR", KnobSpec.Type.BOOL, "unset", "ROCm: AITER custom all-reduce"),
            KnobSpec.env(FW, "SGLANG_USE_1STAGE_ALLREDUCE", KnobSpec.Type.BOOL, "unset", "ROCm: one-stage all-reduce"))
            .stream().map(k -> k.scope(KnobSpec.Scope.ROCM_ONLY)).toList();
    static final KnobSpec PCIE_IPC_ENV = KnobSpec.env(FW, "SGLANG_ENABLE_PCIE_IPC_ALLREDUCE", KnobSpec.Type.BOOL, "unset",
            "FlashInfer's PCIe IPC all-reduce (PcieIpcCommunicator) for TP 2/4/8");
    static final KnobSpec POSIX_FD_ENV = KnobSpec.env(FW, "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT", KnobSpec.Type.BOOL, "unset",
            "force POSIX-FD handle exchange for FlashInfer (GB200 transport workaround)").only("older");


    static final List<KnobSpec> ALL = Stream.of(List.of(FUSION_BACKEND, FUSION_DEPRECATED, ENFORCE_DISABLE,
                    DETERMINISTIC, DP_ATTENTION, MOE_A2A, CUTEDSL_ENV, PURE_ALLREDUCE, ALLREDUCE_ONLY, DCP_SIZE, DCP_BACKEND, DCP_REPLICATE_Q,
                    DISABLE_CUSTOM_AR, CAR_V2_ENV, ENABLE_PREFILL_CP, CP_STRATEGY, ATTN_CP_SIZE, MOE_DP_SIZE, P2P_CHECK, SKIP_P2P_ENV, TORCH_SYMM_MEM, PCIE_IPC_ENV, NCCL_NVLS, SYMM_MEM, NVLS_ENV, CUMEM_ENV, POSIX_FD_ENV),
            KNOWN, ROCM_ONLY).flatMap(List::stream).toList();

    private SglangKnobs() {
    }
}
