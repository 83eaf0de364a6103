package dev.fabricscope.cluster;

import dev.fabricscope.model.Finding;
import java.util.List;

/**
 * A problem a node's own data shows, judged per node rather than by comparing nodes: the same finding the node's
 * {@code show} gives (the {@link NodeJudge} the caller hands in: the use case's are {@code topology.SnapshotAnalyzer}'s
 * driver and fabric rules, run on its summary), or its GPUs
 * disagreeing on their NVLink domain. Named even when every node shares it, where no difference would show it.
 *
 * @param nodes the nodes that have it, in folder order
 * @param gpus  the GPUs that have it (0 for a finding about the node, such as no driver)
 * @param of    the readable nodes it was judged over
 */
public record NodeProblem(Finding.Severity severity, String code, String message, List<String> nodes, int gpus, int of) {

    public NodeProblem {
        nodes = List.copyOf(nodes);
    }

    /** Every readable node has it. */
    public boolean everyNode() {
        return nodes.size() == of;
    }
}
