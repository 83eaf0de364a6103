package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CUTEDSL_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DETERMINISTIC;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DP_ATTENTION;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DP_SIZE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ENFORCE_DISABLE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_DEPRECATED;
import static dev.fabricscope.advisor.sglang.SglangKnobs.MOE_A2A;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_ARGS;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_RESOLVE;

import java.util.Optional;

/**
 * The SGLang knobs around fusion: the deprecated alias, the disabling flags, the auto-enable conditions, the
 * CuTe-DSL environment switch and the allreduce-only flags upstream never had. Reference: backend-rules.md §1.2–1.3.
 */
final class SglangFusionKnobVerdicts {

    private SglangFusionKnobVerdicts() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
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

    static Verdict deprecatedVerdict(Eval e) {
        VerdictBuilder v = e.on(FUSION_DEPRECATED, SglangVersion.class).source(SglangSources.DEPRECATED).when(WHEN_RESOLVE);
        if (!e.bool(FUSION_DEPRECATED)) {
            return v.ok().why("Not set (deprecated alias of --flashinfer-allreduce-fusion-backend=auto"
                    + (version(e).args().deprecatedFlagOnCli() ? "" : "; no longer a command-line flag in this version") + ").").build();
        }
        if (!version(e).args().deprecatedFlagOnCli()) {
            String best = SglangFusionVerdict.bestFusionBackend(e.with(FUSION_DEPRECATED, null));
            return v.error("SystemExit (argparse)").message(SglangMessage.UNRECOGNIZED.format(FUSION_DEPRECATED.display())).when(WHEN_ARGS).source(SglangSources.EXEC_COMM)
                    .why("In this version enable_flashinfer_allreduce_fusion is a config field without a command-line flag (Arg(no_cli=True)), so the parser rejects it.")
                    .fix(best != null ? "--flashinfer-allreduce-fusion-backend=" + best + " instead" : "drop --enable-flashinfer-allreduce-fusion (no fusion backend works here)")
                    .build();
        }
        if (e.isSet(FUSION_BACKEND)) {
            // _handle_deprecated_args warns only when the backend is None; otherwise the flag is reset to False silently
            return v.ok().why("--flashinfer-allreduce-fusion-backend is also set, so this deprecated flag changes nothing and SGLang prints no "
                    + "deprecation warning (it warns only when the backend is unset, then resets the flag to False).")
                    .fix("drop --enable-flashinfer-allreduce-fusion").build();
        }
        Verdict f = SglangFusionVerdict.fusionVerdict(e, false);
        v.like(f);
        if (f.outcome() == Outcome.OK) {
            v.message(SglangMessage.DEPRECATED).when(WHEN_RESOLVE);
        }
        String best = SglangFusionVerdict.bestFusionBackend(e);
        return v.why("Deprecated: it sets --flashinfer-allreduce-fusion-backend=auto (warning '" + SglangMessage.DEPRECATED.text() + "'), which here " + summary(f) + ".")
                .fix(best != null ? "--flashinfer-allreduce-fusion-backend=" + best + " instead" : "drop --enable-flashinfer-allreduce-fusion (no fusion backend works here)")
                .build();
    }

    static Verdict enforceVerdict(Eval e) {
        VerdictBuilder v = e.on(ENFORCE_DISABLE, SglangVersion.class).source(SglangSources.ENFORCE).when(WHEN_RESOLVE);
        if (!e.bool(ENFORCE_DISABLE)) {
            return v.ok().why("Not set: fusion follows --flashinfer-allreduce-fusion-backend and auto-enable.").build();
        }
        SglangFusionPipeline.Pipeline p = SglangFusionPipeline.pipeline(e);
        if (p.before() == null || !ENFORCE_DISABLE.display().equals(p.disabledBy())) {
            return v.ok().why("Fusion would be off anyway" + (p.before() == null ? " (nothing requested and auto-enable did not fire: " + p.autoBlocked() + ")"
                    : " (" + p.disabledBy() + " already disables it)") + ".").build();
        }
        Verdict without = SglangFusionVerdict.fusionVerdict(e.with(ENFORCE_DISABLE, null), false);
        String effect = switch (without.outcome()) {
            case ERROR -> ", so the " + without.errorClass() + " '" + without.message() + "' of --flashinfer-allreduce-fusion-backend=" + p.before() + " never fires";
            case FALLBACK -> "; without it fusion would fall back anyway";
            case OK -> without.resolved() != null ? "; without it fusion would work here (" + without.resolved() + ")" : "";
            case UNKNOWN, NOT_APPLICABLE -> "";
        };
        v.ok().message(SglangMessage.ENFORCE).why("Sets the backend to None before warm-up, winning over "
                + ("auto-enable".equals(p.source()) ? "auto-enable for " + p.autoArch() : "--flashinfer-allreduce-fusion-backend=" + p.before()) + effect + ".");
        if (without.outcome() == Outcome.OK && without.resolved() != null) {
            v.fix("drop --enforce-disable-flashinfer-allreduce-fusion to fuse with " + without.resolved());
        }
        return v.build();
    }

