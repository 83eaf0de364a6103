package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.UpstreamMessage;
import java.util.List;
import java.util.Optional;

/**
 * FlashInfer's all-reduce fusion workspace: backend selection (auto / trtllm / mnnvl), what each backend needs, and
 * the MNNVL fabric probe, per FlashInfer version ({@link FlashInferVersion}). The workspace itself
 * ({@link FlashInferWorkspace}) is shared with the SGLang and vLLM rules, which create it. Reference: backend-rules.md §3.
 */
public final class FlashInferRules implements FrameworkRules {

    @Override
    public String name() {
        return FlashInferKnobs.FW;
    }

    @Override
    public List<FlashInferVersion> versions() {
        return FlashInferVersion.ALL;
    }

    @Override
    public List<KnobSpec> knobs() {
        return FlashInferKnobs.ALL;
    }

    @Override
    public List<UpstreamMessage> messages() {
        return List.of(FlashInferMessage.values());
    }

    @Override
    public List<Verdict> evaluate(Eval e) {
        return FlashInferVerdicts.evaluate(e);
    }

    @Override
    public Recommendation recommend(Eval e) {
        return FlashInferVerdicts.recommend(e);
    }

    @Override
    public Optional<String> pythonDistribution() {
        return Optional.of("flashinfer-python");
    }
}
