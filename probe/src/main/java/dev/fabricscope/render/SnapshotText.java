package dev.fabricscope.render;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The human text view of a snapshot: header, GPU table, topology matrix with legend, NVLink, fabric, findings. */
public final class SnapshotText {

    private SnapshotText() {
    }

    public static final String TOPOLOGY_LEGEND = """

            Legend:
              X    = Self
              SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
              NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
              PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
              PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
              PIX  = Connection traversing at most a single PCIe bridge
              NV#  = Connection traversing a bonded set of # NVLinks
              ?    = not readable (see the JSON for the call and its error)
            """;

    public static String render(MachineSnapshot s) {
        StringBuilder sb = new StringBuilder();
        header(sb, s);
        if (s.driver() != null && !s.driver().driverPresent()) {
            sb.append('\n').append(s.driver().message()).append('\n');
            findings(sb, s);
            return sb.toString();
        }
        sb.append('\n').append(gpuTable(s));
        sb.append('\n').append(topologyMatrix(s)).append(TOPOLOGY_LEGEND);
        if (s.gpus().size() > 1) {
            sb.append('\n').append(p2pMatrix(s));
        }
        sb.append('\n').append(nvlinkSummary(s));
        sb.append('\n').append(memoryFabric(s));
        sb.append(NodeText.render(s));
        findings(sb, s);
        return sb.toString();
    }

    private static void header(StringBuilder sb, MachineSnapshot s) {
        ProbeInfo p = s.probe();
        HostInfo h = s.host();
        DriverInfo d = s.driver();
        String origin = p == null ? "" : switch (p.origin()) {
            case LIVE -> "live probe";
            case CAPTURED -> "captured from a real machine";
            case SYNTHETIC -> "SYNTHETIC sample (not a real reading)";
            case REPLAYED -> "replayed from a trace recorded";
        };
        sb.append("Fabricscope ").append(p == null ? "" : p.toolVersion()).append(" — ").append(origin);
        if (p != null && p.probedAt() != null) {
            sb.append(" at ").append(p.probedAt());
        }
        if (p != null && p.durationMs() != null) {
            sb.append(" (").append(p.durationMs()).append(" ms)");
        }
        sb.append('\n');
        if (p != null && p.description() != null) {
            sb.append(p.description()).append('\n');
        }
        if (h != null) {
            sb.append("Host:    ").append(h.hostname().shortDisplay()).append(" · ").append(h.os().shortDisplay())
                    .append(" · kernel ").append(h.kernel().shortDisplay()).append(" · ").append(h.cpuModel().shortDisplay())
                    .append(" · ").append(h.logicalCpus().shortDisplay()).append(" CPUs");
            if (h.numaNodes().isPresent()) {
                sb.append(" · ").append(h.numaNodes().value().size()).append(" NUMA node(s)");
            }
            sb.append('\n');
        }
        if (d != null) {
            sb.append("Driver:  ").append(d.driverVersion().shortDisplay()).append(" · CUDA ")
                    .append(d.cudaDriverVersion().shortDisplay()).append(" · NVML ").append(d.nvmlVersion().shortDisplay())
                    .append(" · NCCL ").append(d.nccl().version().isPresent() ? d.nccl().version().value() + " (" + d.nccl().path().value() + ")" : "not found")
                    .append('\n');
            if (d.imexChannels().isPresent()) {
                sb.append("IMEX:    ").append(d.imexChannels().value().isEmpty() ? "no channel devices" : String.join(", ", d.imexChannels().value())).append('\n');
            }
        }
    }

