package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.nccl.NcclNvls;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.RecommendationPlan;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ALLREDUCE_ONLY;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_REPLICATE_Q;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DCP_SIZE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DETERMINISTIC;
import static dev.fabricscope.advisor.sglang.SglangKnobs.DISABLE_CUSTOM_AR;
import static dev.fabricscope.advisor.sglang.SglangKnobs.ENFORCE_DISABLE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_BACKEND;
import static dev.fabricscope.advisor.sglang.SglangKnobs.FUSION_DEPRECATED;
import static dev.fabricscope.advisor.sglang.SglangKnobs.NCCL_NVLS;
import static dev.fabricscope.advisor.sglang.SglangKnobs.P2P_CHECK;
import static dev.fabricscope.advisor.sglang.SglangKnobs.PURE_ALLREDUCE;
import static dev.fabricscope.advisor.sglang.SglangKnobs.SYMM_MEM;
import static dev.fabricscope.advisor.sglang.SglangKnobs.TORCH_SYMM_MEM;

import java.util.List;

/** SGLang's fastest valid settings for the machine and deployment, one step per backend. */
final class SglangRecommendation {

    private SglangRecommendation() {
    }

    static Recommendation recommend(Eval e) {
        Eval base = e;
        for (KnobSpec k : List.of(FUSION_BACKEND, FUSION_DEPRECATED, ENFORCE_DISABLE, PURE_ALLREDUCE, ALLREDUCE_ONLY, TORCH_SYMM_MEM,
                DISABLE_CUSTOM_AR, NCCL_NVLS, SYMM_MEM, P2P_CHECK)) {
            base = base.with(k, null);
        }
        RecommendationPlan plan = new RecommendationPlan(base);
        dropFailingDcp(e, plan);
        fusion(e, plan);
        customAllReduce(plan);
        if (e.cuda() && e.tp() > 1 && NcclNvls.unsupported(e) == null && e.fabricReady()
                && !SglangCustomAllReduceRules.deterministicNccl(e)) { // NCCL_ALGO=allreduce:tree: NVLS would not run
            plan.flags.add("--enable-nccl-nvls");
            plan.notes.add("NCCL NVLS (SGLang turns it off by default)");
            plan.base = plan.base.with(NCCL_NVLS, "true");
        }
        dcp(e, plan);
        cumem(e, plan);
        List<String> dcpKnobs = List.of(DCP_SIZE.display(), DCP_BACKEND.display(), DCP_REPLICATE_Q.display());
        plan.dropFailing(SglangVerdicts.evaluate(e), v -> dcpKnobs.contains(v.knob())
                || plan.flags.stream().anyMatch(f -> f.startsWith(v.knob() + "=") || f.equals(v.knob())));
        return plan.finish(SglangKnobs.FW, SglangVerdicts.evaluate(plan.base));
    }

    /**
     * SGLang's own NCCL_CUMEM_ENABLE=0 that costs NCCL its MNNVL (audit 2026-12-03e F4): no flag is added (the way out
     * depends on the engine, and --enable-symm-mem changes more than cuMem), but the summary says so and names the fix.
     */
    private static void cumem(Eval e, RecommendationPlan plan) {
        Verdict v = SglangNcclEnvRules.cumemEnvVerdict(plan.base.with(SYMM_MEM, e.value(SYMM_MEM)));
        // an error is listed by finish as a setting still failing; only a 0 that reaches NCCL costs its MNNVL (eighth audit F16)
        if (v.outcome() != Outcome.FALLBACK || !"NCCL_CUMEM_ENABLE=0".equals(v.resolved())) {
            return;
        }
        if (v.userSet() && "0".equals(v.value())) {
            plan.drop("NCCL_CUMEM_ENABLE", "0", "the exported 0, which this SGLang keeps, leaves NCCL's MNNVL off");
            return;
        }
        plan.notes.add("NCCL_CUMEM_ENABLE=0 as this SGLang exports it leaves NCCL's MNNVL off" + (v.fix() != null ? " (fix: " + v.fix() + ")" : ""));
    }

