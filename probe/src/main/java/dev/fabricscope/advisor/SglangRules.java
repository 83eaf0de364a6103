package dev.fabricscope.advisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SGLang's all-reduce knobs: FlashInfer all-reduce fusion (effective value, resolution, workspace preflight,
 * per-call limits), decode context parallel, custom all-reduce, torch symmetric memory and the NCCL environment it
 * exports. Reference: backend-rules.md §1.
 */
final class SglangRules {

    static final String FW = "sglang";

    /**
     * One modelled SGLang version.
     *
     * @param engineEnv                    which of the three {@code _set_envs_and_config} variants writes the NCCL environment
     * @param torchSymmMemErrorsPropagate  TorchSymmMemCommunicator's constructor errors reach the user (else caught with a warning)
     * @param twoshotRetry                 MNNVL workspaces are re-created when the TWOSHOT stage is misaligned
     * @param gbTransportWorkaround        aarch64 + SM10x (or the env) forces POSIX-FD handles for FlashInfer
     * @param autoEnableArchs              {@code _FLASHINFER_ALLREDUCE_FUSION_ARCHS}
     * @param args                         the argument surface: exec_.py@01d795f8 (newest) or the seed server_args.py
     */
    record Version(String id, String description, EngineEnv engineEnv, boolean torchSymmMemErrorsPropagate,
                   boolean twoshotRetry, boolean gbTransportWorkaround, List<String> autoEnableArchs,
                   SourceRef engineSource, SourceRef fusionSource, Args args) {
        boolean respectsExportedNcclEnv() {
            return engineEnv == EngineEnv.LATEST;
        }
    }

    /** The three {@code engine.py _set_envs_and_config} variants (backend-rules.md errata §1.7). */
    enum EngineEnv {
        /** Keeps exported NCCL_NVLS_ENABLE / NCCL_CUMEM_ENABLE unless a flag decides them. */
        LATEST,
        /** NCCL_CUMEM_ENABLE=int(--enable-symm-mem); NCCL_NVLS_ENABLE=int(--enable-nccl-nvls), but an exported one is kept with --enable-symm-mem. */
        MIDDLE,
        /** NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) and NCCL_CUMEM_ENABLE=0, unconditionally. */
        OLDEST
    }

    /**
     * What the argument parser accepts.
     *
     * @param deprecatedFlagOnCli  {@code --enable-flashinfer-allreduce-fusion} is still a CLI flag (no_cli=True at 01d795f8)
     * @param cutedslChoice        {@code cutedsl} is a valid fusion backend
     * @param dcpBackendAuto       with DCP > 1 and no --dcp-comm-backend, SGLang picks fi_a2a or a2a (else ag_rs)
     * @param customAllReduceV2    {@code dispatch_custom_allreduce} can pick CustomAllReduceV2
     * @param source               where the fields were read
     */
    record Args(boolean deprecatedFlagOnCli, boolean cutedslChoice, boolean dcpBackendAuto, boolean customAllReduceV2, SourceRef source) {
    }

    static final String REPO = "sgl-project/sglang";
    static final String SEED = "0132848349585cfe6aae51c4941cbae872505f8a";
    static final String OVERRIDES_COMMIT = "003bbaf9ab79c09933e7a17ae6460ac48a756de9";
    static final String FUSION_PATH = "python/sglang/srt/layers/flashinfer_comm_fusion.py";

    static final List<String> ARCHS_NEWEST = List.of("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM",
            "GptOssForCausalLM", "GlmMoeDsaForCausalLM", "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "MistralLarge3ForCausalLM",
            "Qwen3MoeForCausalLM", "Qwen3VLMoeForConditionalGeneration", "Qwen3NextForCausalLM", "Qwen4ExpForConditionalGeneration",
            "KimiK25ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration", "InternS2PreviewForConditionalGeneration",
            "Qwen3_5ForConditionalGeneration", "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronH_Omni_Reasoning_V3");
    static final List<String> ARCHS_OLDER = ARCHS_NEWEST.stream()
            .filter(a -> !a.equals("Qwen4ExpForConditionalGeneration") && !a.equals("NemotronH_Omni_Reasoning_V3")).toList();

