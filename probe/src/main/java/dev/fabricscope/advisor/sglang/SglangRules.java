package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.UpstreamMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SGLang's all-reduce knobs, per modelled version ({@link SglangVersion}): FlashInfer all-reduce fusion (effective
 * value, resolution, workspace preflight, per-call limits), decode context parallel, custom all-reduce, torch
 * symmetric memory and the NCCL environment it exports, each section in its own class. Reference: backend-rules.md §1.
 */
public final class SglangRules implements FrameworkRules {

    @Override
    public String name() {
        return SglangKnobs.FW;
    }

    @Override
    public List<SglangVersion> versions() {
        return SglangVersion.ALL;
    }

    @Override
    public List<KnobSpec> knobs() {
        return SglangKnobs.ALL;
    }

    @Override
    public List<UpstreamMessage> messages() {
        List<UpstreamMessage> out = new ArrayList<>(List.of(SglangMessage.values()));
        out.addAll(List.of(CustomAllReduceMessage.values()));
        return out;
    }

    @Override
    public List<Verdict> evaluate(Eval e) {
        return SglangVerdicts.evaluate(e);
    }

    @Override
    public Recommendation recommend(Eval e) {
        return SglangRecommendation.recommend(e);
    }

    @Override
    public java.util.Set<String> readBy(KnobSpec k) {
        return k.name().equals(SglangKnobs.DP_SIZE.name()) ? java.util.Set.of("--enable-dp-attention", "--moe-a2a-backend", "--attn-cp-size", "--enable-prefill-cp")
                : java.util.Set.of();
    }

    @Override
    public SourceRef knownKnobsSource(Eval e) {
        return e.version(SglangVersion.class).args().source();
    }

    @Override
    public SourceRef knownKnobSource(Eval e, KnobSpec k) {
        SourceRef own = SglangKnobs.knownSource(k);
        return own != null ? own : knownKnobsSource(e);
    }

    @Override
    public SourceRef rocmKnobsSource(Eval e) {
        return SglangSources.EXEC_COMM;
    }

    @Override
    public Optional<String> pythonDistribution() {
        return Optional.of("sglang");
    }
}
