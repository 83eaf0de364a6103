package dev.fabricscope.advisor;

import java.util.List;
import java.util.Map;

/**
 * What the advisor says for one machine and deployment.
 *
 * @param machine         the effective machine facts
 * @param deployment      the effective deployment, or null when {@code blocked}
 * @param verdicts        per framework, errors first, then fallbacks, then ok
 * @param recommendations one per framework advised
 * @param versions        framework → rule-set version applied
 * @param blocked         why no verdict could be given (facts missing), or null
 */
public record AdviceResult(MachineFacts machine, EffectiveDeployment deployment, List<Verdict> verdicts,
                           List<Recommendation> recommendations, Map<String, String> versions, String blocked) {

    public AdviceResult {
        verdicts = List.copyOf(verdicts);
        recommendations = List.copyOf(recommendations);
        versions = Map.copyOf(versions);
    }

    /** The verdict for {@code framework} and {@code knob} (as displayed), if that framework was advised. */
    public java.util.Optional<Verdict> verdict(String framework, String knob) {
        return verdicts.stream().filter(v -> v.framework().equals(framework) && v.knob().equals(knob)).findFirst();
    }

    public java.util.Optional<Recommendation> recommendation(String framework) {
        return recommendations.stream().filter(r -> r.framework().equals(framework)).findFirst();
    }
}
