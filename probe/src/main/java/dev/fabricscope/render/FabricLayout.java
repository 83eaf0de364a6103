package dev.fabricscope.render;

import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.PcieTopology;
import dev.fabricscope.topology.Topology;
import dev.fabricscope.render.FabricGraph.Detail;
import dev.fabricscope.render.FabricGraph.Edge;
import dev.fabricscope.render.FabricGraph.EdgeKind;
import dev.fabricscope.render.FabricGraph.Group;
import dev.fabricscope.render.FabricGraph.Node;
import dev.fabricscope.render.FabricGraph.NodeKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Lays a snapshot out as a {@link FabricGraph}, in rows: NVSwitches on top, GPUs in the middle (grouped by NUMA
 * node and shared PCIe switch), inferred PCIe switches below them, RDMA NICs below the switch they share with a GPU
 * (else above their CPU), CPU/NUMA nodes at the bottom, each spanning the GPUs attached to it. GPU-to-switch NVLink labels sit in one horizontal band per switch so that they never
 * overlap; direct GPU-to-GPU NVLinks are arcs above the GPU row. Pure and deterministic.
 */
public final class FabricLayout {

    public static final double MARGIN = 24;
    public static final double CAPTION_H = 26;
    public static final double NOTE_H = 16;
    static final double GPU_W = 136;
    static final double GPU_H = 76;
    static final double GPU_GAP = 22;
    static final double SOCKET_GAP = 28;
    static final double CPU_ONLY_W = 112;
    static final double BAND_PX = 30;
    /** How much larger than drawn an edge label must have room to be (the GUI enlarges labels at fit zoom). */
    static final double LABEL_ZOOM_ROOM = 1.6;
    static final double SW_W = 128;
    static final double SW_H = 44;
    static final double SW_MIN_PITCH = 150;
    static final double PSW_W = 116;
    static final double PSW_H = 30;
    static final double CPU_H = 48;
    static final double NIC_W = 76;
    static final double NIC_H = 44;
    static final double LEGEND_H = 30;
    static final double MIN_WIDTH = 660;
    static final double CHAR_W = 6.4;

    private FabricLayout() {
    }

    /** Mutable while laying out. */
    private static final class Box {
        final String id;
        final NodeKind kind;
        String title;
        String subtitle = "";
        String caption = "";
        double x;
        double y;
        double w;
        double h;
        boolean warning;
        List<Detail> details = new ArrayList<>();

        Box(String id, NodeKind kind, String title, double w, double h) {
            this.id = id;
            this.kind = kind;
            this.title = title;
            this.w = w;
            this.h = h;
        }

        double cx() {
            return x + w / 2;
        }
    }

    private record CpuKey(Integer numa) {
    }

    /**
     * The snapshot laid out in phases, each reading what the ones before it decided: order the GPUs, plan the rows,
     * place GPUs, CPU/NUMA nodes, NVSwitches, PCIe switches and NICs, fit the width and the notes, route the edges,
     * and draw the MNNVL groups.
     */
    public static FabricGraph layout(MachineSnapshot s) {
        Plan p = new Plan(s);
        p.orderGpus();
        p.planRows();
        p.placeGpus();
        p.placeCpus();
        p.placeSwitches();
        p.placePcieSwitches();
        p.placeNics();
        p.fit();
        p.routeSwitchLinks();
        p.routeDirectLinks();
        p.routeHostPaths();
        p.routePcieSwitchUplinks();
        p.routeNicLinks();
        p.routeCpuLinks();
        return p.graph();
    }

    /** The state of one layout, filled in phase by phase ({@link #layout}); every position is in pixels. */
    private static final class Plan {
        final MachineSnapshot s;
        final List<Gpu> gpus;
        final Map<String, String> labels = new LinkedHashMap<>();
        final List<String> notes;

        // orderGpus
        final Map<Gpu, CpuKey> gpuCpu = new LinkedHashMap<>();
        final Map<CpuKey, Box> cpus = new LinkedHashMap<>();
        List<Nic> nics;
        Map<Nic, Gpu> nicPeer;
        List<List<Gpu>> pcieGroups;
        List<Gpu> ordered;

        // planRows
        List<NvSwitch> switches;
        int nSwitch;
        Map<String, Map<String, DirectLink>> direct;
        double switchTop;
        double switchDrop;
        double gpuTop;
        double pswTop;
        double cpuTop;
        double nicTop;
        long cpusWithGpus;
        double legendY;

        // place*
        final Map<Gpu, Box> gpuBoxes = new LinkedHashMap<>();
        double rowLeft;
        double rowRight;
        double contentRight;
        final List<Box> switchBoxes = new ArrayList<>();
        final List<Box> pcieBoxes = new ArrayList<>();
        final Map<Nic, Box> nicBoxes = new LinkedHashMap<>();
        final Map<Nic, Box> nicParent = new LinkedHashMap<>();

        // fit
        String caption;
        double width;
        final List<Box> all = new ArrayList<>();
        List<String> wrapped;

        final List<Edge> edges = new ArrayList<>();

        Plan(MachineSnapshot s) {
            this.s = s;
            this.gpus = s.gpus();
            for (Gpu g : gpus) {
                labels.put(g.pci().toString(), s.label(g.pci()));
            }
            this.notes = notes(s);
        }

