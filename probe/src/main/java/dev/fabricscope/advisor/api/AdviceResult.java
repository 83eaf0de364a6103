package dev.fabricscope.advisor.api;

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
 * @param checks          the deployment checked against the machine and the frameworks' parallel-size rules, one line
 *                        each (empty when nothing is wrong); shown first
 * @param ruleNotes       how each rule set was chosen from the installed release, where the stack was read
 */
public record AdviceResult(MachineFacts machine, EffectiveDeployment deployment, List<Verdict> verdicts,
                           List<Recommendation> recommendations, Map<String, String> versions, String blocked,
                           List<String> checks, List<String> ruleNotes) {

    public AdviceResult(MachineFacts machine, EffectiveDeployment deployment, List<Verdict> verdicts,
                        List<Recommendation> recommendations, Map<String, String> versions, String blocked, List<String> checks) {
        this(machine, deployment, verdicts, recommendations, versions, blocked, checks, List.of());
    }

    public AdviceResult {
        checks = checks == null ? List.of() : List.copyOf(checks);
        ruleNotes = ruleNotes == null ? List.of() : List.copyOf(ruleNotes);
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
        root.put("summary", summary());
        root.put("checks", checks);
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

    /** Verdicts with this outcome. */
    public long count(Outcome o) {
        return verdicts.stream().filter(v -> v.outcome() == o).count();
    }

    /**
     * One line that answers first: {@code 2 fallbacks, 1 error: drop --flashinfer-allreduce-fusion-backend=trtllm}, or
     * {@code all 40 verdicts ok} (counts of unknown and not-applicable verdicts are added when there are any).
     */
    public String summary() {
        if (blocked != null) {
            return "no verdicts: " + blocked;
        }
        List<String> parts = new java.util.ArrayList<>();
        long fallbacks = count(Outcome.FALLBACK);
        long errors = count(Outcome.ERROR);
        long unknown = count(Outcome.UNKNOWN);
        long na = count(Outcome.NOT_APPLICABLE);
        if (fallbacks > 0) {
            parts.add(fallbacks + (fallbacks == 1 ? " fallback" : " fallbacks"));
        }
        if (errors > 0) {
            parts.add(errors + (errors == 1 ? " error" : " errors"));
        }
        if (unknown > 0) {
            parts.add(unknown + " unknown");
        }
        if (na > 0) {
            parts.add(na + " not applicable");
        }
        if (parts.isEmpty()) {
            return verdicts.size() == 1 ? "the one verdict ok" : "all " + verdicts.size() + " verdicts ok";
        }
        String head = String.join(", ", parts);
        java.util.LinkedHashSet<String> drops = new java.util.LinkedHashSet<>();
        for (Verdict v : verdicts) {
            boolean dropIt = v.outcome() == Outcome.FALLBACK && v.fix() != null && v.fix().startsWith("drop " + v.knob());
            if (v.userSet() && (v.outcome() == Outcome.ERROR || dropIt)) {
                drops.add(v.knob() + "=" + v.value());
            }
        }
        if (!drops.isEmpty()) {
            return head + ": drop " + String.join(", ", drops);
        }
        if (errors > 0) {
            return head + ": " + verdicts.stream().filter(v -> v.outcome() == Outcome.ERROR).map(v -> v.framework() + " " + v.knob())
                    .distinct().limit(3).collect(java.util.stream.Collectors.joining(", ")) + " fail" + (errors == 1 ? "s" : "") + " at start-up";
        }
        return head;
    }

    public java.util.Optional<Recommendation> recommendation(String framework) {
        return recommendations.stream().filter(r -> r.framework().equals(framework)).findFirst();
    }
}
