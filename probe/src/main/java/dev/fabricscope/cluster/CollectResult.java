package dev.fabricscope.cluster;

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
     */
    public record NodeOutcome(String node, String status, String reason, String file) {
    }

    public long okCount() {
        return nodes.stream().filter(n -> n.status().equals("ok") || n.status().equals("no-driver")).count();
    }
}
