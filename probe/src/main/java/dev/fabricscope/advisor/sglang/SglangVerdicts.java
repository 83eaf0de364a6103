package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import java.util.ArrayList;
import java.util.List;

/** Every SGLang verdict for the knobs whose effect is modelled, in the order they are shown (backend-rules.md §1). */
final class SglangVerdicts {

    private SglangVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        SglangVersion version = e.version(SglangVersion.class);
        List<Verdict> out = new ArrayList<>();
        SglangNodesRule.verdict(e).ifPresent(out::add);
        out.add(SglangFusionVerdict.fusionVerdict(e, true));
        out.add(SglangFusionKnobVerdicts.deprecatedVerdict(e));
        out.add(SglangFusionKnobVerdicts.enforceVerdict(e));
        out.add(SglangFusionKnobVerdicts.deterministicVerdict(e));
        out.add(SglangFusionKnobVerdicts.dpAttentionVerdict(e));
        out.add(SglangFusionKnobVerdicts.moeA2aVerdict(e));
        out.add(SglangFusionKnobVerdicts.cutedslVerdict(e));
        SglangFusionKnobVerdicts.absentVerdict(e, SglangKnobs.PURE_ALLREDUCE).ifPresent(out::add);
        SglangFusionKnobVerdicts.absentVerdict(e, SglangKnobs.ALLREDUCE_ONLY).ifPresent(out::add);
        out.add(SglangDcpRules.dcpSizeVerdict(e));
        out.add(SglangDcpRules.dcpBackendVerdict(e));
        out.add(SglangDcpRules.dcpReplicateVerdict(e));
        out.addAll(SglangCpRules.verdicts(e));
        out.add(SglangCustomAllReduceRules.customAllReduceVerdict(e));
        if (version.args().customAllReduceV2()) {
            out.add(SglangCustomAllReduceRules.carV2Verdict(e));
        }
        out.add(SglangCustomAllReduceRules.p2pCheckVerdict(e));
        out.add(SglangCustomAllReduceRules.skipP2pVerdict(e));
        out.add(SglangTorchSymmMemRules.torchSymmMemVerdict(e));
        out.add(SglangPcieIpcRules.verdict(e));
        out.add(SglangNcclEnvRules.ncclNvlsFlagVerdict(e, SglangKnobs.NCCL_NVLS));
        out.add(SglangNcclEnvRules.ncclNvlsFlagVerdict(e, SglangKnobs.SYMM_MEM));
        out.add(SglangNcclEnvRules.nvlsEnvVerdict(e));
        out.add(SglangNcclEnvRules.cumemEnvVerdict(e));
        if (version.gbTransportWorkaround()) {
            out.add(SglangNcclEnvRules.transportVerdict(e));
        }
        return out;
    }
}