        /**
         * CPU/NUMA nodes in the order of their first GPU (PCI order), those without GPUs last; RDMA NICs with the GPU
         * they share a PCIe switch with; GPUs by NUMA node, then shared PCIe switch, then PCI address.
         */
        void orderGpus() {
            Map<CpuKey, Box> unsorted = cpuBoxes(s);
            for (Gpu g : gpus) {
                gpuCpu.put(g, cpuOf(g, unsorted));
            }
            List<CpuKey> keys = new ArrayList<>(unsorted.keySet());
            keys.sort(Comparator.comparingInt((CpuKey k) -> {
                for (int i = 0; i < gpus.size(); i++) {
                    if (k.equals(gpuCpu.get(gpus.get(i)))) {
                        return i;
                    }
                }
                return Integer.MAX_VALUE;
            }));
            keys.forEach(k -> cpus.put(k, unsorted.get(k)));
            // RDMA NICs hang under the PCIe switch they share with a GPU (a switch box even for one GPU), else on their CPU
            nics = s.node() == null ? List.of() : s.node().rdmaNics();
            nicPeer = nicSwitchPeers(s, nics);
            pcieGroups = new ArrayList<>(pcieSwitchGroups(s));
            for (Gpu g : new java.util.LinkedHashSet<>(nicPeer.values())) {
                if (pcieGroups.stream().noneMatch(grp -> grp.contains(g))) {
                    pcieGroups.add(List.of(g));
                }
            }
            pcieGroups.sort(Comparator.comparing(grp -> grp.get(0).pci()));
            Map<Gpu, Integer> groupOf = new LinkedHashMap<>();
            for (int i = 0; i < pcieGroups.size(); i++) {
                for (Gpu g : pcieGroups.get(i)) {
                    groupOf.put(g, i);
                }
            }
            List<CpuKey> cpuOrder = new ArrayList<>(cpus.keySet());
            ordered = new ArrayList<>(gpus);
            ordered.sort(Comparator.comparing((Gpu g) -> cpuOrder.indexOf(gpuCpu.get(g)))
                    .thenComparing(g -> groupOf.containsKey(g) ? gpus.indexOf(pcieGroups.get(groupOf.get(g)).get(0)) : gpus.indexOf(g))
                    .thenComparing(Gpu::pci));
        }

        /** The top of every row: switches, GPUs (lower when direct-link arcs or MNNVL boxes need room), PCIe switches, NICs, CPUs, legend. */
        void planRows() {
            switches = s.nvSwitches();
            nSwitch = switches.size();
            direct = directLinks(s);
            int maxSpan = 0;
            for (var byA : direct.entrySet()) {
                for (var e : byA.getValue().entrySet()) {
                    int ia = indexOf(ordered, byA.getKey());
                    int ib = indexOf(ordered, e.getKey());
                    maxSpan = Math.max(maxSpan, Math.abs(ia - ib));
                }
            }
            boolean mnnvl = gpus.stream().anyMatch(g -> g.fabric().inMnnvlDomain());
            double y = MARGIN + CAPTION_H + notes.size() * NOTE_H + 10;
            switchTop = y;
            // tall enough that the label bands sit in the lower third, where a GPU's edges are still a GPU pitch apart
            switchDrop = Math.max(150, 2.5 * (24 + nSwitch * BAND_PX));
            if (nSwitch > 0) {
                gpuTop = switchTop + SW_H + switchDrop;
            } else if (maxSpan > 0) {
                gpuTop = y + arcHeight(maxSpan) + 14;
            } else {
                gpuTop = y + (mnnvl ? 14 : 0);
            }
            double gpuBottom = gpuTop + GPU_H;
            boolean anyPcieSwitch = !pcieGroups.isEmpty();
            pswTop = gpuBottom + 38;
            if (mnnvl) {
                pswTop += 30;
            }
            cpuTop = anyPcieSwitch ? pswTop + PSW_H + 38 : gpuBottom + 54 + (mnnvl ? 30 : 0);
            nicTop = anyPcieSwitch ? pswTop + PSW_H + 30 : gpuBottom + 34 + (mnnvl ? 30 : 0);
            if (!nics.isEmpty()) {
                cpuTop = nicTop + NIC_H + 36;
            }
            double cpuBottom = cpuTop + CPU_H;
            cpusWithGpus = cpus.keySet().stream().filter(gpuCpu::containsValue).count();
            boolean cpuArcs = cpus.size() > 1;
            legendY = cpuBottom + (cpuArcs ? 56 : 24);
            if (gpus.isEmpty() && cpus.isEmpty()) {
                legendY = y + 20;
            }
        }

        /** The GPU row, left to right, a wider gap between NUMA nodes. */
        void placeGpus() {
            double x = MARGIN + 12;
            CpuKey prevCpu = null;
            for (Gpu g : ordered) {
                CpuKey c = gpuCpu.get(g);
                if (prevCpu != null && !prevCpu.equals(c)) {
                    x += SOCKET_GAP;
                }
                prevCpu = c;
                Box b = gpuBox(s, g, labels);
                b.x = x;
                b.y = gpuTop;
                gpuBoxes.put(g, b);
                x += GPU_W + GPU_GAP;
            }
            rowLeft = MARGIN + 12;
            rowRight = gpus.isEmpty() ? rowLeft + GPU_W : x - GPU_GAP;
        }

        /** The CPU row: each spans its GPUs; CPUs without GPUs follow on the right. */
        void placeCpus() {
            double cpuX = rowRight + SOCKET_GAP;
            for (Map.Entry<CpuKey, Box> e : cpus.entrySet()) {
                Box c = e.getValue();
                List<Box> mine = ordered.stream().filter(g -> e.getKey().equals(gpuCpu.get(g))).map(gpuBoxes::get).toList();
                c.y = cpuTop;
                if (mine.isEmpty()) {
                    c.w = CPU_ONLY_W;
                    c.x = gpus.isEmpty() && cpusWithGpus == 0 && cpuX == rowRight + SOCKET_GAP ? rowLeft : cpuX;
                    cpuX = c.x + c.w + SOCKET_GAP;
                } else {
                    c.x = mine.get(0).x - 8;
                    c.w = mine.get(mine.size() - 1).x + GPU_W + 8 - c.x;
                }
            }
            contentRight = Math.max(rowRight, cpus.values().stream().mapToDouble(c -> c.x + c.w).max().orElse(rowRight));
        }

