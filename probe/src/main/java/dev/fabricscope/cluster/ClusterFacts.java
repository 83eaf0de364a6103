package dev.fabricscope.cluster;

import dev.fabricscope.cluster.NodeSummary.GpuSummary;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a multi-node deployment over a cluster folder means for the advisor: one representative node (the
 * advisor's per-node facts), and cluster-level facts given as assumptions: the node count, whether the nodes
 * used share one MNNVL clique (one partition of an NVLink domain: GPUs of different cliques cannot reach each other), and whether every node has multicast and fabric handles.
 *
 * @param representative the node whose GPUs stand for all (the most common GPU model)
 * @param nodesUsed      nodes the deployment spans
 * @param assumptions    advisor {@code --assume} keys → values, derived from all nodes
 * @param summary        one line for the user
 */
public record ClusterFacts(ClusterNode representative, int nodesUsed, Map<String, String> assumptions, String summary) {

    /**
     * @param requestedNodes {@code --nodes} of the deployment, or null for every readable node
     */
    public static ClusterFacts of(ClusterView v, Integer requestedNodes) {
        List<ClusterNode> ok = v.readable();
        if (ok.isEmpty()) {
            throw new IllegalArgumentException(v.directory() + ": no readable node report");
        }
        Map<String, Long> models = new LinkedHashMap<>();
        ok.forEach(n -> models.merge(model(n.summary()), 1L, Long::sum));
        String common = models.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElseThrow();
        ClusterNode rep = ok.stream().filter(n -> model(n.summary()).equals(common)).findFirst().orElseThrow();
        int used = requestedNodes != null ? requestedNodes : ok.size();
        // per clique, not per domain: GPUs in different cliques of one NVLink domain cannot reach each other
        NvlinkClique biggest = v.cliques().stream().filter(c -> c.clusterUuid() != null)
                .max(Comparator.comparingInt(c -> c.nodes().size())).orElse(null);
        boolean oneClique = biggest != null && biggest.nodes().size() >= used;
        boolean multicast = ok.stream().allMatch(n -> all(n.summary(), g -> Boolean.TRUE.equals(g.cuda().multicast().value())));
        boolean fabric = ok.stream().allMatch(n -> all(n.summary(), g -> Boolean.TRUE.equals(g.cuda().fabricHandles().value())));
        Map<String, String> a = new LinkedHashMap<>();
        a.put("nodes", String.valueOf(used));
        a.put("mnnvl-fabric", String.valueOf(oneClique));
        a.put("multicast", String.valueOf(multicast));
        a.put("fabric-handles", String.valueOf(fabric));
        long cliques = v.cliques().stream().filter(c -> c.clusterUuid() != null).count();
        String summary = String.format("%s: %d readable node(s) in %d NVLink domain(s)%s; the deployment spans %d node(s)%s; "
                        + "GPUs as on %s (%s%s)", v.directory(), ok.size(), v.domains().size(),
                cliques > v.domains().stream().filter(NvlinkDomain::mnnvl).count() ? " (" + cliques + " MNNVL cliques)" : "", used,
                where(v, used, oneClique ? biggest : null),
                rep.name(), common, models.size() > 1 ? "; other models present: "
                        + String.join(", ", models.keySet().stream().filter(m -> !m.equals(common)).toList()) : "");
        return new ClusterFacts(rep, used, a, summary);
    }

    /** Where the deployment lies: inside one clique, across the cliques of one domain, or across domains. */
    private static String where(ClusterView v, int used, NvlinkClique holdsAll) {
        if (holdsAll != null) {
            return " inside one MNNVL clique (" + holdsAll.id() + ")";
        }
        if (used <= 1) {
            return "";
        }
        NvlinkDomain biggest = v.domains().stream().filter(NvlinkDomain::mnnvl)
                .max(Comparator.comparingInt(d -> d.nodes().size())).orElse(null);
        return biggest != null && biggest.nodes().size() >= used
                ? " across the " + biggest.cliques().size() + " cliques of NVLink domain " + biggest.id()
                + " (no one MNNVL clique holds them all; GPUs in different cliques cannot reach each other over NVLink)"
                : " across NVLink domains (no one MNNVL clique holds them all)";
    }

    private static String model(NodeSummary s) {
        return s.gpus().isEmpty() ? "(no GPUs)" : s.gpus().get(0).name().orElse("?") + " SM " + s.gpus().get(0).computeCapability().orElse("?");
    }

    private static boolean all(NodeSummary s, java.util.function.Predicate<GpuSummary> p) {
        return !s.gpus().isEmpty() && s.gpus().stream().allMatch(p);
    }
}
