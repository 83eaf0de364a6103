package dev.fabricscope.render;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.collect.CollectResult;
import dev.fabricscope.cluster.Inconsistency;
import dev.fabricscope.cluster.NvlinkClique;
import dev.fabricscope.cluster.NvlinkDomain;
import dev.fabricscope.io.ErrorText;
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
        return render(v, false);
    }

    /**
     * A one-line answer, then the differences (most important first), the unreadable files and the NVLink domains.
     *
     * @param all every node name of every value and every domain row, instead of folded to fit 120 columns
     */
    public static String render(ClusterView v, boolean all) {
        v = dev.fabricscope.text.LongValues.cut(v);
        StringBuilder sb = new StringBuilder();
        int gpus = v.readable().stream().mapToInt(n -> n.summary().gpus().size()).sum();
        sb.append(answer(v)).append('\n');
        sb.append("Cluster ").append(v.directory()).append(": ").append(v.readable().size()).append(" node(s), ")
                .append(gpus).append(" GPU(s), ").append(v.domains().size()).append(" NVLink domain(s)");
        long mnnvlDomains = v.domains().stream().filter(NvlinkDomain::mnnvl).count();
        long cliques = v.cliques().stream().filter(c -> c.clusterUuid() != null).count();
        if (cliques > mnnvlDomains) {
            sb.append(" (").append(cliques).append(" MNNVL cliques)");
        }
        if (!v.unreadable().isEmpty()) {
            sb.append(", ").append(v.unreadable().size()).append(" unreadable file(s)");
        }
        sb.append('\n');
        int maxNames = all ? Integer.MAX_VALUE : 8;
        nodeChecks(sb, v);
        problems(sb, v, maxNames);
        if (v.inconsistencies().isEmpty()) {
            sb.append("\nNo differences between nodes in driver, CUDA, GPUs, NVLink, fabric, MIG, multicast, NCCL or environment.\n");
        } else {
            sb.append("\nDifferences between nodes (most important first):\n");
            for (Inconsistency i : v.inconsistencies()) {
                if (i.hasMajority()) {
                    sb.append("  ").append(i.field()).append(": ").append(i.outliers().size())
                            .append(i.outliers().size() == 1 ? " node differs" : " nodes differ")
                            .append(" from the majority (").append(i.byValue().get(i.majority()).size()).append(" of ")
                            .append(v.readable().size()).append(": ").append(i.majority()).append(")\n");
                } else {
                    sb.append("  ").append(i.field()).append(": ").append(i.byValue().size())
                            .append(" different values, none held by most nodes\n");
                }
                for (Map.Entry<String, List<String>> e : i.byValue().entrySet()) {
                    if (!e.getKey().equals(i.majority())) {
                        sb.append("    ").append(e.getKey()).append(": ").append(names(e.getValue(), maxNames)).append('\n');
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
        sb.append("\nNVLink domains (one per MNNVL cluster UUID, each with its cliques):\n");
        TextTable t = new TextTable("Domain / clique", "Kind", "Nodes", "GPUs", "Members");
        List<NvlinkDomain> single = v.domains().stream().filter(d -> !d.mnnvl()).toList();
        boolean groupSingles = !all && single.size() > MAX_SINGLE_NODE_ROWS;
        int maxMembers = all ? Integer.MAX_VALUE : 6;
        for (NvlinkDomain d : v.domains()) {
            if (!d.mnnvl()) {
                if (!groupSingles) {
                    t.row(d.id(), d.note() != null ? "single node (!)" : "single node", d.nodes().size(), d.gpus(),
                            names(d.nodes(), maxMembers));
                }
                continue;
            }
            // the domain's nodes are listed under its cliques
            t.row(d.clusterUuid(), "MNNVL domain, " + (d.cliques().size() == 1 ? "1 clique" : d.cliques().size() + " cliques"),
                    d.nodes().size(), d.gpus(), "");
            for (NvlinkClique c : d.cliques()) {
                t.row("  " + c.id(), "clique " + c.cliqueId() + (d.cliques().size() > 1 && c == d.mainClique() ? " (main)" : ""),
                        c.nodes().size(), c.gpus(), names(c.nodes(), maxMembers));
            }
        }
        if (groupSingles) {
            // Thousands of nodes without MNNVL: one row per GPU count instead of one per node.
            single.stream().collect(Collectors.groupingBy(NvlinkDomain::gpus, java.util.TreeMap::new, Collectors.toList()))
                    .forEach((perNode, ds) -> t.row("(" + ds.size() + " domains)", "single node each", ds.size(), perNode * ds.size(),
                            perNode + " GPUs each: " + names(ds.stream().flatMap(d -> d.nodes().stream()).toList(), 4)));
        }
        sb.append(indent(t.render(Fit.WIDTH - 2)));
        if (v.domains().stream().anyMatch(NvlinkDomain::mnnvl)) {
            sb.append("  (a clique is a partition of its domain: no job spans two cliques over NVLink; GPU Feature Discovery")
                    .append(" labels a clique's nodes ").append(NvlinkClique.GFD_CLIQUE_LABEL).append("=<ClusterUUID>.<CliqueId>)\n");
        }
        for (NvlinkDomain d : v.domains()) {
            if (d.note() != null) {
                sb.append("  (!) ").append(String.join(", ", d.nodes())).append(": ").append(d.note()).append('\n');
            }
        }
        if (sb.toString().contains("N/S")) {
            sb.append("\nN/S: the driver says the GPU does not support this reading; ?: it could not be read (the node's JSON has the call and its error).\n");
        }
        return all ? sb.toString() : Fit.wrap(sb.toString(), Fit.WIDTH);
    }

    /** What the nodes' own data shows wrong, each with the nodes that have it ("every node" when all do). */
    static void problems(StringBuilder sb, ClusterView v, int maxNames) {
        if (v.problems().isEmpty()) {
            return;
        }
        sb.append("\nProblems in the nodes' own data (each node judged by itself, not by comparison):\n");
        for (dev.fabricscope.cluster.NodeProblem p : v.problems()) {
            sb.append("  ").append(p.severity()).append(": ").append(ErrorText.oneLineSafe(p.message()).replaceAll("\\.$", "")).append(" — ")
                    .append(where(p)).append(p.everyNode() ? "" : ": " + names(p.nodes(), maxNames)).append('\n');
        }
    }

    /** {@code every node (18), 72 GPUs} or {@code 2 of 18 nodes}. */
    public static String where(dev.fabricscope.cluster.NodeProblem p) {
        return (p.everyNode() ? "every node (" + p.of() + ")" : p.nodes().size() + " of " + p.of() + " nodes")
                + (p.gpus() > 0 ? ", " + p.gpus() + " GPU" + (p.gpus() == 1 ? "" : "s") : "");
    }

    /** The nodes whose {@code check node} failed, each failed expectation on its own line; one line when all passed. */
    static void nodeChecks(StringBuilder sb, ClusterView v) {
        if (v.nodeChecks().isEmpty()) {
            return;
        }
        List<dev.fabricscope.cluster.NodeCheckSummary> failed = v.failedChecks();
        sb.append('\n').append(nodeChecksHeadline(failed.size(), v.nodeChecks().size())).append('\n');
        for (dev.fabricscope.cluster.NodeCheckSummary c : failed) {
            sb.append("  ").append(c.node()).append(": ").append(c.summary()).append('\n');
            for (dev.fabricscope.cluster.NodeCheckSummary.Failed f : c.failed()) {
                sb.append("    ").append(failedExpectation(f)).append('\n');
            }
        }
    }

    /**
     * {@code Node checks: 2 of 3 checked node(s) failed:} or {@code Node checks: all 3 checked node(s) passed.}: the
     * headline over the nodes' {@code check node} results, for {@code cluster show} and the app's cluster page.
     */
    public static String nodeChecksHeadline(int failed, int checked) {
        return failed == 0 ? "Node checks: all " + checked + " checked node(s) passed."
                : "Node checks: " + failed + " of " + checked + " checked node(s) failed:";
    }

    /** {@code FAIL GPU count: expected 8, measured 0}: one failed expectation of a node's check, on one safe line. */
    public static String failedExpectation(dev.fabricscope.cluster.NodeCheckSummary.Failed f) {
        return "FAIL " + ErrorText.oneLineSafe(f.name()) + ": expected " + ErrorText.oneLineSafe(f.expected())
                + ", measured " + ErrorText.oneLineSafe(f.measured());
    }

    /** {@code 4 nodes, 32 GPUs: 2 differences — driver version: dgx-3 on 550.54.15 (others 580.126.20)}. */
    static String answer(ClusterView v) {
        int gpus = v.readable().stream().mapToInt(n -> n.summary().gpus().size()).sum();
        StringBuilder sb = new StringBuilder();
        sb.append(v.readable().size()).append(v.readable().size() == 1 ? " node, " : " nodes, ").append(gpus).append(" GPUs: ");
        List<String> failedChecks = v.failedChecks().stream().map(dev.fabricscope.cluster.NodeCheckSummary::node).toList();
        if (!failedChecks.isEmpty()) {
            sb.append(failedChecks.size()).append(failedChecks.size() == 1 ? " node failed its check (" : " nodes failed their check (")
                    .append(names(failedChecks, 3)).append("); ");
        }
        if (!v.problems().isEmpty()) {
            dev.fabricscope.cluster.NodeProblem worst = v.problems().get(0);
            sb.append(ErrorText.oneLineSafe(worst.message()).replaceAll("\\.$", "")).append(" on ").append(where(worst))
                    .append(v.problems().size() > 1 ? " (+" + (v.problems().size() - 1) + " more problem(s))" : "").append("; ");
        }
        if (v.inconsistencies().isEmpty()) {
            sb.append(v.problems().isEmpty() ? "all nodes match" : "no differences between nodes");
        } else {
            Inconsistency first = v.inconsistencies().get(0);
            sb.append(v.inconsistencies().size()).append(v.inconsistencies().size() == 1 ? " difference" : " differences")
                    .append(" — ").append(first.field()).append(": ");
            if (first.hasMajority() && first.outliers().size() <= 3) {
                String value = first.byValue().entrySet().stream().filter(e -> !e.getKey().equals(first.majority()))
                        .map(Map.Entry::getKey).findFirst().orElse("");
                sb.append(String.join(", ", first.outliers())).append(first.byValue().size() == 2 ? (first.outliers().size() == 1 ? " is " : " are ") + value : "")
                        .append(" (others ").append(first.majority()).append(")");
            } else if (first.hasMajority()) {
                sb.append(first.outliers().size()).append(" nodes differ from ").append(first.majority());
            } else {
                sb.append(first.byValue().size()).append(" different values, no majority");
            }
        }
        if (!v.unreadable().isEmpty()) {
            sb.append("; ").append(v.unreadable().size()).append(" unreadable file(s)");
        }
        String line = sb.toString();
        return line.length() <= Fit.WIDTH ? line : line.substring(0, Fit.WIDTH - 1) + "…";
    }

    public static String render(CollectResult r, String dir) {
        r = dev.fabricscope.text.LongValues.cut(r);
        StringBuilder sb = new StringBuilder();
        sb.append("Collected ").append(r.okCount()).append(" of ").append(r.nodes().size()).append(" node(s) through ")
                .append(r.scheduler()).append(" into ").append(dir).append(" in ").append(r.durationMs()).append(" ms\n");
        TextTable t = new TextTable("Node", "Status", "Reason");
        r.nodes().forEach(n -> t.row(n.node(), n.status(), n.reason() == null ? "" : n.reason()));
        sb.append(indent(t.render(Fit.WIDTH - 2)));
        List<String> failed = r.nodes().stream().filter(n -> !n.status().equals("ok") && !n.status().equals("no-driver"))
                .map(CollectResult.NodeOutcome::node).collect(Collectors.toList());
        if (!failed.isEmpty()) {
            sb.append("Failed or timed out: ").append(String.join(", ", failed)).append(" (kept the others)\n");
        }
        if (!r.checkFailedNodes().isEmpty()) {
            sb.append("Node checks failed on: ").append(String.join(", ", r.checkFailedNodes()))
                    .append(" ('cluster show' lists each failed expectation)\n");
        }
        return sb.toString();
    }

    private static String indent(String s) {
        return s.lines().map(l -> "  " + l).collect(Collectors.joining("\n")) + "\n";
    }
}
