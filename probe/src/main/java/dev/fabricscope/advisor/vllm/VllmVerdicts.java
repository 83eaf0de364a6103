package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import java.util.List;

/** Every vLLM verdict for the knobs whose effect is modelled, in the order they are shown (backend-rules.md §2). */
final class VllmVerdicts {

    private VllmVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new java.util.ArrayList<>(List.of(
                VllmFusionVerdicts.fuseVerdict(e, true),
                VllmFusionVerdicts.backendVerdict(e),
                VllmFusionVerdicts.maxSizeVerdict(e),
                VllmFusionVerdicts.optLevelVerdict(e),
                VllmCommunicatorRules.standaloneVerdict(e),
                VllmPcieIpcRules.verdict(e),
                VllmCommunicatorRules.customAllReduceVerdict(e),
                VllmCommunicatorRules.symmMemVerdict(e),
                VllmCommunicatorRules.skipP2pVerdict(e),
                VllmCommunicatorRules.batchInvariantVerdict(e),
                VllmDcpRules.dcpSizeVerdict(e),
                VllmDcpRules.pcpVerdict(e),
                VllmDcpRules.dcpBackendVerdict(e)));
        out.addAll(VllmFusionVerdicts.compileModeVerdicts(e));
        VllmDcpRules.ppVerdict(e).ifPresent(out::add);
        VllmNodesRule.verdict(e).ifPresent(out::add);
        VllmDcpRules.v2RunnerVerdict(e).ifPresent(out::add);
        return out;
    }
}