    public static String gpuTable(MachineSnapshot s) {
        TextTable t = new TextTable("GPU", "Name", "SM", "SMs", "Memory", "PCI", "NUMA", "CPU affinity", "MIG", "Virt", "UUID");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            t.row("GPU" + i, g.name().shortDisplay(), g.computeCapability().shortDisplay(), g.smCount().shortDisplay(),
                    g.memoryTotalBytes().isPresent() ? gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().shortDisplay(),
                    g.pci(), g.numaNode().shortDisplay(), g.cpuAffinity().shortDisplay(), g.migMode().shortDisplay(),
                    g.virtualizationMode().shortDisplay(), g.uuid().shortDisplay());
        }
        return t.render();
    }

    static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.0f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    /** The {@code nvidia-smi topo -m} matrix, plus CPU and NUMA affinity columns. */
    public static String topologyMatrix(MachineSnapshot s) {
        return "Topology (as nvidia-smi topo -m):\n" + topologyTable(s, (text, max) -> text).render() + nicLegend(s);
    }

    /** {@code NIC Legend:} as nvidia-smi prints it under the matrix; empty without RDMA NICs. */
    public static String nicLegend(MachineSnapshot s) {
        List<dev.fabricscope.model.Nic> nics = s.node().rdmaNics();
        if (nics.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\nNIC Legend:\n\n");
        for (int k = 0; k < nics.size(); k++) {
            sb.append("  NIC").append(k).append(": ").append(nics.get(k).name()).append('\n');
        }
        return sb.toString();
    }

    /**
     * The topology matrix as a table; {@code cell} shapes every cell text given its width budget (reports cut and
     * escape untrusted text there).
     */
    public static TextTable topologyTable(MachineSnapshot s, java.util.function.BiFunction<String, Integer, String> cell) {
        List<Gpu> gpus = s.gpus();
        List<dev.fabricscope.model.Nic> nics = s.node().rdmaNics();
        int g = gpus.size();
        int n = nics.size();
        String[] header = new String[g + n + 3];
        header[0] = "";
        for (int i = 0; i < g; i++) {
            header[i + 1] = "GPU" + i;
        }
        for (int k = 0; k < n; k++) {
            header[g + k + 1] = "NIC" + k;
        }
        header[g + n + 1] = "CPU Affinity";
        header[g + n + 2] = "NUMA Affinity";
        TextTable t = new TextTable(header);
        for (int i = 0; i < g; i++) {
            Object[] row = new Object[g + n + 3];
            row[0] = "GPU" + i;
            for (int j = 0; j < g; j++) {
                GpuPair p = i == j ? null : s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                row[j + 1] = i == j ? "X" : p == null ? "?" : cell.apply(p.topology().shortDisplay(), 8);
            }
            for (int k = 0; k < n; k++) {
                row[g + k + 1] = cell.apply(dev.fabricscope.probe.PcieTopology.gpuToNic(s, gpus.get(i), nics.get(k)).shortDisplay(), 8);
            }
            row[g + n + 1] = cell.apply(gpus.get(i).cpuAffinity().shortDisplay(), 40);
            row[g + n + 2] = cell.apply(gpus.get(i).numaNode().shortDisplay(), 8);
            t.row(row);
        }
        for (int k = 0; k < n; k++) {
            Object[] row = new Object[g + n + 3];
            row[0] = "NIC" + k;
            for (int i = 0; i < g; i++) {
                row[i + 1] = cell.apply(dev.fabricscope.probe.PcieTopology.gpuToNic(s, gpus.get(i), nics.get(k)).shortDisplay(), 8);
            }
            for (int m = 0; m < n; m++) {
                row[g + m + 1] = k == m ? "X" : cell.apply(dev.fabricscope.probe.PcieTopology.letter(
                        dev.fabricscope.probe.PcieTopology.nicPlace(nics.get(k)), dev.fabricscope.probe.PcieTopology.nicPlace(nics.get(m))).shortDisplay(), 8);
            }
            row[g + n + 1] = "";
            row[g + n + 2] = "";
            t.row(row);
        }
        return t;
    }

    /** NVML P2P status per pair as {@code nvidia-smi topo -p2p rwnap}: read/write/nvlink/atomics/prop. */
    public static String p2pMatrix(MachineSnapshot s) {
        List<Gpu> gpus = s.gpus();
        String[] header = new String[gpus.size() + 1];
        header[0] = "";
        for (int i = 0; i < gpus.size(); i++) {
            header[i + 1] = "GPU" + i;
        }
        TextTable t = new TextTable(header);
        for (int i = 0; i < gpus.size(); i++) {
            Object[] row = new Object[gpus.size() + 1];
            row[0] = "GPU" + i;
            for (int j = 0; j < gpus.size(); j++) {
                if (i == j) {
                    row[j + 1] = "X";
                    continue;
                }
                GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                row[j + 1] = p == null ? "?" : String.join("/", p.p2pRead().shortDisplay(), p.p2pWrite().shortDisplay(),
                        p.p2pNvlink().shortDisplay(), p.p2pAtomics().shortDisplay(), p.p2pProp().shortDisplay());
            }
            t.row(row);
        }
        return "P2P (NVML read/write/nvlink/atomics/prop, as nvidia-smi topo -p2p rwnap; OK, CNS chipset, GNS GPU, TNS topology, NS not supported):\n"
                + t.render();
    }

    public static String nvlinkSummary(MachineSnapshot s) {
        StringBuilder sb = new StringBuilder("NVLink:\n");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            sb.append("  GPU").append(i).append(": ");
            List<NvLink> active = g.activeLinks();
            if (g.nvLinks().isEmpty()) {
                sb.append(g.nvLinkCount().isPresent() ? "no NVLinks" : "links unknown — " + g.nvLinkCount().missing().describe());
            } else if (active.isEmpty() && g.nvLinks().stream().noneMatch(l -> l.active().isPresent())) {
                sb.append("state unknown for ").append(g.nvLinks().size()).append(" links — ")
                        .append(g.nvLinks().get(0).active().missing().describe());
            } else {
                long toSwitch = active.stream().filter(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value())).count();
                long toGpu = active.stream().filter(l -> NvLink.REMOTE_GPU.equals(l.remoteType().value())).count();
                double bw = active.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                sb.append(active.size()).append("/").append(g.nvLinks().size()).append(" active");
                String version = linkVersion(active);
                if (version != null) {
                    sb.append(", NVLink ").append(version);
                } else {
                    active.stream().findFirst().flatMap(l -> l.generation().asOptional()).ifPresent(gen -> sb.append(", NVLink").append(gen));
                }
                String speed = linkSpeed(active);
                if (speed != null) {
                    sb.append(", ").append(speed).append(" per link");
                }
                sb.append(String.format(Locale.ROOT, ", %.0f GB/s per direction", bw));
                if (toSwitch > 0) sb.append(", ").append(toSwitch).append(" to NVSwitch");
                if (toGpu > 0) sb.append(", ").append(toGpu).append(" to GPUs");
            }
            sb.append('\n');
        }
        if (s.nvSwitches().isEmpty()) {
            sb.append("  NVSwitches: none seen\n");
        } else {
            sb.append("  NVSwitches: ").append(s.nvSwitches().size()).append('\n');
            for (NvSwitch sw : s.nvSwitches()) {
                sb.append("    ").append(sw.id()).append(" ").append(sw.pci().isPresent() ? sw.pci().value().toString()
                                : "(" + dev.fabricscope.probe.Topology.hiddenSwitchWhere(s) + "; switch count unknown)")
                        .append(": ").append(sw.totalLinks()).append(" links from ").append(sw.gpuLinks().size()).append(" GPUs\n");
            }
        }
        return sb.toString();
    }

    public static String memoryFabric(MachineSnapshot s) {
        TextTable t = new TextTable("GPU", "VMM", "POSIX-FD", "Fabric handles", "Multicast", "GPUDirect RDMA", "Fabric state", "Clique", "Cluster UUID", "Health");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            t.row("GPU" + i, yn(g.cuda().vmm()), yn(g.cuda().posixFdHandles()), yn(g.cuda().fabricHandles()),
                    yn(g.cuda().multicast()), yn(g.cuda().gpuDirectRdma()), g.fabric().state().shortDisplay(),
                    g.fabric().cliqueId().shortDisplay(), g.fabric().clusterUuid().shortDisplay(),
                    g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().shortDisplay());
        }
        return "Memory sharing and fabric:\n" + t.render();
    }

    public static String yn(Reading<Boolean> r) {
        return r.isPresent() ? (r.value() ? "yes" : "no") : r.shortDisplay();
    }

    private static void findings(StringBuilder sb, MachineSnapshot s) {
        if (s.findings().isEmpty()) {
            return;
        }
        sb.append("\nFindings:\n");
        for (Finding f : s.findings()) {
            sb.append("  ").append(f.severity()).append(": ").append(f.subject() == null ? "" : f.subject() + ": ")
                    .append(f.message()).append('\n');
        }
    }

    /** Joins readings for a compact summary line. */
    static String join(List<String> parts) {
        return parts.stream().collect(Collectors.joining(", "));
    }

    /** The NVML version all active links report, as a name ({@code 4.0}), or null when they differ or are unknown. */
    static String linkVersion(List<NvLink> active) {
        java.util.Set<Integer> codes = new java.util.HashSet<>();
        for (NvLink l : active) {
            codes.add(l.versionCode().orElse(-1));
        }
        return codes.size() == 1 ? NvLink.versionName(codes.iterator().next()) : null;
    }

    /** {@code 26.562 GB/s} when every active link reports the same NVML speed, else the range, else null. */
    static String linkSpeed(List<NvLink> active) {
        java.util.LongSummaryStatistics st = active.stream().filter(l -> l.speedMbps().isPresent())
                .mapToLong(l -> l.speedMbps().value()).summaryStatistics();
        if (st.getCount() == 0) {
            return null;
        }
        String min = String.format(Locale.ROOT, "%.3f", st.getMin() / 1000.0);
        String max = String.format(Locale.ROOT, "%.3f", st.getMax() / 1000.0);
        return (min.equals(max) ? min : min + "–" + max) + " GB/s" + (st.getCount() < active.size() ? " (some unknown)" : "");
    }
}
