package dev.fabricscope.render.fabric;

import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.HostLinkText;
import dev.fabricscope.render.NodeText;
import dev.fabricscope.render.Units;
import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import dev.fabricscope.topology.FabricQueries;
import dev.fabricscope.topology.PcieTopology;
import dev.fabricscope.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The wording of the drawing's boxes and NVLink edges: each box's title, subtitle, caption and details (GPU, NVSwitch,
 * PCIe switch, NIC, CPU/NUMA node), the NVLink labels and details, and the drawing's caption and notes. Positions are
 * {@link FabricLayout}'s.
 */
public final class FabricBoxes {

    private FabricBoxes() {
    }

    static Box gpuBox(MachineSnapshot s, Gpu g, Map<String, String> labels) {
        Box b = new Box("gpu:" + g.pci(), NodeKind.GPU, labels.get(g.pci().toString()), Box.GPU_W, Box.GPU_H);
        b.subtitle = ellipsis(g.shortName(), 21);
        List<String> cap = new ArrayList<>();
        g.computeCapability().asOptional().ifPresent(cc -> cap.add("SM " + cc));
        g.memoryTotalBytes().asOptional().ifPresent(m -> cap.add(Units.gib(m)));
        b.caption = String.join(" · ", cap) + "\n" + nvlinkBoxLine(g);
        List<Finding> mine = findingsAbout(s, g.pci());
        b.warning = mine.stream().anyMatch(f -> f.severity() != Finding.Severity.INFO);
        List<Detail> d = b.details;
        d.add(new Detail("GPU", b.title + " (NVML index " + g.nvmlIndex().shortDisplay() + ", CUDA ordinal " + g.cudaOrdinal().shortDisplay() + ")"));
        d.add(new Detail("Name", g.name().display()));
        d.add(new Detail("PCI address", g.pci().toString()));
        d.add(new Detail("UUID", g.uuid().display()));
        d.add(new Detail("Compute capability", g.computeCapability().display()
                + g.architecture().asOptional().map(a -> " (" + a + ")").orElse("")));
        d.add(new Detail("SMs", g.smCount().display()));
        d.add(new Detail("Memory", g.memoryTotalBytes().isPresent() ? Units.gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().display()));
        d.add(new Detail("NUMA node", g.numaNode().display()));
        d.add(new Detail("CPU affinity", g.cpuAffinity().display()));
        d.add(new Detail("NVLinks", nvlinkSummary(g)));
        d.add(new Detail("MIG", g.migMode().display()));
        d.add(new Detail("Virtualization", g.virtualizationMode().display()));
        d.add(new Detail("Multicast", yesNo(g.cuda().multicast())));
        d.add(new Detail("Fabric handles", yesNo(g.cuda().fabricHandles())));
        d.add(new Detail("VMM / POSIX-FD", yesNo(g.cuda().vmm()) + " / " + yesNo(g.cuda().posixFdHandles())));
        d.add(new Detail("GPUDirect RDMA", yesNo(g.cuda().gpuDirectRdma())));
        d.add(new Detail("Fabric state", g.fabric().state().display()));
        if (g.fabric().inMnnvlDomain()) {
            d.add(new Detail("MNNVL clique", g.fabric().cliqueId().display()));
            d.add(new Detail("MNNVL cluster", g.fabric().clusterUuid().display()));
        }
        if (g.fabric().healthSummary().isPresent()) {
            d.add(new Detail("Fabric health", g.fabric().healthSummary().value()));
        }
        d.addAll(NodeDetails.signals(s, g));
        d.addAll(NodeDetails.gpu(s, g));
        for (Finding f : mine) {
            d.add(new Detail(f.severity().name(), f.message()));
        }
        return b;
    }

    /** The details of a GPU's way to its host: over PCIe, or NVLink-C2C to its Grace CPU. */
    static List<Detail> hostPathDetails(Gpu g, String gpuLabel, String targetTitle, boolean c2c) {
        List<Detail> d = new ArrayList<>();
        d.add(new Detail("Connection", gpuLabel + " → " + targetTitle + (c2c ? " (NVLink-C2C)" : " (PCIe)")));
        if (c2c) {
            d.add(new Detail("Path", "NVLink-C2C between the GPU and its Grace CPU (Grace Hopper / Grace Blackwell superchip), not PCIe"
                    + (FabricQueries.c2cRead(g) ? "" : "; inferred from the Grace CPU / superchip name: the C2C readings were not taken")));
        }
        if (g.hostLink().read()) {
            d.add(new Detail("NVLink-C2C", HostLinkText.summary(g.hostLink())));
            d.add(new Detail("GPU's own NUMA node", g.hostLink().memoryNumaNode().display()));
        }
        d.add(new Detail("GPU PCI address", g.pci().toString()));
        d.add(new Detail("GPU NUMA node", g.numaNode().display()));
        d.add(new Detail("CPU affinity", g.cpuAffinity().display()));
        return d;
    }

