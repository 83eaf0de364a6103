package dev.fabricscope.cluster.collect;

import java.util.List;

/**
 * What {@code cluster collect} did: written as {@code collect.json} beside the node reports.
 *
 * @param scheduler  slurm or pdsh
 * @param command    the command line run (argv)
 * @param startedAt  ISO-8601 instant
 * @param durationMs wall time
 * @param nodes      one entry per node expected or seen
 */
public record CollectResult(String scheduler, List<String> command, String startedAt, long durationMs,
                            List<NodeOutcome> nodes) {

    /**
     * @param node   node name
     * @param status ok, no-driver (a valid report that says the node has no NVIDIA driver), failed, timeout or missing
     * @param reason why it is not ok, or null
     * @param file   the report file kept, or null
     * @param checkFailed whether the node's report is a {@code check node} report whose checks failed (its status
     *                    can still be ok: the node answered)
     */
    public record NodeOutcome(String node, String status, String reason, String file, boolean checkFailed) {
        public NodeOutcome(String node, String status, String reason, String file) {
            this(node, status, reason, file, false);
        }
    }

    public long okCount() {
        return nodes.stream().filter(n -> n.status().equals("ok") || n.status().equals("no-driver")).count();
    }

    /** Nodes whose {@code check node} report says a check failed. */
    public List<String> checkFailedNodes() {
        return nodes.stream().filter(NodeOutcome::checkFailed).map(NodeOutcome::node).toList();
    }

    /** Whether every node answered and no node check failed. */
    public boolean allPassed() {
        return okCount() == nodes.size() && checkFailedNodes().isEmpty();
    }
}