    static Verdict deterministicVerdict(Eval e) {
        VerdictBuilder v = e.on(DETERMINISTIC, SglangVersion.class).source(SglangSources.DETERMINISTIC).when(WHEN_RESOLVE);
        if (!e.bool(DETERMINISTIC)) {
            return v.ok().why("Not set: fusion is not affected.").build();
        }
        SglangFusionPipeline.Pipeline p = SglangFusionPipeline.pipeline(e);
        if (DETERMINISTIC.display().equals(p.disabledBy())) {
            return v.ok().message(SglangMessage.DETERMINISTIC).why("Deterministic inference sets the fusion backend (" + p.before() + ") to None during argument resolution.").build();
        }
        return v.ok().why("Fusion is off anyway, so deterministic inference changes nothing about it.").build();
    }

    static Verdict dpAttentionVerdict(Eval e) {
        VerdictBuilder v = e.on(DP_ATTENTION, SglangVersion.class).source(SglangSources.PER_CALL).when(WHEN_RESOLVE);
        if (!e.bool(DP_ATTENTION)) {
            return v.ok().why("Off: FlashInfer fusion may be auto-enabled and used per call.").build();
        }
        if (version(e).args().dpAttentionDropped(e)) {
            return v.fallback().resolved("DP attention off").source(SglangSources.DP_DEFAULTS)
                    .why("--enable-dp-attention with --dp-size " + (e.value(DP_SIZE) == null ? "1 (default)" : e.value(DP_SIZE))
                            + ": SGLang's _data_parallelism_defaults turns DP attention (and the DP LM head) off without a "
                            + "message, so FlashInfer fusion may be auto-enabled and used per call as without the flag.")
                    .fix("--dp-size N (N > 1, dividing TP) to run DP attention").build();
        }
        int dp = e.intValue(DP_SIZE);
        if (dp > 1 && e.tp() % dp != 0) {
            return v.error("AssertionError").source(SglangSources.DP_DIVIDES_TP)
                    .why(Slots.fill("With DP attention on, SGLang asserts tp_size % dp_size == 0 while it resolves the arguments, and TP {tp} "
                            + "is not a multiple of --dp-size {dp}: the server stops with a bare AssertionError.", "tp", e.tp(), "dp", dp))
                    .fix("a --dp-size that divides TP " + e.tp()).build();
        }
        return v.ok().why("On: SGLang neither auto-enables FlashInfer all-reduce fusion nor uses the fused kernel (apply_flashinfer_allreduce_fusion needs DP attention off).").build();
    }

