package dev.fabricscope.render.fabric;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.topology.FabricQueries;
import dev.fabricscope.topology.PcieTopology;
import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Group;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    static final double GPU_GAP = 22;
    static final double SOCKET_GAP = 28;
    /** How far above its GPU its NVSwitch bundle's label is centred: low, so that it drifts little along a slanted edge. */
    static final double BUNDLE_LABEL_RISE = 15;
    static final double SW_MIN_PITCH = 150;
    static final double LEGEND_H = 30;
    static final double MIN_WIDTH = 660;
    static final double LEGEND_ROW = 20;
    static final double CHAR_W = 6.4;

    private FabricLayout() {
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
        final Map<Gpu, Box.CpuKey> gpuCpu = new LinkedHashMap<>();
        final Map<Box.CpuKey, Box> cpus = new LinkedHashMap<>();
        List<Nic> nics;
        Map<Nic, Gpu> nicPeer;
        List<List<Gpu>> pcieGroups;
        List<Gpu> ordered;

        // planRows
        List<NvSwitch> switches;
        int nSwitch;
        Map<String, Map<String, FabricQueries.DirectLink>> direct;
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
        final List<FabricBoxes.Bundle> nvlinkBundles = new ArrayList<>();

        Plan(MachineSnapshot s) {
            this.s = s;
            this.gpus = s.gpus();
            for (Gpu g : gpus) {
                labels.put(g.pci().toString(), s.label(g.pci()));
            }
            this.notes = FabricBoxes.notes(s);
        }

        /**
         * CPU/NUMA nodes in the order of their first GPU (PCI order), those without GPUs last; RDMA NICs with the GPU
         * they share a PCIe switch with; GPUs by NUMA node, then shared PCIe switch, then PCI address.
         */
        void orderGpus() {
            Map<Box.CpuKey, Box> unsorted = FabricBoxes.cpuBoxes(s);
            for (Gpu g : gpus) {
                gpuCpu.put(g, FabricBoxes.cpuOf(g, unsorted));
            }
            List<Box.CpuKey> keys = new ArrayList<>(unsorted.keySet());
            keys.sort(Comparator.comparingInt((Box.CpuKey k) -> {
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
            nicPeer = FabricQueries.nicSwitchPeers(s, nics);
            pcieGroups = new ArrayList<>(FabricQueries.pcieSwitchGroups(s));
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
            List<Box.CpuKey> cpuOrder = new ArrayList<>(cpus.keySet());
            ordered = new ArrayList<>(gpus);
            ordered.sort(Comparator.comparing((Gpu g) -> cpuOrder.indexOf(gpuCpu.get(g)))
                    .thenComparing(g -> groupOf.containsKey(g) ? gpus.indexOf(pcieGroups.get(groupOf.get(g)).get(0)) : gpus.indexOf(g))
                    .thenComparing(Gpu::pci));
        }

        /** The top of every row: switches, GPUs (lower when direct-link arcs or MNNVL boxes need room), PCIe switches, NICs, CPUs, legend. */
        void planRows() {
            switches = s.nvSwitches();
            nSwitch = switches.size();
            direct = FabricQueries.directLinks(s);
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
            // each GPU's switch links are labelled once, just above the GPU, so the drop needs no room for label bands
            switchDrop = 150;
            if (nSwitch > 0) {
                gpuTop = switchTop + Box.SW_H + switchDrop;
            } else if (maxSpan > 0) {
                gpuTop = y + arcHeight(maxSpan) + 14;
            } else {
                gpuTop = y + (mnnvl ? 14 : 0);
            }
            double gpuBottom = gpuTop + Box.GPU_H;
            boolean anyPcieSwitch = !pcieGroups.isEmpty();
            pswTop = gpuBottom + 38;
            if (mnnvl) {
                pswTop += 30;
            }
            cpuTop = anyPcieSwitch ? pswTop + Box.PSW_H + 38 : gpuBottom + 54 + (mnnvl ? 30 : 0);
            nicTop = anyPcieSwitch ? pswTop + Box.PSW_H + 30 : gpuBottom + 34 + (mnnvl ? 30 : 0);
            if (!nics.isEmpty()) {
                cpuTop = nicTop + Box.NIC_H + 36;
            }
            double cpuBottom = cpuTop + Box.CPU_H;
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
            Box.CpuKey prevCpu = null;
            for (Gpu g : ordered) {
                Box.CpuKey c = gpuCpu.get(g);
                if (prevCpu != null && !prevCpu.equals(c)) {
                    x += SOCKET_GAP;
                }
                prevCpu = c;
                Box b = FabricBoxes.gpuBox(s, g, labels);
                b.x = x;
                b.y = gpuTop;
                gpuBoxes.put(g, b);
                x += Box.GPU_W + GPU_GAP;
            }
            rowLeft = MARGIN + 12;
            rowRight = gpus.isEmpty() ? rowLeft + Box.GPU_W : x - GPU_GAP;
        }

        /** The CPU row: each spans its GPUs; CPUs without GPUs follow on the right. */
        void placeCpus() {
            double cpuX = rowRight + SOCKET_GAP;
            for (Map.Entry<Box.CpuKey, Box> e : cpus.entrySet()) {
                Box c = e.getValue();
                List<Box> mine = ordered.stream().filter(g -> e.getKey().equals(gpuCpu.get(g))).map(gpuBoxes::get).toList();
                c.y = cpuTop;
                if (mine.isEmpty()) {
                    c.w = Box.CPU_ONLY_W;
                    c.x = gpus.isEmpty() && cpusWithGpus == 0 && cpuX == rowRight + SOCKET_GAP ? rowLeft : cpuX;
                    cpuX = c.x + c.w + SOCKET_GAP;
                } else {
                    c.x = mine.get(0).x - 8;
                    c.w = mine.get(mine.size() - 1).x + Box.GPU_W + 8 - c.x;
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
                Box b = FabricBoxes.switchBox(s, sw, labels);
                b.x = left + (k + 0.5) * span / nSwitch - Box.SW_W / 2;
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
            contentRight = Math.max(contentRight, switchBoxes.get(nSwitch - 1).x + Box.SW_W);
        }

        /** Inferred PCIe switches, centred under their GPUs. */
        void placePcieSwitches() {
            for (int i = 0; i < pcieGroups.size(); i++) {
                List<Gpu> members = pcieGroups.get(i);
                double cx = members.stream().mapToDouble(g -> gpuBoxes.get(g).cx()).average().orElse(0);
                List<Nic> below = nics.stream().filter(n -> nicPeer.containsKey(n) && members.contains(nicPeer.get(n))).toList();
                Box b = FabricBoxes.pcieSwitchBox(s, i, members, below, labels);
                b.x = cx - Box.PSW_W / 2;
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
                    nx = parent.cx() + 10 + k * (Box.NIC_W + 8);
                } else {
                    Box.CpuKey key = n.numaNode().isPresent() && cpus.containsKey(new Box.CpuKey(n.numaNode().value()))
                            ? new Box.CpuKey(n.numaNode().value()) : cpus.containsKey(new Box.CpuKey(null)) ? new Box.CpuKey(null)
                            : cpus.keySet().stream().findFirst().orElse(null);
                    parent = key == null ? null : cpus.get(key);
                    List<Box> mine = ordered.stream().filter(g -> key != null && key.equals(gpuCpu.get(g))).map(gpuBoxes::get).toList();
                    int k = placed.merge(parent == null ? "" : parent.id, 1, Integer::sum) - 1;
                    if (k < mine.size()) {
                        nx = mine.get(k).cx() + 10;
                    } else if (!mine.isEmpty()) {
                        nx = mine.get(mine.size() - 1).cx() + 10 + (k - mine.size() + 1) * (Box.NIC_W + 8);
                    } else {
                        nx = (parent != null ? parent.x + 4 : rowLeft) + k * (Box.NIC_W + 8);
                    }
                }
                Box b = FabricBoxes.nicBox(s, n, labels);
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
            caption = FabricBoxes.caption(s);
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

        /**
         * GPU-to-NVSwitch links, one edge per GPU and switch; each GPU's bundle of them carries one label (its links to
         * every switch, in all), just above the GPU on the bundle's middle edge.
         */
        void routeSwitchLinks() {
            Map<Gpu, List<Edge>> bundles = new LinkedHashMap<>();
            for (int k = 0; k < nSwitch; k++) {
                NvSwitch sw = switches.get(k);
                Box sb = switchBoxes.get(k);
                List<Gpu> attached = ordered.stream().filter(g -> sw.gpuLinks().containsKey(g.pci().toString())).toList();
                for (int i = 0; i < attached.size(); i++) {
                    Gpu g = attached.get(i);
                    Box gb = gpuBoxes.get(g);
                    int count = sw.gpuLinks().get(g.pci().toString());
                    List<NvLink> links = FabricQueries.switchLinks(g, sw);
                    double gbps = links.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    double x1 = gb.cx() + (k - (nSwitch - 1) / 2.0) * Math.min(16, Box.GPU_W * 0.7 / Math.max(1, nSwitch));
                    double y1 = gb.y;
                    double x2 = sb.cx() + (i - (attached.size() - 1) / 2.0) * Math.min(12, Box.SW_W * 0.8 / Math.max(1, attached.size()));
                    double y2 = sb.y + sb.h;
                    List<Detail> d = new ArrayList<>();
                    d.add(new Detail("Connection", labels.get(g.pci().toString()) + " ↔ " + sw.id()));
                    d.addAll(FabricBoxes.nvlinkDetails(count, gbps, links));
                    bundles.computeIfAbsent(g, x -> new ArrayList<>()).add(new Edge("nvlink:" + g.pci() + ":" + sw.id(),
                            EdgeKind.NVLINK, gb.id, sb.id, count, gbps, "", x1, y1, (x1 + x2) / 2, (y1 + y2) / 2, x2, y2,
                            (x1 + x2) / 2, (y1 + y2) / 2, d));
                }
            }
            for (List<Edge> bundle : bundles.values()) {
                int count = bundle.stream().mapToInt(Edge::links).sum();
                double gbps = bundle.stream().mapToDouble(Edge::gbpsPerDirection).sum();
                // on the edge that is nearest the GPU's middle where the label sits, so that the label stays over its GPU
                double gpuX = gpuBoxes.values().stream().filter(b -> b.id.equals(bundle.get(0).from())).findFirst().orElseThrow().cx();
                int mid = 0;
                for (int i = 1; i < bundle.size(); i++) {
                    if (Math.abs(atLabel(bundle.get(i)) - gpuX) < Math.abs(atLabel(bundle.get(mid)) - gpuX)) {
                        mid = i;
                    }
                }
                for (int i = 0; i < bundle.size(); i++) {
                    Edge e = bundle.get(i);
                    if (i == mid) {
                        double t = BUNDLE_LABEL_RISE / (e.y1() - e.y2());
                        e = new Edge(e.id(), e.kind(), e.from(), e.to(), e.links(), e.gbpsPerDirection(),
                                FabricBoxes.nvlinkLabel(count, gbps), e.x1(), e.y1(), e.cx(), e.cy(), e.x2(), e.y2(),
                                e.x1() + t * (e.x2() - e.x1()), e.y1() - BUNDLE_LABEL_RISE, e.details());
                    }
                    edges.add(e);
                }
                nvlinkBundles.add(new FabricBoxes.Bundle(count, gbps));
            }
        }

        /** Where a GPU-to-switch edge is at the height of its GPU's bundle label. */
        private static double atLabel(Edge e) {
            return e.x1() + BUNDLE_LABEL_RISE / (e.y1() - e.y2()) * (e.x2() - e.x1());
        }

        /** Direct GPU-to-GPU NVLinks, arcs above the GPU row, higher the more GPUs they span. */
        void routeDirectLinks() {
            for (var byA : direct.entrySet()) {
                for (var e : byA.getValue().entrySet()) {
                    Gpu a = gpuByPci(gpus, byA.getKey());
                    Gpu b = gpuByPci(gpus, e.getKey());
                    FabricQueries.DirectLink dl = e.getValue();
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
                    d.addAll(FabricBoxes.nvlinkDetails(dl.count(), dl.gbps(), dl.links()));
                    nvlinkBundles.add(new FabricBoxes.Bundle(dl.count(), dl.gbps()));
                    edges.add(new Edge("nvlink:" + a.pci() + ":" + b.pci(), EdgeKind.NVLINK, "gpu:" + a.pci(), "gpu:" + b.pci(),
                            dl.count(), dl.gbps(), FabricBoxes.nvlinkLabel(dl.count(), dl.gbps()), x1, y1, cx, cy, x2, y1,
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
                boolean c2c = target.kind == NodeKind.CPU && FabricQueries.c2cToHost(s, g);
                List<Detail> d = FabricBoxes.hostPathDetails(g, labels.get(g.pci().toString()), target.title, c2c);
                double t = 0.5;
                if (c2c && !nicBoxes.isEmpty()) {
                    // the label above the NIC row, not beside a NIC
                    double nicY = nicBoxes.values().iterator().next().y;
                    t = Math.max(0.05, (nicY - 17 - (gb.y + gb.h)) / (target.y - (gb.y + gb.h)));
                }
                edges.add(straight("host:" + g.pci(), c2c ? EdgeKind.C2C : EdgeKind.PCIE, gb.id, target.id, c2c ? "C2C" : "", gb.cx(), gb.y + gb.h, x2, target.y, t, d));
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

        /** The legend's entries left to right from the margin, on a new row where the next would pass the width. */
        List<FabricGraph.LegendEntry> legend() {
            boolean c2c = edges.stream().anyMatch(e -> e.kind() == EdgeKind.C2C);
            List<FabricGraph.LegendEntry> out = new ArrayList<>();
            double x = MARGIN;
            double y = legendY + 12;
            for (var entry : FabricBoxes.legend(nvlinkBundles, c2c).entrySet()) {
                double w = legendWidth(entry.getValue());
                if (x > MARGIN && x + w - 22 > width - MARGIN) {
                    x = MARGIN;
                    y += LEGEND_ROW;
                }
                out.add(new FabricGraph.LegendEntry(entry.getKey(), entry.getValue(), x, y));
                x += w;
            }
            return out;
        }

        /** The finished graph, with one MNNVL group box per contiguous run of GPUs of one clique. */
        FabricGraph graph() {
            List<Group> groups = mnnvlGroups(ordered, gpuBoxes, labels);
            List<Node> nodes = new ArrayList<>();
            for (Box b : all) {
                nodes.add(new Node(b.id, b.kind, b.title, b.subtitle, b.caption, b.x, b.y, b.w, b.h, b.warning, b.details));
            }
            List<FabricGraph.LegendEntry> legend = legend();
            double rows = legend.isEmpty() ? 1 : (legend.get(legend.size() - 1).y() - (legendY + 12)) / LEGEND_ROW + 1;
            double height = legendY + LEGEND_H + (rows - 1) * LEGEND_ROW + MARGIN / 2;
            return new FabricGraph(caption, nodes, edges, groups, wrapped, width, height, legendY, legend);
        }
    }

    private static int indexOfGroup(List<List<Gpu>> groups, Gpu g) {
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).contains(g)) {
                return i;
            }
        }
        return -1;
    }

    /** Room a legend entry takes: the swatch, the text (10.5 px) and the gap to the next. */
    static double legendWidth(String text) {
        return 32 + text.length() * 5.9 + 22;
    }

    /** Width of an edge label pill (10 px bold). */
    static double labelWidth(String label) {
        return label.length() * 6.1 + 12;
    }

    private static double arcHeight(int span) {
        return 30 + 20 * (span - 1);
    }

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
            List<Gpu> members = ordered.subList(i, j + 1);
            out.add(new Group("mnnvl:" + out.size(), FabricBoxes.mnnvlTitle(g),
                    first.x - 12, first.y - 12, last.x + last.w + 12 - (first.x - 12), Box.GPU_H + 12 + 30,
                    FabricBoxes.mnnvlDetails(members, labels)));
            i = j + 1;
        }
        return out;
    }

    private static String mnnvlKey(Gpu g) {
        return g.fabric().clusterUuid().value() + "/" + g.fabric().cliqueId().value();
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

    private static Gpu gpuByPci(List<Gpu> gpus, String pci) {
        return gpus.get(indexOf(gpus, pci));
    }
}
