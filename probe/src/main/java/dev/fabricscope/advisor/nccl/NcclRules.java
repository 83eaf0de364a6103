package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.RuleVersion;
import dev.fabricscope.advisor.rule.UpstreamMessage;
import java.util.List;
import java.util.Optional;

/**
 * NCCL NVLink SHARP ({@code NCCL_NVLS_ENABLE}) and PyTorch symmetric memory's multicast switch, per NCCL release
 * ({@link NcclVersion}). Reference: backend-rules.md §4.
 */
public final class NcclRules implements FrameworkRules {

    @Override
    public String name() {
        return NcclKnobs.FW;
    }

    @Override
    public List<NcclVersion> versions() {
        return NcclVersion.ALL;
    }

    @Override
    public List<KnobSpec> knobs() {
        return NcclKnobs.ALL;
    }

    @Override
    public List<UpstreamMessage> messages() {
        return List.of(NcclMessage.values());
    }

    @Override
    public List<Verdict> evaluate(Eval e) {
        return NcclVerdicts.evaluate(e);
    }

    @Override
    public Recommendation recommend(Eval e) {
        return NcclVerdicts.recommend(e);
    }

    @Override
    public SourceRef knownKnobsSource(Eval e) {
        return NcclSources.DOCS_ENV;
    }

    /** The loaded library's release picks the set whose releases cover it (NcclRuleSets); one before 2.17 keeps the newest. */
    @Override
    public Optional<RuleVersion> versionForMachine(MachineFacts facts, List<String> notes) {
        Fact<String> nccl = facts.ncclVersion();
        boolean given = nccl.probed() || nccl.origin() == Fact.Origin.ASSUMED;
        if (!given || nccl.value() == null || !dev.fabricscope.advisor.rule.Pedigree.isRelease(nccl.value())) {
            return Optional.empty();
        }
        for (NcclVersion v : NcclVersion.ALL) {
            if (v.pedigree().covers(nccl.value())) {
                notes.add("nccl " + nccl.value() + (nccl.probed() ? " read (" + nccl.detail() + ")" : " assumed") + ": rules " + v.id() + " (NCCL " + v.pedigree().rangeText() + ")");
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