    /** DCP settings the user gave that fail are dropped first, so the other steps see a deployment that starts. */
    private static void dropFailingDcp(Eval e, RecommendationPlan plan) {
        for (KnobSpec k : List.of(DCP_BACKEND, DCP_REPLICATE_Q)) {
            Verdict v = k == DCP_BACKEND ? SglangDcpRules.dcpBackendVerdict(plan.base) : SglangDcpRules.dcpReplicateVerdict(plan.base);
            if (e.isSet(k) && v.outcome() == Outcome.ERROR) {
                plan.drop(k.display(), e.value(k), v.message() != null ? v.errorClass() + " at start-up" : "fails");
                plan.base = plan.base.with(k, null);
            }
        }
    }

    /** The fusion backend that works here, or fusion off (explicitly when auto-enable would pick one that fails). */
    private static void fusion(Eval e, RecommendationPlan plan) {
        String best = e.bool(DETERMINISTIC) || e.tp() <= 1 ? null : SglangFusionVerdict.bestFusionBackend(plan.base);
        if (best != null) {
            plan.flags.add("--flashinfer-allreduce-fusion-backend=" + best);
            plan.notes.add("FlashInfer all-reduce + RMSNorm fusion with " + best);
            plan.base = plan.base.with(FUSION_BACKEND, best);
        } else if (e.tp() > 1 && e.cuda()) {
            Verdict f = SglangFusionVerdict.fusionVerdict(plan.base.with(FUSION_BACKEND, "auto"), false);
            String why = e.bool(DETERMINISTIC) ? "deterministic inference turns it off"
                    : e.cuda() && !e.flashinferInstalled() ? "FlashInfer is not installed: 'auto' " + brief(f) // as vLLM's recommendation says it
                    : "no backend works here: 'auto' " + brief(f);
            plan.notes.add("no FlashInfer fusion (" + why + ")");
            plan.base = plan.base.with(FUSION_BACKEND, null);
            if (SglangFusionPipeline.pipeline(plan.base).effective() != null && SglangFusionVerdict.fusionVerdict(plan.base, false).outcome() != Outcome.OK) {
                plan.flags.add("--enforce-disable-flashinfer-allreduce-fusion");
                plan.base = plan.base.with(ENFORCE_DISABLE, "true");
            }
        }
    }

    private static void customAllReduce(RecommendationPlan plan) {
        Verdict car = SglangCustomAllReduceRules.customAllReduceVerdict(plan.base.with(DISABLE_CUSTOM_AR, null));
        if (SglangCustomAllReduceRules.deterministicNccl(plan.base)) {
            plan.notes.add("no custom all-reduce (deterministic inference turns it off, NCCL's tree all-reduces)");
        } else if (car.outcome() == Outcome.FALLBACK && car.message() != null) {
            plan.flags.add("--disable-custom-all-reduce");
            plan.notes.add("custom all-reduce cannot run here (flag silences the warning)");
            plan.base = plan.base.with(DISABLE_CUSTOM_AR, "true");
        } else if ("custom".equals(car.resolved())) {
            plan.notes.add("custom all-reduce for small messages");
        } else if ("custom all-reduce v2".equals(car.resolved())) {
            plan.notes.add("CustomAllReduceV2 for messages up to 16 MiB");
        }
    }

    private static void dcp(Eval e, RecommendationPlan plan) {
        if (e.dcp() > 1 && SglangDcpRules.dcpBackendVerdict(plan.base.with(DCP_BACKEND, "fi_a2a")).outcome() == Outcome.OK) {
            plan.flags.add("--dcp-comm-backend=fi_a2a");
            plan.notes.add("DCP over FlashInfer's MNNVL all-to-all");
            plan.base = plan.base.with(DCP_BACKEND, "fi_a2a");
        }
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
}
