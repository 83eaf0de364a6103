package dev.fabricscope.check;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.model.MachineSnapshot;
import java.util.List;

/**
 * {@code fabricscope check node}: the report a field engineer attaches. It holds the node's snapshot under
 * {@code snapshot}, so every reader of reports (show, report --from, cluster show) reads it as this node.
 *
 * @param format        {@code fabricscope-report}, so that report readers take it (the snapshot is under {@code snapshot})
 * @param reportVersion the report version of this build
 * @param status       PASSED when no expectation failed, else FAILED
 * @param summary      the summary line ({@code PASS: …} / {@code FAIL: …})
 * @param expectedFrom where the profile came from
 * @param profile      what the node was compared with
 * @param expectations each expectation with its measured value and outcome
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeCheckResult(String format, int reportVersion, String check, CheckStatus status, String summary, String expectedFrom,
                              NodeAcceptance.Profile profile, List<NodeAcceptance.Expectation> expectations,
                              PreflightResult preflight, P2pResult p2p, AllReduceResult allReduce, MachineSnapshot snapshot) {

    public static final String NAME = "node";

    public NodeCheckResult(String check, CheckStatus status, String summary, String expectedFrom, NodeAcceptance.Profile profile,
                           List<NodeAcceptance.Expectation> expectations, PreflightResult preflight, P2pResult p2p,
                           AllReduceResult allReduce, MachineSnapshot snapshot) {
        this(dev.fabricscope.report.Report.FORMAT, dev.fabricscope.report.Report.REPORT_VERSION, check, status, summary, expectedFrom,
                profile, expectations, preflight, p2p, allReduce, snapshot);
    }

    public NodeCheckResult {
        expectations = expectations == null ? List.of() : List.copyOf(expectations);
    }

    /** The summary line first, then one line per expectation. */
    public String render() {
        StringBuilder sb = new StringBuilder(summary).append('\n');
        sb.append("Node: ").append(snapshot == null || snapshot.host() == null ? "?" : snapshot.host().hostname().shortDisplay())
                .append(" · expected: ").append(expectedFrom).append('\n');
        dev.fabricscope.render.TextTable t = new dev.fabricscope.render.TextTable("Result", "Expectation", "Expected", "Measured");
        for (NodeAcceptance.Expectation e : expectations) {
            t.row(e.outcome().name(), e.name(), e.expected(), dev.fabricscope.io.SnapshotIO.oneLineSafe(e.measured()));
        }
        return sb.append(t.render()).toString();
    }
}
