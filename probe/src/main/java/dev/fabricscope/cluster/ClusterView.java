package dev.fabricscope.cluster;

import java.util.List;

/**
 * The merged picture of a cluster folder.
 *
 * @param nodes           every node file, readable or not
 * @param domains         NVLink domains, largest first
 * @param inconsistencies what differs between nodes that should match, most important first
 */
public record ClusterView(String directory, List<ClusterNode> nodes, List<NvlinkDomain> domains,
                          List<Inconsistency> inconsistencies) {

    public List<ClusterNode> readable() {
        return nodes.stream().filter(ClusterNode::ok).toList();
    }

    public List<ClusterNode> unreadable() {
        return nodes.stream().filter(n -> !n.ok()).toList();
    }
}
