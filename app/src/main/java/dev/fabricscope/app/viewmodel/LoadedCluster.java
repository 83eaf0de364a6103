package dev.fabricscope.app.viewmodel;

import dev.fabricscope.text.Words;
import dev.fabricscope.cluster.ClusterAnalysis;
import dev.fabricscope.cluster.ClusterFacts;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.Inconsistency;
import dev.fabricscope.usecase.InspectCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster folder on screen: the merged view ({@link ClusterAnalysis}), each node's differences from the majority,
 * and the cluster's facts for the advisor ({@link ClusterFacts}). Built off the FX thread; immutable.
 *
 * @param facts        null when no node report is readable
 * @param factsProblem why {@code facts} is null, or null
 */
public record LoadedCluster(Path dir, ClusterView view, Map<String, ClusterNode> nodesByName,
                            Map<String, List<Difference>> differencesByNode, ClusterFacts facts, String factsProblem, int gpus) {

    /**
     * How one node differs from the majority of the cluster in one fact.
     *
     * @param value the node's own value
     */
    public record Difference(Inconsistency inconsistency, String value) {
        /** What differs, e.g. "driver version". */
        public String field() {
            return inconsistency.field();
        }

        /** "driver version 550.54.15 (most nodes: 570.86.15)". */
        public String describe() {
            return inconsistency.field() + " " + value + (inconsistency.hasMajority()
                    ? " (most nodes: " + inconsistency.majority() + ")"
                    : " (no majority: " + inconsistency.byValue().size() + " different values)");
        }
    }

    public LoadedCluster {
        nodesByName = Collections.unmodifiableMap(nodesByName);
        differencesByNode = Collections.unmodifiableMap(differencesByNode);
    }

    /** The folder {@code dir} as {@link InspectCluster} read and merged it. */
    public static LoadedCluster of(Path dir, InspectCluster.Result opened) {
        ClusterView v = opened.view();
        Map<String, ClusterNode> byName = new LinkedHashMap<>();
        v.nodes().forEach(n -> byName.put(n.name(), n));
        Map<String, List<Difference>> diffs = new HashMap<>();
        for (Inconsistency i : v.inconsistencies()) {
            i.byValue().forEach((value, names) -> {
                if (!value.equals(i.majority())) {
                    names.forEach(n -> diffs.computeIfAbsent(n, k -> new ArrayList<>()).add(new Difference(i, value)));
                }
            });
        }
        diffs.replaceAll((k, l) -> List.copyOf(l));
        int gpus = v.readable().stream().mapToInt(n -> n.summary().gpus().size()).sum();
        return new LoadedCluster(dir, v, byName, diffs, opened.facts(), opened.factsProblem(), gpus);
    }

    /** The folder's name, for titles. */
    public String name() {
        Path f = dir.getFileName();
        return f == null ? dir.toString() : f.toString();
    }

    public ClusterNode node(String name) {
        return nodesByName.get(name);
    }

    /** Where {@code node} differs from the majority, most important first; empty for a node that matches. */
    public List<Difference> differences(String node) {
        return differencesByNode.getOrDefault(node, List.of());
    }

    /** " (2 MNNVL cliques)" where a domain is partitioned into cliques, else "". */
    private String cliques() {
        long mnnvl = view.domains().stream().filter(dev.fabricscope.cluster.NvlinkDomain::mnnvl).count();
        long cliques = view.cliques().stream().filter(q -> q.clusterUuid() != null).count();
        return cliques > mnnvl ? " (" + cliques + " MNNVL cliques)" : "";
    }

    /** "21 nodes · 88 GPUs · 3 NVLink domains · 1 problem · 1 difference · 1 unreadable file" (no problems: not said). */
    public String summary() {
        int unreadable = view.unreadable().size();
        int problems = view.problems().size();
        return Words.grouped(view.readable().size(), "node") + " · " + Words.grouped(gpus, "GPU") + " · "
                + Words.grouped(view.domains().size(), "NVLink domain") + cliques() + (problems == 0 ? "" : " · " + Words.grouped(problems, "problem"))
                + " · " + Words.grouped(view.inconsistencies().size(), "difference")
                + (unreadable == 0 ? "" : " · " + Words.grouped(unreadable, "unreadable file"));
    }
}
