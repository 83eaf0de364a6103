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
        return render(s, false);
    }

    /**
     * A one-line answer (machine summary and worst finding), the header, the findings, then the tables. By default
     * everything fits {@link Fit#WIDTH} columns: identical GPU rows are folded ({@code GPU0–7}), a P2P matrix where
     * every pair says the same becomes one line, and the GPU table leaves out UUIDs.
     *
     * @param wide one row per GPU, the UUID column and the full P2P matrix, however wide
     */
    public static String render(MachineSnapshot s, boolean wide) {
        s = dev.fabricscope.text.LongValues.cut(s); // long values cut here, for every view of a machine
        StringBuilder sb = new StringBuilder();
        sb.append(answer(s)).append('\n');
        header(sb, s);
        if (s.driver() != null && !s.driver().driverPresent()) {
            sb.append('\n').append(s.driver().message()).append('\n');
            appendStack(sb, s);
            findings(sb, s);
            return wide ? sb.toString() : Fit.wrap(sb.toString(), Fit.WIDTH);
        }
        findings(sb, s);
        sb.append('\n').append(gpuTable(s, wide));
        sb.append('\n').append(topologyMatrix(s, wide)).append(TOPOLOGY_LEGEND);
        if (s.gpus().size() > 1) {
            sb.append('\n').append(wide ? p2pMatrix(s) : p2pFitted(s));
        }
        sb.append('\n').append(nvlinkSummary(s, wide));
        sb.append('\n').append(memoryFabric(s, wide));
        String hostLink = HostLinkText.table(s);
        if (!hostLink.isEmpty()) {
            sb.append('\n').append(hostLink);
        }
        String signals = SignalText.table(s);
        if (!signals.isEmpty()) {
            sb.append('\n').append(signals);
        }
        sb.append('\n').append(SignalText.verdicts(s, dev.fabricscope.topology.FabricVerdict.of(s)));
        sb.append(NodeText.render(s, wide));
        appendStack(sb, s);
        if (sb.indexOf("N/S") >= 0 || sb.indexOf("N/A") >= 0) {
            sb.append("\nN/S: the driver says this GPU does not support the reading; N/A: not applicable here; ?: could not be read"
                    + " (the JSON names the call and its error).\n");
        }
        return wide ? sb.toString() : Fit.wrap(sb.toString(), Fit.WIDTH);
    }

    /**
     * The answer line: {@code 8× NVIDIA H100 80GB HBM3 · NVLink 18/18 via 4 NVSwitches · multicast yes — 1 info: …}.
     */
    public static String answer(MachineSnapshot s) {
        StringBuilder sb = new StringBuilder();
        if (s.driver() != null && !s.driver().driverPresent()) {
            sb.append("No NVIDIA driver");
        } else if (s.gpus().isEmpty()) {
            sb.append("No GPUs seen");
        } else {
            java.util.Map<String, Integer> models = new java.util.LinkedHashMap<>();
            s.gpus().forEach(g -> models.merge(g.name().orElse("unknown GPU"), 1, Integer::sum));
            sb.append(models.entrySet().stream().map(e -> e.getValue() + "× " + e.getKey()).collect(Collectors.joining(" + ")));
            long withLinks = s.gpus().stream().filter(g -> !g.activeLinks().isEmpty()).count();
            boolean unknownLinks = s.gpus().stream().anyMatch(g -> !g.nvLinks().isEmpty() && g.nvLinks().stream().noneMatch(l -> l.active().isPresent()));
            if (withLinks > 0) {
                java.util.IntSummaryStatistics st = s.gpus().stream().mapToInt(g -> g.activeLinks().size()).summaryStatistics();
                sb.append(" · NVLink ").append(st.getMin() == st.getMax() ? String.valueOf(st.getMax()) : st.getMin() + "–" + st.getMax())
                        .append(" active per GPU");
                if (!s.nvSwitches().isEmpty()) {
                    sb.append(" via ").append(s.nvSwitches().size()).append(s.nvSwitches().size() == 1 ? " NVSwitch" : " NVSwitches");
                }
            } else {
                sb.append(unknownLinks ? " · NVLink not readable" : " · no NVLink");
            }
            java.util.Set<String> mc = new java.util.TreeSet<>();
            s.gpus().forEach(g -> mc.add(Units.yn(g.cuda().multicast())));
            sb.append(" · multicast ").append(String.join("/", mc));
        }
        List<Finding> worst = FindingFolds.fold(s, s.findings().stream().sorted(java.util.Comparator.comparing(Finding::severity)).toList());
        if (worst.isEmpty()) {
            sb.append(" — no findings");
        } else {
            java.util.Map<Finding.Severity, Long> counts = new java.util.EnumMap<>(Finding.Severity.class);
            worst.forEach(f -> counts.merge(f.severity(), 1L, Long::sum));
            sb.append(" — ").append(counts.entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey().name().toLowerCase(Locale.ROOT) + (e.getValue() > 1 && e.getKey() != Finding.Severity.INFO ? "s" : ""))
                    .collect(Collectors.joining(", ")));
            sb.append(": ").append(worst.get(0).message());
        }
        String line = sb.toString().replace('\n', ' ');
        return line.length() <= Fit.WIDTH ? line : line.substring(0, Fit.WIDTH - 1) + "…";
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
            sb.append(HostLinkText.numaLine(s));
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
        return gpuTable(s, true);
    }

    /** The GPU table; without {@code wide}, no UUID column (it alone would pass 120 columns on most machines). */
    public static String gpuTable(MachineSnapshot s, boolean wide) {
        TextTable t = wide ? new TextTable("GPU", "Name", "SM", "SMs", "Memory", "PCI", "NUMA", "CPU affinity", "MIG", "Virt", "UUID")
                : new TextTable("GPU", "Name", "SM", "SMs", "Memory", "PCI", "NUMA", "CPU affinity", "MIG", "Virt");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            Object[] row = {"GPU" + i, g.name().shortDisplay(), g.computeCapability().shortDisplay(), g.smCount().shortDisplay(),
                    g.memoryTotalBytes().isPresent() ? Units.gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().shortDisplay(),
                    g.pci(), g.numaNode().shortDisplay(), g.cpuAffinity().shortDisplay(), g.migMode().shortDisplay(),
                    g.virtualizationMode().shortDisplay(), g.uuid().shortDisplay()};
            t.row(wide ? row : java.util.Arrays.copyOf(row, row.length - 1));
        }
        return t.render() + (wide ? "" : "(UUIDs: --wide or --json)\n");
    }

    /** The {@code nvidia-smi topo -m} matrix, plus CPU and NUMA affinity columns. */
    public static String topologyMatrix(MachineSnapshot s) {
        return topologyMatrix(s, true);
    }

    /**
     * As {@link #topologyMatrix(MachineSnapshot)}; without {@code wide}, a matrix too wide for {@link Fit#WIDTH} with the
     * affinity columns leaves them out (the GPU table has them), and one still too wide shows the GPU rows and the NIC
     * rows as two matrices.
     */
    public static String topologyMatrix(MachineSnapshot s, boolean wide) {
        String title = "Topology (as nvidia-smi topo -m):\n";
        String full = topologyTable(s, (text, max) -> text).render();
        if (wide || Fit.widest(full) <= Fit.WIDTH) {
            return title + full + nicLegend(s);
        }
        String note = "(CPU and NUMA affinity: the GPU table above; nvidia-smi's layout: --wide)\n";
        String bare = topologyTable(s, (text, max) -> text, false).render();
        if (Fit.widest(bare) <= Fit.WIDTH) {
            return title + bare + note + nicLegend(s);
        }
        int g = s.gpus().size();
        String gpuRows = topologyTable(s, (text, max) -> text, false).part(g + 1, g + 1).render();
        return title + gpuRows + "\n" + nicMatrix(s) + note + nicLegend(s);
    }

    /** NICs against GPUs and NICs: the lower rows of {@code nvidia-smi topo -m}, on their own. */
    private static String nicMatrix(MachineSnapshot s) {
        List<Gpu> gpus = s.gpus();
        List<dev.fabricscope.model.Nic> nics = s.node().rdmaNics();
        String[] header = new String[gpus.size() + nics.size() + 1];
        header[0] = "";
        for (int i = 0; i < gpus.size(); i++) {
            header[i + 1] = "GPU" + i;
        }
        for (int k = 0; k < nics.size(); k++) {
            header[gpus.size() + k + 1] = "NIC" + k;
        }
        TextTable t = new TextTable(header);
        for (int k = 0; k < nics.size(); k++) {
            Object[] row = new Object[header.length];
            row[0] = "NIC" + k;
            for (int i = 0; i < gpus.size(); i++) {
                row[i + 1] = dev.fabricscope.topology.PcieTopology.gpuToNic(s, gpus.get(i), nics.get(k)).shortDisplay();
            }
            for (int m = 0; m < nics.size(); m++) {
                row[gpus.size() + m + 1] = k == m ? "X" : dev.fabricscope.topology.PcieTopology.letter(
                        dev.fabricscope.topology.PcieTopology.nicPlace(nics.get(k)),
                        dev.fabricscope.topology.PcieTopology.nicPlace(nics.get(m))).shortDisplay();
            }
            t.row(row);
        }
        return t.render();
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
        return topologyTable(s, cell, true);
    }

    /** As {@link #topologyTable(MachineSnapshot, java.util.function.BiFunction)}, the affinity columns optional. */
    static TextTable topologyTable(MachineSnapshot s, java.util.function.BiFunction<String, Integer, String> cell, boolean affinity) {
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
                row[g + k + 1] = cell.apply(dev.fabricscope.topology.PcieTopology.gpuToNic(s, gpus.get(i), nics.get(k)).shortDisplay(), 8);
            }
            row[g + n + 1] = cell.apply(gpus.get(i).cpuAffinity().shortDisplay(), 40);
            row[g + n + 2] = cell.apply(gpus.get(i).numaNode().shortDisplay(), 8);
            t.row(row);
        }
        for (int k = 0; k < n; k++) {
            Object[] row = new Object[g + n + 3];
            row[0] = "NIC" + k;
            for (int i = 0; i < g; i++) {
                row[i + 1] = cell.apply(dev.fabricscope.topology.PcieTopology.gpuToNic(s, gpus.get(i), nics.get(k)).shortDisplay(), 8);
            }
            for (int m = 0; m < n; m++) {
                row[g + m + 1] = k == m ? "X" : cell.apply(dev.fabricscope.topology.PcieTopology.letter(
                        dev.fabricscope.topology.PcieTopology.nicPlace(nics.get(k)), dev.fabricscope.topology.PcieTopology.nicPlace(nics.get(m))).shortDisplay(), 8);
            }
            row[g + n + 1] = "";
            row[g + n + 2] = "";
            t.row(row);
        }
        return affinity ? t : t.withoutLastColumns(2);
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

    /** The P2P matrix when it fits, else one line when every pair says the same, else the pairs grouped by status. */
    static String p2pFitted(MachineSnapshot s) {
        String matrix = p2pMatrix(s);
        java.util.Map<String, List<String>> byStatus = new java.util.LinkedHashMap<>();
        List<Gpu> gpus = s.gpus();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                String v = p == null ? "?" : String.join("/", p.p2pRead().shortDisplay(), p.p2pWrite().shortDisplay(),
                        p.p2pNvlink().shortDisplay(), p.p2pAtomics().shortDisplay(), p.p2pProp().shortDisplay());
                byStatus.computeIfAbsent(v, k -> new java.util.ArrayList<>()).add("GPU" + i + "–" + j);
            }
        }
        String title = "P2P (NVML read/write/nvlink/atomics/prop; OK, CNS chipset, GNS GPU, TNS topology, NS not supported)";
        if (byStatus.size() == 1) {
            String v = byStatus.keySet().iterator().next();
            int n = byStatus.get(v).size();
            String status = v.equals("OK/OK/OK/OK/OK") ? "OK" : v;
            return title + ":\n  " + (n == 1 ? "the one pair, " + byStatus.get(v).get(0) + ": " : "all " + n + " pairs ") + status + "\n";
        }
        if (Fit.widest(matrix) <= Fit.WIDTH) {
            return matrix;
        }
        StringBuilder sb = new StringBuilder(title).append(", by status (--wide for the matrix):\n");
        byStatus.forEach((v, pairs) -> sb.append("  ").append(v).append(": ").append(pairs.size()).append(pairs.size() == 1 ? " pair: " : " pairs: ")
                .append(String.join(", ", pairs)).append('\n'));
        return sb.toString();
    }

    public static String nvlinkSummary(MachineSnapshot s) {
        return nvlinkSummary(s, true);
    }

    /** Per-GPU NVLink lines; without {@code wide}, GPUs with the same line are folded ({@code GPU0–7}). */
    public static String nvlinkSummary(MachineSnapshot s, boolean wide) {
        StringBuilder sb = new StringBuilder("NVLink:\n");
        List<Object[]> lines = new java.util.ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            lines.add(new Object[] {nvlinkLine(s.gpus().get(i))});
        }
        int i = 0;
        while (i < lines.size()) {
            int j = i;
            while (!wide && j + 1 < lines.size() && lines.get(j + 1)[0].equals(lines.get(i)[0])) {
                j++;
            }
            sb.append("  ").append(i == j ? "GPU" + i : "GPU" + i + "–" + j).append(": ").append(lines.get(i)[0]).append('\n');
            i = j + 1;
        }
        nvSwitches(sb, s);
        return sb.toString();
    }

    private static String nvlinkLine(Gpu g) {
        StringBuilder sb = new StringBuilder();
        {
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
        }
        return sb.toString();
    }

    private static void nvSwitches(StringBuilder sb, MachineSnapshot s) {
        if (s.nvSwitches().isEmpty()) {
            sb.append("  NVSwitches: none seen\n");
        } else {
            sb.append("  NVSwitches: ").append(s.nvSwitches().size()).append('\n');
            for (NvSwitch sw : s.nvSwitches()) {
                sb.append("    ").append(sw.id()).append(" ").append(sw.pci().isPresent() ? sw.pci().value().toString()
                                : "(" + dev.fabricscope.topology.Topology.hiddenSwitchWhere(s) + "; switch count unknown)")
                        .append(": ").append(sw.totalLinks()).append(" links from ").append(sw.gpuLinks().size()).append(" GPUs\n");
            }
        }
    }

    public static String memoryFabric(MachineSnapshot s) {
        return memoryFabric(s, true);
    }

    /**
     * Memory sharing and fabric per GPU; without {@code wide}, identical GPUs share one row ({@code GPU0–7}) and the
     * cluster UUIDs (36 characters) follow the table, folded by value, so that it fits {@link Fit#WIDTH}.
     */
    public static String memoryFabric(MachineSnapshot s, boolean wide) {
        TextTable t = new TextTable("GPU", "VMM", "POSIX-FD", "Fabric handles", "Multicast", "RDMA", "Fabric state", "Clique", "Cluster UUID", "Health");
        List<Object[]> rows = new java.util.ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            Object[] row = {Units.yn(g.cuda().vmm()), Units.yn(g.cuda().posixFdHandles()), Units.yn(g.cuda().fabricHandles()),
                    Units.yn(g.cuda().multicast()), Units.yn(g.cuda().gpuDirectRdma()), g.fabric().state().shortDisplay(),
                    g.fabric().cliqueId().shortDisplay(), g.fabric().clusterUuid().shortDisplay(),
                    g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().shortDisplay()};
            if (wide) {
                Object[] full = new Object[row.length + 1];
                full[0] = "GPU" + i;
                System.arraycopy(row, 0, full, 1, row.length);
                t.row(full);
            } else {
                rows.add(row);
            }
        }
        if (wide) {
            return "Memory sharing and fabric:\n" + t.render();
        }
        t.foldedGpuRows(rows);
        java.util.Map<Integer, String> uuids = new java.util.TreeMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            uuids.put(i, s.gpus().get(i).fabric().clusterUuid().shortDisplay());
        }
        return "Memory sharing and fabric:\n" + t.withoutColumn(8).render()
                + (uuids.isEmpty() ? "" : "Cluster UUID: " + dev.fabricscope.text.Ranges.byValue("GPU", uuids) + "\n");
    }

    private static void appendStack(StringBuilder sb, MachineSnapshot s) {
        String stack = StackText.section(s);
        if (!stack.isEmpty()) {
            sb.append('\n').append(stack);
        }
    }

    private static void findings(StringBuilder sb, MachineSnapshot s) {
        if (s.findings().isEmpty()) {
            return;
        }
        sb.append("\nFindings (worst first):\n");
        for (Finding f : FindingFolds.fold(s, s.findings().stream().sorted(java.util.Comparator.comparing(Finding::severity)).toList())) {
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
