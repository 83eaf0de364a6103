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

    /**
     * The document {@code advise --json} prints: machine facts keyed as {@code --assume} spells them (with
     * provenance), the deployment, verdicts, recommendations and versions.
     */
    public Map<String, Object> toJsonTree() {
        Map<String, Object> m = new java.util.LinkedHashMap<>(machine.values());
        m.put("provenance", machine.provenance());
        m.put("source", machine.origin());
        if (machine.gpuName() != null) {
            m.put("gpu", machine.gpuName());
        }
        Map<String, Object> root = new java.util.LinkedHashMap<>();
        root.put("machine", m);
        root.put("deployment", deployment);
        root.put("verdicts", verdicts);
        root.put("recommendations", recommendations);
        root.put("versions", versions);
        if (blocked != null) {
            root.put("blocked", blocked);
        }
        return root;
    }

    public java.util.Optional<Recommendation> recommendation(String framework) {
        return recommendations.stream().filter(r -> r.framework().equals(framework)).findFirst();
    }
}