        /** The NVSwitch row, spread over the GPU row; everything moves right when it would start left of the margin. */
        void placeSwitches() {
            if (nSwitch == 0) {
                return;
            }
            double span = Math.max(rowRight - rowLeft, nSwitch * SW_MIN_PITCH);
            double left = (rowLeft + rowRight) / 2 - span / 2;
            for (int k = 0; k < nSwitch; k++) {
                NvSwitch sw = switches.get(k);
                Box b = switchBox(s, sw, labels);
                b.x = left + (k + 0.5) * span / nSwitch - SW_W / 2;
                b.y = switchTop;
                switchBoxes.add(b);
            }
            double minX = switchBoxes.get(0).x;
            if (minX < MARGIN) {
                double shift = MARGIN - minX;
                gpuBoxes.values().forEach(b -> b.x += shift);
                cpus.values().forEach(b -> b.x += shift);
                switchBoxes.forEach(b -> b.x += shift);
                rowLeft += shift;
                rowRight += shift;
                contentRight += shift;
            }
            contentRight = Math.max(contentRight, switchBoxes.get(nSwitch - 1).x + SW_W);
        }

        /** Inferred PCIe switches, centred under their GPUs. */
        void placePcieSwitches() {
            for (int i = 0; i < pcieGroups.size(); i++) {
                List<Gpu> members = pcieGroups.get(i);
                double cx = members.stream().mapToDouble(g -> gpuBoxes.get(g).cx()).average().orElse(0);
                List<Nic> below = nics.stream().filter(n -> nicPeer.containsKey(n) && members.contains(nicPeer.get(n))).toList();
                Box b = pcieSwitchBox(s, i, members, below, labels);
                b.x = cx - PSW_W / 2;
                b.y = pswTop;
                pcieBoxes.add(b);
            }
        }

        /** RDMA NICs, right of the line from their switch (or GPU) down to the CPU so that no edge crosses them. */
        void placeNics() {
            Map<String, Integer> placed = new java.util.HashMap<>();
            for (Nic n : nics) {
                Gpu peer = nicPeer.get(n);
                Box parent;
                double nx;
                if (peer != null) {
                    parent = pcieBoxes.get(indexOfGroup(pcieGroups, peer));
                    int k = placed.merge(parent.id, 1, Integer::sum) - 1;
                    nx = parent.cx() + 10 + k * (NIC_W + 8);
                } else {
                    CpuKey key = n.numaNode().isPresent() && cpus.containsKey(new CpuKey(n.numaNode().value()))
                            ? new CpuKey(n.numaNode().value()) : cpus.containsKey(new CpuKey(null)) ? new CpuKey(null)
                            : cpus.keySet().stream().findFirst().orElse(null);
                    parent = key == null ? null : cpus.get(key);
                    List<Box> mine = ordered.stream().filter(g -> key != null && key.equals(gpuCpu.get(g))).map(gpuBoxes::get).toList();
                    int k = placed.merge(parent == null ? "" : parent.id, 1, Integer::sum) - 1;
                    if (k < mine.size()) {
                        nx = mine.get(k).cx() + 10;
                    } else if (!mine.isEmpty()) {
                        nx = mine.get(mine.size() - 1).cx() + 10 + (k - mine.size() + 1) * (NIC_W + 8);
                    } else {
                        nx = (parent != null ? parent.x + 4 : rowLeft) + k * (NIC_W + 8);
                    }
                }
                Box b = nicBox(s, n, labels);
                b.x = nx;
                b.y = nicTop;
                nicBoxes.put(n, b);
                if (parent != null) {
                    nicParent.put(n, parent);
                }
                contentRight = Math.max(contentRight, b.x + b.w);
            }
        }

        /** The width: at least the legend and the caption, the drawing centred; notes wrapped to it, pushing everything down. */
        void fit() {
            caption = caption(s);
            double textWidth = Math.max(caption.length() * 8.4, notes.stream().mapToDouble(n -> n.length() * CHAR_W).max().orElse(0));
            double contentWidth = contentRight + MARGIN;
            width = Math.max(Math.max(MIN_WIDTH, contentWidth), Math.min(textWidth + 2 * MARGIN, 1180));
            double dx = Math.max(0, (width - contentWidth) / 2);
            all.addAll(switchBoxes);
            all.addAll(gpuBoxes.values());
            all.addAll(pcieBoxes);
            all.addAll(nicBoxes.values());
            all.addAll(cpus.values());
            all.forEach(b -> b.x += dx);
            wrapped = wrap(notes, (int) ((width - 2 * MARGIN) / CHAR_W));
            double extra = (wrapped.size() - notes.size()) * NOTE_H;
            if (extra > 0) {
                all.forEach(b -> b.y += extra);
                legendY += extra;
            }
        }

