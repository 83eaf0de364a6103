package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.DCP_SIZE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.PCP_SIZE;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_CONFIG;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** vLLM's decode and prefill context parallel sizes and the DCP communication backend (backend-rules.md §2.9). */
final class VllmDcpRules {

    private VllmDcpRules() {
    }

    private static VllmVersion version(Eval e) {
        return e.version(VllmVersion.class);
    }

    // ---- decode context parallel (§2.9)

    private static int pcp(Eval e) {
        String v = e.value(PCP_SIZE);
        return v == null ? 1 : Integer.parseInt(v);
    }

    static Verdict dcpSizeVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_SIZE, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        int dcp = e.dcp();
        int tp = e.tp();
        int pcp = pcp(e);
        if (dcp < 1) {
            return v.error(null).why("The DCP size must be at least 1 (vLLM's exact validation error for " + dcp + " was not read).").fix("--dcp 1 or more").build();
        }
        if (pcp == 1 && tp % dcp != 0) {
            String msg = version(e).dcpMessageMissingSpace() ? VllmMessage.DCP_DIVISIBLE_OLD.text() : VllmMessage.DCP_DIVISIBLE.text();
            return v.error("ValueError").message(String.format(msg, tp, dcp)).why("TP " + tp + " is not a multiple of DCP " + dcp + ".")
                    .fix("--dcp with a divisor of " + tp).build();
        }
        if (pcp > 1 && dcp != 1 && dcp != pcp && dcp != tp * pcp) {
            List<Integer> valid = new ArrayList<>(new java.util.TreeSet<>(List.of(1, pcp, tp * pcp)));
            return v.error("ValueError").message(VllmMessage.PCP_DCP.format(tp, pcp, dcp, Values.pyList(valid)))
                    .why("PCP " + pcp + " is on, so DCP must be 1, " + pcp + " or " + (tp * pcp) + "; it is " + dcp
                            + " (how vLLM orders the list of valid sizes was not recorded).")
                    .fix("--dcp 1, " + pcp + " or " + (tp * pcp)).build();
        }
        return v.ok().why(dcp == 1 ? "1: decode context parallel is off." : "DCP " + dcp + " divides TP " + tp + ".").build();
    }

    static Verdict pcpVerdict(Eval e) {
        VerdictBuilder v = e.on(PCP_SIZE, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        int pcp = pcp(e);
        return v.ok().why(pcp == 1 ? "1: prefill context parallel is off." : "PCP " + pcp + ": DCP must be 1, PCP or TP × PCP.").build();
    }

    static Verdict dcpBackendVerdict(Eval e) {
        VerdictBuilder v = e.on(DCP_BACKEND, VllmVersion.class).source(VllmSources.PARALLEL).when(WHEN_CONFIG);
        String backend = v.value();
        if ("fi_a2a".equals(backend)) {
            return v.error("pydantic ValidationError").why("Upstream vLLM has no fi_a2a value (that is SGLang's), so config validation rejects it (exact text not recorded).")
                    .fix("--dcp-comm-backend a2a or ag_rs").build();
        }
        int dcp = e.dcp();
        if ("a2a".equals(backend) && dcp <= 1) {
            return v.error("ValueError").message(VllmMessage.DCP_A2A).why("a2a only changes the DCP reduction, and the DCP size is " + dcp + ".")
                    .fix("--dcp N with N > 1, or --dcp-comm-backend ag_rs (default)").build();
        }
        return v.ok().resolved(dcp > 1 ? backend : null).why(dcp > 1 ? backend + " reduces decode attention across the " + dcp + " DCP ranks."
                : backend + " (default): unused while DCP is off.").build();
    }
}