    /** The title of an MNNVL clique box: {@code MNNVL clique 4242 · cluster 7a3c…}. */
    static String mnnvlTitle(Gpu g) {
        return "MNNVL clique " + g.fabric().cliqueId().shortDisplay() + " · cluster " + g.fabric().clusterUuid().value();
    }

    /** The details of an MNNVL clique box around its GPUs. */
    static List<Detail> mnnvlDetails(List<Gpu> members, Map<String, String> labels) {
        Gpu g = members.get(0);
        String uuid = g.fabric().clusterUuid().value();
        String clique = g.fabric().cliqueId().shortDisplay();
        List<Detail> d = new ArrayList<>();
        d.add(new Detail("MNNVL", "GPUs registered in one NVLink fabric clique (multi-node NVLink)"));
        d.add(new Detail("Cluster UUID", uuid));
        d.add(new Detail("Clique ID", clique));
        d.add(new Detail("Fabric state", g.fabric().state().display()));
        d.add(new Detail("Health", g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().display()));
        d.add(new Detail("GPUs", members.stream().map(x -> labels.get(x.pci().toString())).collect(Collectors.joining(", "))));
        return d;
    }

    static Box switchBox(MachineSnapshot s, NvSwitch sw, Map<String, String> labels) {
        boolean hidden = !sw.pci().isPresent();
        Box b = new Box("nvswitch:" + sw.id(), NodeKind.NVSWITCH, hidden ? "NVSwitch" : sw.id(), Box.SW_W, Box.SW_H);
        b.subtitle = hidden ? Topology.hiddenSwitchWhere(s) : sw.pci().value().toString();
        b.details.add(new Detail("NVSwitch", sw.id()));
        b.details.add(new Detail("PCI address", sw.pci().display()));
        b.details.add(new Detail("Links", sw.totalLinks() + " from " + sw.gpuLinks().size() + " GPU(s)"));
        b.details.add(new Detail("GPUs", sw.gpuLinks().entrySet().stream()
                .map(e -> labels.getOrDefault(e.getKey(), e.getKey()) + ": " + e.getValue())
                .collect(Collectors.joining(", "))));
        if (!sw.pci().isPresent()) {
            b.details.add(new Detail("Note", "Links whose far end is a switch without a PCI address (NVML answers "
                    + "FFFFFFFF:FF:FF.0) are pooled here; the number of physical switches behind it is not known."));
        }
        return b;
    }

    static Box nicBox(MachineSnapshot s, Nic n, Map<String, String> labels) {
        Box b = new Box("nic:" + n.name(), NodeKind.NIC, n.name(), Box.NIC_W, Box.NIC_H);
        b.subtitle = NodeDetails.nicRateShort(n);
        b.caption = n.ports().isEmpty() ? "no port" : n.linkUp() ? "link up" : "link down";
        b.warning = !n.linkUp();
        b.details.addAll(NodeDetails.nic(s, n, labels));
        return b;
    }

    static Box pcieSwitchBox(MachineSnapshot s, int i, List<Gpu> members, List<Nic> nics, Map<String, String> labels) {
        Box b = new Box("pcie:" + i, NodeKind.PCIE_SWITCH, "PCIe switch", Box.PSW_W, Box.PSW_H);
        List<String> pairs = new ArrayList<>();
        for (int x = 0; x < members.size(); x++) {
            for (int y = x + 1; y < members.size(); y++) {
                Gpu a = members.get(x);
                Gpu c = members.get(y);
                s.pair(a.pci(), c.pci()).flatMap(p -> p.pcieLevel().asOptional())
                        .ifPresent(l -> pairs.add(labels.get(a.pci().toString()) + "–" + labels.get(c.pci().toString()) + " " + l));
            }
        }
        for (Nic n : nics) {
            Gpu first = members.get(0);
            PcieTopology.gpuToNic(s, first, n).asOptional()
                    .ifPresent(l -> pairs.add(labels.get(first.pci().toString()) + "–" + n.name() + " " + l));
        }
        b.details.add(new Detail("PCIe switch", nics.isEmpty() && members.size() > 1
                ? "inferred: the GPUs below share PCIe bridges without the host bridge"
                : "inferred: the devices below share PCIe bridges without the host bridge"));
        b.details.add(new Detail("GPUs", members.stream().map(g -> labels.get(g.pci().toString())).collect(Collectors.joining(", "))));
        if (!nics.isEmpty()) {
            b.details.add(new Detail("NICs", nics.stream().map(Nic::name).collect(Collectors.joining(", "))));
            s.node().gpuPcie().stream().filter(e -> e.address().equalsIgnoreCase(members.get(0).pci().toString())).findFirst()
                    .map(PcieTopology::switchOf).ifPresent(up -> b.details.add(new Detail("Upstream port", up)));
        }
        b.details.add(new Detail("Topology", String.join(", ", pairs)));
        return b;
    }