        /** GPU-to-NVSwitch links, their labels in one horizontal band per switch. */
        void routeSwitchLinks() {
            int labelStyle = switchLabelStyle(s, switches, switchDrop);
            for (int k = 0; k < nSwitch; k++) {
                NvSwitch sw = switches.get(k);
                Box sb = switchBoxes.get(k);
                List<Gpu> attached = ordered.stream().filter(g -> sw.gpuLinks().containsKey(g.pci().toString())).toList();
                double t = (24 + k * BAND_PX) / switchDrop;
                for (int i = 0; i < attached.size(); i++) {
                    Gpu g = attached.get(i);
                    Box gb = gpuBoxes.get(g);
                    int count = sw.gpuLinks().get(g.pci().toString());
                    List<NvLink> links = switchLinks(g, sw);
                    double gbps = links.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    double x1 = gb.cx() + (k - (nSwitch - 1) / 2.0) * Math.min(16, GPU_W * 0.7 / Math.max(1, nSwitch));
                    double y1 = gb.y;
                    double x2 = sb.cx() + (i - (attached.size() - 1) / 2.0) * Math.min(12, SW_W * 0.8 / Math.max(1, attached.size()));
                    double y2 = sb.y + sb.h;
                    List<Detail> d = new ArrayList<>();
                    d.add(new Detail("Connection", labels.get(g.pci().toString()) + " ↔ " + sw.id()));
                    d.addAll(nvlinkDetails(count, gbps, links));
                    edges.add(new Edge("nvlink:" + g.pci() + ":" + sw.id(), EdgeKind.NVLINK, gb.id, sb.id, count, gbps,
                            nvlinkLabel(count, gbps, labelStyle), x1, y1, (x1 + x2) / 2, (y1 + y2) / 2, x2, y2,
                            x1 + t * (x2 - x1), y1 + t * (y2 - y1), d));
                }
            }
        }

        /** Direct GPU-to-GPU NVLinks, arcs above the GPU row, higher the more GPUs they span. */
        void routeDirectLinks() {
            for (var byA : direct.entrySet()) {
                for (var e : byA.getValue().entrySet()) {
                    Gpu a = gpuByPci(gpus, byA.getKey());
                    Gpu b = gpuByPci(gpus, e.getKey());
                    DirectLink dl = e.getValue();
                    Box ba = gpuBoxes.get(a);
                    Box bb = gpuBoxes.get(b);
                    if (ba.x > bb.x) {
                        Box tmp = ba;
                        ba = bb;
                        bb = tmp;
                    }
                    int span = Math.abs(ordered.indexOf(a) - ordered.indexOf(b));
                    double x1 = ba.cx() + 24;
                    double x2 = bb.cx() - 24;
                    double y1 = ba.y;
                    double cy = y1 - 2 * arcHeight(span);
                    double cx = (x1 + x2) / 2;
                    List<Detail> d = new ArrayList<>();
                    d.add(new Detail("Connection", labels.get(a.pci().toString()) + " ↔ " + labels.get(b.pci().toString()) + " (direct)"));
                    d.addAll(nvlinkDetails(dl.count, dl.gbps, dl.links));
                    edges.add(new Edge("nvlink:" + a.pci() + ":" + b.pci(), EdgeKind.NVLINK, "gpu:" + a.pci(), "gpu:" + b.pci(),
                            dl.count, dl.gbps, nvlinkLabel(dl.count, dl.gbps, FULL), x1, y1, cx, cy, x2, y1,
                            0.25 * x1 + 0.5 * cx + 0.25 * x2, 0.5 * y1 + 0.5 * cy, d));
                }
            }
        }

        /** Each GPU's way to its host: to its PCIe switch, else to its CPU (NVLink-C2C on a Grace host). */
        void routeHostPaths() {
            Map<Gpu, Box> gpuPcieTarget = new LinkedHashMap<>();
            for (int i = 0; i < pcieGroups.size(); i++) {
                for (Gpu g : pcieGroups.get(i)) {
                    gpuPcieTarget.put(g, pcieBoxes.get(i));
                }
            }
            for (Gpu g : ordered) {
                Box gb = gpuBoxes.get(g);
                Box target = gpuPcieTarget.containsKey(g) ? gpuPcieTarget.get(g) : cpus.get(gpuCpu.get(g));
                if (target == null) {
                    continue;
                }
                double x2 = target.kind == NodeKind.PCIE_SWITCH ? target.cx() + (gb.cx() - target.cx()) * 0.35 : gb.cx();
                List<Detail> d = new ArrayList<>();
                boolean c2c = target.kind == NodeKind.CPU && c2cToHost(s, g);
                d.add(new Detail("Connection", labels.get(g.pci().toString()) + " → " + target.title + (c2c ? " (NVLink-C2C)" : " (PCIe)")));
                if (c2c) {
                    d.add(new Detail("Path", "NVLink-C2C between the GPU and its Grace CPU (Grace Hopper / Grace Blackwell superchip), not PCIe"
                            + (c2cRead(g) ? "" : "; inferred from the Grace CPU / superchip name: the C2C readings were not taken")));
                }
                if (g.hostLink().read()) {
                    d.add(new Detail("NVLink-C2C", HostLinkText.summary(g.hostLink())));
                    d.add(new Detail("GPU's own NUMA node", g.hostLink().memoryNumaNode().display()));
                }
                d.add(new Detail("GPU PCI address", g.pci().toString()));
                d.add(new Detail("GPU NUMA node", g.numaNode().display()));
                d.add(new Detail("CPU affinity", g.cpuAffinity().display()));
                double t = 0.5;
                if (c2c && !nicBoxes.isEmpty()) {
                    // the label above the NIC row, not beside a NIC
                    double nicY = nicBoxes.values().iterator().next().y;
                    t = Math.max(0.05, (nicY - 17 - (gb.y + gb.h)) / (target.y - (gb.y + gb.h)));
                }
                edges.add(straight("host:" + g.pci(), EdgeKind.PCIE, gb.id, target.id, c2c ? "C2C" : "", gb.cx(), gb.y + gb.h, x2, target.y, t, d));
            }
        }

