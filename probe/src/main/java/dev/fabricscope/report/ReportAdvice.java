package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The advisor's answer recorded in a report, with what it was asked, so the verdicts can be reproduced
 * ({@code fabricscope advise --snapshot REPORT.json} with the same options).
 *
 * @param requested       the deployment as the user gave it (null fields were not given), or null when not advised
 * @param options         frameworks, rule-set versions and {@code --assume} facts as given, or null when not advised
 * @param deployment      the deployment the verdicts are for (derived values included), or null when blocked
 * @param facts           the machine facts the advisor used, keyed as {@code --assume} spells them
 * @param factSources     where each fact came from (probed, assumed, default…)
 * @param verdicts        per framework and knob, errors first
 * @param recommendations one per framework advised
 * @param versions        framework → rule-set version applied
 * @param blocked         why no verdict could be given, or null
 * @param predicted       the predicted all-reduce cost beside each recommendation, as {@code advise} words it; null in
 *                        reports made before 2026-12-02 and where nothing was advised
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReportAdvice(Deployment requested, Options options, EffectiveDeployment deployment, Map<String, String> facts,
                           Map<String, String> factSources, List<Verdict> verdicts, List<Recommendation> recommendations,
                           Map<String, String> versions, String blocked, Predicted predicted) {

    /**
     * The recommendations' predicted costs ({@code usecase.RecommendedCost}), in words only: a report is re-rendered
     * from its JSON, never re-predicted.
     *
     * @param heading         where the figures come from and at which sizes
     * @param recommendations framework → its line ({@code predicted (us at 64 KiB/8 MiB): nccl …})
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Predicted(String heading, Map<String, String> recommendations) {
        public Predicted {
            recommendations = recommendations == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(recommendations));
        }
    }

    public ReportAdvice {
        facts = sorted(facts);
        factSources = sorted(factSources);
        verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
        recommendations = recommendations == null ? List.of() : List.copyOf(recommendations);
        versions = sorted(versions);
    }

    private static Map<String, String> sorted(Map<String, String> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new java.util.TreeMap<>(m));
    }

    /** The advisor's result for {@code requested} and {@code options}. */
    public static ReportAdvice of(AdviceResult r, Deployment requested, Options options) {
        Map<String, String> facts = new LinkedHashMap<>();
        r.machine().values().forEach((k, v) -> {
            if (v != null) {
                facts.put(k, String.valueOf(v));
            }
        });
        Map<String, String> sources = new LinkedHashMap<>();
        r.machine().provenance().forEach((k, v) -> {
            if (v != null) {
                sources.put(k, v);
            }
        });
        return new ReportAdvice(requested, options, r.deployment(), facts, sources, r.verdicts(), r.recommendations(),
                r.versions(), r.blocked(), null);
    }

    /** This advice with the recommendations' predicted costs beside it. */
    public ReportAdvice withPredicted(Predicted p) {
        return new ReportAdvice(requested, options, deployment, facts, factSources, verdicts, recommendations, versions, blocked, p);
    }

    /** No verdicts, and why. */
    public static ReportAdvice none(String why) {
        return new ReportAdvice(null, null, null, Map.of(), Map.of(), List.of(), List.of(), Map.of(), why, null);
    }

    /** Verdicts only (tests, and callers that computed them elsewhere). */
    public static ReportAdvice of(List<Verdict> verdicts, List<Recommendation> recommendations, Map<String, String> versions) {
        return new ReportAdvice(null, null, null, Map.of(), Map.of(), verdicts, recommendations, versions, null, null);
    }

    public long count(Outcome o) {
        return verdicts.stream().filter(v -> v.outcome() == o).count();
    }
}
