package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.KnobSpec;
import java.util.List;
import java.util.stream.Stream;

/** vLLM's knobs the advisor knows, in every modelled version (backend-rules.md §2). */
final class VllmKnobs {

    static final String FW = "vllm";

    static final KnobSpec BACKEND = KnobSpec.env(FW, "VLLM_FLASHINFER_ALLREDUCE_BACKEND", KnobSpec.Type.CHOICE, "auto",
            "FlashInfer workspace backend of the all-reduce fusion pass", "auto", "trtllm", "mnnvl");
    static final KnobSpec FUSE = new KnobSpec(FW, "fuse_allreduce_rms", KnobSpec.Kind.CONFIG, KnobSpec.Type.BOOL, List.of(), "default",
            "pass_config: all-reduce + RMSNorm fusion pass (-cc.pass_config.fuse_allreduce_rms)", null);
    static final KnobSpec MAX_SIZE = new KnobSpec(FW, "fi_allreduce_fusion_max_size_mb", KnobSpec.Kind.CONFIG, KnobSpec.Type.NUMBER, List.of(),
            "size table", "pass_config: fused all-reduce size limit in MB, overriding the table", null);
    static final KnobSpec OPT_LEVEL = KnobSpec.flag(FW, "optimization-level", KnobSpec.Type.CHOICE, "2",
            "-O level (O0/O1: fusion pass off; O2 default, O3: on where supported)", "0", "1", "2", "3", "O0", "O1", "O2", "O3");
    static final KnobSpec USE_FLASHINFER = KnobSpec.env(FW, "VLLM_ALLREDUCE_USE_FLASHINFER", KnobSpec.Type.PY_INT_BOOL, "0",
            "standalone FlashInfer all-reduce for non-fused sites");
    static final KnobSpec USE_FLASHINFER_PCIE_IPC = KnobSpec.env(FW, "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", KnobSpec.Type.BOOL, "0",
            "FlashInfer's PCIe IPC all-reduce for single-node TP 2/4/8 (opt-in)");
    static final KnobSpec USE_SYMM_MEM = KnobSpec.env(FW, "VLLM_ALLREDUCE_USE_SYMM_MEM", KnobSpec.Type.PY_INT_BOOL, "1",
            "torch symmetric-memory all-reduce");
    static final KnobSpec DISABLE_CUSTOM_AR = KnobSpec.flag(FW, "disable-custom-all-reduce", KnobSpec.Type.BOOL, "false",
            "turn the custom all-reduce kernel off");
    static final KnobSpec SKIP_P2P = KnobSpec.env(FW, "VLLM_SKIP_P2P_CHECK", KnobSpec.Type.PY_EQ_ONE, "1",
            "1 (default): trust the driver's P2P report; anything else: the CUDA IPC test");
    static final KnobSpec BATCH_INVARIANT = KnobSpec.env(FW, "VLLM_BATCH_INVARIANT", KnobSpec.Type.PY_INT_BOOL, "0",
            "batch-invariant kernels (turns custom all-reduce, symmetric memory and the default fusion off)");
    static final KnobSpec DCP_SIZE = new KnobSpec(FW, "decode-context-parallel-size", KnobSpec.Kind.DEPLOYMENT, KnobSpec.Type.INT, List.of(), "1",
            "decode context parallel size (from --dcp)", null);
    static final KnobSpec PCP_SIZE = KnobSpec.flag(FW, "prefill-context-parallel-size", KnobSpec.Type.INT, "1",
            "prefill context parallel size");
    static final KnobSpec DCP_BACKEND = KnobSpec.flag(FW, "dcp-comm-backend", KnobSpec.Type.CHOICE, "ag_rs",
            "DCP attention reduction: ag_rs or a2a", "ag_rs", "a2a");

