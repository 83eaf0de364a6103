package dev.fabricscope.cluster;

import dev.fabricscope.cluster.NodeSummary.GpuSummary;
import dev.fabricscope.model.Finding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Groups node snapshots into NVLink domains (by MNNVL cluster UUID) and their cliques, and finds what differs between nodes that should match. Pure. */
public final class ClusterAnalysis {

    private ClusterAnalysis() {
    }

    /** A fact compared across nodes, in order of importance. */
    private record Fact(String field, Function<NodeSummary, String> value) {
    }

    private static final List<Fact> FACTS = List.of(
            new Fact("driver version", s -> s.driver().driverVersion().shortDisplay()),
            new Fact("CUDA driver version", s -> s.driver().cudaDriverVersion().shortDisplay()),
            new Fact("GPU models", s -> distinct(s, g -> g.name().shortDisplay())),
            new Fact("compute capability", s -> distinct(s, g -> g.computeCapability().shortDisplay())),
            new Fact("GPU count", s -> String.valueOf(s.gpus().size())),
            new Fact("active NVLinks per GPU", ClusterAnalysis::activeLinks),
            new Fact("NVSwitches seen", s -> String.valueOf(s.nvSwitches())),
            new Fact("GPU fabric state", s -> distinct(s, g -> g.fabric().state().shortDisplay())),
            new Fact("GPU fabric health", s -> distinct(s, g -> g.fabric().healthSummary().shortDisplay())),
            new Fact("MIG mode", s -> distinct(s, g -> g.migMode().shortDisplay())),
            new Fact("CUDA multicast", s -> distinct(s, g -> g.cuda().multicast().shortDisplay())),
            new Fact("fabric handles", s -> distinct(s, g -> g.cuda().fabricHandles().shortDisplay())),
            new Fact("virtualization mode", s -> distinct(s, g -> g.virtualizationMode().shortDisplay())),
            new Fact("NCCL version", s -> s.driver().nccl().version().isPresent() ? s.driver().nccl().version().value() : "not found"),
            new Fact("Python stack (torch / CUDA / NCCL loaded)", s -> s.pythonStack() == null ? "not read" : s.pythonStack()),
            new Fact("IMEX channels", s -> s.driver().imexChannels().isPresent()
                    ? String.valueOf(s.driver().imexChannels().value().size()) : "?"));

    private static String distinct(NodeSummary s, Function<GpuSummary, String> f) {
        if (s.gpus().isEmpty()) {
            return "(no GPUs)";
        }
        return s.gpus().stream().map(f).collect(Collectors.toCollection(TreeSet::new)).stream().collect(Collectors.joining(", "));
    }

