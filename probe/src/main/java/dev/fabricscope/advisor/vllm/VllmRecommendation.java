package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.nccl.NcclKnobs;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.RecommendationPlan;
import static dev.fabricscope.advisor.vllm.VllmKnobs.BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_SIZE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DISABLE_CUSTOM_AR;
import static dev.fabricscope.advisor.vllm.VllmKnobs.FUSE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.USE_FLASHINFER;
import static dev.fabricscope.advisor.vllm.VllmKnobs.USE_SYMM_MEM;

/** vLLM's fastest valid settings for the machine and deployment, one step per backend. */
final class VllmRecommendation {

    private VllmRecommendation() {
    }

    static Recommendation recommend(Eval e) {
        RecommendationPlan plan = new RecommendationPlan(e.with(BACKEND, null).with(FUSE, null).with(DISABLE_CUSTOM_AR, null).with(USE_SYMM_MEM, null));
        if (e.bool(USE_FLASHINFER) && VllmCommunicatorRules.standaloneVerdict(plan.base).outcome() != Outcome.OK) {
            plan.drop(USE_FLASHINFER.display(), null, "it disables itself here");
            plan.base = plan.base.with(USE_FLASHINFER, null);
        }
        if (e.isSet(DCP_BACKEND) && VllmDcpRules.dcpBackendVerdict(plan.base).outcome() == Outcome.ERROR) {
            plan.drop(DCP_BACKEND.display(), e.value(DCP_BACKEND), "fails at start-up");
            plan.base = plan.base.with(DCP_BACKEND, null);
        }
        fusion(e, plan);
        communicators(plan);
        plan.dropFailing(VllmVerdicts.evaluate(e), v -> plan.env.containsKey(v.knob())
                || plan.flags.stream().anyMatch(f -> f.startsWith(v.knob()) || f.contains(v.knob()))
                || v.knob().equals(DCP_SIZE.display()) || v.knob().equals(DCP_BACKEND.display()));
        return plan.finish(VllmKnobs.FW, VllmVerdicts.evaluate(plan.base));
    }

    /** The workspace backend that fuses without a failed attempt, or the pass off where its default path crashes. */
    private static void fusion(Eval e, RecommendationPlan plan) {
        if (!VllmFusionPass.passOn(plan.base) && e.isSet(FUSE) && VllmFusionPass.passOn(plan.base.with(FUSE, e.value(FUSE)))) {
            // a user's fuse_allreduce_rms wins over the level's default (_apply_optimization_level_defaults, vllm.py@156b1266:729-742)
            plan.notes.add(FUSE.display() + "=" + e.value(FUSE) + " as given (it overrides the default: "
                    + VllmFusionPass.defaultOffReason(plan.base) + ")");
            plan.base = plan.base.with(FUSE, e.value(FUSE));
        }
        if (!VllmFusionPass.passOn(plan.base)) {
            if (e.cuda() && e.tp() > 1) {
                plan.notes.add("fusion pass off (" + VllmFusionPass.defaultOffReason(plan.base) + ")");
            }
            return;
        }
        Partial def = VllmFusionPass.passResult(plan.base);
        String best = VllmFusionPass.bestBackend(plan.base);
        if (best != null) {
            if (!(def.outcome() == Outcome.OK && best.equals(def.resolved()))) {
                plan.env.put(BACKEND.name(), best);
                plan.base = plan.base.with(BACKEND, best);
            }
            plan.notes.add("all-reduce + RMSNorm fusion with the " + best + " workspace");
        } else if (def.outcome() == Outcome.ERROR) {
            plan.flags.add(VllmSources.FUSE_OFF);
            plan.notes.add("no FlashInfer fusion (" + (def.message() != null ? def.message() : "the default fused path crashes here") + ")");
            plan.base = plan.base.with(FUSE, "false");
        } else {
            plan.notes.add("no FlashInfer fusion (" + (def.message() != null ? def.message() : def.why()) + ")");
        }
    }

    /** Custom all-reduce and torch symmetric memory: switched off where they only warn, else what they take. */
    private static void communicators(RecommendationPlan plan) {
        Verdict car = VllmCommunicatorRules.customAllReduceVerdict(plan.base);
        if (car.outcome() == Outcome.FALLBACK && car.message() != null) {
            plan.flags.add("--disable-custom-all-reduce");
            plan.notes.add("custom all-reduce cannot run here (flag silences the warning)");
            plan.base = plan.base.with(DISABLE_CUSTOM_AR, "true");
        } else if ("custom".equals(car.resolved())) {
            plan.notes.add("custom all-reduce for small messages");
        }
        Verdict symm = VllmCommunicatorRules.symmMemVerdict(plan.base);
        KnobSpec noMulticast = NcclKnobs.TORCH_SYMM_MEM_DISABLE_MULTICAST;
        Verdict withMulticast = plan.base.bool(noMulticast) ? VllmCommunicatorRules.symmMemVerdict(plan.base.with(noMulticast, "false")) : null;
        if (symm.outcome() == Outcome.FALLBACK && withMulticast != null && withMulticast.outcome() == Outcome.OK && withMulticast.resolved() != null) {
            // the environment, not the machine, keeps symmetric memory off: undo that rather than silence it
            plan.env.put(noMulticast.name(), "0");
            plan.notes.add(withMulticast.resolved() + " for large messages (" + noMulticast.name() + "=0 over the exported 1, which stops it)");
            plan.base = plan.base.with(noMulticast, "false");
        } else if (symm.outcome() == Outcome.FALLBACK && symm.message() != null) {
            plan.env.put(USE_SYMM_MEM.name(), "0");
            plan.notes.add("torch symmetric memory cannot run here (0 silences the warning)");
            plan.base = plan.base.with(USE_SYMM_MEM, "0");
        } else if (symm.resolved() != null) {
            plan.notes.add(symm.resolved() + " for large messages");
        }
    }
}
