package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.List;
import java.util.Map;

/** Verdicts and the recommendation for NCCL NVLS and PyTorch symmetric memory's multicast switch (backend-rules.md §4). */
final class NcclVerdicts {

    private NcclVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new java.util.ArrayList<>(List.of(nvlsVerdict(e), torchMulticastVerdict(e)));
        out.addAll(NcclEnvVerdicts.evaluate(e));
        return out;
    }

    private static Verdict nvlsVerdict(Eval e) {
        VerdictBuilder v = e.on(NcclKnobs.NVLS_ENABLE, NcclVersion.class);
        if (!v.userSet()) {
            v.value("unset (" + e.version(NcclVersion.class).nvlsDefault() + ")");
        }
        Partial p = NcclNvls.nvls(e, e.value(NcclKnobs.NVLS_ENABLE), "");
        v.apply(p);
        if (p.outcome() == Outcome.ERROR && p.source() == e.version(NcclVersion.class).src().nvlsInit()) {
            v.fix("NCCL_NVLS_ENABLE=2 (or unset): NCCL then reads the multicast attribute and skips NVLS on these GPUs");
        } else if (p.outcome() == Outcome.ERROR && p.message() != null) {
            v.fix("start or repair the Fabric Manager (nvidia-fabricmanager) so the GPU fabric state reaches COMPLETED; until then NCCL_NVLS_ENABLE=0");
        } else if (p.outcome() == Outcome.ERROR) {
            v.fix("NCCL_NVLS_ENABLE=2 (or unset) so NCCL skips NVLS where it is unavailable");
        } else if ("0".equals(e.value(NcclKnobs.NVLS_ENABLE)) && NcclNvls.unsupported(e) == null) {
            v.fix("unset NCCL_NVLS_ENABLE (default 2) to use NVLS here");
        }
        return v.build();
    }

    private static Verdict torchMulticastVerdict(Eval e) {
        KnobSpec k = NcclKnobs.TORCH_SYMM_MEM_DISABLE_MULTICAST;
        VerdictBuilder v = e.on(k, NcclVersion.class).source(NcclSources.TORCH).when("symmetric-memory rendezvous (communicator init)");
        if (!e.cuda()) {
            return v.ok().why("PyTorch symmetric memory is CUDA-only; the platform is " + e.platformName() + ".").build();
        }
        if (e.bool(k)) {
            return v.ok().resolved("no multicast object").why("The rendezvous skips the multicast object (multicast_ptr = 0), so vLLM's SymmMemCommunicator and "
                    + "SGLang's TorchSymmMemCommunicator disable themselves" + (e.multicast() ? ", although these GPUs support NVLink multicast" : "") + ".")
                    .fix(e.multicast() ? "unset TORCH_SYMM_MEM_DISABLE_MULTICAST to let symmetric-memory all-reduce use multicast" : null).build();
        }
        if (!e.multicast()) {
            return v.ok().why("The GPUs do not report NVLink multicast. Without this variable, rendezvous on some such hardware (reported on H20) fails with '"
                            + NcclMessage.TORCH_RENDEZVOUS.text() + "' (third-party report, low confidence); the vLLM and SGLang communicators catch it and fall back.")
                    .fix("TORCH_SYMM_MEM_DISABLE_MULTICAST=1 if symmetric-memory rendezvous fails").build();
        }
        return v.ok().resolved("multicast object").why("The GPUs report NVLink multicast, so the rendezvous creates the multicast object symmetric-memory all-reduce uses.").build();
    }

    static Recommendation recommend(Eval e) {
        List<String> drop = new java.util.ArrayList<>();
        List<String> notes = new java.util.ArrayList<>();
        Eval plan = e;
        List<Verdict> asGiven = planVerdicts(e);
        int planCost = cost(asGiven);
        for (Verdict v : asGiven) {
            if (!v.userSet() || v.outcome() != Outcome.ERROR && v.outcome() != Outcome.FALLBACK) {
                continue;
            }
            KnobSpec k = NcclKnobs.ALL.stream().filter(x -> x.display().equals(v.knob())).findFirst().orElseThrow();
            Eval without = plan.with(k, null);
            int withoutCost = cost(planVerdicts(without));
            if (withoutCost < planCost) {
                plan = without;
                planCost = withoutCost;
                drop.add(v.knob());
                notes.add("unset " + v.knob() + " (" + v.knob() + "=" + v.value() + ": " + v.outcome().json()
                        + (v.resolved() != null ? ", " + v.resolved() : "") + ")");
            }
        }
        Recommendation nvls = recommendNvls(plan);
        if (drop.isEmpty()) {
            return nvls;
        }
        return new Recommendation(NcclKnobs.FW, nvls.flags(), nvls.env(), drop, String.join("; ", notes) + ". "
                + nvls.summary().replaceFirst("^Nothing to set", "Nothing more to set"));
    }

    /** The verdicts a plan changes: NCCL_NVLS_ENABLE's and the environment's (seventh audit F1: an exported =1 that fails is dropped). */
    private static List<Verdict> planVerdicts(Eval e) {
        List<Verdict> out = new java.util.ArrayList<>(List.of(nvlsVerdict(e)));
        out.addAll(NcclEnvVerdicts.evaluate(e));
        return out;
    }

    /** How bad a set of verdicts is: an error outweighs any number of fallbacks, a fallback any number of unknowns. */
    private static int cost(List<Verdict> verdicts) {
        return verdicts.stream().mapToInt(v -> switch (v.outcome()) {
            case ERROR -> 10_000;
            case FALLBACK -> 100;
            case UNKNOWN -> 1;
            case OK, NOT_APPLICABLE -> 0;
        }).sum();
    }

    /** NCCL_NVLS_ENABLE: off where NVLS fails, NCCL's default where it works. */
    private static Recommendation recommendNvls(Eval e) {
        if (!e.cuda()) {
            return new Recommendation(NcclKnobs.FW, List.of(), Map.of(), "NCCL NVLS is NVIDIA-only; the platform is " + e.platformName() + ".");
        }
        Partial p = NcclNvls.nvls(e, null, "");
        if (p.outcome() == Outcome.ERROR) {
            return new Recommendation(NcclKnobs.FW, List.of(), Map.of("NCCL_NVLS_ENABLE", "0"),
                    "Keep NVLS off until the Fabric Manager brings the GPU fabric to COMPLETED; then unset NCCL_NVLS_ENABLE.");
        }
        String dflt = e.version(NcclVersion.class).nvlsDefault();
        if (p.outcome() == Outcome.OK && "NVLS".equals(p.resolved()) && "0".equals(e.value(NcclKnobs.NVLS_ENABLE))) {
            // the release's default: the same as unsetting the 0 the deployment's environment exports
            return new Recommendation(NcclKnobs.FW, List.of(), Map.of("NCCL_NVLS_ENABLE", dflt), "NCCL_NVLS_ENABLE=" + dflt + " (NCCL's default; or unset it): "
                    + "the environment exports NCCL_NVLS_ENABLE=0, which turns NVLink SHARP off, and NVLink SHARP works here.");
        }
        if (p.outcome() == Outcome.OK && "NVLS".equals(p.resolved())) {
            return new Recommendation(NcclKnobs.FW, List.of(), Map.of(), "Leave NCCL_NVLS_ENABLE unset (NCCL then uses " + dflt
                    + ("2".equals(dflt) ? ", auto" : ", which still reads the multicast attribute at this release") + "): NVLink SHARP works here.");
        }
        String reason = NcclNvls.unsupported(e);
        return new Recommendation(NcclKnobs.FW, List.of(), Map.of(), "Nothing to set: " + (reason == null ? "NVLS not used" : reason) + ".");
    }
}