    static Map<Box.CpuKey, Box> cpuBoxes(MachineSnapshot s) {
        Map<Box.CpuKey, Box> out = new LinkedHashMap<>();
        HostInfo h = s.host();
        String model = h == null ? "" : h.cpuModel().orElse("");
        List<HostInfo.NumaNode> numa = h != null && h.numaNodes().isPresent() ? h.numaNodes().value() : List.of();
        TreeMap<Integer, String> nodes = new TreeMap<>();
        for (HostInfo.NumaNode n : numa) {
            boolean hasGpu = s.gpus().stream().anyMatch(g -> Integer.valueOf(n.id()).equals(g.numaNode().value()));
            if ((n.cpus() != null && !n.cpus().isBlank()) || hasGpu) {
                nodes.put(n.id(), n.cpus() == null ? "" : n.cpus());
            }
        }
        for (Gpu g : s.gpus()) {
            Integer n = g.numaNode().value();
            if (n != null && n >= 0 && !nodes.containsKey(n)) {
                nodes.put(n, null);
            }
        }
        List<Integer> idle = nodes.keySet().stream()
                .filter(n -> s.gpus().stream().noneMatch(g -> n.equals(g.numaNode().value()))).toList();
        Map<Integer, String> idleCpus = new TreeMap<>();
        if (idle.size() > 1) {
            idle.forEach(n -> idleCpus.put(n, nodes.remove(n)));
        }
        for (Map.Entry<Integer, String> e : nodes.entrySet()) {
            Box b = new Box("cpu:" + e.getKey(), NodeKind.CPU, "CPU · NUMA " + e.getKey(), Box.GPU_W, Box.CPU_H);
            b.subtitle = e.getValue() == null ? "CPU list unknown" : e.getValue().isEmpty() ? "no CPUs (memory only)" : "CPUs " + ellipsis(e.getValue(), 30);
            b.details.add(new Detail("NUMA node", String.valueOf(e.getKey())));
            b.details.add(new Detail("CPUs", e.getValue() == null ? "unknown (not in the host's NUMA list)" : e.getValue()));
            HostInfo.NumaNode node = h == null ? null : h.numaNode(e.getKey());
            if (node != null && !NodeText.notRead(node.memTotalBytes())) {
                b.details.add(new Detail("Node memory", node.memTotalBytes().isPresent()
                        ? Units.gib(node.memTotalBytes().value()) : node.memTotalBytes().display()));
            }
            if (!model.isEmpty()) {
                b.details.add(new Detail("CPU model", model));
            }
            out.put(new Box.CpuKey(e.getKey()), b);
        }
        if (!idleCpus.isEmpty()) {
            String ids = idleCpus.keySet().stream().map(String::valueOf).collect(Collectors.joining(", "));
            Box b = new Box("cpu:others", NodeKind.CPU, "NUMA " + ids, Box.CPU_ONLY_W, Box.CPU_H);
            b.subtitle = "no GPUs attached";
            idleCpus.forEach((id, cpus) -> b.details.add(new Detail("NUMA " + id, cpus == null || cpus.isEmpty() ? "no CPUs" : "CPUs " + cpus)));
            if (!model.isEmpty()) {
                b.details.add(new Detail("CPU model", model));
            }
            out.put(new Box.CpuKey(-1), b);
        }
        boolean orphans = s.gpus().stream().anyMatch(g -> g.numaNode().value() == null || g.numaNode().value() < 0);
        if (out.isEmpty() || (orphans && out.size() > 1)) {
            Box b = new Box("cpu:host", NodeKind.CPU, "Host CPU", Box.GPU_W, Box.CPU_H);
            b.subtitle = out.isEmpty() ? "NUMA layout unknown" : "GPU NUMA node unknown";
            if (h != null) {
                b.details.add(new Detail("CPU model", h.cpuModel().display()));
                b.details.add(new Detail("Logical CPUs", h.logicalCpus().display()));
                b.details.add(new Detail("NUMA nodes", h.numaNodes().display()));
            }
            out.put(new Box.CpuKey(null), b);
        }
        for (Box b : out.values()) {
            List<String> attached = s.gpus().stream().filter(g -> b.id.equals("cpu:" + numaKey(g, out))).map(g -> s.label(g.pci())).toList();
            b.details.add(new Detail("GPUs attached", attached.isEmpty() ? "none" : String.join(", ", attached)));
        }
        return out;
    }