    static Verdict moeA2aVerdict(Eval e) {
        VerdictBuilder v = e.on(MOE_A2A, SglangVersion.class).source(SglangSources.AUTO).when(WHEN_RESOLVE);
        String val = v.value();
        if ("none".equals(val)) {
            return v.ok().why("none: no effect on FlashInfer fusion auto-enable.").build();
        }
        String fusion = val + ": FlashInfer all-reduce fusion is not auto-enabled (it needs --moe-a2a-backend none).";
        SglangVersion.Args args = version(e).args();
        if (!args.a2aChecks()) {
            return v.ok().why(fusion).build();
        }
        boolean dpAttention = args.dpAttention(e);
        int dp = e.intValue(DP_SIZE);
        if ("flashinfer".equals(val) && !(dpAttention && dp == e.tp())) {
            return v.error("AssertionError").message(SglangMessage.A2A_FLASHINFER_DP).source(SglangSources.A2A_FLASHINFER_DP)
                    .why(Slots.fill("{fusion} _handle_a2a_moe asserts DP attention with --dp-size equal to TP ({dp} and TP {tp}{att}).",
                            "fusion", fusion, "dp", "--dp-size " + dp, "tp", e.tp(), "att", dpAttention ? "" : ", DP attention off"))
                    .fix(Slots.fill("--enable-dp-attention --dp-size {tp}, or --moe-a2a-backend none", "tp", e.tp())).build();
        }
        if ("pplx".equals(val) && !(dpAttention && dp >= 2)) {
            return v.error("AssertionError").message(SglangMessage.A2A_PPLX_DP).source(SglangSources.A2A_PPLX_DP)
                    .why(fusion + " _handle_a2a_moe asserts DP attention with at least 2 DP groups (pplx-kernels' AllToAll needs them).")
                    .fix("--enable-dp-attention --dp-size N (N >= 2), or --moe-a2a-backend none").build();
        }
        return v.outcome(Outcome.UNKNOWN).source(SglangSources.A2A_MOE).why(Slots.fill("{fusion} Not modelled: the checks "
                + "_handle_a2a_moe makes for {backend} (MoE runner backend, DeepEP mode, dispatch-token budgets, validated "
                + "architectures) are read but not modelled, so whether it starts is not known.", "fusion", fusion, "backend", val)).build();
    }

    static Verdict cutedslVerdict(Eval e) {
        VerdictBuilder v = e.on(CUTEDSL_ENV, SglangVersion.class).source(SglangSources.AUTO).when(WHEN_RESOLVE);
        if (!e.envTrue(CUTEDSL_ENV)) {
            return v.ok().why("Not set: the FlashInfer fusion path is used when fusion is on.").build();
        }
        if (e.model() != null && SglangFusionPipeline.CUTEDSL_ARCHS.contains(e.model())) {
            String set = e.value(SglangKnobs.FUSION_BACKEND);
            VerdictBuilder b = v.ok().resolved("CuTe-DSL MNNVL all-reduce fusion");
            if (set != null) {
                b.message(SglangMessage.CUTEDSL_SUPPRESS.format(set));
            }
            return b.why("With a Qwen3.5-MoE model (" + e.model() + ") SGLang keeps the FlashInfer fusion backend None"
                    + (set != null ? ", warning that it suppresses --flashinfer-allreduce-fusion-backend=" + set : " (no auto-enable)")
                    + ", and uses the CuTe-DSL path (overrides.py@003bbaf9:1032-1038).").build();
        }
        return v.ok().why("Only read for " + String.join(" and ", new java.util.TreeSet<>(SglangFusionPipeline.CUTEDSL_ARCHS)) + "; the model here is "
                + (e.model() == null ? "not given" : e.model()) + ".").build();
    }

    /** A flag upstream never had: an argparse error when passed, no verdict otherwise. */
    static java.util.Optional<Verdict> absentVerdict(Eval e, KnobSpec k) {
        if (!e.isSet(k)) {
            return java.util.Optional.empty();
        }
        SourceRef src = version(e).args().source();
        return java.util.Optional.of(e.on(k, SglangVersion.class).source(src).when(WHEN_ARGS).error("SystemExit (argparse)")
                .message(SglangMessage.UNRECOGNIZED.format(k.display()))
                .why("SGLang's parser has no such flag (" + src + " has neither --enable-flashinfer-pure-allreduce nor "
                        + "--enable-flashinfer-allreduce-only; sglang issue #37646 shows this error on 0.5.18). The FlashInfer allreduce-only path needs "
                        + "no flag: it switches on whenever --flashinfer-allreduce-fusion-backend is set (_set_all_reduce_flags).")
                .fix("drop " + k.display() + "; set --flashinfer-allreduce-fusion-backend"
                        + (SglangFusionVerdict.bestFusionBackend(e) != null ? "=" + SglangFusionVerdict.bestFusionBackend(e) : " only where a backend works (none does here)")).build());
    }

}
