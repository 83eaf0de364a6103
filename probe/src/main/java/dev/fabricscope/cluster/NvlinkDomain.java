package dev.fabricscope.cluster;

import java.util.List;

/**
 * Nodes that share one NVLink domain: the same MNNVL fabric cluster UUID and clique id. A node without MNNVL
 * forms a domain of its own.
 *
 * @param id          {@code cluster-uuid/clique} for MNNVL domains, {@code node:<name>} for single-node domains
 * @param clusterUuid MNNVL cluster UUID, or null
 * @param cliqueId    MNNVL clique id, or null
 * @param nodes       node names, sorted
 * @param gpus        GPUs in the domain
 */
public record NvlinkDomain(String id, String clusterUuid, Long cliqueId, List<String> nodes, int gpus) {
    public NvlinkDomain {
        nodes = List.copyOf(nodes);
    }

    public boolean multiNode() {
        return nodes.size() > 1;
    }
}