    private static String numaKey(Gpu g, Map<Box.CpuKey, Box> cpus) {
        Box.CpuKey k = cpuOf(g, cpus);
        return k == null ? "" : k.numa() == null ? "host" : String.valueOf(k.numa());
    }

    static Box.CpuKey cpuOf(Gpu g, Map<Box.CpuKey, Box> cpus) {
        Integer n = g.numaNode().value();
        if (n != null && cpus.containsKey(new Box.CpuKey(n))) {
            return new Box.CpuKey(n);
        }
        if (cpus.containsKey(new Box.CpuKey(null))) {
            return new Box.CpuKey(null);
        }
        return cpus.keySet().stream().findFirst().orElse(null);
    }

    static List<Detail> nvlinkDetails(int count, double gbps, List<NvLink> links) {
        List<Detail> d = new ArrayList<>();
        String gen = links.stream().map(l -> l.generation().value()).filter(Objects::nonNull).findFirst()
                .map(g -> " (NVLink" + g + ")").orElse("");
        d.add(new Detail("NVLinks", count + gen));
        if (gbps > 0) {
            double per = links.isEmpty() ? gbps / count : links.get(0).gbpsPerDirection().orElse(gbps / count);
            d.add(new Detail("Bandwidth", Units.gbps(gbps) + " GB/s per direction (nominal; " + Units.gbps(per) + " GB/s per link)"));
        } else {
            d.add(new Detail("Bandwidth", "unknown (no nominal figure for this GPU)"));
        }
        if (!links.isEmpty()) {
            d.add(new Detail("Link indices", links.stream().map(l -> String.valueOf(l.index())).collect(Collectors.joining(", "))));
        }
        return d;
    }

    /** A GPU's NVLinks to its switches, or two GPUs' direct NVLinks: how many, and their nominal GB/s per direction in all. */
    record Bundle(int links, double gbps) {
    }

    /** An NVLink bundle's label: {@code 18 links · 450 GB/s} (nominal, per direction, in all), or {@code 18 links}. */
    static String nvlinkLabel(int count, double gbps) {
        return count + (count == 1 ? " link" : " links") + (gbps > 0 ? " · " + Units.gbps(gbps) + " GB/s" : "");
    }

    /**
     * The legend's entries and their words. The NVLink entry reads this machine's first labelled bundle in words:
     * {@code 18 links, 450 GB/s in all (18 × 25 GB/s per direction, nominal)}, with "e.g." when bundles differ, and
     * says "rate unknown" when no nominal figure is known.
     */
    static Map<FabricGraph.Swatch, String> legend(List<Bundle> bundles, boolean c2c) {
        Map<FabricGraph.Swatch, String> out = new LinkedHashMap<>();
        out.put(FabricGraph.Swatch.NVLINK, bundles.isEmpty() ? "NVLink" : "NVLink · " + nvlinkInWords(bundles));
        if (c2c) {
            out.put(FabricGraph.Swatch.C2C, "NVLink-C2C (GPU to its Grace CPU)");
        }
        out.put(FabricGraph.Swatch.PCIE, "PCIe");
        out.put(FabricGraph.Swatch.CPU_LINK, "CPU interconnect");
        out.put(FabricGraph.Swatch.MNNVL, "MNNVL clique");
        return out;
    }

    private static String nvlinkInWords(List<Bundle> bundles) {
        Bundle b = bundles.get(0);
        String eg = bundles.stream().allMatch(b::equals) ? "" : "e.g. ";
        String links = b.links() + (b.links() == 1 ? " link" : " links");
        if (b.gbps() <= 0) {
            return eg + links + ", rate unknown";
        }
        return eg + links + ", " + Units.gbps(b.gbps()) + " GB/s in all (" + b.links() + " × " + Units.gbps(b.gbps() / b.links())
                + " GB/s per direction, nominal)";
    }

