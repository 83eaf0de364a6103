package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.io.SnapshotIO;
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
        this(SnapshotIO.REPORT_FORMAT, SnapshotIO.REPORT_VERSION, check, status, summary, expectedFrom,
                profile, expectations, preflight, p2p, allReduce, snapshot);
    }

    public NodeCheckResult {
        expectations = expectations == null ? List.of() : List.copyOf(expectations);
    }
}
