package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The live checks section of a report.
 *
 * @param requested whether checks were asked for ({@code --with-checks})
 * @param skipped   why they did not run (no driver, a saved snapshot instead of this machine…), or null
 * @param results   one entry per check that ran, in the order run
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReportChecks(boolean requested, String skipped, List<Entry> results) {

    public ReportChecks {
        results = results == null ? List.of() : List.copyOf(results);
    }

    public static ReportChecks notRequested() {
        return new ReportChecks(false, null, List.of());
    }

    public static ReportChecks skipped(String why) {
        return new ReportChecks(true, why, List.of());
    }

    /**
     * One check's result.
     *
     * @param check   {@code preflight}, {@code p2p}, {@code allreduce}, …
     * @param status  PASSED, FAILED, SKIPPED, TIMED_OUT, CANCELLED or ERROR
     * @param summary one line
     * @param result  the check's full result as the check wrote it (its own record, as JSON), or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String check, String status, String summary, JsonNode result) {
    }
}
