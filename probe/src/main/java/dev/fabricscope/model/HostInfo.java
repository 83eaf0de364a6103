package dev.fabricscope.model;

import java.util.List;
import java.util.TreeSet;

/**
 * The host the GPUs sit in.
 *
 * @param numaNodes         NUMA nodes with their CPU lists and sizes, from {@code /sys/devices/system/node}
 * @param nodesWithCpu      {@code /sys/devices/system/node/has_cpu}: the nodes with CPUs, kernel list ({@code 0-1})
 * @param nodesWithMemory   {@code has_memory}: the nodes with memory; on Grace Hopper / Grace Blackwell the GPUs' HBM
 *                          nodes are among them and not among {@code has_cpu}
 * @param nodesWithNormalMemory {@code has_normal_memory}: the nodes with ZONE_NORMAL memory (a node onlined as movable
 *                          memory only, as the GPU driver onlines HBM, is not among them)
 */
public record HostInfo(Reading<String> hostname, Reading<String> os, Reading<String> kernel,
                       Reading<String> architecture, Reading<String> cpuModel, Reading<Integer> logicalCpus,
                       Reading<List<NumaNode>> numaNodes, Reading<String> nodesWithCpu, Reading<String> nodesWithMemory,
                       Reading<String> nodesWithNormalMemory) {

    /** The placeholder of a snapshot made before the node masks were read. */
    private static final Missing MASK_NOT_READ = Missing.notApplicable("NUMA node masks not read");

    public HostInfo {
        nodesWithCpu = nodesWithCpu != null ? nodesWithCpu : Reading.missing(MASK_NOT_READ);
        nodesWithMemory = nodesWithMemory != null ? nodesWithMemory : Reading.missing(MASK_NOT_READ);
        nodesWithNormalMemory = nodesWithNormalMemory != null ? nodesWithNormalMemory : Reading.missing(MASK_NOT_READ);
    }

    public HostInfo(Reading<String> hostname, Reading<String> os, Reading<String> kernel, Reading<String> architecture,
                    Reading<String> cpuModel, Reading<Integer> logicalCpus, Reading<List<NumaNode>> numaNodes) {
        this(hostname, os, kernel, architecture, cpuModel, logicalCpus, numaNodes, null, null, null);
    }

    /** The same host under another name (cluster samples, summaries that keep the name apart). */
    public HostInfo withHostname(Reading<String> name) {
        return new HostInfo(name, os, kernel, architecture, cpuModel, logicalCpus, numaNodes, nodesWithCpu, nodesWithMemory,
                nodesWithNormalMemory);
    }

    /**
     * @param cpus          CPU list as the kernel prints it, e.g. {@code 0-55,112-167}; empty for a CPU-less node
     * @param memTotalBytes {@code nodeN/meminfo}'s {@code MemTotal}
     */
    public record NumaNode(int id, String cpus, Reading<Long> memTotalBytes) {

        public NumaNode {
            memTotalBytes = memTotalBytes != null ? memTotalBytes : Reading.missing(Missing.notApplicable("node size not read"));
        }

        public NumaNode(int id, String cpus) {
            this(id, cpus, null);
        }

        /** The kernel lists no CPU on this node. */
        public boolean cpuLess() {
            return cpus == null || cpus.isBlank();
        }
    }

    /**
     * The nodes that hold memory and no CPU (Grace Hopper / Grace Blackwell: the GPUs' HBM), by the kernel's
     * {@code has_memory} and {@code has_cpu} masks where it gave both, else by an empty CPU list and a non-zero size.
     */
    public List<NumaNode> cpuLessMemoryNodes() {
        if (!numaNodes.isPresent()) {
            return List.of();
        }
        if (nodesWithCpu.isPresent() && nodesWithMemory.isPresent()) {
            try {
                TreeSet<Integer> withCpu = members(nodesWithCpu.value());
                TreeSet<Integer> withMemory = members(nodesWithMemory.value());
                return numaNodes.value().stream().filter(n -> withMemory.contains(n.id()) && !withCpu.contains(n.id())).toList();
            } catch (RuntimeException e) {
                // an unreadable mask: the nodes' own readings decide
            }
        }
        return numaNodes.value().stream().filter(n -> n.cpuLess() && n.memTotalBytes().orElse(0L) > 0).toList();
    }

    /** The node, or null. */
    public NumaNode numaNode(int id) {
        return numaNodes.isPresent() ? numaNodes.value().stream().filter(n -> n.id() == id).findFirst().orElse(null) : null;
    }

    /** Counts a kernel CPU list: {@code 0-3,8} → 5. */
    public static int countCpus(String list) {
        int n = 0;
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1).trim()) - Integer.parseInt(part.substring(0, dash).trim()) + 1;
        }
        return n;
    }

    /** The members of a kernel list ({@code 0-1,4} → 0, 1, 4); at most 65,536 of them (a NUMA node id's bound). */
    public static TreeSet<Integer> members(String list) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            int lo = Integer.parseInt((dash < 0 ? part : part.substring(0, dash)).trim());
            int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).trim());
            if (lo < 0 || hi < lo || hi > 1 << 16) {
                throw new IllegalArgumentException("not a node list: " + list);
            }
            for (int i = lo; i <= hi; i++) {
                out.add(i);
            }
        }
        return out;
    }
}
