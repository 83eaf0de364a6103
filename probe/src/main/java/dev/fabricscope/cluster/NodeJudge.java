package dev.fabricscope.cluster;

import dev.fabricscope.model.Finding;
import java.util.List;

/**
 * Judges one node by itself from its summary: the findings its own data gives. Handed in by the caller, who owns the
 * rules (the use case passes {@code topology.SnapshotAnalyzer}'s driver and fabric rules), as a trace reader is.
 */
@FunctionalInterface
public interface NodeJudge {

    /** Judges nothing: only the NVLink-domain disagreement the cluster itself sees is named. */
    NodeJudge NONE = s -> List.of();

    /** The node's findings; a GPU's subject starts with {@code GPU<index>}. */
    List<Finding> judge(NodeSummary s);
}
