package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckResults;
import dev.fabricscope.json.Json;
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

        /**
         * The result read as its check's own record ({@link CheckResults#typeOf}): what every view renders. Null when
         * {@link #unreadable()} says why (no result, a check this version does not know, JSON that is not that record).
         */
        @JsonIgnore
        public CheckResult typed() {
            return read().result();
        }

        /** Why {@link #typed()} is null, or null when it is not. */
        @JsonIgnore
        public String unreadable() {
            return read().why();
        }

        private Read read() {
            if (result == null) {
                return new Read(null, "no result recorded");
            }
            Class<? extends CheckResult> type = CheckResults.typeOf(check);
            if (type == null) {
                return new Read(null, "a check this version does not know ('" + check + "')");
            }
            try {
                return new Read(Json.mapper().treeToValue(result, type), null);
            } catch (JsonProcessingException e) {
                return new Read(null, "the result does not read as a " + check + " result: "
                        + e.getOriginalMessage().lines().findFirst().orElse(""));
            } catch (IllegalArgumentException e) {
                return new Read(null, "the result does not read as a " + check + " result: " + e.getMessage());
            }
        }

        private record Read(CheckResult result, String why) {
        }
    }
}
