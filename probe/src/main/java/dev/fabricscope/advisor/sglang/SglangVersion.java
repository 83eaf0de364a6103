package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled SGLang version.
 *
 * @param engineEnv                    which of the three {@code _set_envs_and_config} variants writes the NCCL environment
 * @param torchSymmMemFailuresWarn     TorchSymmMemCommunicator's constructor was read where each failed check warns and
 *                                     leaves the communicator disabled (torch_symm_mem.py@9be3044b in the fork; the group
 *                                     then all-reduces without it); else what the caller does was not read, unknown
 * @param twoshotRetry                 MNNVL workspaces are re-created when the TWOSHOT stage is misaligned
 * @param gbTransportWorkaround        aarch64 + SM10x (or the env) forces POSIX-FD handles for FlashInfer
 * @param autoEnableArchs              {@code _FLASHINFER_ALLREDUCE_FUSION_ARCHS}
 * @param args                         the argument surface: exec_.py@01d795f8 (newest) or the seed server_args.py
 */
public record SglangVersion(String id, String description, EngineEnv engineEnv, boolean torchSymmMemFailuresWarn,
                     boolean twoshotRetry, boolean gbTransportWorkaround, List<String> autoEnableArchs,
                     SourceRef engineSource, SourceRef fusionSource, Args args) implements RuleVersion {

    /** The three {@code engine.py _set_envs_and_config} variants (backend-rules.md errata §1.7). */
    enum EngineEnv {
        /** Keeps exported NCCL_NVLS_ENABLE / NCCL_CUMEM_ENABLE unless a flag decides them. */
        LATEST,
        /**
         * NCCL_CUMEM_ENABLE=int(--enable-symm-mem); NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) only without --enable-symm-mem (with
         * it, an exported value stays and an unexported one stays unset).
         */
        MIDDLE,
        /** NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) and NCCL_CUMEM_ENABLE=0, unconditionally. */
        OLDEST
    }

    /**
     * What the argument parser accepts.
     *
     * @param deprecatedFlagOnCli  {@code --enable-flashinfer-allreduce-fusion} is still a CLI flag: in the newest set too, where
     *                             the field is Arg(no_cli=True) but add_cli_args registers the flag by hand
     *                             (server_args.py@001067ff:9836-9841; earlier read from exec_.py alone as rejected) (no_cli=True at 01d795f8)
     * @param cutedslChoice        {@code cutedsl} is a valid fusion backend
     * @param dcpBackendAuto       with DCP > 1 and no --dcp-comm-backend, SGLang picks fi_a2a or a2a (else ag_rs)
     * @param customAllReduceV2    {@code dispatch_custom_allreduce} picks CustomAllReduceV2 unless
     *                             {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2=0} (default on: environ.py@0003215c)
     * @param prefillCpChecks      {@code handle_context_parallelism} (parallel_hook.py@008b79d2) validates prefill CP
     * @param modelOverrides       per-model overrides run at resolution (model_overrides/kimi_k3.py@06dd383b)
     * @param fiA2aSupportCheck    fi_a2a's warm-up asks {@code is_fi_a2a_supported} (comm.py@00ac7105:388-396: SM100, and
     *                             MNNVL fabric memory or a DCP group inside one node), not the MNNVL fabric alone
     * @param dpAttentionNeedsDp   {@code _data_parallelism_defaults} turns --enable-dp-attention off, silently, when
     *                             --dp-size is 1 (overrides.py@003bbaf9:1429; ep_join_mode 'scale' excepted)
     * @param deterministicNcclTree --enable-deterministic-inference at TP > 1 on CUDA turns custom all-reduce and
     *                             --enable-torch-symm-mem off and NCCL to allreduce:tree (server_args.py@001067ff:9140-9172)
     * @param a2aChecks            {@code _handle_a2a_moe} (server_args.py@001067ff:7531-7730) was read: FlashInfer MoE a2a
     *                             needs DP attention with dp == tp (L7647), pplx DP attention with dp >= 2 (L7701)
     * @param v2FallsBackToClassic a group CustomAllReduceV2's checks refuse gets the classic CustomAllreduce, whose own checks
     *                             then apply (sgl-project PR #25650, fork mmangkad-dev/sglang@3e255fd4, 2026-05-28); without it,
     *                             the refused V2 stays disabled and NCCL all-reduces
     * @param source               where the fields were read
     */
    record Args(boolean deprecatedFlagOnCli, boolean cutedslChoice, boolean dcpBackendAuto, boolean customAllReduceV2,
                boolean prefillCpChecks, boolean modelOverrides, boolean dpAttentionNeedsDp, boolean fiA2aSupportCheck,
                boolean deterministicNcclTree, boolean a2aChecks, boolean v2FallsBackToClassic, SourceRef source) {

        /** Whether DP attention is on after resolution: as given, or off at --dp-size 1 where this version says so. */
        boolean dpAttention(dev.fabricscope.advisor.rule.Eval e) {
            if (!e.bool(SglangKnobs.DP_ATTENTION)) {
                return false;
            }
            return !dpAttentionNeedsDp || e.intValue(SglangKnobs.DP_SIZE) > 1;
        }

        /** --enable-dp-attention given but turned off by resolution (the verdict says so). */
        boolean dpAttentionDropped(dev.fabricscope.advisor.rule.Eval e) {
            return e.bool(SglangKnobs.DP_ATTENTION) && !dpAttention(e);
        }

        /** Kimi-K3 with DCP > 1: its override turns --enable-symm-mem off and Q replication on (a2a/fi_a2a). */
        boolean kimiK3Dcp(dev.fabricscope.advisor.rule.Eval e) {
            return modelOverrides && KIMI_K3.equals(e.model()) && e.dcp() > 1;
        }
    }

    static final String KIMI_K3 = "KimiK3ForConditionalGeneration";

    static final List<String> ARCHS_NEWEST = List.of("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM",
            "GptOssForCausalLM", "GlmMoeDsaForCausalLM", "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "MistralLarge3ForCausalLM",
            "Qwen3MoeForCausalLM", "Qwen3VLMoeForConditionalGeneration", "Qwen3NextForCausalLM", "Qwen4ExpForConditionalGeneration",
            "KimiK25ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration", "InternS2PreviewForConditionalGeneration",
            "Qwen3_5ForConditionalGeneration", "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronH_Omni_Reasoning_V3");
    static final List<String> ARCHS_OLDER = ARCHS_NEWEST.stream()
            .filter(a -> !a.equals("Qwen4ExpForConditionalGeneration") && !a.equals("NemotronH_Omni_Reasoning_V3")).toList();

    static final Args ARGS_NEWEST = new Args(true, true, true, true, true, true, true, true, true, true, true, SglangSources.EXEC_COMM);
    /** As newest, from #24363 (V2 on by default, 2026-05-08) up to #25650 (2026-05-28): a refused V2 leaves NCCL. */
    static final Args ARGS_V2_STRICT = new Args(true, true, true, true, true, true, true, true, true, true, false, SglangSources.EXEC_COMM);
    static final Args ARGS_SEED = new Args(true, false, false, false, false, false, false, false, false, false, false, SglangSources.SEED_ARGS);

    public static final List<SglangVersion> ALL = List.of(
            new SglangVersion("newest", "sglang@" + SglangSources.SEED.substring(0, 8) + " server_args.py (seed), overrides.py@003bbaf9, newer copy of "
                    + "flashinfer_comm_fusion.py (TWOSHOT retry), latest-style engine.py (keeps exported NCCL env), torch_symm_mem.py "
                    + "as the fork's 9be3044b (a failed check warns and disables the communicator); argument surface of exec_.py@01d795f8 (cutedsl backend, deprecated fusion flag still registered by add_cli_args "
                    + "(server_args.py@001067ff:9836), DCP backend chosen automatically, CustomAllReduceV2 on by default per environ.py@0003215c with the classic kernel for a group V2 refuses (#25650, fork 3e255fd4), prefill CP checks of "
                    + "parallel_hook.py@008b79d2; deterministic inference at TP > 1 turns custom all-reduce and torch symmetric memory off, server_args.py@001067ff)", EngineEnv.LATEST, true, true, false, ARCHS_NEWEST,
                    SglangSources.ENGINE_NEW, SglangSources.FUSION_NEW, ARGS_NEWEST),
            new SglangVersion("v2-strict", "as newest, but dispatch_custom_allreduce returns CustomAllReduceV2 whatever its checks say, so a "
                    + "group V2 refuses all-reduces with NCCL (V2 on by default from #24363, 80d0226b, 2026-05-08, up to the graceful fallback "
                    + "to the classic kernel of #25650, 3e255fd4, 2026-05-28)", EngineEnv.LATEST, true, true, false, ARCHS_NEWEST,
                    SglangSources.ENGINE_NEW, SglangSources.FUSION_NEW, ARGS_V2_STRICT),
            new SglangVersion("middle", "seed server_args.py (deprecated flag accepted, no cutedsl, DCP backend default ag_rs); the middle engine.py copy "
                    + "(NCCL_CUMEM_ENABLE=int(--enable-symm-mem); NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) only without --enable-symm-mem); traceback-matched "
                    + "flashinfer_comm_fusion.py; TorchSymmMemCommunicator failures: caller not read", EngineEnv.MIDDLE, false, false, false, ARCHS_OLDER,
                    SglangSources.ENGINE_MID, SglangSources.FUSION_TB, ARGS_SEED),
            new SglangVersion("older", "older copies: engine.py writes NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) and NCCL_CUMEM_ENABLE=0 "
                    + "unconditionally; TorchSymmMemCommunicator failures: caller not read; traceback-matched flashinfer_comm_fusion.py; "
                    + "auto-enable list without Qwen4Exp/NemotronH_Omni; GB200 transport workaround (sglang@00f6ebe5)",
                    EngineEnv.OLDEST, false, false, true, ARCHS_OLDER, SglangSources.ENGINE_OLD, SglangSources.FUSION_TB, ARGS_SEED));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return SglangRuleSets.of(id);
    }

    @Override
    public String framework() {
        return SglangKnobs.FW;
    }
}