    /** {@code 18} when every GPU has 18 active links, else per GPU ({@code GPU3: 16}); {@code ?} when unreadable. */
    static String activeLinks(NodeSummary s) {
        Map<String, Integer> perGpu = new LinkedHashMap<>();
        boolean unknown = false;
        for (int i = 0; i < s.gpus().size(); i++) {
            GpuSummary g = s.gpus().get(i);
            unknown |= !g.linkStateReadable();
            perGpu.put("GPU" + i, g.activeLinks());
        }
        if (unknown) {
            return "? (NVLink state not readable)";
        }
        Set<Integer> values = new HashSet<>(perGpu.values());
        if (values.size() <= 1) {
            return values.isEmpty() ? "(no GPUs)" : String.valueOf(values.iterator().next());
        }
        return perGpu.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", "));
    }

    public static ClusterView analyse(String directory, List<ClusterNode> nodes) {
        return analyse(directory, nodes, NodeJudge.NONE);
    }

    /** As {@link #analyse(String, List)}, each node also judged by itself with {@code judge} ({@link ClusterView#problems}). */
    public static ClusterView analyse(String directory, List<ClusterNode> nodes, NodeJudge judge) {
        List<ClusterNode> named = uniqueNames(nodes);
        List<ClusterNode> ok = named.stream().filter(ClusterNode::ok).toList();
        return new ClusterView(directory, named, domains(ok), inconsistencies(ok), List.of(), problems(ok, judge));
    }

    /** Two files from the same host keep apart: the second gets its file name appended. */
    private static List<ClusterNode> uniqueNames(List<ClusterNode> nodes) {
        Map<String, Integer> seen = new HashMap<>();
        List<ClusterNode> out = new ArrayList<>();
        for (ClusterNode n : nodes) {
            int k = seen.merge(n.name(), 1, Integer::sum);
            String name = k == 1 ? n.name() : n.name() + " (" + java.nio.file.Paths.get(n.file()).getFileName() + ")";
            out.add(k == 1 ? n : n.named(name));
        }
        return out;
    }

    /**
     * A node's clique as GPU Feature Discovery names it ({@link NvlinkClique}): {@code <ClusterUUID>.<CliqueId>} of its
     * fabric-attached GPUs, or none; {@code disagreement} says what its GPUs disagree on, where GFD sets no label.
     */
    record DomainLabel(String label, String disagreement) {
    }

    static DomainLabel domainLabel(NodeSummary s) {
        Map<String, List<Integer>> uuids = new TreeMap<>();
        Map<Long, List<Integer>> cliques = new TreeMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            var f = s.gpus().get(i).fabric();
            if (NvlinkClique.attached(f)) {
                uuids.computeIfAbsent(f.clusterUuid().value(), k -> new ArrayList<>()).add(i);
                cliques.computeIfAbsent(f.cliqueId().orElse(0L), k -> new ArrayList<>()).add(i);
            }
        }
        if (uuids.size() > 1 || cliques.size() > 1) {
            List<String> parts = new ArrayList<>();
            if (uuids.size() > 1) {
                parts.add("cluster UUIDs " + gpusBy(uuids));
            }
            if (cliques.size() > 1) {
                parts.add("clique ids " + gpusBy(cliques));
            }
            return new DomainLabel(null, "its GPUs disagree on their NVLink domain (" + String.join("; ", parts)
                    + "): GPU Feature Discovery sets no " + NvlinkClique.GFD_CLIQUE_LABEL + " label on such a node");
        }
        return uuids.isEmpty() ? new DomainLabel(null, null)
                : new DomainLabel(uuids.keySet().iterator().next() + "." + cliques.keySet().iterator().next(), null);
    }

    /** {@code 7a3c…: GPU0–2, 9b21…: GPU3} for the disagreement's words. */
    private static <K> String gpusBy(Map<K, List<Integer>> m) {
        return m.entrySet().stream().map(e -> e.getKey() + " on GPU" + e.getValue().stream().map(String::valueOf)
                .collect(Collectors.joining(",GPU"))).collect(Collectors.joining(", "));
    }

    /** The nodes' cliques ({@link #cliques}) grouped by MNNVL cluster UUID into NVLink domains, most nodes first. */
    static List<NvlinkDomain> domains(List<ClusterNode> nodes) {
        Map<String, List<NvlinkClique>> byUuid = new TreeMap<>();
        for (NvlinkClique c : cliques(nodes)) {
            byUuid.computeIfAbsent(c.clusterUuid() != null ? c.clusterUuid() : c.id(), k -> new ArrayList<>()).add(c);
        }
        List<NvlinkDomain> out = new ArrayList<>();
        byUuid.forEach((key, cliques) -> out.add(new NvlinkDomain(key, cliques.get(0).clusterUuid(), cliques)));
        out.sort(Comparator.comparing((NvlinkDomain d) -> -d.nodes().size()).thenComparing(NvlinkDomain::id));
        return out;
    }

    /** One clique per {@code <ClusterUUID>.<CliqueId>} the nodes' GPUs are in, and one per node outside MNNVL; most nodes first. */
    static List<NvlinkClique> cliques(List<ClusterNode> nodes) {
        Map<String, List<ClusterNode>> byKey = new TreeMap<>();
        Map<String, String> notes = new HashMap<>();
        for (ClusterNode n : nodes) {
            DomainLabel label = domainLabel(n.summary());
            String key = label.label() != null ? label.label() : "node:" + n.name();
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
            if (label.disagreement() != null) {
                notes.put(key, label.disagreement());
            }
        }
        List<NvlinkClique> out = new ArrayList<>();
        byKey.forEach((key, members) -> {
            boolean mnnvl = !key.startsWith("node:");
            String uuid = mnnvl ? key.substring(0, key.lastIndexOf('.')) : null;
            Long clique = mnnvl ? Long.parseLong(key.substring(key.lastIndexOf('.') + 1)) : null;
            out.add(new NvlinkClique(key, uuid, clique, members.stream().map(ClusterNode::name).sorted().toList(),
                    members.stream().mapToInt(m -> m.summary().gpus().size()).sum(), notes.get(key)));
        });
        out.sort(Comparator.comparing((NvlinkClique c) -> -c.nodes().size())
                .thenComparing(c -> c.cliqueId() == null ? Long.MAX_VALUE : c.cliqueId()).thenComparing(NvlinkClique::id));
        return out;
    }

    /**
     * What each node's own data shows wrong (the warnings and errors {@code judge} finds, and GPUs that disagree on
     * their NVLink domain), grouped by finding over the nodes.
     */
    static List<NodeProblem> problems(List<ClusterNode> nodes, NodeJudge judge) {
        record Key(Finding.Severity severity, String code, String message) {
        }
        Map<Key, Set<String>> nodesBy = new LinkedHashMap<>();
        Map<Key, Integer> gpusBy = new HashMap<>();
        for (ClusterNode n : nodes) {
            NodeSummary s = n.summary();
            List<Finding> found = new ArrayList<>(judge.judge(s));
            String disagreement = domainLabel(s).disagreement();
            if (disagreement != null) {
                found.add(new Finding(Finding.Severity.WARNING, "nvlink-domain-disagrees", "The node's GPUs disagree on their NVLink "
                        + "domain: GPU Feature Discovery sets no " + NvlinkClique.GFD_CLIQUE_LABEL + " label on it.", null));
            }
            for (Finding f : found) {
                if (f.severity() == Finding.Severity.INFO) {
                    continue;
                }
                Key key = new Key(f.severity(), f.code(), f.message());
                nodesBy.computeIfAbsent(key, x -> new java.util.LinkedHashSet<>()).add(n.name());
                gpusBy.merge(key, f.subject() != null && f.subject().matches("GPU\\d+.*") ? 1 : 0, Integer::sum);
            }
        }
        List<NodeProblem> out = new ArrayList<>();
        nodesBy.forEach((k, names) -> out.add(new NodeProblem(k.severity(), k.code(), k.message(), List.copyOf(names),
                gpusBy.getOrDefault(k, 0), nodes.size())));
        out.sort(Comparator.comparing(NodeProblem::severity).thenComparing(p -> -p.nodes().size()));
        return out;
    }

    static List<Inconsistency> inconsistencies(List<ClusterNode> nodes) {
        List<Inconsistency> out = new ArrayList<>();
        if (nodes.size() < 2) {
            return out;
        }
        for (int rank = 0; rank < FACTS.size(); rank++) {
            Fact f = FACTS.get(rank);
            compare(out, rank, f.field(), nodes, n -> f.value().apply(n.summary()));
        }
        Set<String> envNames = new TreeSet<>();
        nodes.forEach(n -> envNames.addAll(n.summary().environment().keySet()));
        int rank = FACTS.size();
        for (String name : envNames) {
            if (name.equals("LD_LIBRARY_PATH")) {
                continue;
            }
            compare(out, rank, "environment " + name, nodes, n -> n.summary().environment().getOrDefault(name, "(unset)"));
        }
        return out;
    }

    private static void compare(List<Inconsistency> out, int rank, String field, List<ClusterNode> nodes,
                                Function<ClusterNode, String> value) {
        Map<String, List<String>> byValue = new TreeMap<>();
        for (ClusterNode n : nodes) {
            byValue.computeIfAbsent(value.apply(n), k -> new ArrayList<>()).add(n.name());
        }
        if (byValue.size() < 2) {
            return;
        }
        // Only a value more than half the nodes share is a majority; otherwise no node is the odd one out.
        String majority = byValue.entrySet().stream()
                .filter(e -> e.getValue().size() * 2 > nodes.size())
                .map(Map.Entry::getKey).findFirst().orElse(null);
        List<String> outliers = majority == null ? List.of() : byValue.entrySet().stream().filter(e -> !e.getKey().equals(majority))
                .flatMap(e -> e.getValue().stream()).sorted().toList();
        Map<String, List<String>> sorted = new LinkedHashMap<>();
        byValue.entrySet().stream().sorted(Comparator.comparing((Map.Entry<String, List<String>> e) -> -e.getValue().size()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue().stream().sorted().toList()));
        out.add(new Inconsistency(rank, field, "cluster", majority, sorted, outliers));
    }

}
