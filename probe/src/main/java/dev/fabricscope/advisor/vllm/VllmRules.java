package dev.fabricscope.advisor.vllm;

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
 * vLLM's all-reduce knobs, per modelled version ({@link VllmVersion}): the all-reduce + RMSNorm fusion pass and its
 * FlashInfer workspace backend, standalone FlashInfer all-reduce, custom all-reduce, torch symmetric memory, decode
 * context parallel and batch invariance, each section in its own class. Reference: backend-rules.md §2.
 */
public final class VllmRules implements FrameworkRules {

    @Override
    public java.util.Set<String> readBy(KnobSpec k) {
        return k.name().equals(VllmKnobs.DP_SIZE.name()) ? java.util.Set.of("--prefill-context-parallel-size", "--decode-context-parallel-size", "--nnodes")
                : java.util.Set.of();
    }

    @Override
    public String name() {
        return VllmKnobs.FW;
    }

    @Override
    public List<VllmVersion> versions() {
        return VllmVersion.ALL;
    }

    @Override
    public List<KnobSpec> knobs() {
        return VllmKnobs.ALL;
    }

    @Override
    public List<UpstreamMessage> messages() {
        List<UpstreamMessage> out = new ArrayList<>(List.of(VllmMessage.values()));
        out.addAll(List.of(CustomAllReduceMessage.values()));
        return out;
    }

    @Override
    public List<Verdict> evaluate(Eval e) {
        return VllmVerdicts.evaluate(e);
    }

    @Override
    public Recommendation recommend(Eval e) {
        return VllmRecommendation.recommend(e);
    }

    @Override
    public SourceRef knownKnobsSource(Eval e) {
        return VllmSources.ARGS;
    }

    @Override
    public SourceRef knownKnobSource(Eval e, KnobSpec k) {
        SourceRef own = VllmKnobs.knownSource(k);
        return own != null ? own : knownKnobsSource(e);
    }

    @Override
    public SourceRef rocmKnobsSource(Eval e) {
        return VllmSources.ROCM_ENVS;
    }

    @Override
    public Optional<String> pythonDistribution() {
        return Optional.of("vllm");
    }
}
