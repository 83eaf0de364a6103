package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.KnobSpec;
import java.util.List;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.vllm.VllmKnobs.BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.FUSE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.MAX_SIZE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.OPT_LEVEL;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_PASS;
import static dev.fabricscope.advisor.vllm.VllmSources.FUSE_OFF;

/** vLLM's verdicts for the fusion pass, its workspace backend, its size limit and the -O level (backend-rules.md §2.2–2.4). */
final class VllmFusionVerdicts {

    private VllmFusionVerdicts() {
    }

    private static VllmVersion version(Eval e) {
        return e.version(VllmVersion.class);
    }

    /** A concrete fix for a fusion pass that errors or falls back. */
    private static String fusionFix(Eval e, Partial p) {
        if (p.outcome() == Outcome.ERROR && p.message() == null && p.when().startsWith("CUDA-graph")) {
            String best = "trtllm".equals(VllmFusionPass.bestBackend(e)) ? " (VLLM_FLASHINFER_ALLREDUCE_BACKEND=trtllm also avoids the crash but is reported ~10× slower than no fusion, vllm#48075)" : "";
            return FUSE_OFF + best;
        }
        if (p.message() != null && p.message().equals(VllmMessage.PASS_WORLD.format(e.tp()))) {
            return "--tp with a world size in the size table for SM " + e.sm() + ", or " + FUSE_OFF + " to silence the warning";
        }
        Partial off = VllmFusionPass.compileOff(e);
        if (off != null && off.outcome() == Outcome.FALLBACK && java.util.Objects.equals(off.why(), p.why())) {
            // eighth audit F18: the pass never runs because of how vLLM compiles, not for want of a backend
            return compileOnFix(e);
        }
        String best = VllmFusionPass.bestBackend(e);
        if (best != null) {
            return "VLLM_FLASHINFER_ALLREDUCE_BACKEND=" + best;
        }
        return FUSE_OFF + " (no FlashInfer backend fuses here)";
    }

    /** What lets vLLM compile the model again, in compileOff's order; null where the model itself is never compiled. */
    private static String compileOnFix(Eval e) {
        String then = " (then the fusion pass runs and its own checks decide)";
        if (e.bool(VllmKnobs.ENFORCE_EAGER)) {
            return "drop --enforce-eager" + then;
        }
        if ("1".equals(e.env().get(VllmKnobs.TORCH_COMPILE_DISABLE.name()))) {
            return "unset TORCH_COMPILE_DISABLE" + then;
        }
        if ("1".equals(e.env().get(VllmKnobs.BREAKABLE_CUDAGRAPH.name()))) {
            return "unset VLLM_USE_BREAKABLE_CUDAGRAPH" + then;
        }
        if (e.model() != null && VllmFusionPass.NO_TORCH_COMPILE_MODELS.contains(e.model())) {
            return null;
        }
        return e.value(VllmKnobs.COMPILE_MODE) != null ? "--mode VLLM_COMPILE (3)" + then : "-O2 or higher" + then;
    }

    static Verdict fuseVerdict(Eval e, boolean withFix) {
        VerdictBuilder v = e.on(FUSE, VllmVersion.class).source(VllmSources.DEFAULT);
        String off = VllmFusionPass.defaultOffReason(e);
        if (!v.userSet()) {
            v.value((off == null ? "true" : "false") + " (default at -O" + VllmFusionPass.optLevel(e) + ")");
        }
        if (!VllmFusionPass.passOn(e)) {
            return v.ok().when(WHEN_PASS).why(v.userSet() ? "Set to false: the unfused all-reduce + RMSNorm run."
                    : "Off by default: " + off + ".").build();
        }
        Partial p = VllmFusionPass.passResult(e);
        v.apply(p);
        if (p.outcome() == Outcome.FALLBACK && p.resolved() != null) {
            v.ok().why("The pass fuses with the " + p.resolved() + " workspace after the first backend fails (see VLLM_FLASHINFER_ALLREDUCE_BACKEND). " + p.why());
        }
        if (v.userSet() && off != null) {
            v.why("Forced on (the default would be off: " + off + "). " + p.why());
        }
        if (withFix && p.outcome() != Outcome.OK) {
            v.fix(fusionFix(e, p));
        }
        return v.build();
    }

