package dev.fabricscope.render;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.CollectResult;
import dev.fabricscope.cluster.Inconsistency;
import dev.fabricscope.cluster.NvlinkDomain;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Text views of a cluster folder and of a collect run. */
public final class ClusterText {

    /** Above this many single-node domains the text view groups them. */
    static final int MAX_SINGLE_NODE_ROWS = 20;

    private ClusterText() {
    }

    static String names(List<String> names, int max) {
        if (names.size() <= max) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, max)) + ", … (" + names.size() + " in all)";
    }

    public static String render(ClusterView v) {
        StringBuilder sb = new StringBuilder();
        int gpus = v.readable().stream().mapToInt(n -> n.snapshot().gpus().size()).sum();
        sb.append("Cluster ").append(v.directory()).append(": ").append(v.readable().size()).append(" node(s), ")
                .append(gpus).append(" GPU(s), ").append(v.domains().size()).append(" NVLink domain(s)");
        if (!v.unreadable().isEmpty()) {
            sb.append(", ").append(v.unreadable().size()).append(" unreadable file(s)");
        }
        sb.append("\n\nNVLink domains:\n");
        TextTable t = new TextTable("Domain", "Kind", "Nodes", "GPUs", "Members");
        List<NvlinkDomain> single = v.domains().stream().filter(d -> d.clusterUuid() == null).toList();
        boolean groupSingles = single.size() > MAX_SINGLE_NODE_ROWS;
        for (NvlinkDomain d : v.domains()) {
            if (groupSingles && d.clusterUuid() == null) {
                continue;
            }
            t.row(d.id(), d.clusterUuid() != null ? "MNNVL (clique " + d.cliqueId() + ")" : "single node",
                    d.nodes().size(), d.gpus(), names(d.nodes(), 6));
        }
        if (groupSingles) {
            // Thousands of nodes without MNNVL: one row per GPU count instead of one per node.
            single.stream().collect(Collectors.groupingBy(NvlinkDomain::gpus, java.util.TreeMap::new, Collectors.toList()))
                    .forEach((perNode, ds) -> t.row("(" + ds.size() + " domains)", "single node each", ds.size(), perNode * ds.size(),
                            perNode + " GPUs each: " + names(ds.stream().flatMap(d -> d.nodes().stream()).toList(), 4)));
        }
        sb.append(indent(t.render()));
        if (v.inconsistencies().isEmpty()) {
            sb.append("\nNo differences between nodes in driver, CUDA, GPUs, NVLink, fabric, MIG, multicast, NCCL or environment.\n");
        } else {
            sb.append("\nDifferences between nodes (most important first):\n");
            for (Inconsistency i : v.inconsistencies()) {
                sb.append("  ").append(i.field()).append(": ").append(i.outliers().size()).append(" node(s) differ from the majority (")
                        .append(i.majority()).append(")\n");
                for (Map.Entry<String, List<String>> e : i.byValue().entrySet()) {
                    if (!e.getKey().equals(i.majority())) {
                        sb.append("    ").append(e.getKey()).append(": ").append(names(e.getValue(), 8)).append('\n');
                    }
                }
            }
        }
        if (!v.unreadable().isEmpty()) {
            sb.append("\nUnreadable files:\n");
            for (ClusterNode n : v.unreadable()) {
                sb.append("  ").append(n.error()).append('\n');
            }
        }
        return sb.toString();
    }

    public static String render(CollectResult r, String dir) {
        StringBuilder sb = new StringBuilder();
        sb.append("Collected ").append(r.okCount()).append(" of ").append(r.nodes().size()).append(" node(s) through ")
                .append(r.scheduler()).append(" into ").append(dir).append(" in ").append(r.durationMs()).append(" ms\n");
        TextTable t = new TextTable("Node", "Status", "Reason");
        r.nodes().forEach(n -> t.row(n.node(), n.status(), n.reason() == null ? "" : n.reason()));
        sb.append(indent(t.render()));
        List<String> failed = r.nodes().stream().filter(n -> !n.status().equals("ok") && !n.status().equals("no-driver"))
                .map(CollectResult.NodeOutcome::node).collect(Collectors.toList());
        if (!failed.isEmpty()) {
            sb.append("Failed or timed out: ").append(String.join(", ", failed)).append(" (kept the others)\n");
        }
        return sb.toString();
    }

    private static String indent(String s) {
        return s.lines().map(l -> "  " + l).collect(Collectors.joining("\n")) + "\n";
    }
}
