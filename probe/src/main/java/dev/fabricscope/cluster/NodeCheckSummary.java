package dev.fabricscope.cluster;

import java.util.List;

/**
 * The head of a {@code check node --json} report in a cluster folder: its status, summary line and failed
 * expectations ({@code cluster.read.NodeCheckReader} reads it from a file).
 *
 * @param node    the node's name in the cluster view
 * @param status  {@code PASSED} or {@code FAILED}
 * @param summary the check's summary line ({@code FAIL: 2 of 13 expectations failed (…)})
 * @param failed  the expectations that failed, in the report's order
 */
public record NodeCheckSummary(String node, String status, String summary, List<Failed> failed) {

    /** One failed expectation, as the report has it. */
    public record Failed(String name, String expected, String measured) {
    }

    public NodeCheckSummary {
        failed = failed == null ? List.of() : List.copyOf(failed);
    }

    /** Whether the node failed its check (status FAILED, or any expectation failed). */
    public boolean failedCheck() {
        return "FAILED".equals(status) || !failed.isEmpty();
    }
}