    /** One line about a GPU's NVLinks: {@code 18/18 active, NVLink4, 450 GB/s per direction}, or why unknown. */
    static String nvlinkBoxLine(Gpu g) {
        if (g.nvLinks().isEmpty()) {
            return g.nvLinkCount().isPresent() ? "PCIe only" : "NVLink unknown";
        }
        if (!Topology.linksKnown(g)) {
            return "NVLink unknown";
        }
        List<NvLink> active = g.activeLinks();
        double bw = active.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
        return active.size() + " NVLinks" + (bw > 0 ? " · " + Units.gbps(bw) + " GB/s" : "");
    }

    public static String nvlinkSummary(Gpu g) {
        if (g.nvLinks().isEmpty()) {
            return g.nvLinkCount().isPresent() ? "none" : g.nvLinkCount().display();
        }
        if (!Topology.linksKnown(g)) {
            return "state unknown for " + g.nvLinks().size() + " links (" + g.nvLinks().get(0).active().missing().describe() + ")";
        }
        List<NvLink> active = g.activeLinks();
        double bw = active.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
        String gen = active.stream().map(l -> l.generation().value()).filter(Objects::nonNull).findFirst()
                .map(x -> ", NVLink" + x).orElse("");
        return active.size() + "/" + g.nvLinks().size() + " active" + gen + (bw > 0 ? ", " + Units.gbps(bw) + " GB/s per direction" : "");
    }

    static String caption(MachineSnapshot s) {
        StringBuilder sb = new StringBuilder();
        ProbeInfo p = s.probe();
        if (p != null && p.origin() == ProbeInfo.Origin.SYNTHETIC) {
            sb.append("SYNTHETIC · ");
        }
        sb.append(s.host() == null ? "unknown host" : s.host().hostname().orElse("unknown host"));
        Map<String, Long> models = s.gpus().stream().collect(Collectors.groupingBy(Gpu::shortName, LinkedHashMap::new, Collectors.counting()));
        if (models.isEmpty()) {
            sb.append(" · no GPUs");
        }
        models.forEach((name, n) -> sb.append(" · ").append(n).append("× ").append(name));
        if (!s.nvSwitches().isEmpty()) {
            sb.append(" · ").append(s.nvSwitches().size()).append(" NVSwitch node").append(s.nvSwitches().size() > 1 ? "s" : "");
        }
        if (s.driver() != null && s.driver().driverVersion().isPresent()) {
            sb.append(" · driver ").append(s.driver().driverVersion().value());
        }
        return sb.toString();
    }

    static List<String> notes(MachineSnapshot s) {
        List<String> out = new ArrayList<>();
        if (s.gpus().isEmpty()) {
            String why = s.driver() != null && s.driver().message() != null ? s.driver().message() : "the snapshot lists none";
            out.add("No GPUs to draw: " + why);
        }
        List<Gpu> hidden = s.gpus().stream().filter(g -> !Topology.linksKnown(g)).toList();
        if (!hidden.isEmpty()) {
            Gpu g = hidden.get(0);
            String why = !g.nvLinks().isEmpty() && g.nvLinks().get(0).active().missing() != null
                    ? g.nvLinks().get(0).active().missing().describe()
                    : g.nvLinkCount().isPresent() ? "unknown" : g.nvLinkCount().missing().describe();
            boolean vm = hidden.stream().anyMatch(x -> "Pass-Through".equals(x.virtualizationMode().value()));
            out.add("NVLink state not readable on " + hidden.stream().map(x -> s.label(x.pci())).collect(Collectors.joining(", "))
                    + " (" + why + ")" + (vm ? ", a pass-through VM" : "") + ": NVLinks and NVSwitches cannot be drawn.");
        }
        if (s.nvSwitches().stream().anyMatch(sw -> !sw.pci().isPresent())) {
            out.add("NVSwitch links whose far end has no readable PCI address are pooled into one node ("
                    + Topology.hiddenSwitchWhere(s) + "); the switch count is unknown.");
        }
        if (!FabricQueries.pcieSwitchGroups(s).isEmpty()) {
            out.add("PCIe switches are inferred from the PIX/PXB topology letters.");
        }
        return out;
    }

    private static List<Finding> findingsAbout(MachineSnapshot s, PciAddress pci) {
        String key = pci.toString();
        return s.findings().stream().filter(f -> f.subject() != null && f.subject().contains(key)).toList();
    }

    private static String yesNo(Reading<Boolean> r) {
        return r.isPresent() ? (r.value() ? "yes" : "no") : r.display();
    }

    private static String ellipsis(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
