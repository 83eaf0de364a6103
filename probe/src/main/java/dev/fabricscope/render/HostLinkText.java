package dev.fabricscope.render;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of the GPUs' links to their host (issue 27): a NUMA line under the host line where the host has CPU-less
 * nodes (Grace: the GPUs' memory), and a table of NVLink-C2C and each GPU's own NUMA node.
 */
public final class HostLinkText {

    private HostLinkText() {
    }

    /** Whether any GPU carries host-link readings (snapshots made before them carry placeholders). */
    public static boolean read(MachineSnapshot s) {
        return s.gpus().stream().anyMatch(g -> g.hostLink().read());
    }

    /**
     * {@code NUMA:    CPUs on nodes 0-1 · no CPUs on nodes 2–33 · GPU memory: node 2 (GPU0, 185 GiB), …}; empty where
     * every node has CPUs (x86 hosts) or the nodes were not read.
     */
    public static String numaLine(MachineSnapshot s) {
        HostInfo h = s.host();
        if (h == null || !h.numaNodes().isPresent() || h.numaNodes().value().stream().noneMatch(HostInfo.NumaNode::cpuLess)) {
            return "";
        }
        List<Integer> withCpus = new ArrayList<>();
        List<Integer> cpuLess = new ArrayList<>();
        h.numaNodes().value().forEach(n -> (n.cpuLess() ? cpuLess : withCpus).add(n.id()));
        StringBuilder sb = new StringBuilder("NUMA:    ");
        if (!withCpus.isEmpty()) {
            sb.append("CPUs on ").append(nodes(withCpus)).append(" · ");
        }
        sb.append("no CPUs on ").append(nodes(cpuLess));
        List<String> memory = new ArrayList<>();
        List<Integer> tied = new ArrayList<>();
        for (HostInfo.NumaNode n : h.cpuLessMemoryNodes()) {
            List<String> owners = new ArrayList<>();
            for (int i = 0; i < s.gpus().size(); i++) {
                if (Integer.valueOf(n.id()).equals(s.gpus().get(i).hostLink().memoryNumaNode().value())) {
                    owners.add("GPU" + i);
                    tied.add(i);
                }
            }
            if (n.memTotalBytes().isPresent()) {
                owners.add(Units.gib(n.memTotalBytes().value()));
            }
            memory.add("node " + n.id() + (owners.isEmpty() ? "" : " (" + String.join(", ", owners) + ")"));
        }
        for (int i = 0; i < s.gpus().size(); i++) { // the driver names a node the kernel's masks did not show as memory
            Integer own = s.gpus().get(i).hostLink().memoryNumaNode().value();
            if (own != null && !tied.contains(i)) {
                memory.add("node " + own + " (GPU" + i + ", by NVML)");
            }
        }
        if (!memory.isEmpty()) {
            sb.append(" · memory without CPUs: ").append(String.join(", ", memory));
        } else {
            sb.append(" · which hold memory: ").append(h.nodesWithMemory().isPresent() ? "none" : h.nodesWithMemory().display());
        }
        return sb.append('\n').toString();
    }

    private static String nodes(List<Integer> ids) {
        return (ids.size() == 1 ? "node " : "nodes ") + Fit.ranges("", ids);
    }

    /** The host-link table, identical GPUs folded; empty for snapshots made before it was read. */
    public static String table(MachineSnapshot s) {
        if (!read(s)) {
            return "";
        }
        List<Object[]> rows = new ArrayList<>();
        for (Gpu g : s.gpus()) {
            HostLink l = g.hostLink();
            rows.add(new Object[] {mode(l),
                    links(l), bandwidth(l), SignalText.cell(l.memoryNumaNode(), String::valueOf)});
        }
        TextTable t = new TextTable("GPU", "NVLink-C2C", "C2C links", "Max BW per link", "GPU's own NUMA node");
        t.foldedGpuRows(rows);
        return "Host link (NVLink-C2C to the CPU; the GPU as a NUMA node):\n" + t.render();
    }

    /** {@code mode enabled · links 10 (10 active) · 45.0 GB/s per link}: one GPU's C2C in one line. */
    public static String summary(HostLink l) {
        return "mode " + mode(l) + " · links " + links(l) + " · " + bandwidth(l) + " per link";
    }

    public static String mode(HostLink l) {
        return SignalText.cell(l.c2cEnabled(), v -> Boolean.TRUE.equals(v) ? "enabled" : "disabled");
    }

    /** {@code 10 (10 active)}, or the count's reason. */
    public static String links(HostLink l) {
        if (!l.c2cLinkCount().isPresent()) {
            return SignalText.cell(l.c2cLinkCount(), String::valueOf);
        }
        int n = l.c2cLinkCount().value();
        if (n == 0 || l.c2cLinks().isEmpty()) {
            return String.valueOf(n);
        }
        long unread = l.c2cLinks().stream().filter(x -> !x.active().isPresent()).count();
        return n + " (" + l.activeLinks().size() + " active" + (unread > 0 ? ", " + unread + " ?" : "") + ")";
    }

    /** The active links' speed ({@code 45.0 GB/s}, or a range when they differ); {@code —} with none active. */
    public static String bandwidth(HostLink l) {
        List<HostLink.C2cLink> active = l.activeLinks();
        if (active.isEmpty()) {
            return "—";
        }
        List<Long> mbps = active.stream().filter(x -> x.maxBandwidthMBps().isPresent()).map(x -> x.maxBandwidthMBps().value()).toList();
        if (mbps.isEmpty()) {
            return SignalText.cell(active.get(0).maxBandwidthMBps(), String::valueOf);
        }
        long lo = mbps.stream().mapToLong(Long::longValue).min().orElse(0);
        long hi = mbps.stream().mapToLong(Long::longValue).max().orElse(0);
        return lo == hi ? gbps(lo) : gbps(lo) + "–" + gbps(hi);
    }

    static String gbps(long mbps) {
        return String.format(Locale.ROOT, "%.1f GB/s", mbps / 1000.0);
    }
}
