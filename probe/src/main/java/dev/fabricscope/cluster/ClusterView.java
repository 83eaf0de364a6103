package dev.fabricscope.cluster;

import java.util.List;

/**
 * The merged picture of a cluster folder.
 *
 * @param nodes           every node file, readable or not
 * @param domains         NVLink domains (one per MNNVL cluster UUID, one per node outside MNNVL), largest first, each
 *                        with its cliques
 * @param inconsistencies what differs between nodes that should match, most important first
 * @param nodeChecks      the nodes whose file is a {@code check node} report, with their result (empty when none is)
 * @param problems        what each node's own data shows wrong, worst first, also where every node shares it
 */
public record ClusterView(String directory, List<ClusterNode> nodes, List<NvlinkDomain> domains,
                          List<Inconsistency> inconsistencies, List<NodeCheckSummary> nodeChecks, List<NodeProblem> problems) {

    public ClusterView {
        nodeChecks = nodeChecks == null ? List.of() : List.copyOf(nodeChecks);
        problems = problems == null ? List.of() : List.copyOf(problems);
    }

    public ClusterView(String directory, List<ClusterNode> nodes, List<NvlinkDomain> domains, List<Inconsistency> inconsistencies,
                       List<NodeCheckSummary> nodeChecks) {
        this(directory, nodes, domains, inconsistencies, nodeChecks, List.of());
    }

    public ClusterView(String directory, List<ClusterNode> nodes, List<NvlinkDomain> domains, List<Inconsistency> inconsistencies) {
        this(directory, nodes, domains, inconsistencies, List.of(), List.of());
    }

    /**
     * Every clique of every domain, most nodes first: what decides whether a multi-node job fits, as GPUs in different
     * cliques of one domain cannot reach each other over NVLink.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public List<NvlinkClique> cliques() {
        return domains.stream().flatMap(d -> d.cliques().stream())
                .sorted(java.util.Comparator.comparingInt((NvlinkClique c) -> -c.nodes().size())).toList();
    }

    /** The nodes whose check failed, in folder order. */
    public List<NodeCheckSummary> failedChecks() {
        return nodeChecks.stream().filter(NodeCheckSummary::failedCheck).toList();
    }

    public List<ClusterNode> readable() {
        return nodes.stream().filter(ClusterNode::ok).toList();
    }

    public List<ClusterNode> unreadable() {
        return nodes.stream().filter(n -> !n.ok()).toList();
    }
}
