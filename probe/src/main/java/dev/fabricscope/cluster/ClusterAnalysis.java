package dev.fabricscope.cluster;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
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

/** Groups node snapshots into NVLink domains and finds what differs between nodes that should match. Pure. */
public final class ClusterAnalysis {

    private ClusterAnalysis() {
    }

    /** A fact compared across nodes, in order of importance. */
    private record Fact(String field, Function<MachineSnapshot, String> value) {
    }

    private static final List<Fact> FACTS = List.of(
            new Fact("driver version", s -> s.driver().driverVersion().shortDisplay()),
            new Fact("CUDA driver version", s -> s.driver().cudaDriverVersion().shortDisplay()),
            new Fact("GPU models", s -> distinct(s, g -> g.name().shortDisplay())),
            new Fact("compute capability", s -> distinct(s, g -> g.computeCapability().shortDisplay())),
            new Fact("GPU count", s -> String.valueOf(s.gpus().size())),
            new Fact("active NVLinks per GPU", ClusterAnalysis::activeLinks),
            new Fact("NVSwitches seen", s -> String.valueOf(s.nvSwitches().size())),
            new Fact("GPU fabric state", s -> distinct(s, g -> g.fabric().state().shortDisplay())),
            new Fact("GPU fabric health", s -> distinct(s, g -> g.fabric().healthSummary().shortDisplay())),
            new Fact("MIG mode", s -> distinct(s, g -> g.migMode().shortDisplay())),
            new Fact("CUDA multicast", s -> distinct(s, g -> g.cuda().multicast().shortDisplay())),
            new Fact("fabric handles", s -> distinct(s, g -> g.cuda().fabricHandles().shortDisplay())),
            new Fact("virtualization mode", s -> distinct(s, g -> g.virtualizationMode().shortDisplay())),
            new Fact("NCCL version", s -> s.driver().nccl().version().isPresent() ? s.driver().nccl().version().value() : "not found"),
            new Fact("Python stack (torch / CUDA / NCCL loaded)", s -> s.pythonStack() == null ? "not read"
                    : s.pythonStack().summary(s.environment(), s.driver().nccl())),
            new Fact("IMEX channels", s -> s.driver().imexChannels().isPresent()
                    ? String.valueOf(s.driver().imexChannels().value().size()) : "?"));

    private static String distinct(MachineSnapshot s, Function<Gpu, String> f) {
        if (s.gpus().isEmpty()) {
            return "(no GPUs)";
        }
        return s.gpus().stream().map(f).collect(Collectors.toCollection(TreeSet::new)).stream().collect(Collectors.joining(", "));
    }

    /** {@code 18} when every GPU has 18 active links, else per GPU ({@code GPU3: 16}); {@code ?} when unreadable. */
    static String activeLinks(MachineSnapshot s) {
        Map<String, Integer> perGpu = new LinkedHashMap<>();
        boolean unknown = false;
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            boolean readable = g.nvLinks().stream().anyMatch(l -> l.active().isPresent()) || g.nvLinks().isEmpty();
            unknown |= !readable;
            perGpu.put("GPU" + i, g.activeLinks().size());
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
        List<ClusterNode> named = uniqueNames(nodes);
        List<ClusterNode> ok = named.stream().filter(ClusterNode::ok).toList();
        return new ClusterView(directory, named, domains(ok), inconsistencies(ok));
    }

    /** Two files from the same host keep apart: the second gets its file name appended. */
    private static List<ClusterNode> uniqueNames(List<ClusterNode> nodes) {
        Map<String, Integer> seen = new HashMap<>();
        List<ClusterNode> out = new ArrayList<>();
        for (ClusterNode n : nodes) {
            int k = seen.merge(n.name(), 1, Integer::sum);
            String name = k == 1 ? n.name() : n.name() + " (" + java.nio.file.Paths.get(n.file()).getFileName() + ")";
            out.add(new ClusterNode(name, n.file(), n.snapshot(), n.error()));
        }
        return out;
    }

    /** The node's MNNVL domain key (cluster UUID/clique shared by most of its GPUs), or null. */
    static String domainKey(MachineSnapshot s) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Gpu g : s.gpus()) {
            if (g.fabric().inMnnvlDomain()) {
                counts.merge(g.fabric().clusterUuid().value() + "/" + g.fabric().cliqueId().orElse(0L), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    static List<NvlinkDomain> domains(List<ClusterNode> nodes) {
        Map<String, List<ClusterNode>> byKey = new TreeMap<>();
        for (ClusterNode n : nodes) {
            String key = domainKey(n.snapshot());
            byKey.computeIfAbsent(key != null ? key : "node:" + n.name(), k -> new ArrayList<>()).add(n);
        }
        List<NvlinkDomain> out = new ArrayList<>();
        byKey.forEach((key, members) -> {
            boolean mnnvl = !key.startsWith("node:");
            String uuid = mnnvl ? key.substring(0, key.lastIndexOf('/')) : null;
            Long clique = mnnvl ? Long.parseLong(key.substring(key.lastIndexOf('/') + 1)) : null;
            out.add(new NvlinkDomain(key, uuid, clique, members.stream().map(ClusterNode::name).sorted().toList(),
                    members.stream().mapToInt(m -> m.snapshot().gpus().size()).sum()));
        });
        out.sort(Comparator.comparing((NvlinkDomain d) -> -d.nodes().size()).thenComparing(NvlinkDomain::id));
        return out;
    }

    static List<Inconsistency> inconsistencies(List<ClusterNode> nodes) {
        List<Inconsistency> out = new ArrayList<>();
        if (nodes.size() < 2) {
            return out;
        }
        for (int rank = 0; rank < FACTS.size(); rank++) {
            Fact f = FACTS.get(rank);
            compare(out, rank, f.field(), nodes, n -> f.value().apply(n.snapshot()));
        }
        Set<String> envNames = new TreeSet<>();
        nodes.forEach(n -> envNames.addAll(n.snapshot().environment().keySet()));
        int rank = FACTS.size();
        for (String name : envNames) {
            if (name.equals("LD_LIBRARY_PATH")) {
                continue;
            }
            compare(out, rank, "environment " + name, nodes, n -> n.snapshot().environment().getOrDefault(name, "(unset)"));
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
