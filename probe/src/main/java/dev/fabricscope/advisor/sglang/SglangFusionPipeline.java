package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.rule.Eval;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CUTEDSL_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DETERMINISTIC;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ENFORCE_DISABLE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_DEPRECATED;
import static dev.fabricscope.advisor.sglang.SglangKnobs.MOE_A2A;
import static dev.fabricscope.advisor.sglang.SglangKnobs.POSIX_FD_ENV;

import java.util.List;

/**
 * SGLang's FlashInfer all-reduce fusion decisions before any verdict is worded: the architecture predicates, the
 * argument pipeline that yields the effective backend (auto-enable and the passes that disable it) and
 * {@code _resolve_backend}. Reference: backend-rules.md §1.1–1.2.
 */
final class SglangFusionPipeline {

    static final int FUSE_MAX_TOKENS = 2048;
    static final List<String> CUTEDSL_ARCHS = List.of("Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration");

    private SglangFusionPipeline() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
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
                    "user".equals(source) ? SglangMessage.CUTEDSL_SUPPRESS.format(value) : null, SglangSources.AUTO, null);
        }
        if (e.bool(ENFORCE_DISABLE) && value != null) {
            return new Pipeline(source, autoArch, autoBlocked, before, ENFORCE_DISABLE.display(), SglangMessage.ENFORCE.text(), SglangSources.ENFORCE, null);
        }
        if (e.bool(DETERMINISTIC) && value != null) {
            return new Pipeline(source, autoArch, autoBlocked, before, DETERMINISTIC.display(), SglangMessage.DETERMINISTIC.text(), SglangSources.DETERMINISTIC, null);
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
        if (e.version(SglangVersion.class).args().dpAttention(e)) {
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
            return new Resolution(null, SglangMessage.R1.text(), notSm90Or100(e) + ". The resolver checks this first, for every value.", SglangSources.R1);
        }
        switch (value) {
            case "auto" -> {
                if (multi) {
                    return s100 ? new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": 'auto' picks mnnvl on SM10x.", fusionSource(e))
                            : new Resolution(null, SglangMessage.R2.text(), e.gpus() + " and " + e.span() + ": 'auto' supports multi-node only on SM10x (Blackwell).", fusionSource(e));
                }
                return s100 ? new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": 'auto' picks mnnvl on SM10x.", SglangSources.AUTO_RESOLVE)
                        : new Resolution("trtllm", null, e.gpus() + " and " + e.span() + ": 'auto' picks trtllm on SM90.", SglangSources.AUTO_RESOLVE);
            }
            case "trtllm" -> {
                if (multi) {
                    return new Resolution(null, SglangMessage.R3.text(), e.span() + ": the trtllm backend is single-node only, on any architecture.", SglangSources.R3);
                }
                return new Resolution("trtllm", null, e.gpus() + " and " + e.span() + ": trtllm is allowed.", SglangSources.R3);
            }
            default -> {
                if (s100 || !multi) {
                    return new Resolution("mnnvl", null, e.gpus() + " and " + e.span() + ": mnnvl is allowed "
                            + (s100 ? "on SM10x." : "on SM90 single-node."), fusionSource(e));
                }
                return new Resolution(null, SglangMessage.R4.text(), e.gpus() + " and " + e.span() + ": mnnvl needs SM10x, or SM90 on one node.", fusionSource(e));
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

}
