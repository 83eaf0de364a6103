package dev.fabricscope.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One NVLink domain: the nodes whose GPUs share one MNNVL fabric cluster UUID, the physical NVLink-switched domain (a
 * GB200 NVL72 rack is one domain of 72 GPUs). The fabric manager partitions it into cliques ({@link NvlinkClique}); GPUs
 * in different cliques of one domain cannot reach each other over NVLink, so a multi-node job stays inside one clique.
 * GPU Feature Discovery labels each node with its clique; the domain is named by its cluster UUID and, as GFD names it,
 * by the label of its main (largest) clique. A node without MNNVL, or whose GPUs disagree on it, is a domain of its own
 * with one clique of that node.
 *
 * @param id          the cluster UUID of an MNNVL domain, {@code node:<name>} else
 * @param clusterUuid MNNVL cluster UUID, or null
 * @param cliques     its cliques, most nodes first (the first is the main clique); never empty
 */
public record NvlinkDomain(String id, String clusterUuid, List<NvlinkClique> cliques) {
    public NvlinkDomain {
        cliques = List.copyOf(cliques);
        if (cliques.isEmpty()) {
            throw new IllegalArgumentException("an NVLink domain has at least one clique");
        }
    }

    /** The clique most of the domain's nodes are in (on a tie, the lowest clique id). */
    @JsonIgnore
    public NvlinkClique mainClique() {
        return cliques.get(0);
    }

    /** {@code nvidia.com/gpu.clique=<ClusterUUID>.<CliqueId>} of the main clique, or null for a single-node domain. */
    @JsonProperty("gfdLabel")
    public String gfdLabel() {
        return mainClique().gfdLabel();
    }

    /** Every node of the domain, sorted. */
    @JsonIgnore
    public List<String> nodes() {
        return cliques.stream().flatMap(c -> c.nodes().stream()).sorted().toList();
    }

    @JsonProperty("gpus")
    public int gpus() {
        return cliques.stream().mapToInt(NvlinkClique::gpus).sum();
    }

    @JsonIgnore
    public boolean mnnvl() {
        return clusterUuid != null;
    }

    @JsonIgnore
    public boolean multiNode() {
        return cliques.size() > 1 || mainClique().multiNode();
    }

    /** Why a node is a domain of its own although its GPUs are in a fabric (they disagree), or null. */
    @JsonIgnore
    public String note() {
        return mainClique().note();
    }
}
