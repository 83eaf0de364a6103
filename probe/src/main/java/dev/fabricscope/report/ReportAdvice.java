package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.advisor.Outcome;
import dev.fabricscope.advisor.Recommendation;
import dev.fabricscope.advisor.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The advisor's answer recorded in a report.
 *
 * @param verdicts        per framework and knob, errors first
 * @param recommendations one per framework advised
 * @param versions        framework → rule-set version applied
 * @param blocked         why no verdict could be given, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReportAdvice(List<Verdict> verdicts, List<Recommendation> recommendations,
                           Map<String, String> versions, String blocked) {

    public ReportAdvice {
        verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
        recommendations = recommendations == null ? List.of() : List.copyOf(recommendations);
        versions = versions == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(versions));
    }

    /** No verdicts, and why. */
    public static ReportAdvice none(String why) {
        return new ReportAdvice(List.of(), List.of(), Map.of(), why);
    }

    public long count(Outcome o) {
        return verdicts.stream().filter(v -> v.outcome() == o).count();
    }
}