    static final SourceRef SRC_ENGINE_NEW = new SourceRef(REPO, null, "python/sglang/srt/entrypoints/engine.py", "_set_envs_and_config (latest-style copy)");
    static final SourceRef SRC_ENGINE_OLD = new SourceRef(REPO, null, "python/sglang/srt/entrypoints/engine.py", "_set_envs_and_config (older copy)");
    static final SourceRef SRC_FUSION_NEW = new SourceRef(REPO, null, FUSION_PATH, "_resolve_backend (newer copy, L46-75)");
    static final SourceRef SRC_FUSION_TB = new SourceRef(REPO, null, FUSION_PATH, "_resolve_backend (traceback-matched copy, L47-76)");
    static final SourceRef SRC_ENGINE_MID = new SourceRef(REPO, null, "python/sglang/srt/entrypoints/engine.py", "_set_envs_and_config (middle copy)");
    static final String EXEC_COMMIT = "01d795f8aa711691052ae277055a67f23a123b0b";
    static final String EXEC_PATH = "python/sglang/srt/arg_groups/fields/exec_.py";
    static final SourceRef SRC_EXEC_COMM = new SourceRef(REPO, EXEC_COMMIT, EXEC_PATH, "ExecComm fields");
    static final SourceRef SRC_SEED_ARGS = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "ServerArgs fields");
    /** Short hash as recorded by the audit (backend-rules.md errata). */
    static final String PARALLEL_STATE_COMMIT = "0005973a";
    static final SourceRef SRC_PARALLEL_STATE = new SourceRef(REPO, PARALLEL_STATE_COMMIT, "python/sglang/srt/distributed/parallel_state.py",
            "initialize_model_parallel");
    static final SourceRef SRC_ALLREDUCE_ONLY_PATH = new SourceRef(REPO, PARALLEL_STATE_COMMIT, "python/sglang/srt/distributed/parallel_state.py",
            "GroupCoordinator.all_reduce (_can_use_flashinfer_allreduce before custom all-reduce)");
    static final SourceRef SRC_DCP_DEFAULT = new SourceRef(REPO, "003bbaf9ab79c09933e7a17ae6460ac48a756de9", "python/sglang/srt/arg_groups/overrides.py",
            "_dcp_comm_backend_default");
    static final SourceRef SRC_CAR_V2 = new SourceRef(REPO, null, "python/sglang/srt/distributed/device_communicators/custom_all_reduce_v2.py",
            "dispatch_custom_allreduce / CustomAllReduceV2 (as summarised by the audit; file not read here)");

    static final Args ARGS_NEWEST = new Args(false, true, true, true, SRC_EXEC_COMM);
    static final Args ARGS_SEED = new Args(true, false, false, false, SRC_SEED_ARGS);

    static final List<Version> VERSIONS = List.of(
            new Version("newest", "sglang@" + SEED.substring(0, 8) + " server_args.py (seed), overrides.py@003bbaf9, newer copy of "
                    + "flashinfer_comm_fusion.py (TWOSHOT retry), latest-style engine.py (keeps exported NCCL env), newer torch_symm_mem "
                    + "callers (errors propagate); argument surface of exec_.py@01d795f8 (cutedsl backend, deprecated fusion flag no longer on the "
                    + "CLI, DCP backend chosen automatically, CustomAllReduceV2)", EngineEnv.LATEST, true, true, false, ARCHS_NEWEST,
                    SRC_ENGINE_NEW, SRC_FUSION_NEW, ARGS_NEWEST),
            new Version("middle", "seed server_args.py (deprecated flag accepted, no cutedsl, DCP backend default ag_rs); the middle engine.py copy "
                    + "(NCCL_CUMEM_ENABLE=int(--enable-symm-mem); an exported NCCL_NVLS_ENABLE is kept with --enable-symm-mem); traceback-matched "
                    + "flashinfer_comm_fusion.py; TorchSymmMemCommunicator failures caught", EngineEnv.MIDDLE, false, false, false, ARCHS_OLDER,
                    SRC_ENGINE_MID, SRC_FUSION_TB, ARGS_SEED),
            new Version("older", "older copies: engine.py writes NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) and NCCL_CUMEM_ENABLE=0 "
                    + "unconditionally; TorchSymmMemCommunicator failures caught with a warning; traceback-matched flashinfer_comm_fusion.py; "
                    + "auto-enable list without Qwen4Exp/NemotronH_Omni; GB200 transport workaround (sglang@00f6ebe5)",
                    EngineEnv.OLDEST, false, false, true, ARCHS_OLDER, SRC_ENGINE_OLD, SRC_FUSION_TB, ARGS_SEED));

    // ---- knobs
    static final KnobSpec FUSION_BACKEND = KnobSpec.flag(FW, "flashinfer-allreduce-fusion-backend", KnobSpec.Type.CHOICE, "unset",
            "FlashInfer all-reduce + RMSNorm fusion backend (cutedsl: newest only)", "auto", "trtllm", "mnnvl", "cutedsl");
    static final KnobSpec FUSION_DEPRECATED = KnobSpec.flag(FW, "enable-flashinfer-allreduce-fusion", KnobSpec.Type.BOOL, "false",
            "deprecated: same as --flashinfer-allreduce-fusion-backend=auto");
    static final KnobSpec ENFORCE_DISABLE = KnobSpec.flag(FW, "enforce-disable-flashinfer-allreduce-fusion", KnobSpec.Type.BOOL, "false",
            "force FlashInfer all-reduce fusion off");
    static final KnobSpec DETERMINISTIC = KnobSpec.flag(FW, "enable-deterministic-inference", KnobSpec.Type.BOOL, "false",
            "deterministic inference (turns fusion off)");
    static final KnobSpec DP_ATTENTION = KnobSpec.flag(FW, "enable-dp-attention", KnobSpec.Type.BOOL, "false",
            "data-parallel attention (fusion is neither auto-enabled nor used with it)");
    static final KnobSpec MOE_A2A = KnobSpec.flag(FW, "moe-a2a-backend", KnobSpec.Type.STRING, "none",
            "MoE all-to-all backend (fusion is auto-enabled only with none)");
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
    static final KnobSpec SKIP_P2P_ENV = KnobSpec.env(FW, "SGLANG_SKIP_P2P_CHECK", KnobSpec.Type.BOOL, "unset",
            "trust torch.cuda.can_device_access_peer instead of the P2P test");
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
    static final KnobSpec CAR_V2_ENV = KnobSpec.env(FW, "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", KnobSpec.Type.BOOL, "unset",
            "dispatch_custom_allreduce picks CustomAllReduceV2 (world sizes 2-8, full NVLink)").only("newest");
    // known upstream, effect on the all-reduce backends not modelled (set: an "unknown" verdict)
    static final List<KnobSpec> KNOWN = List.of(
            KnobSpec.flag(FW, "enable-mscclpp", KnobSpec.Type.BOOL, "false", "MSCCL++ for tuned all-reduce / all-gather, NCCL fallback"),
            KnobSpec.flag(FW, "enable-quant-communications", KnobSpec.Type.BOOL, "false", "INT8 quantisation of TP communications"),
            KnobSpec.flag(FW, "pre-warm-nccl", KnobSpec.Type.BOOL, "false", "pre-warm NCCL communicators at start-up"),
            KnobSpec.flag(FW, "dp-size", KnobSpec.Type.INT, "1", "data-parallel size"),
            KnobSpec.flag(FW, "ep-size", KnobSpec.Type.INT, "1", "expert-parallel size"),
            KnobSpec.flag(FW, "attn-cp-size", KnobSpec.Type.INT, "1", "attention context-parallel size"),
            KnobSpec.flag(FW, "enable-prefill-cp", KnobSpec.Type.BOOL, "false", "prefill context parallel"),
            KnobSpec.flag(FW, "cp-strategy", KnobSpec.Type.STRING, "default", "context-parallel strategy"),
            KnobSpec.env(FW, "SGLANG_USE_JIT_ALL_REDUCE", KnobSpec.Type.BOOL, "unset", "JIT-built custom all-reduce"),
            KnobSpec.env(FW, "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE", KnobSpec.Type.BOOL, "unset", "CustomAllReduceV2 across nodes"))
            .stream().map(k -> k.scope(KnobSpec.Scope.KNOWN)).toList();
    static final List<KnobSpec> ROCM_ONLY = List.of(
            KnobSpec.flag(FW, "enable-aiter-allreduce-fusion", KnobSpec.Type.BOOL, "false", "ROCm: AITER all-reduce fusion"),
            KnobSpec.env(FW, "SGLANG_USE_AITER_AR", KnobSpec.Type.BOOL, "unset", "ROCm: AITER custom all-reduce"),
            KnobSpec.env(FW, "SGLANG_USE_1STAGE_ALLREDUCE", KnobSpec.Type.BOOL, "unset", "ROCm: one-stage all-reduce"))
            .stream().map(k -> k.scope(KnobSpec.Scope.ROCM_ONLY)).toList();
    static final KnobSpec POSIX_FD_ENV = KnobSpec.env(FW, "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT", KnobSpec.Type.BOOL, "unset",
            "force POSIX-FD handle exchange for FlashInfer (GB200 transport workaround)").only("older");

    static final List<KnobSpec> KNOBS = java.util.stream.Stream.of(List.of(FUSION_BACKEND, FUSION_DEPRECATED, ENFORCE_DISABLE,
                    DETERMINISTIC, DP_ATTENTION, MOE_A2A, CUTEDSL_ENV, PURE_ALLREDUCE, ALLREDUCE_ONLY, DCP_SIZE, DCP_BACKEND, DCP_REPLICATE_Q,
                    DISABLE_CUSTOM_AR, CAR_V2_ENV, P2P_CHECK, SKIP_P2P_ENV, TORCH_SYMM_MEM, NCCL_NVLS, SYMM_MEM, NVLS_ENV, CUMEM_ENV, POSIX_FD_ENV),
            KNOWN, ROCM_ONLY).flatMap(List::stream).toList();

    // ---- messages, verbatim (backend-rules.md §1)
    static final String DEPRECATED_MSG = "--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead.";
    static final String AUTO_ENABLE_MSG = "Auto-enabling FlashInfer AllReduce Fusion on SM90/SM10X for %s";
    static final String ENFORCE_MSG = "FlashInfer allreduce fusion is forcibly disabled via --enforce-disable-flashinfer-allreduce-fusion.";
    static final String DETERMINISTIC_MSG = "Disable --flashinfer-allreduce-fusion-backend because deterministic inference is enabled.";
    static final String R1 = "FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.";
    static final String R2 = "FlashInfer allreduce fusion does not support multi-node on non-Blackwell systems.";
    static final String R3 = "FlashInfer allreduce fusion trtllm backend supports single-node only.";
    static final String R4 = "FlashInfer allreduce fusion mnnvl backend requires a Blackwell system, or SM90 single-node.";
    static final String PREFLIGHT_PROBE = "FlashInfer workspace preflight probe failed (%s). Skipping allreduce fusion.";
    static final String MULTICAST_GRANULARITY = "cuMulticastGetGranularity failed for FlashInfer workspace preflight: %s";
    static final String PREFLIGHT_VOTE = "FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank. Skipping allreduce fusion to avoid cross-rank desync inside the flashinfer collective.";
    static final String WORKSPACE_FAILED = "Failed to initialize FlashInfer workspace (backend=%s): %s. Disabling flashinfer allreduce fusion permanently.";
    static final String WORKSPACE_FAILED_GLOBAL = "FlashInfer allreduce fusion disabled globally because workspace initialization failed on at least one rank.";
    static final String TWOSHOT = "Could not allocate a FlashInfer MNNVL workspace whose TWOSHOT stage offset is 32B-aligned after 3 attempts; disabling allreduce fusion. The trtllm backend sizes its workspace differently and is unaffected.";
    static final String TRANSPORT = "Applying FlashInfer transport workaround: forcing PosixFD symmetric-memory handle exchange on aarch64 + sm10x to avoid known data corruption with Fabric handle exchange on GB systems. Set SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 to disable.";
    /** argparse's words for a flag the parser does not have; the program name as sglang issue #37646 shows it. */
    static final String UNRECOGNIZED = "sglang serve: error: unrecognized arguments: %s";
    static final String INVALID_CHOICE = "sglang serve: error: argument --flashinfer-allreduce-fusion-backend: invalid choice: '%s' (choose from 'auto', 'trtllm', 'mnnvl')";
    static final String CUTEDSL_SUPPRESS = "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION owns both Qwen3.5 AllReduce fusion patterns; suppressing the separately configured --flashinfer-allreduce-fusion-backend=%s";
    static final List<String> CUTEDSL_ARCHS = List.of("Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration");
    static final String TP_DCP = "tensor_model_parallel_size (%d) must be divisible by decode_context_parallel_size (%d)";
    static final String DCP_SELECTS = "DCP (dcp_size=%d) selects communication backend '%s'.";
    static final String DCP1 = "Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size=%d.";
    static final String DCP2 = "--dcp-comm-backend %s only affects the decode context-parallel attention reduction and therefore requires --dcp-size / --decode-context-parallel-size > 1, but got dcp_size=%d.";
    static final String DCP3 = "--dcp-comm-backend fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel, which requires an NVIDIA CUDA platform with SM90+ and MNNVL fabric memory (e.g. GB200 NVL72). The authoritative fabric probe runs at model-runner init; use 'a2a' or 'ag_rs' on clusters without MNNVL.";
    static final String DCP4A = "--dcp-replicate-q-proj requires --dcp-size > 1.";
    static final String DCP4B = "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend=%s.";
    static final String FI_A2A_IMPORT = "--dcp-comm-backend fi_a2a requires FlashInfer with the DCP all-to-all kernel (flashinfer #2951); could not import flashinfer.comm.dcp_alltoall.";
    static final String FI_A2A_FABRIC = "--dcp-comm-backend fi_a2a requires MNNVL fabric memory (e.g. GB200 NVL72); is_mnnvl_fabric_supported() returned False. Use --dcp-comm-backend a2a or ag_rs on clusters without MNNVL.";
    static final String CAR_SPANS = "Custom allreduce is disabled because this process group spans across nodes.";
    static final String CAR_WORLD = "Custom allreduce is disabled due to an unsupported world size: %d. Supported world sizes: %s. To silence this warning, specify disable_custom_all_reduce=True explicitly.";
    static final String CAR_PCIE = "Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly.";
    static final String CAR_P2P = "Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.";
    static final String TSM_UNAVAILABLE = "TorchSymmMemCommunicator requires torch symmetric memory support, but it is not available.";
    static final String TSM_CAPABILITY = "TorchSymmMemCommunicator: Device capability %d not supported, communicator is not available.";
    static final String TSM_WORLD = "TorchSymmMemCommunicator: World size %d not supported, communicator is not available.";
    static final String TSM_MULTICAST = "TorchSymmMemCommunicator: torch symmetric memory multicast operations are not supported.";
    static final String TSM_CAUGHT = "Failed to initialize TorchSymmMemCommunicator: %s";

    static final List<Integer> CAR_WORLD_SIZES = List.of(2, 4, 6, 8);
    static final int FUSE_MAX_TOKENS = 2048;

    // ---- sources
    static final SourceRef SRC_FIELD = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "flashinfer_allreduce_fusion_backend field (≈ char 80 k)");
    static final SourceRef SRC_DEPRECATED = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "_handle_deprecated_args (≈ char 186 k)");
    static final SourceRef SRC_AUTO = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "_flashinfer_allreduce_fusion_auto_enable");
    static final SourceRef SRC_ENFORCE = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "_enforce_disable_allreduce_fusion");
    static final SourceRef SRC_DETERMINISTIC = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "_deterministic_allreduce_fusion_disable");
    static final SourceRef SRC_R1 = new SourceRef(REPO, null, FUSION_PATH, "50");
    static final SourceRef SRC_AUTO_RESOLVE = new SourceRef(REPO, null, FUSION_PATH, "62-64");
    static final SourceRef SRC_R3 = new SourceRef(REPO, null, FUSION_PATH, "67");
    static final SourceRef SRC_PREFLIGHT = new SourceRef(REPO, null, FUSION_PATH, "_preflight_check_workspace_memory");
    static final SourceRef SRC_ENSURE = new SourceRef(REPO, null, FUSION_PATH, "ensure_workspace_initialized (L669)");
    static final SourceRef SRC_TRANSPORT = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "FlashInfer transport workaround");
    static final SourceRef SRC_RUNNER = new SourceRef(REPO, null, "python/sglang/srt/model_executor/runner/base_runner.py", "_pre_initialize_flashinfer_allreduce_workspace");
    static final SourceRef SRC_PER_CALL = new SourceRef(REPO, null, "python/sglang/srt/layers/communicator.py", "apply_flashinfer_allreduce_fusion");
    static final SourceRef SRC_ALLREDUCE_ONLY = new SourceRef(REPO, null, FUSION_PATH, "can_use_flashinfer_allreduce (newer copy)");
    static final SourceRef SRC_PURE = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "exec.comm fields (no enable_flashinfer_pure_allreduce)");
    static final SourceRef SRC_DCP = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "_handle_dcp_validation (≈ char 178 k)");
    static final SourceRef SRC_FI_A2A = new SourceRef(REPO, null, "python/sglang/srt/layers/dcp/…", "_pre_initialize_fi_a2a_workspace (MNNVL-fabric variant)");
    static final SourceRef SRC_CAR = new SourceRef(REPO, "004e6561cb8ae26d62166c15782955f99f058274",
            "python/sglang/srt/distributed/device_communicators/custom_all_reduce.py", "CustomAllreduce.__init__");
    static final SourceRef SRC_TSM = new SourceRef(REPO, "0cd72ba41d483ac6c1ea96f056b2bcbfb4365121",
            "python/sglang/srt/distributed/device_communicators/torch_symm_mem.py", "TorchSymmMemCommunicator.__init__");

    // ---- when
    static final String WHEN_ARGS = "argument parsing (server start, before model loading)";
    static final String WHEN_RESOLVE = "argument resolution (server start, before model loading)";
    static final String WHEN_WARMUP = "model-runner warm-up (after weight loading, before CUDA-graph capture)";
    static final String WHEN_ENV = "server start (_set_envs_and_config)";
    static final String WHEN_COMM = "distributed init (communicator creation)";

    private SglangRules() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        out.add(fusionVerdict(e, true));
        out.add(deprecatedVerdict(e));
        out.add(enforceVerdict(e));
        out.add(deterministicVerdict(e));
        out.add(dpAttentionVerdict(e));
        out.add(moeA2aVerdict(e));
        out.add(cutedslVerdict(e));
        absentVerdict(e, PURE_ALLREDUCE).ifPresent(out::add);
        absentVerdict(e, ALLREDUCE_ONLY).ifPresent(out::add);
        out.add(dcpSizeVerdict(e));
        out.add(dcpBackendVerdict(e));
        out.add(dcpReplicateVerdict(e));
        out.add(customAllReduceVerdict(e));
        if (version(e).args().customAllReduceV2()) {
            out.add(carV2Verdict(e));
        }
        out.add(p2pCheckVerdict(e));
        out.add(skipP2pVerdict(e));
        out.add(torchSymmMemVerdict(e));
        out.add(ncclNvlsFlagVerdict(e, NCCL_NVLS));
        out.add(ncclNvlsFlagVerdict(e, SYMM_MEM));
        out.add(nvlsEnvVerdict(e));
        out.add(cumemEnvVerdict(e));
        if (e.versions.sglang().gbTransportWorkaround()) {
            out.add(transportVerdict(e));
        }
        for (KnobSpec k : KNOWN) {
            OtherKnobs.known(e, k, version(e).id(), version(e).args().source()).ifPresent(out::add);
        }
        for (KnobSpec k : ROCM_ONLY) {
            OtherKnobs.rocmOnly(e, k, version(e).id(), SRC_EXEC_COMM).ifPresent(out::add);
        }
        return out;
    }

    private static Version version(Eval e) {
        return e.versions.sglang();
    }

    private static VerdictBuilder on(Eval e, KnobSpec k) {
        return e.on(k, version(e).id());
    }

    // ---- architecture predicates (§1.1)

    /** {@code is_sm90_supported()}: CUDA, major 9, torch CUDA ≥ 12.3. */
    static boolean sm90(Eval e) {
        return e.cuda() && e.major() == 9 && e.torchCudaAtLeast("12.3");
    }

    /** {@code is_sm100_supported()}: CUDA, major 10 (SM100, SM103), torch CUDA ≥ 12.8. */
    static boolean sm100(Eval e) {
        return e.cuda() && e.major() == 10 && e.torchCudaAtLeast("12.8");
    }

    /** Why neither predicate holds, in machine terms. */
    static String notSm90Or100(Eval e) {
        if (!e.cuda()) {
            return "the platform is " + e.platformName() + ", and SGLang's SM90/SM10x predicates are false off CUDA";
        }
        int major = e.major();
        String torch = e.torchCuda();
        if (major == 9) {
            return e.gpus() + ", but torch is built for CUDA " + torch + " (< 12.3), so is_sm90_supported() is false";
        }
        if (major == 10) {
            return e.gpus() + ", but torch is built for CUDA " + torch + " (< 12.8), so is_sm100_supported() is false";
        }
        return e.gpus() + ": neither SM90 (major 9) nor SM10x (major 10: SM100/SM103); "
                + (major >= 11 ? "SM110 and SM12x do not count as SM10x" : "pre-Hopper GPUs are not supported");
    }

    // ---- fusion: effective value (§1.2 steps 1–4)

    /**
     * The effective backend after SGLang's argument pipeline.
     *
     * @param source       user, deprecated, auto-enable, or null (off, never requested)
     * @param autoArch     the architecture auto-enable fired for, or null
     * @param autoBlocked  why auto-enable did not fire (when nothing was requested), or null
     * @param before       the backend before the disabling passes
     * @param disabledBy   the flag or env that set it to None, or null
     * @param disableMsg   what SGLang logs when it does, verbatim (null where the text was not recorded)
     * @param effective    the backend that reaches warm-up, or null
     */
    record Pipeline(String source, String autoArch, String autoBlocked, String before, String disabledBy, String disableMsg,
                    SourceRef disableSource, String effective) {
        boolean requestedByUser() {
            return "user".equals(source) || "deprecated".equals(source);
        }
    }

    static Pipeline pipeline(Eval e) {
        String value = e.value(FUSION_BACKEND);
        String source = value != null ? "user" : null;
        if (value == null && e.bool(FUSION_DEPRECATED) && version(e).args().deprecatedFlagOnCli()) {
            value = "auto";
            source = "deprecated";
        }
        String autoArch = null;
        String autoBlocked = null;
        if (value == null) {
            autoBlocked = autoEnableBlocked(e);
            if (autoBlocked == null) {
                value = "auto";
                source = "auto-enable";
                autoArch = e.model();
            }
        }
        String before = value;
        String model = e.model();
        if (e.envTrue(CUTEDSL_ENV) && model != null && CUTEDSL_ARCHS.contains(model) && value != null) {
            return new Pipeline(source, autoArch, autoBlocked, before, CUTEDSL_ENV.display() + " with " + model,
                    "user".equals(source) ? String.format(CUTEDSL_SUPPRESS, value) : null, SRC_AUTO, null);
        }
        if (e.bool(ENFORCE_DISABLE) && value != null) {
            return new Pipeline(source, autoArch, autoBlocked, before, ENFORCE_DISABLE.display(), ENFORCE_MSG, SRC_ENFORCE, null);
        }
        if (e.bool(DETERMINISTIC) && value != null) {
            return new Pipeline(source, autoArch, autoBlocked, before, DETERMINISTIC.display(), DETERMINISTIC_MSG, SRC_DETERMINISTIC, null);
        }
        return new Pipeline(source, autoArch, autoBlocked, before, null, null, null, value);
    }

    /** Why {@code _flashinfer_allreduce_fusion_auto_enable} does not set 'auto', or null when it does. */
    static String autoEnableBlocked(Eval e) {
        String arch = e.model();
        if (arch == null) {
            return "no --model was given (auto-enable reads hf_config.architectures[0], e.g. DeepseekV3ForCausalLM)";
        }
        if (!version(e).autoEnableArchs().contains(arch)) {
            return arch + " is not in SGLang's auto-enable list";
        }
        boolean s90 = sm90(e);
        boolean s100 = sm100(e);
        if (!s90 && !s100) {
            return notSm90Or100(e);
        }
        if (e.tp() <= 1) {
            return "TP is 1";
        }
        if (e.bool(DP_ATTENTION)) {
            return "DP attention is on";
        }
        if (e.multiNode() && !s100) {
            return e.gpus() + " and " + e.span() + ": auto-enable requires one node unless the GPUs are SM10x";
        }
        if (!"none".equals(e.value(MOE_A2A) == null ? "none" : e.value(MOE_A2A))) {
            return "--moe-a2a-backend is " + e.value(MOE_A2A) + ", not none";
        }
        return null;
    }

    // ---- fusion: resolution (§1.2 R1–R4)

    /** The backend {@code _resolve_backend} returns, or the ValueError text; with the cited line. */
    record Resolution(String backend, String error, String why, SourceRef source) {
    }

    static Resolution resolve(Eval e, String value) {
        boolean s90 = sm90(e);
        boolean s100 = sm100(e);
        boolean multi = e.multiNode();
        if (!s90 && !s100) {
            return new Resolution(null, R1, notSm90Or100(e) + ". The resolver checks this first, for every value.", SRC_R1);
        }
        switch (value) {
            case "auto" -> {
                if (multi) {
                    return s100 ? new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": 'auto' picks mnnvl on SM10x.", fusionSource(e))
                            : new Resolution(null, R2, e.gpus() + " and " + e.span() + ": 'auto' supports multi-node only on SM10x (Blackwell).", fusionSource(e));
                }
                return s100 ? new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": 'auto' picks mnnvl on SM10x.", SRC_AUTO_RESOLVE)
                        : new Resolution("trtllm", null, e.gpus() + " and " + e.span() + ": 'auto' picks trtllm on SM90.", SRC_AUTO_RESOLVE);
            }
            case "trtllm" -> {
                if (multi) {
                    return new Resolution(null, R3, e.span() + ": the trtllm backend is single-node only, on any architecture.", SRC_R3);
                }
                return new Resolution("trtllm", null, e.gpus() + " and " + e.span() + ": trtllm is allowed.", SRC_R3);
            }
            default -> {
                if (s100 || !multi) {
                    return new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": mnnvl is allowed "
                            + (s100 ? "on SM10x." : "on SM90 single-node."), fusionSource(e));
                }
                return new Resolution(null, R4, e.gpus() + " and " + e.span() + ": mnnvl needs SM10x, or SM90 on one node.", fusionSource(e));
            }
        }
    }

    private static SourceRef fusionSource(Eval e) {
        return version(e).fusionSource();
    }

    /** Whether the GB200 transport workaround (older version) forces POSIX-FD handles. */
    static boolean transportWorkaround(Eval e) {
        if (!version(e).gbTransportWorkaround() || !e.cuda()) {
            return false;
        }
        String env = e.env().get(POSIX_FD_ENV.name());
        if (env != null) {
            return Values.truthy(env);
        }
        return "aarch64".equals(e.hostArch()) && e.major() == 10;
    }

    // ---- fusion verdict

    static Verdict fusionVerdict(Eval e, boolean withFix) {
        VerdictBuilder v = on(e, FUSION_BACKEND).source(SRC_FIELD);
        if ("cutedsl".equals(e.value(FUSION_BACKEND)) && !version(e).args().cutedslChoice()) {
            return v.error("SystemExit (argparse)").message(String.format(INVALID_CHOICE, "cutedsl")).when(WHEN_ARGS).source(version(e).args().source())
                    .why("This SGLang version's --flashinfer-allreduce-fusion-backend takes auto, trtllm or mnnvl; cutedsl came later (exec_.py@01d795f8).")
                    .fix(withFix ? (bestFusionBackend(e.with(FUSION_BACKEND, null)) != null ? "--flashinfer-allreduce-fusion-backend="
                            + bestFusionBackend(e.with(FUSION_BACKEND, null)) : "drop --flashinfer-allreduce-fusion-backend=cutedsl") : null).build();
        }
        Pipeline p = pipeline(e);
        if (!v.userSet()) {
            v.value("auto-enable".equals(p.source()) ? "auto (auto-enabled)" : "deprecated".equals(p.source())
                    ? "auto (from --enable-flashinfer-allreduce-fusion)" : "unset");
        }
        boolean requested = p.requestedByUser();
        Outcome lesser = requested ? Outcome.FALLBACK : Outcome.OK;
        if (p.effective() == null) {
            if (p.before() != null) {
                v.outcome(lesser).message(p.disableMsg()).when(WHEN_RESOLVE).source(p.disableSource())
                        .why(p.disabledBy() + " sets the backend to None during argument resolution"
                                + ("auto-enable".equals(p.source()) ? " (after auto-enable chose 'auto' for " + p.autoArch() + ")" : "")
                                + (p.disableMsg() == null ? "; the warning text was not recorded" : "") + ", so no fusion workspace is created.");
                return v.build();
            }
            return v.ok().source(SRC_AUTO).when(WHEN_RESOLVE)
                    .why("Fusion is off unless requested; auto-enable did not fire because " + p.autoBlocked() + ".").build();
        }
        String intro = switch (p.source()) {
            case "auto-enable" -> "Auto-enable set 'auto' for " + p.autoArch() + ". ";
            case "deprecated" -> "--enable-flashinfer-allreduce-fusion set 'auto'. ";
            default -> "";
        };
        if ("cutedsl".equals(p.effective())) {
            return cutedsl(e, v);
        }
        // guards inside ensure_workspace_initialized, before the resolver
        if (!e.cuda() || !e.flashinferInstalled()) {
            v.outcome(lesser).when(WHEN_WARMUP).source(SRC_ENSURE)
                    .why(intro + (!e.cuda() ? "The platform is " + e.platformName() + ": is_flashinfer_available() requires CUDA"
                            : "FlashInfer is not importable") + ", so SGLang skips the workspace silently and uses the normal all-reduce.");
            return fixed(v, e, withFix, requested).build();
        }
        if (e.tp() <= 1) {
            return v.ok().when(WHEN_WARMUP).source(SRC_ENSURE)
                    .why(intro + "TP 1: the fusion group has one rank, so SGLang skips the workspace; there is no all-reduce to fuse.").build();
        }
        Resolution r = resolve(e, p.effective());
        if (r.error() != null) {
            v.error("ValueError").message(r.error()).when(WHEN_WARMUP).source(r.source())
                    .why(intro + r.why() + " The ValueError is raised from ensure_workspace_initialized during model-runner warm-up and kills the scheduler process.");
            return fixed(v, e, withFix, requested).build();
        }
        String backend = r.backend();
        String resolvedWhy = intro + r.why();
        // workspace preflight (multicast granularity on every rank)
        if (!e.multicast()) {
            v.fallback().errorClass("RuntimeError (caught)").message(PREFLIGHT_VOTE).when(WHEN_WARMUP).source(SRC_PREFLIGHT)
                    .why(resolvedWhy + " But the GPUs do not report NVLink multicast (attribute 132 = 0), so the preflight's multicast-granularity query fails (first warning: '"
                            + String.format(PREFLIGHT_PROBE, String.format(MULTICAST_GRANULARITY, "<CUresult.CUDA_ERROR_NOT_SUPPORTED: 801>"))
                            + "', as cuda-bindings 13.x prints the error on a captured H200 without multicast; older cuda-bindings print only the number), the rank votes no and fusion is marked unavailable: every all-reduce takes the normal path. "
                            + "SGLang does this even for trtllm, whose workspace needs no multicast (closed PR #32330 proposed dropping the query).");
            return fixed(v, e, withFix, requested).build();
        }
        boolean forcePosix = transportWorkaround(e);
        Partial ws = FlashInferRules.workspace(e, backend, true, forcePosix ? Boolean.FALSE : null);
        if (ws.failed()) {
            String err = ws.message() != null ? ws.message() : "(exception text not recorded)";
            v.fallback().errorClass((ws.errorClass() != null ? ws.errorClass() : "Exception") + " (caught)")
                    .message(String.format(WORKSPACE_FAILED, backend, err)).when(WHEN_WARMUP).source(SRC_ENSURE)
                    .why(resolvedWhy + " FlashInfer's create_allreduce_fusion_workspace(backend=" + backend + ") fails: " + Values.decap(ws.why())
                            + (forcePosix ? " (SGLang's GB200 transport workaround forces POSIX-FD handles: '" + TRANSPORT + "')" : "")
                            + " SGLang catches it, then logs '" + WORKSPACE_FAILED_GLOBAL + "' after a cross-rank sync; the normal all-reduce runs.");
            if (forcePosix && !FlashInferRules.workspace(e, backend, true, null).failed() && withFix) {
                return v.fix("SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 (accepting the GB data-corruption risk the workaround avoids), "
                        + "or a newer SGLang without the workaround").build();
            }
            return fixed(v, e, withFix, requested).build();
        }
        Partial ranks = FlashInferRules.kernelRanks(e, backend);
        if (ranks != null) {
            v.apply(ranks).why(resolvedWhy + " " + ranks.why() + " SGLang does not check the rank count before enabling fusion.");
            return fixed(v, e, withFix, requested).build();
        }
        String twoshot = "mnnvl".equals(backend) && version(e).twoshotRetry()
                ? " (If the MNNVL workspace's TWOSHOT stage is not 32-byte aligned after 3 attempts SGLang disables fusion: '" + TWOSHOT + "'.)" : "";
        if (e.bool(DP_ATTENTION)) {
            v.outcome(lesser).resolved(null).when("every layer (per-call check)").source(SRC_PER_CALL)
                    .why(resolvedWhy + " The workspace is created, but apply_flashinfer_allreduce_fusion needs DP attention off, so the fused kernel is never used.");
            return fixed(v, e, withFix, requested).build();
        }
        Integer tokens = e.tokens();
        if (tokens != null && tokens > FUSE_MAX_TOKENS) {
            v.fallback().resolved(backend).when("each batch over " + FUSE_MAX_TOKENS + " tokens (per-call check)").source(SRC_PER_CALL)
                    .why(resolvedWhy + " The workspace preflight passes (multicast on every GPU), but batches of " + tokens
                            + " tokens exceed FUSE_ALLREDUCE_MAX_BATCH_SIZE = " + FUSE_MAX_TOKENS
                            + ": those batches use the normal all-reduce silently; smaller batches (decode) still fuse." + twoshot);
            return v.build();
        }
        v.ok().resolved(backend).when(WHEN_WARMUP).source("auto".equals(p.effective()) ? SRC_AUTO_RESOLVE : r.source())
                .message("auto-enable".equals(p.source()) ? String.format(AUTO_ENABLE_MSG, p.autoArch()) : null)
                .why(resolvedWhy + " Every GPU reports NVLink multicast, so the workspace preflight passes and the " + backend
                        + " workspace is created; batches of up to " + FUSE_MAX_TOKENS + " tokens use the fused kernel." + twoshot
                        + (version(e).args().cutedslChoice() ? " With a fusion backend set, SGLang also switches on its allreduce-only path by itself "
                        + "(set_flashinfer_allreduce_only): non-fused TP all-reduces try FlashInfer kAllReduce before custom all-reduce and NCCL, "
                        + "per call where the input fits the workspace." : ""));
        return v.build();
    }

    /** Adds the fix for a fusion verdict that is not ok: a backend that works here, or how to turn fusion off. */
    private static VerdictBuilder fixed(VerdictBuilder v, Eval e, boolean withFix, boolean requested) {
        if (!withFix) {
            return v;
        }
        String best = bestFusionBackend(e);
        if (best != null) {
            return v.fix("--flashinfer-allreduce-fusion-backend=" + best);
        }
        if (requested) {
            return v.fix("drop --flashinfer-allreduce-fusion-backend" + (e.bool(FUSION_DEPRECATED) ? " and --enable-flashinfer-allreduce-fusion" : "")
                    + ": no fusion backend works on this machine and deployment");
        }
        return v.fix("--enforce-disable-flashinfer-allreduce-fusion (no fusion backend works on this machine and deployment)");
    }

    /** The backend that fuses here (auto's choice first), or null. */
    static String bestFusionBackend(Eval e) {
        List<String> order = sm100(e) ? List.of("mnnvl", "trtllm") : List.of("trtllm", "mnnvl");
        Eval base = e.with(FUSION_DEPRECATED, null).with(ENFORCE_DISABLE, null);
        for (String b : order) {
            Verdict v = fusionVerdict(base.with(FUSION_BACKEND, b), false);
            if (v.outcome() == Outcome.OK && b.equals(v.resolved())) {
                return b;
            }
        }
        return null;
    }

    /** One short phrase for recommendation summaries. */
    private static String brief(Verdict f) {
        return switch (f.outcome()) {
            case OK -> f.resolved() != null ? "resolves to " + f.resolved() : "creates no workspace";
            case FALLBACK -> "falls back to the normal all-reduce at warm-up";
            case ERROR -> "fails at start-up" + (f.errorClass() != null ? " (" + f.errorClass() + ")" : "");
            case UNKNOWN, NOT_APPLICABLE -> "is not modelled here";
        };
    }

    /** "resolves to trtllm" / "falls back: …" / "fails: …" for verdicts that depend on fusion. */
    private static String summary(Verdict f) {
        return switch (f.outcome()) {
            case OK -> f.resolved() != null ? "resolves to " + f.resolved() : "creates no workspace";
            case FALLBACK -> "falls back to the normal all-reduce" + (f.message() != null ? ": '" + f.message() + "'" : "");
            case ERROR -> "fails at start-up" + (f.message() != null ? " with " + f.errorClass() + " '" + f.message() + "'" : "");
            case UNKNOWN, NOT_APPLICABLE -> "is not modelled here";
        };
    }

    private static Verdict deprecatedVerdict(Eval e) {
        VerdictBuilder v = on(e, FUSION_DEPRECATED).source(SRC_DEPRECATED).when(WHEN_RESOLVE);
        if (!e.bool(FUSION_DEPRECATED)) {
            return v.ok().why("Not set (deprecated alias of --flashinfer-allreduce-fusion-backend=auto"
                    + (version(e).args().deprecatedFlagOnCli() ? "" : "; no longer a command-line flag in this version") + ").").build();
        }
        if (!version(e).args().deprecatedFlagOnCli()) {
            String best = bestFusionBackend(e.with(FUSION_DEPRECATED, null));
            return v.error("SystemExit (argparse)").message(String.format(UNRECOGNIZED, FUSION_DEPRECATED.display())).when(WHEN_ARGS).source(SRC_EXEC_COMM)
                    .why("In this version enable_flashinfer_allreduce_fusion is a config field without a command-line flag (Arg(no_cli=True)), so the parser rejects it.")
                    .fix(best != null ? "--flashinfer-allreduce-fusion-backend=" + best + " instead" : "drop --enable-flashinfer-allreduce-fusion (no fusion backend works here)")
                    .build();
        }
        if (e.isSet(FUSION_BACKEND)) {
            return v.ok().message(DEPRECATED_MSG).why("--flashinfer-allreduce-fusion-backend is also set, so this deprecated flag changes nothing.")
                    .fix("drop --enable-flashinfer-allreduce-fusion").build();
        }
        Verdict f = fusionVerdict(e, false);
        v.like(f);
        if (f.outcome() == Outcome.OK) {
            v.message(DEPRECATED_MSG).when(WHEN_RESOLVE);
        }
        String best = bestFusionBackend(e);
        return v.why("Deprecated: it sets --flashinfer-allreduce-fusion-backend=auto (warning '" + DEPRECATED_MSG + "'), which here " + summary(f) + ".")
                .fix(best != null ? "--flashinfer-allreduce-fusion-backend=" + best + " instead" : "drop --enable-flashinfer-allreduce-fusion (no fusion backend works here)")
                .build();
    }

    private static Verdict enforceVerdict(Eval e) {
        VerdictBuilder v = on(e, ENFORCE_DISABLE).source(SRC_ENFORCE).when(WHEN_RESOLVE);
        if (!e.bool(ENFORCE_DISABLE)) {
            return v.ok().why("Not set: fusion follows --flashinfer-allreduce-fusion-backend and auto-enable.").build();
        }
        Pipeline p = pipeline(e);
        if (p.before() == null || !ENFORCE_DISABLE.display().equals(p.disabledBy())) {
            return v.ok().why("Fusion would be off anyway" + (p.before() == null ? " (nothing requested and auto-enable did not fire: " + p.autoBlocked() + ")"
                    : " (" + p.disabledBy() + " already disables it)") + ".").build();
        }
        Verdict without = fusionVerdict(e.with(ENFORCE_DISABLE, null), false);
        String effect = switch (without.outcome()) {
            case ERROR -> ", so the " + without.errorClass() + " '" + without.message() + "' of --flashinfer-allreduce-fusion-backend=" + p.before() + " never fires";
            case FALLBACK -> "; without it fusion would fall back anyway";
            case OK -> without.resolved() != null ? "; without it fusion would work here (" + without.resolved() + ")" : "";
            case UNKNOWN, NOT_APPLICABLE -> "";
        };
        v.ok().message(ENFORCE_MSG).why("Sets the backend to None before warm-up, winning over "
                + ("auto-enable".equals(p.source()) ? "auto-enable for " + p.autoArch() : "--flashinfer-allreduce-fusion-backend=" + p.before()) + effect + ".");
        if (without.outcome() == Outcome.OK && without.resolved() != null) {
            v.fix("drop --enforce-disable-flashinfer-allreduce-fusion to fuse with " + without.resolved());
        }
        return v.build();
    }

    private static Verdict deterministicVerdict(Eval e) {
        VerdictBuilder v = on(e, DETERMINISTIC).source(SRC_DETERMINISTIC).when(WHEN_RESOLVE);
        if (!e.bool(DETERMINISTIC)) {
            return v.ok().why("Not set: fusion is not affected.").build();
        }
        Pipeline p = pipeline(e);
        if (DETERMINISTIC.display().equals(p.disabledBy())) {
            return v.ok().message(DETERMINISTIC_MSG).why("Deterministic inference sets the fusion backend (" + p.before() + ") to None during argument resolution.").build();
        }
        return v.ok().why("Fusion is off anyway, so deterministic inference changes nothing about it.").build();
    }

    private static Verdict dpAttentionVerdict(Eval e) {
        VerdictBuilder v = on(e, DP_ATTENTION).source(SRC_PER_CALL).when(WHEN_RESOLVE);
        if (!e.bool(DP_ATTENTION)) {
            return v.ok().why("Off: FlashInfer fusion may be auto-enabled and used per call.").build();
        }
        return v.ok().why("On: SGLang neither auto-enables FlashInfer all-reduce fusion nor uses the fused kernel (apply_flashinfer_allreduce_fusion needs DP attention off).").build();
    }

    private static Verdict moeA2aVerdict(Eval e) {
        VerdictBuilder v = on(e, MOE_A2A).source(SRC_AUTO).when(WHEN_RESOLVE);
        String val = v.value();
        return v.ok().why("none".equals(val) ? "none: no effect on FlashInfer fusion auto-enable."
                : val + ": FlashInfer all-reduce fusion is not auto-enabled (it needs --moe-a2a-backend none).").build();
    }

    private static Verdict cutedslVerdict(Eval e) {
        VerdictBuilder v = on(e, CUTEDSL_ENV).source(SRC_AUTO).when(WHEN_RESOLVE);
        if (!e.envTrue(CUTEDSL_ENV)) {
            return v.ok().why("Not set: the FlashInfer fusion path is used when fusion is on.").build();
        }
        if ("Qwen3_5MoeForConditionalGeneration".equals(e.model())) {
            return v.ok().resolved("CuTe-DSL MNNVL all-reduce fusion").why("With a Qwen3.5-MoE model SGLang forces the FlashInfer fusion backend to None "
                    + "(with a warning when one was set; text not recorded) and uses the CuTe-DSL path.").build();
        }
        return v.ok().why("Only read for Qwen3_5MoeForConditionalGeneration; the model here is " + (e.model() == null ? "not given" : e.model()) + ".").build();
    }

    /** A flag upstream never had: an argparse error when passed, no verdict otherwise. */
    private static java.util.Optional<Verdict> absentVerdict(Eval e, KnobSpec k) {
        if (!e.isSet(k)) {
            return java.util.Optional.empty();
        }
        SourceRef src = version(e).args().source();
        return java.util.Optional.of(on(e, k).source(src).when(WHEN_ARGS).error("SystemExit (argparse)")
                .message(String.format(UNRECOGNIZED, k.display()))
                .why("SGLang's parser has no such flag (" + src + " has neither --enable-flashinfer-pure-allreduce nor "
                        + "--enable-flashinfer-allreduce-only; sglang issue #37646 shows this error on 0.5.18). The FlashInfer allreduce-only path needs "
                        + "no flag: it switches on whenever --flashinfer-allreduce-fusion-backend is set (_set_all_reduce_flags).")
                .fix("drop " + k.display() + "; set --flashinfer-allreduce-fusion-backend"
                        + (bestFusionBackend(e) != null ? "=" + bestFusionBackend(e) : " only where a backend works (none does here)")).build());
    }

    /** {@code cutedsl} (newest): accepted by the parser; the resolver and workspace path for it were not read. */
    private static Verdict cutedsl(Eval e, VerdictBuilder v) {
        boolean blackwell = e.cuda() && e.major() == 10;
        return v.outcome(Outcome.UNKNOWN).when(WHEN_WARMUP).source(SRC_EXEC_COMM)
                .why("The parser accepts cutedsl (help: 'Blackwell-only bf16 MNNVL CuTe DSL backend'), but how SGLang resolves and sets it up was not read, "
                        + "so no verdict is given. " + (blackwell ? e.gpus() + ", which is Blackwell." : e.gpus() + ", not Blackwell (SM10x): expect it to fail or "
                        + "fall back here."))
                .fix(bestFusionBackend(e.with(FUSION_BACKEND, null)) != null ? "--flashinfer-allreduce-fusion-backend=" + bestFusionBackend(e.with(FUSION_BACKEND, null))
                        + " (modelled and verified against upstream)" : null).build();
    }

    // ---- decode context parallel (§1.4)

    private static Verdict dcpSizeVerdict(Eval e) {
        VerdictBuilder v = on(e, DCP_SIZE).source(SRC_DCP).when(WHEN_ARGS);
        int dcp = e.dcp();
        if (dcp < 1) {
            return v.error("ValueError").message(String.format(DCP1, dcp)).why("_handle_dcp_validation check 1: the DCP size must be at least 1.")
                    .fix("--dcp 1 (off) or a size > 1 that divides the attention heads").build();
        }
        if (e.tp() % dcp != 0) {
            return v.error("RuntimeError").message(String.format(TP_DCP, e.tp(), dcp)).when(WHEN_COMM).source(SRC_PARALLEL_STATE)
                    .why("The argument checks pass, but initialize_model_parallel requires the TP size (" + e.tp() + ") to be a multiple of the DCP size (" + dcp + ").")
                    .fix("--dcp with a divisor of " + e.tp()).build();
        }
        return v.ok().why(dcp == 1 ? "1: decode context parallel is off." : "Decode context parallel over " + dcp + " ranks of the " + e.tpPhrase() + " group.").build();
    }

    private static Verdict dcpBackendVerdict(Eval e) {
        VerdictBuilder v = on(e, DCP_BACKEND).source(SRC_DCP).when(WHEN_ARGS);
        String backend = v.value();
        int dcp = e.dcp();
        String first = dcp < 1 ? " (start-up already stops at the --dcp-size check before this one)" : "";
        if (("a2a".equals(backend) || "fi_a2a".equals(backend)) && dcp <= 1) {
            return v.error("ValueError").message(String.format(DCP2, backend, dcp))
                    .why("_handle_dcp_validation check 2: " + backend + " only changes the DCP attention reduction, which needs a DCP size > 1; the DCP size is " + dcp + "." + first)
                    .fix("--dcp N with N > 1, or --dcp-comm-backend ag_rs (default)").build();
        }
        if ("fi_a2a".equals(backend) && !e.cuda()) {
            return v.error("ValueError").message(DCP3).why("_handle_dcp_validation check 3: the platform is " + e.platformName() + "; fi_a2a needs CUDA.")
                    .fix("--dcp-comm-backend a2a or ag_rs").build();
        }
        if ("fi_a2a".equals(backend)) {
            return fiA2a(e, v);
        }
        if (dcp <= 1) {
            return v.ok().why(backend + " (default): unused while DCP is off.").build();
        }
        if (!v.userSet() && version(e).args().dcpBackendAuto() && e.cuda()) {
            boolean fi = e.flashinferInstalled() && FlashInferRules.DCP_A2A_JIT_MAJORS.contains(e.major()) && FlashInferRules.fabricSupported(e);
            String pick = fi ? "fi_a2a" : "a2a";
            return v.value("chosen by SGLang").outcome(Outcome.UNKNOWN).resolved(pick).message(String.format(DCP_SELECTS, dcp, pick)).when(WHEN_RESOLVE)
                    .source(SRC_DCP_DEFAULT)
                    .why("No --dcp-comm-backend with DCP " + dcp + ": _dcp_comm_backend_default picks fi_a2a when is_fi_a2a_supported(...), else a2a "
                            + "(older versions keep ag_rs). Its body was not read; from the FlashInfer facts here (" + FlashInferRules.fabricWhy(e)
                            + ") it would pick " + pick + ".")
                    .fix("--dcp-comm-backend " + (fi ? "fi_a2a" : "a2a") + " to make the choice explicit").build();
        }
        return v.ok().resolved(backend).why(backend + " reduces decode attention across the " + dcp + " DCP ranks.").build();
    }

    /** fi_a2a with DCP > 1 on CUDA: argument checks pass; the warm-up needs FlashInfer's kernel and MNNVL fabric. */
    private static Verdict fiA2a(Eval e, VerdictBuilder v) {
        v.source(SRC_FI_A2A).when(WHEN_WARMUP);
        String later = " Later SGLang variants re-implement fi_a2a over NCCL LSA / torch symmetric memory with an all-rank vote, where the fabric requirement may be gone.";
        if (!e.flashinferInstalled() || !FlashInferRules.DCP_A2A_JIT_MAJORS.contains(e.major())) {
            return v.error("ImportError").message(FI_A2A_IMPORT)
                    .why((e.flashinferInstalled() ? e.gpus() + "; FlashInfer builds its DCP all-to-all module for SM 9/10/11/12 only (how the failure surfaces was not read)"
                            : "FlashInfer is not installed") + ". The argument check (CUDA only) passed.")
                    .fix("--dcp-comm-backend a2a").build();
        }
        if (!FlashInferRules.fabricSupported(e)) {
            return v.error("RuntimeError").message(FI_A2A_FABRIC)
                    .why("The argument check (CUDA only) passed, but at warm-up is_mnnvl_fabric_supported() is false: " + FlashInferRules.fabricWhy(e) + "." + later)
                    .fix("--dcp-comm-backend a2a (or ag_rs)").build();
        }
        return v.ok().resolved("fi_a2a").why("CUDA, SM " + e.sm() + " and MNNVL fabric memory: " + FlashInferRules.fabricWhy(e) + ".").build();
    }

    private static Verdict dcpReplicateVerdict(Eval e) {
        VerdictBuilder v = on(e, DCP_REPLICATE_Q).source(SRC_DCP).when(WHEN_ARGS);
        String val = e.value(DCP_REPLICATE_Q);
        if (val == null || !Values.truthy(val)) {
            return v.ok().why(val == null ? "Unset: the Q projection is not replicated." : "false: the Q projection is not replicated.").build();
        }
        int dcp = e.dcp();
        String backend = e.value(DCP_BACKEND) == null ? DCP_BACKEND.defaultValue() : e.value(DCP_BACKEND);
        if (dcp <= 1) {
            return v.error("ValueError").message(DCP4A).why("_handle_dcp_validation check 4: the DCP size is " + dcp + ".")
                    .fix("drop --dcp-replicate-q-proj, or --dcp N with N > 1 and --dcp-comm-backend a2a").build();
        }
        if (!"a2a".equals(backend) && !"fi_a2a".equals(backend)) {
            return v.error("ValueError").message(String.format(DCP4B, backend)).why("_handle_dcp_validation check 4: it only applies to a2a/fi_a2a.")
                    .fix("--dcp-comm-backend a2a, or drop --dcp-replicate-q-proj").build();
        }
        return v.ok().resolved("replicated Q projection").why("Removes the head-dim Q all-gather of " + backend + " DCP.").build();
    }

    // ---- custom all-reduce (§1.5)

    static Verdict customAllReduceVerdict(Eval e) {
        VerdictBuilder v = on(e, DISABLE_CUSTOM_AR).source(SRC_CAR).when(WHEN_COMM);
        String perCall = " Per call it handles messages under " + ("rocm".equals(e.platform()) ? "16" : "8")
                + " MiB (size a multiple of 16 bytes); larger ones go to NCCL.";
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved("nccl").why("Custom all-reduce is off by request; NCCL (or torch symmetric memory when enabled) all-reduces.").build();
        }
        if ("cpu".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed (gloo)").why("CPU build: sgl_kernel is not importable, so custom all-reduce is silently off.").build();
        }
        if (!e.cuda() && !"rocm".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed").why("The platform is " + e.platformName() + "; the custom all-reduce kernel is not built for it.").build();
        }
        if (e.tpSpansNodes()) {
            return v.fallback().resolved("nccl").message(CAR_SPANS).source(new SourceRef(SRC_CAR.repo(), SRC_CAR.commit(), SRC_CAR.path(), "92-98"))
                    .why(e.span() + " and the " + e.tpPhrase() + " group crosses them; custom all-reduce works within one node only.")
                    .fix("--disable-custom-all-reduce (silences the warning; NCCL is used either way)").build();
        }
        int ws = e.tp();
        if (ws == 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        if (!CAR_WORLD_SIZES.contains(ws)) {
            return v.fallback().resolved("nccl").message(String.format(CAR_WORLD, ws, Values.pyList(CAR_WORLD_SIZES)))
                    .source(new SourceRef(SRC_CAR.repo(), SRC_CAR.commit(), SRC_CAR.path(), "106-113"))
                    .why("World size " + ws + " (" + e.tpPhrase() + ") is not one of 2, 4, 6, 8.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2/4/6/8").build();
        }
        if (ws > 2 && !e.allNvlink()) {
            return v.fallback().resolved("nccl").message(CAR_PCIE).source(new SourceRef(SRC_CAR.repo(), SRC_CAR.commit(), SRC_CAR.path(), "143-149"))
                    .why(e.tpPhrase() + " needs every GPU pair " + (e.cuda() ? "NVLink" : "xGMI") + "-connected for more than two GPUs, and " + e.gpus() + " without " + (e.cuda() ? "NVLink" : "a direct xGMI link") + " between every pair.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2").build();
        }
        if (e.cuda() && !e.p2p()) {
            if (e.bool(P2P_CHECK)) {
                return v.fallback().resolved("nccl").message(CAR_P2P).source(new SourceRef(SRC_CAR.repo(), SRC_CAR.commit(), SRC_CAR.path(), "154-160"))
                        .why("--enable-p2p-check runs the P2P test" + (e.envTrue(SKIP_P2P_ENV) ? " (here torch.cuda.can_device_access_peer, as SGLANG_SKIP_P2P_CHECK=1)" : "")
                                + ", and the GPUs cannot access each other (cuDeviceCanAccessPeer = 0).")
                        .fix("--disable-custom-all-reduce (silences the warning)").build();
            }
            return v.ok().resolved("custom").why("The GPUs cannot access each other (cuDeviceCanAccessPeer = 0), but without --enable-p2p-check SGLang skips the P2P test "
                            + "and assumes access is allowed, so custom all-reduce is enabled anyway; what it then does on this machine was not verified." + perCall)
                    .fix("--enable-p2p-check (to let SGLang test P2P) or --disable-custom-all-reduce").build();
        }
        String link = ws == 2 ? "two GPUs" : "every GPU pair NVLink-connected";
        return v.ok().resolved("custom").why(e.tpPhrase() + " on one node with " + link
                + (e.cuda() ? "" : " (xGMI on ROCm; the P2P test is CUDA-only)") + ": the custom all-reduce kernel is used." + perCall).build();
    }

    static final List<Integer> CAR_V2_WORLD_SIZES = List.of(2, 3, 4, 5, 6, 7, 8);

    /** {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2} (newest): CustomAllReduceV2, world sizes 2–8 with full NVLink (errata §1.5). */
    private static Verdict carV2Verdict(Eval e) {
        VerdictBuilder v = on(e, CAR_V2_ENV).source(SRC_CAR_V2).when(WHEN_COMM);
        if (!e.envTrue(CAR_V2_ENV)) {
            return v.ok().why("Not set: the classic custom all-reduce (--disable-custom-all-reduce) applies.").build();
        }
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved("nccl").why("--disable-custom-all-reduce turns custom all-reduce off, V2 included.").build();
        }
        if (!e.cuda() || e.tp() <= 1) {
            return v.ok().why(!e.cuda() ? "The platform is " + e.platformName() + "; V2 is modelled on CUDA only." : "TP 1: there is no all-reduce.").build();
        }
        if (e.tpSpansNodes()) {
            return v.outcome(Outcome.UNKNOWN).why(e.span() + " with the " + e.tpPhrase() + " group across them; V2 across nodes depends on "
                    + "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE, whose code path was not read.").build();
        }
        if (!CAR_V2_WORLD_SIZES.contains(e.tp())) {
            return v.fallback().resolved("nccl").why("World size " + e.tp() + " is outside V2's 2–8 (exact warning not recorded).")
                    .fix("unset SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2, or --tp 2 to 8").build();
        }
        if (!e.allNvlink()) {
            return v.fallback().resolved("nccl").why("V2 needs every GPU pair NVLink-connected, and " + e.gpus() + " without NVLink between every pair (exact warning not recorded).")
                    .fix("unset SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2").build();
        }
        return v.ok().resolved("custom all-reduce v2").why(e.tpPhrase() + " on one node with every GPU pair NVLink-connected: V2 takes world sizes 2 to 8, odd ones included"
                + (CAR_WORLD_SIZES.contains(e.tp()) ? "." : ", so it runs where the classic kernel refuses world size " + e.tp() + ".")).build();
    }

    private static Verdict p2pCheckVerdict(Eval e) {
        VerdictBuilder v = on(e, P2P_CHECK).source(SRC_CAR).when(WHEN_COMM);
        if (!e.bool(P2P_CHECK)) {
            return v.ok().why("Off (default): SGLang assumes GPU P2P access is allowed (monkey_patch_p2p_access_check) and does not test it.").build();
        }
        return v.ok().why("On: custom all-reduce runs the real P2P test" + (e.envTrue(SKIP_P2P_ENV) ? " (SGLANG_SKIP_P2P_CHECK=1: torch.cuda.can_device_access_peer instead)" : "")
                + (e.cuda() && !e.p2p() ? "; it fails here, so custom all-reduce is disabled." : ".")).build();
    }

    private static Verdict skipP2pVerdict(Eval e) {
        VerdictBuilder v = on(e, SKIP_P2P_ENV).source(SRC_CAR).when(WHEN_COMM);
        if (!e.envTrue(SKIP_P2P_ENV)) {
            return v.ok().why("Not set: with --enable-p2p-check the real IPC P2P test runs.").build();
        }
        return v.ok().why("Set: with --enable-p2p-check SGLang trusts torch.cuda.can_device_access_peer instead of the IPC test"
                + (e.bool(P2P_CHECK) ? "." : "; without --enable-p2p-check it changes nothing.")).build();
    }

    // ---- torch symmetric memory (§1.6)

    private static Verdict torchSymmMemVerdict(Eval e) {
        VerdictBuilder v = on(e, TORCH_SYMM_MEM).source(SRC_TSM).when(WHEN_COMM);
        if (!e.bool(TORCH_SYMM_MEM)) {
            return v.ok().why("Off (default).").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        String error = null;
        String why;
        if (!e.cuda()) {
            error = TSM_UNAVAILABLE;
            why = "The platform is " + e.platformName() + "; torch symmetric memory is CUDA-only (the message continues beyond the recorded text).";
        } else if (e.major() < 9) {
            error = String.format(TSM_CAPABILITY, e.major());
            why = e.gpus() + "; torch symmetric memory all-reduce needs major 9 or newer.";
        } else if (e.major() > 10) {
            why = e.gpus() + "; the size table has majors 9 and 10 only, so the lookup fails (a KeyError; low confidence) and the communicator is unavailable.";
            error = "";
        } else if (!CAR_WORLD_SIZES.contains(e.tp())) {
            error = String.format(TSM_WORLD, e.tp());
            why = e.tpPhrase() + " is not in the size table (2, 4, 6, 8).";
        } else if (!e.multicast() || e.envTrue(NcclRules.TORCH_SYMM_MEM_DISABLE_MULTICAST)) {
            error = TSM_MULTICAST;
            why = (e.envTrue(NcclRules.TORCH_SYMM_MEM_DISABLE_MULTICAST) ? "TORCH_SYMM_MEM_DISABLE_MULTICAST=1 makes the rendezvous skip the multicast object"
                    : "The GPUs do not report NVLink multicast") + ", so handle.multicast_ptr is 0.";
        } else {
            boolean multimem = (e.major() == 9 && List.of(4, 6, 8).contains(e.tp())) || (e.major() == 10 && List.of(6, 8).contains(e.tp()));
            return v.ok().resolved("torch symmetric memory (" + (multimem ? "multimem" : "two-shot") + ")")
                    .why(e.gpus() + ", " + e.tpPhrase() + " and NVLink multicast: the communicator works, using "
                            + (multimem ? "the multimem kernel" : "two-shot (multimem is for world size 4/6/8 on SM90, 6/8 on SM100)") + ".").build();
        }
        String text = error.isEmpty() ? null : error;
        if (version(e).torchSymmMemErrorsPropagate()) {
            v.error(error.isEmpty() ? "KeyError" : "RuntimeError").message(text)
                    .why(why + " In this version the constructor's exception is not caught (one newer copy); exception class inferred.");
        } else {
            v.fallback().resolved("nccl").message(text == null ? null : String.format(TSM_CAUGHT, text))
                    .why(why + " The caller catches the constructor's exception and continues without it.");
        }
        return v.fix("drop --enable-torch-symm-mem").build();
    }

    // ---- NCCL environment (§1.7)

    /** NCCL_NVLS_ENABLE and NCCL_CUMEM_ENABLE as SGLang leaves them, and whether SGLang wrote them. */
    record NcclEnv(String nvls, boolean nvlsWritten, String cumem, boolean cumemWritten) {
    }

    static NcclEnv ncclEnv(Eval e) {
        boolean nvlsFlag = e.bool(NCCL_NVLS);
        boolean symm = e.bool(SYMM_MEM);
        String userNvls = e.value(NVLS_ENV);
        String userCumem = e.value(CUMEM_ENV);
        if (version(e).engineEnv() == EngineEnv.OLDEST) {
            return new NcclEnv(nvlsFlag ? "1" : "0", true, "0", true);
        }
        if (version(e).engineEnv() == EngineEnv.MIDDLE) {
            boolean keepNvls = symm && userNvls != null;
            return new NcclEnv(keepNvls ? userNvls : (nvlsFlag ? "1" : "0"), !keepNvls, symm ? "1" : "0", true);
        }
        boolean writeNvls = userNvls == null || nvlsFlag || symm;
        boolean writeCumem = userCumem == null || symm;
        return new NcclEnv(writeNvls ? (nvlsFlag || symm ? "1" : "0") : userNvls, writeNvls,
                writeCumem ? (symm ? "1" : "0") : userCumem, writeCumem);
    }

    private static Verdict ncclNvlsFlagVerdict(Eval e, KnobSpec k) {
        VerdictBuilder v = on(e, k).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        boolean on = e.bool(k);
        if (k == SYMM_MEM && !on) {
            return v.ok().why("Off (default): SGLang does not use NCCL symmetric memory; NCCL_NVLS_ENABLE follows --enable-nccl-nvls (see there).").build();
        }
        String how = env.nvlsWritten() ? "SGLang exports NCCL_NVLS_ENABLE=" + env.nvls() : "SGLang keeps the exported NCCL_NVLS_ENABLE=" + env.nvls();
        Partial p = NcclRules.nvls(e, env.nvls(), how);
        if (on || !env.nvlsWritten()) {
            v.apply(p);
            if (k == SYMM_MEM && on) {
                v.why(p.why() + " It also exports NCCL_CUMEM_ENABLE=" + env.cumem() + "; NCCL symmetric-memory kernels themselves are not modelled.");
            }
            if (p.outcome() == Outcome.ERROR) {
                v.fix("drop " + k.display() + (p.message() != null ? " and repair the Fabric Manager" : ""));
            }
            return v.build();
        }
        // off, and SGLang wrote NCCL_NVLS_ENABLE=0 (or 1 because the other flag is on)
        if ("1".equals(env.nvls())) {
            return v.ok().why("Not set, but " + (k == NCCL_NVLS ? SYMM_MEM : NCCL_NVLS).display() + " makes " + how + ".").build();
        }
        String reason = NcclRules.unsupported(e);
        if (reason == null && e.ncclUnreadable()) {
            return v.outcome(Outcome.UNKNOWN).resolved("NVLS disabled").why(how + "; whether NCCL could use NVLS here is unknown: the snapshot's NCCL version is unreadable.").build();
        }
        if (reason == null) {
            boolean probablyFabricIssue = e.major() >= 9 && e.nvswitch() && !e.fabricReady();
            if (probablyFabricIssue) {
                return v.ok().resolved("NVLS disabled").why(how + ", which avoids NCCL's NVLS failure on this machine (GPU fabric not ready).").build();
            }
            v.fallback().resolved("NVLS disabled").why(how + " unless --enable-nccl-nvls or --enable-symm-mem is given, so NCCL NVLS stays off although "
                    + "this machine supports it (" + e.gpus() + ", with NVSwitches and NVLink multicast).");
            return (k == NCCL_NVLS ? v.fix("--enable-nccl-nvls") : v).build();
        }
        return v.ok().resolved("NVLS disabled").why(how + "; NVLS is not available here anyway (" + reason + ").").build();
    }

    private static Verdict nvlsEnvVerdict(Eval e) {
        VerdictBuilder v = on(e, NVLS_ENV).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        String user = e.value(NVLS_ENV);
        v.resolved("NCCL_NVLS_ENABLE=" + env.nvls());
        if (user != null && env.nvlsWritten() && !user.equals(env.nvls())) {
            String how = switch (version(e).engineEnv()) {
                case OLDEST -> " (this version writes int(--enable-nccl-nvls) unconditionally)";
                case MIDDLE -> " (this version writes int(--enable-nccl-nvls) unless --enable-symm-mem is set)";
                case LATEST -> " because --enable-nccl-nvls / --enable-symm-mem decide it";
            };
            return v.fallback().why("Exported as " + user + ", but SGLang overwrites it with " + env.nvls() + how + ".")
                    .fix("1".equals(user) ? "--enable-nccl-nvls" : "drop --enable-nccl-nvls / --enable-symm-mem").build();
        }
        if (user != null) {
            return v.ok().why("Exported as " + user + (env.nvlsWritten() ? " and SGLang writes the same value." : "; this version keeps it.")).build();
        }
        return v.ok().why("Not exported: SGLang sets NCCL_NVLS_ENABLE=" + env.nvls() + " from --enable-nccl-nvls / --enable-symm-mem.").build();
    }

    private static Verdict cumemEnvVerdict(Eval e) {
        VerdictBuilder v = on(e, CUMEM_ENV).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        String user = e.value(CUMEM_ENV);
        v.resolved("NCCL_CUMEM_ENABLE=" + env.cumem());
        if (user != null && env.cumemWritten() && !user.equals(env.cumem())) {
            return v.fallback().why("Exported as " + user + ", but SGLang overwrites it with " + env.cumem()
                    + (version(e).engineEnv() != EngineEnv.OLDEST ? " (from --enable-symm-mem)" : " (this version writes 0 unconditionally)") + ".").build();
        }
        String from = version(e).engineEnv() != EngineEnv.OLDEST ? " from --enable-symm-mem." : " (this version writes 0 unconditionally).";
        return v.ok().why(user == null ? "Not exported: SGLang sets NCCL_CUMEM_ENABLE=" + env.cumem() + from : "Exported as " + user + " and kept.").build();
    }

    private static Verdict transportVerdict(Eval e) {
        VerdictBuilder v = on(e, POSIX_FD_ENV).source(SRC_TRANSPORT).when(WHEN_WARMUP);
        if (transportWorkaround(e)) {
            String why = e.env().get(POSIX_FD_ENV.name()) != null ? "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT is true"
                    : "the host is aarch64 with SM10x GPUs (" + e.gpus() + ")";
            return v.fallback().resolved("POSIX FD").message(TRANSPORT).why(why + ": SGLang patches FlashInfer's fabric probe to False, so FlashInfer workspaces "
                    + "exchange POSIX file descriptors (one host only) to avoid data corruption seen with fabric handles on GB systems.")
                    .fix(e.tpSpansNodes() ? "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 for multi-node mnnvl (at the risk the workaround avoids)" : null).build();
        }
        return v.ok().why("Inactive: the workaround applies on aarch64 hosts with SM10x GPUs, or when the variable is true.").build();
    }

    // ---- recommendation

    static Recommendation recommend(Eval e) {
        List<String> flags = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        Eval base = e;
        for (KnobSpec k : List.of(FUSION_BACKEND, FUSION_DEPRECATED, ENFORCE_DISABLE, PURE_ALLREDUCE, ALLREDUCE_ONLY, TORCH_SYMM_MEM,
                DISABLE_CUSTOM_AR, NCCL_NVLS, SYMM_MEM, P2P_CHECK)) {
            base = base.with(k, null);
        }
        for (KnobSpec k : List.of(DCP_BACKEND, DCP_REPLICATE_Q)) {
            Verdict v = k == DCP_BACKEND ? dcpBackendVerdict(base) : dcpReplicateVerdict(base);
            if (e.isSet(k) && v.outcome() == Outcome.ERROR) {
                notes.add("drop " + k.display() + "=" + e.value(k) + " (" + (v.message() != null ? v.errorClass() + " at start-up" : "fails") + ")");
                base = base.with(k, null);
            }
        }
        String best = e.bool(DETERMINISTIC) || e.tp() <= 1 ? null : bestFusionBackend(base);
        if (best != null) {
            flags.add("--flashinfer-allreduce-fusion-backend=" + best);
            notes.add("FlashInfer all-reduce + RMSNorm fusion with " + best);
            base = base.with(FUSION_BACKEND, best);
        } else if (e.tp() > 1 && e.cuda()) {
            Verdict f = fusionVerdict(base.with(FUSION_BACKEND, "auto"), false);
            notes.add("no FlashInfer fusion (" + (e.bool(DETERMINISTIC) ? "deterministic inference turns it off" : "no backend works here: 'auto' " + brief(f)) + ")");
            base = base.with(FUSION_BACKEND, null);
            if (pipeline(base).effective() != null && fusionVerdict(base, false).outcome() != Outcome.OK) {
                flags.add("--enforce-disable-flashinfer-allreduce-fusion");
                base = base.with(ENFORCE_DISABLE, "true");
            }
        }
        Verdict car = customAllReduceVerdict(base.with(DISABLE_CUSTOM_AR, null));
        if (car.outcome() == Outcome.FALLBACK && car.message() != null) {
            flags.add("--disable-custom-all-reduce");
            notes.add("custom all-reduce cannot run here (flag silences the warning)");
            base = base.with(DISABLE_CUSTOM_AR, "true");
        } else if ("custom".equals(car.resolved())) {
            notes.add("custom all-reduce for small messages");
        }
        if (e.cuda() && e.tp() > 1 && NcclRules.unsupported(e) == null && e.fabricReady()) {
            flags.add("--enable-nccl-nvls");
            notes.add("NCCL NVLS (SGLang turns it off by default)");
            base = base.with(NCCL_NVLS, "true");
        }
        if (e.dcp() > 1) {
            String dcpBackend = dcpBackendVerdict(base.with(DCP_BACKEND, "fi_a2a")).outcome() == Outcome.OK ? "fi_a2a" : null;
            if (dcpBackend != null) {
                flags.add("--dcp-comm-backend=fi_a2a");
                notes.add("DCP over FlashInfer's MNNVL all-to-all");
                base = base.with(DCP_BACKEND, dcpBackend);
            }
        }
        for (Verdict v : evaluate(e)) {
            boolean replaced = flags.stream().anyMatch(f -> f.startsWith(v.knob() + "=") || f.equals(v.knob()));
            boolean dcpKnob = List.of(DCP_SIZE.display(), DCP_BACKEND.display(), DCP_REPLICATE_Q.display()).contains(v.knob());
            if (v.userSet() && v.outcome() == Outcome.ERROR && !replaced && !dcpKnob) {
                notes.add(0, "drop " + v.knob() + "=" + v.value() + " (fails at start-up)");
            }
        }
        List<String> left = new ArrayList<>();
        for (Verdict v : evaluate(base)) {
            if (v.outcome() == Outcome.ERROR) {
                left.add(v.knob() + "=" + v.value() + " still fails" + (v.message() != null ? " (" + v.message() + ")" : ""));
            }
        }
        String summary = (notes.isEmpty() ? "Defaults are fine." : String.join("; ", notes) + ".")
                + (left.isEmpty() ? "" : " Deployment settings to change: " + String.join("; ", left) + ".");
        return new Recommendation(FW, flags, env, summary);
    }
}