    static Verdict backendVerdict(Eval e) {
        VllmVersion ver = version(e);
        VerdictBuilder v = e.on(BACKEND, VllmVersion.class).source(ver.envsSource());
        if (!v.userSet()) {
            v.value(ver.defaultBackend() + " (default)");
        }
        boolean reachesWorkspace = VllmFusionPass.passOn(e) && e.tp() > 1 && e.cuda() && e.flashinferInstalled() && VllmFusionPass.maxSizeMb(e) != null;
        if (!reachesWorkspace) {
            Verdict pass = fuseVerdict(e, false);
            String why = "Not used: the all-reduce + RMSNorm fusion pass " + (VllmFusionPass.passOn(e) ? "disables itself before creating a workspace" + (pass.message() != null ? " ('" + pass.message() + "')" : "")
                    : "is off (" + (e.value(FUSE) != null ? "fuse_allreduce_rms=false" : VllmFusionPass.defaultOffReason(e)) + ")") + ".";
            return v.outcome(v.userSet() ? Outcome.FALLBACK : Outcome.OK).when(WHEN_PASS).why(why).build();
        }
        Partial p = VllmFusionPass.workspaceResult(e);
        v.apply(p);
        if (p.outcome() != Outcome.OK) {
            v.fix(fusionFix(e, p));
        }
        return v.build();
    }

    static Verdict maxSizeVerdict(Eval e) {
        VerdictBuilder v = e.on(MAX_SIZE, VllmVersion.class).source(VllmSizeTable.FUSION.source()).when(WHEN_PASS);
        Double mb = VllmFusionPass.maxSizeMb(e);
        if (v.userSet() && mb == null) {
            return v.fallback().source(VllmSources.PASS_GATE).why("Never read at " + e.tpPhrase() + ": PassConfig.flashinfer_max_size checks "
                    + "the world size first and returns None for " + e.tp() + ", so the fusion pass disables itself whatever size is given.").build();
        }
        if (v.userSet()) {
            return v.ok().why("Overrides the size table: " + VllmFusionPass.fmt(mb) + " MB for " + e.tpPhrase()
                    + (FlashInferWorkspace.TRTLLM_RANKS.contains(e.tp()) ? "." : "; the TRT-LLM kernels still exist for 2, 4, 8, 16 ranks only.")).build();
        }
        v.value(mb == null ? "no table entry" : VllmFusionPass.fmt(mb) + " MB (table)");
        if (!e.cuda()) {
            return v.ok().why("The table is empty off CUDA (default_fi_allreduce_fusion_max_size_mb returns {}).").build();
        }
        return v.ok().why(mb == null ? "No entry for capability " + e.capTimes10() + " and world size " + e.tp() + " (" + e.gpus() + ")."
                : "Table entry for capability " + e.capTimes10() + ", world size " + e.tp() + " (" + e.gpus() + ").").build();
    }

    /** The switches that set the compilation mode, where the user set them: never ok (only their effect on the fusion pass is read). */
    static List<Verdict> compileModeVerdicts(Eval e) {
        List<Verdict> out = new java.util.ArrayList<>();
        for (KnobSpec k : List.of(VllmKnobs.ENFORCE_EAGER, VllmKnobs.TORCH_COMPILE_DISABLE, VllmKnobs.BREAKABLE_CUDAGRAPH, VllmKnobs.COMPILE_MODE,
                VllmKnobs.CUDAGRAPH_MODE)) {
            if (!e.isSet(k)) {
                continue;
            }
            Partial off = VllmFusionPass.compileOff(e);
            out.add(e.on(k, VllmVersion.class).when(WHEN_PASS).source(off != null ? off.source() : VllmSources.compileMode("1372"))
                    .outcome(Outcome.UNKNOWN).why((off != null && off.outcome() == Outcome.FALLBACK
                            ? "vLLM does not compile the model (the compilation mode or the model class), so the all-reduce + RMSNorm fusion pass does not run (see fuse_allreduce_rms). "
                            : "Read for the compilation mode: here it leaves VLLM_COMPILE in place. ")
                            + "Its other effects on the all-reduce backends (CUDA graphs off or replaced) are not modelled.").build());
        }
        return out;
    }

    static Verdict optLevelVerdict(Eval e) {
        VerdictBuilder v = e.on(OPT_LEVEL, VllmVersion.class).source(VllmSources.DEFAULT).when(WHEN_PASS);
        int level = VllmFusionPass.optLevel(e);
        String off = VllmFusionPass.defaultOffReason(e);
        return v.ok().value("O" + level + (v.userSet() ? "" : " (default)"))
                .why(level <= 1 ? "O0/O1 leave the all-reduce + RMSNorm fusion pass off unless fuse_allreduce_rms is set."
                        : "O2/O3 turn the fusion pass on where supported; " + (off == null ? "it is on here." : "here it stays off: " + off + ".")).build();
    }
}