        /** Each inferred PCIe switch up to the CPU of its first GPU. */
        void routePcieSwitchUplinks() {
            for (int i = 0; i < pcieBoxes.size(); i++) {
                Box pb = pcieBoxes.get(i);
                Gpu first = pcieGroups.get(i).get(0);
                Box cpu = cpus.get(gpuCpu.get(first));
                if (cpu == null) {
                    continue;
                }
                List<Detail> d = List.of(new Detail("Connection", pb.title + " → " + cpu.title + " (PCIe)"));
                edges.add(straight("host:switch" + i, EdgeKind.PCIE, pb.id, cpu.id, "", pb.cx(), pb.y + pb.h, pb.cx(), cpu.y, 0.5, d));
            }
        }

        /** Each NIC to the PCIe switch it shares with a GPU, or to its CPU's root port. */
        void routeNicLinks() {
            for (Map.Entry<Nic, Box> e : nicBoxes.entrySet()) {
                Nic n = e.getKey();
                Box nb = e.getValue();
                Box parent = nicParent.get(n);
                if (parent == null) {
                    continue;
                }
                List<Detail> d = new ArrayList<>();
                Gpu peer = nicPeer.get(n);
                if (parent.kind == NodeKind.PCIE_SWITCH) {
                    double x1 = Math.min(nb.cx(), parent.x + parent.w - 8);
                    d.add(new Detail("Connection", n.name() + " → " + parent.title + " shared with "
                            + labels.get(peer.pci().toString()) + " (" + PcieTopology.gpuToNic(s, peer, n).orElse("?") + ")"));
                    d.add(new Detail("NIC PCI address", n.address().display()));
                    d.add(new Detail("Link", NodeDetails.nicLinks(n)));
                    edges.add(straight("nic-pcie:" + n.name(), EdgeKind.PCIE, parent.id, nb.id, "", x1, parent.y + parent.h, nb.cx(), nb.y, 0.5, d));
                } else {
                    d.add(new Detail("Connection", n.name() + " → " + parent.title + " (PCIe root port)"));
                    d.add(new Detail("NIC PCI address", n.address().display()));
                    d.add(new Detail("Link", NodeDetails.nicLinks(n)));
                    edges.add(straight("nic-pcie:" + n.name(), EdgeKind.PCIE, nb.id, parent.id, "", nb.cx(), nb.y + nb.h, nb.cx(), parent.y, 0.5, d));
                }
            }
        }

        /** The SMP interconnect between neighbouring CPU/NUMA nodes, arcs below the CPU row, labelled once in the middle. */
        void routeCpuLinks() {
            List<Box> cpuList = new ArrayList<>(cpus.values());
            for (int i = 0; i + 1 < cpuList.size(); i++) {
                Box a = cpuList.get(i);
                Box b = cpuList.get(i + 1);
                double x1 = a.cx();
                double x2 = b.cx();
                double y1 = a.y + a.h;
                double cy = y1 + 56;
                List<Detail> d = List.of(new Detail("Connection", a.title + " ↔ " + b.title),
                        new Detail("Path", "SMP interconnect between NUMA nodes (QPI/UPI, Infinity Fabric…): GPU pairs across it are SYS"));
                String label = i == (cpuList.size() - 2) / 2 ? "SMP interconnect" : "";
                edges.add(new Edge("cpulink:" + i, EdgeKind.CPU_LINK, a.id, b.id, 0, 0, label, x1, y1, (x1 + x2) / 2, cy,
                        x2, y1, (x1 + x2) / 2, 0.5 * y1 + 0.5 * cy, d));
            }
        }

        /** The finished graph, with one MNNVL group box per contiguous run of GPUs of one clique. */
        FabricGraph graph() {
            List<Group> groups = mnnvlGroups(ordered, gpuBoxes, labels);
            List<Node> nodes = new ArrayList<>();
            for (Box b : all) {
                nodes.add(new Node(b.id, b.kind, b.title, b.subtitle, b.caption, b.x, b.y, b.w, b.h, b.warning, b.details));
            }
            double height = legendY + LEGEND_H + MARGIN / 2;
            return new FabricGraph(caption, nodes, edges, groups, wrapped, width, height, legendY);
        }
    }

    // ---- nodes

    /**
     * The GPU reaches its CPU over NVLink-C2C: as its C2C readings say where the driver answered them (enabled, or an
     * active C2C link), else — snapshots from before they were read — as a Grace host implies.
     */
    static boolean c2cToHost(MachineSnapshot s, Gpu g) {
        return c2cRead(g) ? g.hostLink().c2c() : graceHost(s);
    }

    /** The driver answered the C2C mode or the link count (a value, or NOT_SUPPORTED: no C2C). */
    static boolean c2cRead(Gpu g) {
        HostLink l = g.hostLink();
        return l.c2cEnabled().isPresent() || l.c2cLinkCount().isPresent() || unsupported(l.c2cEnabled()) && unsupported(l.c2cLinkCount());
    }

    private static boolean unsupported(Reading<?> r) {
        return r.missing() != null && r.missing().kind() == dev.fabricscope.model.Missing.Kind.UNSUPPORTED;
    }

    /** A Grace CPU host (or Grace superchip GPUs: GH200, GB200, GB300): the GPUs hang off NVLink-C2C, not PCIe. */
    static boolean graceHost(MachineSnapshot s) {
        return (s.host() != null && s.host().cpuModel().orElse("").contains("Grace"))
                || (!s.gpus().isEmpty() && s.gpus().stream().allMatch(g -> g.name().orElse("").matches(".*\\bG[BH]\\d{3}\\b.*")));
    }

