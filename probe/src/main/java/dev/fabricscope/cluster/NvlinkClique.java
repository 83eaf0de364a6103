package dev.fabricscope.cluster;

import java.util.List;

/**
 * Nodes in one clique of an NVLink domain ({@link NvlinkDomain}): the same MNNVL fabric cluster UUID and clique id, the
 * fabric manager's partition of the domain. GPUs in different cliques of one domain cannot reach each other over NVLink,
 * so a multi-node job stays inside one clique. A node without MNNVL forms a clique (and a domain) of its own.
 *
 * <p>The id of an MNNVL clique is the value GPU Feature Discovery gives the node label {@code nvidia.com/gpu.clique}:
 * {@code <ClusterUUID>.<CliqueId>}, the UUID in its canonical form and the clique in decimal (NVIDIA/k8s-device-plugin
 * {@code internal/lm/fabric.go} at 19314fa940fa3c9b365832ff2b18923bd615c438, now {@code internal/lm/imex.go} line 39 at
 * 1b826acc6af3079d8923bac395c3124b8861a9a6; {@code internal/resource/nvml-device.go} {@code GetFabricIDs}, lines
 * 105–118). GFD reads only the GPUs that are fabric-attached (state COMPLETED, non-zero cluster UUID, status
 * success: go-nvlib {@code pkg/nvlib/device/device.go} {@code IsFabricAttached}) and leaves the label off when they
 * disagree on the UUID or the clique ({@code getFabricIDs}, imex.go lines 67–75).
 *
 * @param id          {@code <ClusterUUID>.<CliqueId>} for MNNVL cliques (GFD's clique label), {@code node:<name>} else
 * @param clusterUuid MNNVL cluster UUID, or null
 * @param cliqueId    MNNVL clique id, or null
 * @param nodes       node names, sorted
 * @param gpus        GPUs in the clique
 * @param note        why a node is a clique of its own although its GPUs are in a fabric (they disagree), or null
 */
public record NvlinkClique(String id, String clusterUuid, Long cliqueId, List<String> nodes, int gpus, String note) {
    public NvlinkClique {
        nodes = List.copyOf(nodes);
    }

    public NvlinkClique(String id, String clusterUuid, Long cliqueId, List<String> nodes, int gpus) {
        this(id, clusterUuid, cliqueId, nodes, gpus, null);
    }

    public boolean multiNode() {
        return nodes.size() > 1;
    }

    /** {@code nvidia.com/gpu.clique=<id>} as GFD labels the clique's nodes, or null for a single-node clique. */
    @com.fasterxml.jackson.annotation.JsonProperty("gfdLabel")
    public String gfdLabel() {
        return clusterUuid == null ? null : GFD_CLIQUE_LABEL + "=" + id;
    }

    /** The node label GPU Feature Discovery sets to the name of a node's clique ({@code <ClusterUUID>.<CliqueId>}). */
    public static final String GFD_CLIQUE_LABEL = "nvidia.com/gpu.clique";

    /** As GFD's {@code IsFabricAttached}: fabric state COMPLETED, a non-zero cluster UUID and registration status success. */
    public static boolean attached(dev.fabricscope.model.FabricInfo f) {
        return f.inMnnvlDomain() && (!f.status().isPresent() || "NVML_SUCCESS".equals(f.status().value()));
    }
}