    static final KnobSpec COMPILATION_CONFIG = KnobSpec.flag(FW, "compilation-config", KnobSpec.Type.STRING, "{}",
            "-cc / --compilation-config JSON; its pass_config.fuse_allreduce_rms (or enable_fi_allreduce_fusion) and fi_allreduce_fusion_max_size_mb are read");
    static final KnobSpec PP_SIZE = KnobSpec.flag(FW, "pipeline-parallel-size", KnobSpec.Type.INT, "1",
            "pipeline-parallel size (-pp); counted in the world-size check");
    // what sets the compilation mode to NONE, so that no Inductor pass (the fusion pass among them) runs
    static final KnobSpec ENFORCE_EAGER = KnobSpec.flag(FW, "enforce-eager", KnobSpec.Type.BOOL, "false",
            "eager mode: no torch.compile, no CUDA graphs (compilation mode NONE)");
    static final KnobSpec TORCH_COMPILE_DISABLE = KnobSpec.env(FW, "TORCH_COMPILE_DISABLE", KnobSpec.Type.STRING, "unset",
            "PyTorch's switch; vLLM reads \"1\" as compilation mode NONE");
    static final KnobSpec BREAKABLE_CUDAGRAPH = KnobSpec.env(FW, "VLLM_USE_BREAKABLE_CUDAGRAPH", KnobSpec.Type.BOOL, "unset",
            "breakable CUDA graphs instead of vLLM's torch.compile pipeline (compilation mode NONE)");
    static final KnobSpec COMPILE_MODE = KnobSpec.flag(FW, "mode", KnobSpec.Type.CHOICE, "unset",
            "compilation_config.mode (-cc.mode, or --compilation-config's mode): 0 NONE, 1 STOCK_TORCH_COMPILE, 2 DYNAMO_TRACE_ONCE, "
                    + "3 VLLM_COMPILE (the only one that runs vLLM's passes)",
            "0", "1", "2", "3", "NONE", "STOCK_TORCH_COMPILE", "DYNAMO_TRACE_ONCE", "VLLM_COMPILE", "none", "stock_torch_compile",
            "dynamo_trace_once", "vllm_compile");
    /** compilation_config.cudagraph_mode: NONE leaves no CUDA-graph capture sizes (vllm.py@156b1266:1679-1682, 1794-1797). */
    static final KnobSpec CUDAGRAPH_MODE = KnobSpec.flag(FW, "cudagraph_mode", KnobSpec.Type.CHOICE, "unset",
            "compilation_config.cudagraph_mode (--compilation-config's); NONE: no CUDA graphs, so no capture sizes",
            "NONE", "PIECEWISE", "FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE", "none", "piecewise", "full", "full_decode_only",
            "full_and_piecewise");
    static final KnobSpec V2_RUNNER = KnobSpec.env(FW, "VLLM_USE_V2_MODEL_RUNNER", KnobSpec.Type.PY_INT_BOOL, "unset",
            "Model Runner V2 (1) or V1 (0); unset: vLLM picks (PCP runs on V2 only)");
    /** Dual batch overlap (parallel.py@156b1266:523-524: use_ubatching); read by the PCIe IPC rule only, otherwise not modelled. */
    static final KnobSpec ENABLE_DBO = KnobSpec.flag(FW, "enable-dbo", KnobSpec.Type.BOOL, "false",
            "dual batch overlap (micro-batching); the FlashInfer PCIe IPC all-reduce turns itself off with it");
    static final KnobSpec DP_SIZE = KnobSpec.flag(FW, "data-parallel-size", KnobSpec.Type.INT, "1", "data-parallel size (-dp)")
            .scope(KnobSpec.Scope.KNOWN);
    static final List<KnobSpec> KNOWN = List.of(
            DP_SIZE,
            KnobSpec.flag(FW, "dcp-kv-cache-interleave-size", KnobSpec.Type.INT, "1", "DCP KV-cache interleave size"),
            ENABLE_DBO,
            KnobSpec.flag(FW, "cp-kv-cache-interleave-size", KnobSpec.Type.INT, "1", "context-parallel KV-cache interleave size"),
            KnobSpec.env(FW, "VLLM_USE_NCCL_SYMM_MEM", KnobSpec.Type.PY_INT_BOOL, "0", "NCCL symmetric-memory all-reduce"),
            KnobSpec.env(FW, "VLLM_DCP_Q_REPLICATE", KnobSpec.Type.BOOL, "0",
                    "MLA DCP query replication: the query projection replicated per DCP group, no decode query all-gather"),
            KnobSpec.flag(FW, "dcp-q-replicate", KnobSpec.Type.BOOL, "unset",
                    "ParallelConfig.dcp_q_replicate of newer copies (the pinned mla_dcp_qrep.py reads VLLM_DCP_Q_REPLICATE only)"))
            .stream().map(k -> k.scope(KnobSpec.Scope.KNOWN)).toList();

    /** Where the DCP query-replication switch was read: dcp_q_replicate_enabled() returns envs.VLLM_DCP_Q_REPLICATE. */
    static final dev.fabricscope.advisor.api.SourceRef DCP_Q_REPLICATE = new dev.fabricscope.advisor.api.SourceRef(VllmSources.REPO,
            "5fab4e3999b7cdac148a6b4f5056164fef8daa0e", "vllm/model_executor/layers/attention/mla_dcp_qrep.py", "10-11");

    /** Where a {@link KnobSpec.Scope#KNOWN} knob was read, when not the engine arguments. */
    static dev.fabricscope.advisor.api.SourceRef knownSource(KnobSpec k) {
        if (k.name().equals("VLLM_USE_NCCL_SYMM_MEM")) {
            return VllmSources.NCCL_SYMM_MEM_ENV;
        }
        return k.name().equals("VLLM_DCP_Q_REPLICATE") || k.name().equals("dcp-q-replicate") ? DCP_Q_REPLICATE : null;
    }
    static final List<KnobSpec> ROCM_ONLY = List.of(
            KnobSpec.env(FW, "VLLM_ROCM_USE_AITER", KnobSpec.Type.BOOL, "0", "ROCm: AITER kernels"),
            KnobSpec.env(FW, "VLLM_ROCM_USE_AITER_CUSTOM_AR", KnobSpec.Type.BOOL, "1", "ROCm: AITER custom all-reduce"))
            .stream().map(k -> k.scope(KnobSpec.Scope.ROCM_ONLY)).toList();

    static final List<KnobSpec> ALL = Stream.of(List.of(BACKEND, FUSE, MAX_SIZE, OPT_LEVEL, USE_FLASHINFER, USE_FLASHINFER_PCIE_IPC, USE_SYMM_MEM,
            DISABLE_CUSTOM_AR, SKIP_P2P, BATCH_INVARIANT, DCP_SIZE, PCP_SIZE, DCP_BACKEND, V2_RUNNER, CUDAGRAPH_MODE, COMPILATION_CONFIG, PP_SIZE, ENFORCE_EAGER, TORCH_COMPILE_DISABLE, BREAKABLE_CUDAGRAPH,
            COMPILE_MODE), KNOWN, ROCM_ONLY)
            .flatMap(List::stream).toList();

    private VllmKnobs() {
    }
}