    private static Box gpuBox(MachineSnapshot s, Gpu g, Map<String, String> labels) {
        Box b = new Box("gpu:" + g.pci(), NodeKind.GPU, labels.get(g.pci().toString()), GPU_W, GPU_H);
        b.subtitle = ellipsis(g.shortName(), 21);
        List<String> cap = new ArrayList<>();
        g.computeCapability().asOptional().ifPresent(cc -> cap.add("SM " + cc));
        g.memoryTotalBytes().asOptional().ifPresent(m -> cap.add(SnapshotText.gib(m)));
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
        d.add(new Detail("Memory", g.memoryTotalBytes().isPresent() ? SnapshotText.gib(g.memoryTotalBytes().value()) : g.memoryTotalBytes().display()));
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
        d.addAll(SignalText.details(s, g));
        d.addAll(NodeDetails.gpu(s, g));
        for (Finding f : mine) {
            d.add(new Detail(f.severity().name(), f.message()));
        }
        return b;
    }

    private static Box switchBox(MachineSnapshot s, NvSwitch sw, Map<String, String> labels) {
        boolean hidden = !sw.pci().isPresent();
        Box b = new Box("nvswitch:" + sw.id(), NodeKind.NVSWITCH, hidden ? "NVSwitch" : sw.id(), SW_W, SW_H);
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

    private static Box nicBox(MachineSnapshot s, Nic n, Map<String, String> labels) {
        Box b = new Box("nic:" + n.name(), NodeKind.NIC, n.name(), NIC_W, NIC_H);
        b.subtitle = NodeDetails.nicRateShort(n);
        b.caption = n.ports().isEmpty() ? "no port" : n.linkUp() ? "link up" : "link down";
        b.warning = !n.linkUp();
        b.details.addAll(NodeDetails.nic(s, n, labels));
        return b;
    }

    /** Each RDMA NIC's GPU under the same PCIe switch (PIX first, then PXB, as {@code nvidia-smi topo -m} says). */
    static Map<Nic, Gpu> nicSwitchPeers(MachineSnapshot s, List<Nic> nics) {
        Map<Nic, Gpu> out = new LinkedHashMap<>();
        for (String wanted : List.of("PIX", "PXB")) {
            for (Nic n : nics) {
                if (out.containsKey(n)) {
                    continue;
                }
                s.gpus().stream().filter(g -> wanted.equals(PcieTopology.gpuToNic(s, g, n).value())).findFirst()
                        .ifPresent(g -> out.put(n, g));
            }
        }
        return out;
    }

    private static int indexOfGroup(List<List<Gpu>> groups, Gpu g) {
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).contains(g)) {
                return i;
            }
        }
        return -1;
    }

    private static Box pcieSwitchBox(MachineSnapshot s, int i, List<Gpu> members, List<Nic> nics, Map<String, String> labels) {
        Box b = new Box("pcie:" + i, NodeKind.PCIE_SWITCH, "PCIe switch", PSW_W, PSW_H);
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

    private static Map<CpuKey, Box> cpuBoxes(MachineSnapshot s) {
        Map<CpuKey, Box> out = new LinkedHashMap<>();
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
            Box b = new Box("cpu:" + e.getKey(), NodeKind.CPU, "CPU · NUMA " + e.getKey(), GPU_W, CPU_H);
            b.subtitle = e.getValue() == null ? "CPU list unknown" : e.getValue().isEmpty() ? "no CPUs (memory only)" : "CPUs " + ellipsis(e.getValue(), 30);
            b.details.add(new Detail("NUMA node", String.valueOf(e.getKey())));
            b.details.add(new Detail("CPUs", e.getValue() == null ? "unknown (not in the host's NUMA list)" : e.getValue()));
            HostInfo.NumaNode node = h == null ? null : h.numaNode(e.getKey());
            if (node != null && !NodeText.notRead(node.memTotalBytes())) {
                b.details.add(new Detail("Node memory", node.memTotalBytes().isPresent()
                        ? SnapshotText.gib(node.memTotalBytes().value()) : node.memTotalBytes().display()));
            }
            if (!model.isEmpty()) {
                b.details.add(new Detail("CPU model", model));
            }
            out.put(new CpuKey(e.getKey()), b);
        }
        if (!idleCpus.isEmpty()) {
            String ids = idleCpus.keySet().stream().map(String::valueOf).collect(Collectors.joining(", "));
            Box b = new Box("cpu:others", NodeKind.CPU, "NUMA " + ids, CPU_ONLY_W, CPU_H);
            b.subtitle = "no GPUs attached";
            idleCpus.forEach((id, cpus) -> b.details.add(new Detail("NUMA " + id, cpus == null || cpus.isEmpty() ? "no CPUs" : "CPUs " + cpus)));
            if (!model.isEmpty()) {
                b.details.add(new Detail("CPU model", model));
            }
            out.put(new CpuKey(-1), b);
        }
        boolean orphans = s.gpus().stream().anyMatch(g -> g.numaNode().value() == null || g.numaNode().value() < 0);
        if (out.isEmpty() || (orphans && out.size() > 1)) {
            Box b = new Box("cpu:host", NodeKind.CPU, "Host CPU", GPU_W, CPU_H);
            b.subtitle = out.isEmpty() ? "NUMA layout unknown" : "GPU NUMA node unknown";
            if (h != null) {
                b.details.add(new Detail("CPU model", h.cpuModel().display()));
                b.details.add(new Detail("Logical CPUs", h.logicalCpus().display()));
                b.details.add(new Detail("NUMA nodes", h.numaNodes().display()));
            }
            out.put(new CpuKey(null), b);
        }
        for (Box b : out.values()) {
            List<String> attached = s.gpus().stream().filter(g -> b.id.equals("cpu:" + numaKey(g, out))).map(g -> s.label(g.pci())).toList();
            b.details.add(new Detail("GPUs attached", attached.isEmpty() ? "none" : String.join(", ", attached)));
        }
        return out;
    }

    private static String numaKey(Gpu g, Map<CpuKey, Box> cpus) {
        CpuKey k = cpuOf(g, cpus);
        return k == null ? "" : k.numa() == null ? "host" : String.valueOf(k.numa());
    }

    private static CpuKey cpuOf(Gpu g, Map<CpuKey, Box> cpus) {
        Integer n = g.numaNode().value();
        if (n != null && cpus.containsKey(new CpuKey(n))) {
            return new CpuKey(n);
        }
        if (cpus.containsKey(new CpuKey(null))) {
            return new CpuKey(null);
        }
        return cpus.keySet().stream().findFirst().orElse(null);
    }

    /** GPUs that share a PCIe switch (PIX or PXB between them), as connected groups of two or more. */
    static List<List<Gpu>> pcieSwitchGroups(MachineSnapshot s) {
        List<Gpu> gpus = s.gpus();
        int[] parent = new int[gpus.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (GpuPair p : s.pairs()) {
            String level = p.pcieLevel().value();
            if ("PIX".equals(level) || "PXB".equals(level)) {
                int a = indexOfPci(gpus, p.a());
                int b = indexOfPci(gpus, p.b());
                if (a >= 0 && b >= 0) {
                    parent[find(parent, a)] = find(parent, b);
                }
            }
        }
        Map<Integer, List<Gpu>> groups = new TreeMap<>();
        for (int i = 0; i < gpus.size(); i++) {
            groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(gpus.get(i));
        }
        return groups.values().stream().filter(g -> g.size() > 1)
                .sorted(Comparator.comparing(g -> g.get(0).pci())).toList();
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    // ---- NVLinks

    private record DirectLink(int count, double gbps, List<NvLink> links) {
    }

    /** Direct GPU-to-GPU NVLinks, keyed by the lower PCI address then the higher. */
    private static Map<String, Map<String, DirectLink>> directLinks(MachineSnapshot s) {
        Map<String, Map<String, DirectLink>> out = new TreeMap<>();
        List<Gpu> gpus = s.gpus();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                Gpu a = gpus.get(i);
                Gpu b = gpus.get(j);
                List<NvLink> ab = linksTo(a, b.pci());
                List<NvLink> ba = linksTo(b, a.pci());
                List<NvLink> links = ab.size() >= ba.size() ? ab : ba;
                if (!links.isEmpty()) {
                    double gbps = links.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    out.computeIfAbsent(a.pci().toString(), k -> new TreeMap<>())
                            .put(b.pci().toString(), new DirectLink(links.size(), gbps, links));
                }
            }
        }
        return out;
    }

    private static List<NvLink> linksTo(Gpu g, PciAddress peer) {
        return g.activeLinks().stream().filter(l -> NvLink.REMOTE_GPU.equals(l.remoteType().value())
                && l.remotePci().isPresent() && l.remotePci().value().sameDevice(peer)).toList();
    }

    private static List<NvLink> switchLinks(Gpu g, NvSwitch sw) {
        return g.activeLinks().stream().filter(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value()))
                .filter(l -> sw.pci().isPresent()
                        ? l.remotePci().isPresent() && l.remotePci().value().sameDevice(sw.pci().value())
                        : !l.remotePci().isPresent())
                .toList();
    }

    private static List<Detail> nvlinkDetails(int count, double gbps, List<NvLink> links) {
        List<Detail> d = new ArrayList<>();
        String gen = links.stream().map(l -> l.generation().value()).filter(Objects::nonNull).findFirst()
                .map(g -> " (NVLink" + g + ")").orElse("");
        d.add(new Detail("NVLinks", count + gen));
        if (gbps > 0) {
            double per = links.isEmpty() ? gbps / count : links.get(0).gbpsPerDirection().orElse(gbps / count);
            d.add(new Detail("Bandwidth", fmt(gbps) + " GB/s per direction (nominal; " + fmt(per) + " GB/s per link)"));
        } else {
            d.add(new Detail("Bandwidth", "unknown (no nominal figure for this GPU)"));
        }
        if (!links.isEmpty()) {
            d.add(new Detail("Link indices", links.stream().map(l -> String.valueOf(l.index())).collect(Collectors.joining(", "))));
        }
        return d;
    }

    static final int FULL = 0;
    static final int NO_UNIT = 1;
    static final int COUNT_ONLY = 2;

    static String nvlinkLabel(int count, double gbps, int style) {
        if (gbps <= 0 || style == COUNT_ONLY) {
            return count + "×";
        }
        return count + "× · " + fmt(gbps) + (style == FULL ? " GB/s" : "");
    }

    /**
     * The longest GPU-to-switch label style whose labels fit side by side in every band: in band k the labels of
     * neighbouring GPUs are {@code (1 - t_k) × pitch} apart.
     */
    private static int switchLabelStyle(MachineSnapshot s, List<NvSwitch> switches, double drop) {
        double pitch = GPU_W + GPU_GAP;
        // a row of GPUs wider than a typical view is shrunk to fit, and the GUI then enlarges its labels: leave them room
        double room = s.gpus().size() * pitch > 880 ? LABEL_ZOOM_ROOM : 1;
        for (int style = FULL; style < COUNT_ONLY; style++) {
            boolean fits = true;
            for (int k = 0; k < switches.size() && fits; k++) {
                double t = (24 + k * BAND_PX) / drop;
                for (Gpu g : s.gpus()) {
                    Integer count = switches.get(k).gpuLinks().get(g.pci().toString());
                    if (count == null) {
                        continue;
                    }
                    double gbps = switchLinks(g, switches.get(k)).stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    // room for the label at LABEL_ZOOM_ROOM times its size (views enlarge labels when shrunk to fit)
                    if (labelWidth(nvlinkLabel(count, gbps, style)) * room + 6 > (1 - t) * pitch) {
                        fits = false;
                        break;
                    }
                }
            }
            if (fits) {
                return style;
            }
        }
        return COUNT_ONLY;
    }

    /** Width of an edge label pill (10 px bold). */
    static double labelWidth(String label) {
        return label.length() * 6.1 + 12;
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
        return active.size() + " NVLinks" + (bw > 0 ? " · " + fmt(bw) + " GB/s" : "");
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
        return active.size() + "/" + g.nvLinks().size() + " active" + gen + (bw > 0 ? ", " + fmt(bw) + " GB/s per direction" : "");
    }

    private static double arcHeight(int span) {
        return 30 + 20 * (span - 1);
    }

    // ---- groups

    private static List<Group> mnnvlGroups(List<Gpu> ordered, Map<Gpu, Box> boxes, Map<String, String> labels) {
        List<Group> out = new ArrayList<>();
        int i = 0;
        while (i < ordered.size()) {
            Gpu g = ordered.get(i);
            if (!g.fabric().inMnnvlDomain()) {
                i++;
                continue;
            }
            String key = mnnvlKey(g);
            int j = i;
            while (j + 1 < ordered.size() && ordered.get(j + 1).fabric().inMnnvlDomain() && key.equals(mnnvlKey(ordered.get(j + 1)))) {
                j++;
            }
            Box first = boxes.get(g);
            Box last = boxes.get(ordered.get(j));
            String uuid = g.fabric().clusterUuid().value();
            String clique = g.fabric().cliqueId().shortDisplay();
            List<Detail> d = new ArrayList<>();
            d.add(new Detail("MNNVL", "GPUs registered in one NVLink fabric clique (multi-node NVLink)"));
            d.add(new Detail("Cluster UUID", uuid));
            d.add(new Detail("Clique ID", clique));
            d.add(new Detail("Fabric state", g.fabric().state().display()));
            d.add(new Detail("Health", g.fabric().healthSummary().isPresent() ? g.fabric().healthSummary().value() : g.fabric().healthMask().display()));
            d.add(new Detail("GPUs", ordered.subList(i, j + 1).stream().map(x -> labels.get(x.pci().toString())).collect(Collectors.joining(", "))));
            out.add(new Group("mnnvl:" + out.size(), "MNNVL clique " + clique + " · cluster " + uuid,
                    first.x - 12, first.y - 12, last.x + last.w + 12 - (first.x - 12), GPU_H + 12 + 30, d));
            i = j + 1;
        }
        return out;
    }

    private static String mnnvlKey(Gpu g) {
        return g.fabric().clusterUuid().value() + "/" + g.fabric().cliqueId().value();
    }

    // ---- text

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
        if (!pcieSwitchGroups(s).isEmpty()) {
            out.add("PCIe switches are inferred from the PIX/PXB topology letters.");
        }
        return out;
    }

    private static List<String> wrap(List<String> lines, int maxChars) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String rest = line;
            while (rest.length() > maxChars) {
                int cut = rest.lastIndexOf(' ', maxChars);
                if (cut <= maxChars / 2) {
                    cut = maxChars;
                }
                out.add(rest.substring(0, cut).strip());
                rest = rest.substring(cut).strip();
            }
            out.add(rest);
        }
        return out;
    }

    private static List<Finding> findingsAbout(MachineSnapshot s, PciAddress pci) {
        String key = pci.toString();
        return s.findings().stream().filter(f -> f.subject() != null && f.subject().contains(key)).toList();
    }

    static String fmt(double gbps) {
        return gbps == Math.rint(gbps) ? String.format(Locale.ROOT, "%.0f", gbps) : String.format(Locale.ROOT, "%.1f", gbps);
    }

    private static String yesNo(Reading<Boolean> r) {
        return r.isPresent() ? (r.value() ? "yes" : "no") : r.display();
    }

    private static String ellipsis(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    private static Edge straight(String id, EdgeKind kind, String from, String to, String label, double x1, double y1,
                                 double x2, double y2, double t, List<Detail> details) {
        return new Edge(id, kind, from, to, 0, 0, label, x1, y1, (x1 + x2) / 2, (y1 + y2) / 2, x2, y2,
                x1 + t * (x2 - x1), y1 + t * (y2 - y1), details);
    }

    private static int indexOf(List<Gpu> gpus, String pci) {
        for (int i = 0; i < gpus.size(); i++) {
            if (gpus.get(i).pci().toString().equals(pci)) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfPci(List<Gpu> gpus, PciAddress pci) {
        for (int i = 0; i < gpus.size(); i++) {
            if (gpus.get(i).pci().sameDevice(pci)) {
                return i;
            }
        }
        return -1;
    }

    private static Gpu gpuByPci(List<Gpu> gpus, String pci) {
        return gpus.get(indexOf(gpus, pci));
    }
}
