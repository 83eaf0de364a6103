package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ENFORCE_DISABLE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_DEPRECATED;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_ARGS;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_RESOLVE;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_WARMUP;

import java.util.List;

/**
 * SGLang's {@code --flashinfer-allreduce-fusion-backend} verdict: what the effective backend does at warm-up, one
 * function per stage (argument parsing, resolution, workspace guards, preflight, workspace creation, kernel limits,
 * per-call checks). Reference: backend-rules.md §1.2.
 */
final class SglangFusionVerdict {

    private SglangFusionVerdict() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
    }

    /** One evaluation of the fusion verdict: the builder, the argument pipeline's result, and whether to add fixes. */
    private record Stage(Eval e, VerdictBuilder v, SglangFusionPipeline.Pipeline p, boolean withFix) {

        /** Fusion that the user asked for and does not get is a fallback; fusion nobody asked for is fine off. */
        Outcome lesser() {
            return p.requestedByUser() ? Outcome.FALLBACK : Outcome.OK;
        }

        /** How the backend came to be set, when not by the user. */
        String intro() {
            return switch (p.source()) {
                case "auto-enable" -> "Auto-enable set 'auto' for " + p.autoArch() + ". ";
                case "deprecated" -> "--enable-flashinfer-allreduce-fusion set 'auto'. ";
                default -> "";
            };
        }

        /** The verdict, with a backend that works here (or how to turn fusion off) as the fix. */
        Verdict fixed() {
            return SglangFusionVerdict.fixed(v, e, withFix, p.requestedByUser()).build();
        }
    }

    static Verdict fusionVerdict(Eval e, boolean withFix) {
        VerdictBuilder v = e.on(FUSION_BACKEND, SglangVersion.class).source(SglangSources.FIELD);
        if (CUTE_DSL.equals(e.value(FUSION_BACKEND))) {
            return cuteDslSpelling(e, v, withFix);
        }
        if ("cutedsl".equals(e.value(FUSION_BACKEND)) && !version(e).args().cutedslChoice()) {
            return cutedslRejected(e, v, withFix);
        }
        SglangFusionPipeline.Pipeline p = SglangFusionPipeline.pipeline(e);
        if (!v.userSet()) {
            v.value("auto-enable".equals(p.source()) ? "auto (auto-enabled)" : "deprecated".equals(p.source())
                    ? "auto (from --enable-flashinfer-allreduce-fusion)" : "unset");
        }
        Stage s = new Stage(e, v, p, withFix);
        if (p.effective() == null) {
            return notEffective(s);
        }
        if ("cutedsl".equals(p.effective())) {
            return cutedsl(e, v);
        }
        Verdict skipped = workspaceSkipped(s);
        if (skipped != null) {
            return skipped;
        }
        SglangFusionPipeline.Resolution r = SglangFusionPipeline.resolve(e, p.effective());
        if (r.error() != null) {
            v.error("ValueError").message(r.error()).when(WHEN_WARMUP).source(r.source())
                    .why(s.intro() + r.why() + " The ValueError is raised from ensure_workspace_initialized during model-runner warm-up and kills the scheduler process.");
            return s.fixed();
        }
        return workspace(s, r);
    }

    /** FlashInfer's spelling of its CuTe-DSL kernel backends; SGLang's fusion backend choice is spelled {@code cutedsl}. */
    static final String CUTE_DSL = "cute-dsl";

    /** {@code cute-dsl}: no SGLang version offers it, so argparse exits with its choices. */
    private static Verdict cuteDslSpelling(Eval e, VerdictBuilder v, boolean withFix) {
        boolean newest = version(e).args().cutedslChoice();
        return v.error("SystemExit (argparse)").message(newest ? SglangMessage.INVALID_CHOICE_NEWEST : SglangMessage.INVALID_CHOICE, CUTE_DSL)
                .when(WHEN_ARGS).source(version(e).args().source())
                .why("cute-dsl is FlashInfer's spelling of its CuTe-DSL kernel backends (backend=\"cute-dsl\" for attention, MLA and RoPE "
                        + "kernels); SGLang's --flashinfer-allreduce-fusion-backend spells its CuTe-DSL choice cutedsl"
                        + (newest ? "." : ", and this version does not offer that either (it came with exec_.py@01d795f8)."))
                .fix(withFix ? (newest ? "--flashinfer-allreduce-fusion-backend=cutedsl" : "drop --flashinfer-allreduce-fusion-backend=cute-dsl") : null)
                .build();
    }

    /** {@code cutedsl} where this version's parser does not offer it: argparse exits. */
    private static Verdict cutedslRejected(Eval e, VerdictBuilder v, boolean withFix) {
        String best = withFix ? bestFusionBackend(e.with(FUSION_BACKEND, null)) : null;
        return v.error("SystemExit (argparse)").message(SglangMessage.INVALID_CHOICE, "cutedsl").when(WHEN_ARGS).source(version(e).args().source())
                .why("This SGLang version's --flashinfer-allreduce-fusion-backend takes auto, trtllm or mnnvl; cutedsl came later (exec_.py@01d795f8).")
                .fix(withFix ? (best != null ? "--flashinfer-allreduce-fusion-backend=" + best : "drop --flashinfer-allreduce-fusion-backend=cutedsl") : null)
                .build();
    }

    /** No backend reaches warm-up: a disabling pass set it to None, or nothing requested it and auto-enable did not fire. */
    private static Verdict notEffective(Stage s) {
        SglangFusionPipeline.Pipeline p = s.p();
        if (p.before() != null) {
            return s.v().outcome(s.lesser()).message(p.disableMsg()).when(WHEN_RESOLVE).source(p.disableSource())
                    .why(p.disabledBy() + " sets the backend to None during argument resolution"
                            + ("auto-enable".equals(p.source()) ? " (after auto-enable chose 'auto' for " + p.autoArch() + ")" : "")
                            + (p.disableMsg() == null ? "; the warning text was not recorded" : "") + ", so no fusion workspace is created.").build();
        }
        return s.v().ok().source(SglangSources.AUTO).when(WHEN_RESOLVE)
                .why("Fusion is off unless requested; auto-enable did not fire because " + p.autoBlocked() + ".").build();
    }

    /** The guards inside {@code ensure_workspace_initialized}, before the resolver: no CUDA or FlashInfer, or TP 1; null when they pass. */
    private static Verdict workspaceSkipped(Stage s) {
        Eval e = s.e();
        if (!e.cuda() || !e.flashinferInstalled()) {
            s.v().outcome(s.lesser()).when(WHEN_WARMUP).source(SglangSources.ENSURE)
                    .why(s.intro() + (!e.cuda() ? "The platform is " + e.platformName() + ": is_flashinfer_available() requires CUDA"
                            : "FlashInfer is not importable") + ", so SGLang skips the workspace silently and uses the normal all-reduce.");
            return s.fixed();
        }
        if (e.tp() <= 1) {
            return s.v().ok().when(WHEN_WARMUP).source(SglangSources.ENSURE)
                    .why(s.intro() + "TP 1: the fusion group has one rank, so SGLang skips the workspace; there is no all-reduce to fuse.").build();
        }
        return null;
    }

    /** The resolved backend's workspace: the multicast preflight, creation, the kernels' rank limits, then the per-call checks. */
    private static Verdict workspace(Stage s, SglangFusionPipeline.Resolution r) {
        Eval e = s.e();
        String backend = r.backend();
        String resolvedWhy = s.intro() + r.why();
        if (!e.multicast()) {
            return preflightFails(s, resolvedWhy);
        }
        boolean forcePosix = SglangFusionPipeline.transportWorkaround(e);
        Partial ws = FlashInferWorkspace.workspace(e, backend, true, forcePosix ? Boolean.FALSE : null);
        if (ws.outcome() == Outcome.UNKNOWN) {
            s.v().apply(ws).why(resolvedWhy + " " + ws.why());
            return s.fixed();
        }
        if (ws.failed()) {
            return creationFails(s, backend, resolvedWhy, ws, forcePosix);
        }
        Partial ranks = FlashInferWorkspace.kernelRanks(e, backend);
        if (ranks != null) {
            s.v().apply(ranks).why(resolvedWhy + " " + ranks.why() + " SGLang does not check the rank count before enabling fusion.");
            return s.fixed();
        }
        return perCall(s, r, resolvedWhy);
    }

    /** The preflight's multicast-granularity query fails on GPUs without multicast, for every backend. */
    private static Verdict preflightFails(Stage s, String resolvedWhy) {
        s.v().fallback().errorClass("RuntimeError (caught)").message(SglangMessage.PREFLIGHT_VOTE).when(WHEN_WARMUP).source(SglangSources.PREFLIGHT)
                .why(resolvedWhy + " But the GPUs do not report NVLink multicast (attribute 132 = 0), so the preflight's multicast-granularity query fails (first warning: '"
                        + SglangMessage.PREFLIGHT_PROBE.format(SglangMessage.MULTICAST_GRANULARITY.format("<CUresult.CUDA_ERROR_NOT_SUPPORTED: 801>"))
                        + "', as cuda-bindings 13.x prints the error on a captured H200 without multicast; older cuda-bindings print only the number), the rank votes no and fusion is marked unavailable: every all-reduce takes the normal path. "
                        + "SGLang does this even for trtllm, whose workspace needs no multicast (closed PR #32330 proposed dropping the query).");
        return s.fixed();
    }

    /** FlashInfer's workspace creation raises; SGLang catches it and disables fusion on every rank. */
    private static Verdict creationFails(Stage s, String backend, String resolvedWhy, Partial ws, boolean forcePosix) {
        Eval e = s.e();
        String err = ws.message() != null ? ws.message() : "(exception text not recorded)";
        s.v().fallback().errorClass((ws.errorClass() != null ? ws.errorClass() : "Exception") + " (caught)")
                .message(SglangMessage.WORKSPACE_FAILED, backend, err).when(WHEN_WARMUP).source(SglangSources.ENSURE)
                .why(resolvedWhy + " FlashInfer's create_allreduce_fusion_workspace(backend=" + backend + ") fails: " + Values.decap(ws.why())
                        + (forcePosix ? " (SGLang's GB200 transport workaround forces POSIX-FD handles: '" + SglangMessage.TRANSPORT.text() + "')" : "")
                        + " SGLang catches it, then logs '" + SglangMessage.WORKSPACE_FAILED_GLOBAL.text() + "' after a cross-rank sync; the normal all-reduce runs.");
        if (forcePosix && !FlashInferWorkspace.workspace(e, backend, true, null).failed() && s.withFix()) {
            return s.v().fix("SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 (accepting the GB data-corruption risk the workaround avoids), "
                    + "or a newer SGLang without the workaround").build();
        }
        return s.fixed();
    }

    /** The workspace exists: whether {@code apply_flashinfer_allreduce_fusion} uses it (DP attention, batch size). */
    private static Verdict perCall(Stage s, SglangFusionPipeline.Resolution r, String resolvedWhy) {
        Eval e = s.e();
        String backend = r.backend();
        String twoshot = "mnnvl".equals(backend) && version(e).twoshotRetry()
                ? " (If the MNNVL workspace's TWOSHOT stage is not 32-byte aligned after 3 attempts SGLang disables fusion: '" + SglangMessage.TWOSHOT.text() + "'.)" : "";
        if (version(e).args().dpAttention(e)) {
            s.v().outcome(s.lesser()).resolved(null).when("every layer (per-call check)").source(SglangSources.PER_CALL)
                    .why(resolvedWhy + " The workspace is created, but apply_flashinfer_allreduce_fusion needs DP attention off, so the fused kernel is never used.");
            return s.fixed();
        }
        Integer tokens = e.tokens();
        if (tokens != null && tokens > SglangFusionPipeline.FUSE_MAX_TOKENS) {
            return s.v().fallback().resolved(backend).when("each batch over " + SglangFusionPipeline.FUSE_MAX_TOKENS + " tokens (per-call check)").source(SglangSources.PER_CALL)
                    .why(resolvedWhy + " The workspace preflight passes (multicast on every GPU), but batches of " + tokens
                            + " tokens exceed FUSE_ALLREDUCE_MAX_BATCH_SIZE = " + SglangFusionPipeline.FUSE_MAX_TOKENS
                            + ": those batches use the normal all-reduce silently; smaller batches (decode) still fuse." + twoshot).build();
        }
        SglangFusionPipeline.Pipeline p = s.p();
        return s.v().ok().resolved(backend).when(WHEN_WARMUP).source("auto".equals(p.effective()) ? SglangSources.AUTO_RESOLVE : r.source())
                .message("auto-enable".equals(p.source()) ? SglangMessage.AUTO_ENABLE.format(p.autoArch()) : null)
                .why(resolvedWhy + " Every GPU reports NVLink multicast, so the workspace preflight passes and the " + backend
                        + " workspace is created; batches of up to " + SglangFusionPipeline.FUSE_MAX_TOKENS + " tokens use the fused kernel." + twoshot
                        + (version(e).args().cutedslChoice() ? " With a fusion backend set, SGLang also switches on its allreduce-only path by itself "
                        + "(set_flashinfer_allreduce_only): non-fused TP all-reduces try FlashInfer kAllReduce before custom all-reduce and NCCL, "
                        + "per call where the input fits the workspace." : "")).build();
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
        List<String> order = SglangFusionPipeline.sm100(e) ? List.of("mnnvl", "trtllm") : List.of("trtllm", "mnnvl");
        Eval base = e.with(FUSION_DEPRECATED, null).with(ENFORCE_DISABLE, null);
        for (String b : order) {
            Verdict v = fusionVerdict(base.with(FUSION_BACKEND, b), false);
            if (v.outcome() == Outcome.OK && b.equals(v.resolved())) {
                return b;
            }
        }
        return null;
    }

    /** {@code cutedsl} (newest): accepted by the parser; the resolver and workspace path for it were not read. */
    private static Verdict cutedsl(Eval e, VerdictBuilder v) {
        boolean blackwell = e.cuda() && e.major() == 10;
        return v.outcome(Outcome.UNKNOWN).when(WHEN_WARMUP).source(SglangSources.EXEC_COMM)
                .why("The parser accepts cutedsl (help: 'Blackwell-only bf16 MNNVL CuTe DSL backend'). Read so far: FlashInfer's "
                        + "create_allreduce_fusion_workspace (fb28d724 allreduce.py:359) takes trtllm, mnnvl or auto only, its MNNVL CuTe DSL "
                        + "workspace being a class of its own, and SGLang's workspace module (flashinfer_mnnvl_cutedsl.py@98e2dd2f) raises "
                        + "RuntimeError without CUDA or FlashInfer >= 0.6.16's comm module. Where SGLang selects that workspace for this "
                        + "backend, and whether its errors are caught, is in no pinned copy, so no verdict is given. " + (blackwell ? e.gpus() + ", which is Blackwell." : e.gpus() + ", not Blackwell (SM10x): expect it to fail or "
                        + "fall back here."))
                .fix(bestFusionBackend(e.with(FUSION_BACKEND, null)) != null ? "--flashinfer-allreduce-fusion-backend=" + bestFusionBackend(e.with(FUSION_BACKEND, null))
                        + " (modelled and verified against upstream)" : null).build();
    }

}
