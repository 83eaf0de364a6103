package dev.fabricscope.render.fabric;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Group;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import dev.fabricscope.topology.FabricQueries;
import dev.fabricscope.topology.PcieTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.LayeredLayoutProvider;
import org.eclipse.elk.alg.layered.options.LayerConstraint;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.alg.layered.options.NodePlacementStrategy;
import org.eclipse.elk.alg.layered.options.OrderingStrategy;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeLabelPlacement;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkLabel;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * The fabric laid out by Eclipse ELK Layered instead of {@link FabricLayout}'s hand-written rows: the same boxes
 * (worded by {@link FabricBoxes}, each as wide as its words), the same connections (asked of {@link FabricQueries}) and
 * the same {@link FabricGraph}, so that the SVG writer and the app's canvas draw either. Test scope only: the comparison
 * of issue 28 item 2 ({@code ElkVsHandComparisonTest}, docs/architecture.md); ELK is not in the product.
 *
 * <p>How the machine is put to ELK: direction down, orthogonal edge routing, one partition per row the hand placement
 * has (NVSwitches, GPUs, PCIe switches, NICs, CPU/NUMA nodes), the boxes given in the hand placement's order (NUMA node,
 * shared PCIe switch, PCI address). ELK has no edge between two boxes of one layer, so a direct GPU-to-GPU NVLink is
 * routed through a hidden node above the GPUs (its label's pill, where the label sits) and the SMP interconnect between
 * two CPU/NUMA nodes through one below them; each such pair of ELK edges becomes one edge of the graph. An orthogonal
 * route with bends becomes a chain of straight edges of the graph, the first with the connection's id, the next ones
 * with {@code #1}, {@code #2}, … appended. GPUs in an MNNVL clique are 30 px taller for ELK, which keeps the clique
 * box's title strip under them clear of other boxes; the box is drawn at its own height and its downward edges start
 * at its bottom.
 */
final class ElkFabricLayout {

    /**
     * What is put to ELK beyond the graph.
     *
     * @param modelOrder the hand placement's order handed in as the model order ({@code considerModelOrder.strategy
     *                   NODES_AND_EDGES}); on every machine compared ELK kept it as given ({@code forceNodeModelOrder}
     *                   gave the same drawings). Without it crossing minimisation alone decides, and GPUs and switches
     *                   come out of index order.
     * @param mergeEdges ELK's {@code mergeEdges}: the edges at one side of a box share one port, so that a GPU's
     *                   NVLinks to all switches become one bus
     */
    record Style(boolean modelOrder, boolean mergeEdges) {
        static final Style GIVEN_ORDER = new Style(true, false);
        static final Style FREE_ORDER = new Style(false, false);
        static final Style MERGED_EDGES = new Style(true, true);
    }

    static final double BOX_PAD = 9;
    static final double GROUP_STRIP = 30;
    static final double NODE_GAP = 22;
    static final double LAYER_GAP = 40;
    static final double PILL_H = 16;

    static {
        // outside Eclipse the option registry (and ElkReflect's cloners for option values) is filled by hand
        LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
    }

    private ElkFabricLayout() {
    }

    static FabricGraph layout(MachineSnapshot s) {
        return layout(s, Style.GIVEN_ORDER);
    }

    static FabricGraph layout(MachineSnapshot s, Style style) {
        return new Run(s, style).graph();
    }

    /** A connection of the graph and the ELK edges it is routed over, in order from its {@code from} box. */
    private record Connection(String id, EdgeKind kind, String from, String to, int links, double gbps, String label,
                              List<Detail> details, List<Leg> legs, ElkLabel elkLabel, ElkNode labelNode) {
    }

    /** One ELK edge of a connection, walked backwards when {@code reversed}. */
    private record Leg(ElkEdge edge, boolean reversed) {
    }

    private record Point(double x, double y) {
    }

    /** One layout: the boxes, the ELK graph, and what it made of them. */
    private static final class Run {
        final MachineSnapshot s;
        final Style style;
        final Map<String, String> labels = new LinkedHashMap<>();
        final Map<Gpu, Box.CpuKey> gpuCpu = new LinkedHashMap<>();
        final Map<Box.CpuKey, Box> cpus = new LinkedHashMap<>();
        final Map<Gpu, Box> gpuBoxes = new LinkedHashMap<>();
        final List<Box> switchBoxes = new ArrayList<>();
        final List<Box> pcieBoxes = new ArrayList<>();
        final Map<Nic, Box> nicBoxes = new LinkedHashMap<>();
        final List<Box> all = new ArrayList<>();
        final Map<Box, ElkNode> elk = new LinkedHashMap<>();
        final Map<Box, Double> tallBy = new LinkedHashMap<>();
        final List<Connection> connections = new ArrayList<>();
        final List<FabricBoxes.Bundle> bundles = new ArrayList<>();
        final ElkNode root = ElkGraphUtil.createGraph();
        List<Gpu> ordered;
        List<List<Gpu>> pcieGroups;
        List<Nic> nics;
        Map<Nic, Gpu> nicPeer;

        Run(MachineSnapshot s, Style style) {
            this.s = s;
            this.style = style;
            for (Gpu g : s.gpus()) {
                labels.put(g.pci().toString(), s.label(g.pci()));
            }
        }

        FabricGraph graph() {
            orderBoxes();
            makeBoxes();
            configure();
            addNodes();
            addConnections();
            new LayeredLayoutProvider().layout(root, new BasicProgressMonitor());
            return read();
        }

        /** As the hand placement orders them: CPUs by their first GPU, GPUs by CPU, shared PCIe switch, PCI address. */
        void orderBoxes() {
            Map<Box.CpuKey, Box> unsorted = FabricBoxes.cpuBoxes(s);
            List<Gpu> gpus = s.gpus();
            for (Gpu g : gpus) {
                gpuCpu.put(g, FabricBoxes.cpuOf(g, unsorted));
            }
            List<Box.CpuKey> keys = new ArrayList<>(unsorted.keySet());
            keys.sort(Comparator.comparingInt(k -> {
                for (int i = 0; i < gpus.size(); i++) {
                    if (k.equals(gpuCpu.get(gpus.get(i)))) {
                        return i;
                    }
                }
                return Integer.MAX_VALUE;
            }));
            keys.forEach(k -> cpus.put(k, unsorted.get(k)));
            nics = s.node() == null ? List.of() : s.node().rdmaNics();
            nicPeer = FabricQueries.nicSwitchPeers(s, nics);
            pcieGroups = new ArrayList<>(FabricQueries.pcieSwitchGroups(s));
            for (Gpu g : new LinkedHashSet<>(nicPeer.values())) {
                if (pcieGroups.stream().noneMatch(grp -> grp.contains(g))) {
                    pcieGroups.add(List.of(g));
                }
            }
            pcieGroups.sort(Comparator.comparing(grp -> grp.get(0).pci()));
            List<Box.CpuKey> cpuOrder = new ArrayList<>(cpus.keySet());
            ordered = new ArrayList<>(gpus);
            ordered.sort(Comparator.comparing((Gpu g) -> cpuOrder.indexOf(gpuCpu.get(g)))
                    .thenComparing(g -> gpus.indexOf(groupOf(g).isEmpty() ? g : groupOf(g).get(0)))
                    .thenComparing(Gpu::pci));
        }

        private List<Gpu> groupOf(Gpu g) {
            return pcieGroups.stream().filter(grp -> grp.contains(g)).findFirst().orElse(List.of());
        }

        /** Every box, worded by {@link FabricBoxes}; the boxes of a row as wide as the widest words among them. */
        void makeBoxes() {
            for (NvSwitch sw : s.nvSwitches()) {
                switchBoxes.add(FabricBoxes.switchBox(s, sw, labels));
            }
            for (Gpu g : ordered) {
                gpuBoxes.put(g, FabricBoxes.gpuBox(s, g, labels));
            }
            for (int i = 0; i < pcieGroups.size(); i++) {
                List<Gpu> members = pcieGroups.get(i);
                List<Nic> below = nics.stream().filter(n -> nicPeer.containsKey(n) && members.contains(nicPeer.get(n))).toList();
                pcieBoxes.add(FabricBoxes.pcieSwitchBox(s, i, members, below, labels));
            }
            for (Nic n : nics) {
                nicBoxes.put(n, FabricBoxes.nicBox(s, n, labels));
            }
            fitRow(switchBoxes);
            fitRow(new ArrayList<>(gpuBoxes.values()));
            fitRow(pcieBoxes);
            fitRow(new ArrayList<>(nicBoxes.values()));
            cpus.values().forEach(c -> fitRow(List.of(c)));
            all.addAll(switchBoxes);
            all.addAll(gpuBoxes.values());
            all.addAll(pcieBoxes);
            all.addAll(nicBoxes.values());
            all.addAll(cpus.values());
        }

        private static void fitRow(List<Box> row) {
            double w = row.stream().mapToDouble(b -> TextMeasure.widest(b.kind, b.title, b.subtitle, b.caption)).max().orElse(0);
            row.forEach(b -> b.w = Math.ceil(w + 2 * BOX_PAD));
        }

        void configure() {
            root.setProperty(LayeredOptions.DIRECTION, Direction.DOWN);
            root.setProperty(LayeredOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
            root.setProperty(LayeredOptions.PARTITIONING_ACTIVATE, true);
            root.setProperty(LayeredOptions.SEPARATE_CONNECTED_COMPONENTS, false);
            root.setProperty(LayeredOptions.PADDING, new ElkPadding(0));
            root.setProperty(LayeredOptions.SPACING_NODE_NODE, NODE_GAP);
            root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, LAYER_GAP);
            root.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 14.0);
            root.setProperty(LayeredOptions.SPACING_EDGE_EDGE_BETWEEN_LAYERS, 8.0);
            root.setProperty(LayeredOptions.SPACING_EDGE_EDGE, 8.0);
            root.setProperty(LayeredOptions.SPACING_EDGE_NODE, 12.0);
            root.setProperty(LayeredOptions.SPACING_EDGE_LABEL, 2.0);
            root.setProperty(LayeredOptions.MERGE_EDGES, style.mergeEdges());
            root.setProperty(LayeredOptions.NODE_PLACEMENT_STRATEGY, NodePlacementStrategy.NETWORK_SIMPLEX);
            root.setProperty(LayeredOptions.CONSIDER_MODEL_ORDER_STRATEGY,
                    style.modelOrder() ? OrderingStrategy.NODES_AND_EDGES : OrderingStrategy.NONE);
        }

        /** The boxes in model order, one partition per row; clique GPUs taller by the clique box's title strip. */
        void addNodes() {
            switchBoxes.forEach(b -> node(b, 0).setProperty(LayeredOptions.LAYERING_LAYER_CONSTRAINT, LayerConstraint.FIRST));
            for (Map.Entry<Gpu, Box> e : gpuBoxes.entrySet()) {
                if (e.getKey().fabric().inMnnvlDomain()) {
                    tallBy.put(e.getValue(), GROUP_STRIP);
                }
                node(e.getValue(), 2);
            }
            pcieBoxes.forEach(b -> node(b, 3));
            nicBoxes.values().forEach(b -> node(b, 4));
            cpus.values().forEach(b -> node(b, 5));
        }

        private ElkNode node(Box b, int partition) {
            ElkNode n = ElkGraphUtil.createNode(root);
            n.setIdentifier(b.id);
            n.setDimensions(b.w, b.h + tallBy.getOrDefault(b, 0.0));
            n.setProperty(LayeredOptions.PARTITIONING_PARTITION, partition);
            elk.put(b, n);
            return n;
        }

        /** A hidden node that routes a connection between two boxes of one row; as big as its label's pill. */
        private ElkNode hidden(String id, String label, int partition) {
            ElkNode n = ElkGraphUtil.createNode(root);
            n.setIdentifier(id);
            n.setDimensions(label.isEmpty() ? 8 : FabricLayout.labelWidth(label), label.isEmpty() ? 8 : PILL_H);
            n.setProperty(LayeredOptions.PARTITIONING_PARTITION, partition);
            return n;
        }

        private ElkEdge edge(Box from, Box to) {
            return ElkGraphUtil.createSimpleEdge(elk.get(from), elk.get(to));
        }

        private static ElkEdge edge(ElkNode from, ElkNode to) {
            return ElkGraphUtil.createSimpleEdge(from, to);
        }

        private static ElkLabel label(ElkEdge e, String text) {
            return label(e, text, EdgeLabelPlacement.CENTER);
        }

        private static ElkLabel label(ElkEdge e, String text, EdgeLabelPlacement where) {
            ElkLabel l = ElkGraphUtil.createLabel(text, e);
            l.setDimensions(FabricLayout.labelWidth(text), PILL_H);
            l.setProperty(LayeredOptions.EDGE_LABELS_PLACEMENT, where);
            l.setProperty(LayeredOptions.EDGE_LABELS_INLINE, true); // the pill on its edge, as the hand placement draws it
            return l;
        }

        /** The same connections as the hand placement, with the same ids, wording and details. */
        void addConnections() {
            switchLinks();
            directLinks();
            hostPaths();
            pcieUplinks();
            nicLinks();
            cpuLinks();
        }

        /** GPU to NVSwitch, one edge per pair; each GPU's bundle labelled once, on its edge to the middle switch. */
        void switchLinks() {
            List<NvSwitch> switches = s.nvSwitches();
            for (Gpu g : ordered) {
                List<Integer> mine = new ArrayList<>();
                for (int k = 0; k < switches.size(); k++) {
                    if (switches.get(k).gpuLinks().containsKey(g.pci().toString())) {
                        mine.add(k);
                    }
                }
                if (mine.isEmpty()) {
                    continue;
                }
                int count = 0;
                double gbps = 0;
                List<Connection> bundle = new ArrayList<>();
                for (int k : mine) {
                    NvSwitch sw = switches.get(k);
                    int links = sw.gpuLinks().get(g.pci().toString());
                    List<NvLink> nv = FabricQueries.switchLinks(g, sw);
                    double bw = nv.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    count += links;
                    gbps += bw;
                    List<Detail> d = new ArrayList<>();
                    d.add(new Detail("Connection", labels.get(g.pci().toString()) + " ↔ " + sw.id()));
                    d.addAll(FabricBoxes.nvlinkDetails(links, bw, nv));
                    ElkEdge e = edge(switchBoxes.get(k), gpuBoxes.get(g));
                    bundle.add(new Connection("nvlink:" + g.pci() + ":" + sw.id(), EdgeKind.NVLINK, gpuBoxes.get(g).id,
                            switchBoxes.get(k).id, links, bw, "", d, List.of(new Leg(e, true)), null, null));
                }
                int mid = (bundle.size() - 1) / 2;
                String text = FabricBoxes.nvlinkLabel(count, gbps);
                Connection m = bundle.get(mid);
                bundle.set(mid, new Connection(m.id, m.kind, m.from, m.to, m.links, m.gbps, text, m.details, m.legs,
                        label(m.legs.get(0).edge(), text, EdgeLabelPlacement.HEAD), null));
                connections.addAll(bundle);
                bundles.add(new FabricBoxes.Bundle(count, gbps));
            }
        }

        /** Two GPUs' direct NVLinks, through a hidden node above the GPU row that carries the label. */
        void directLinks() {
            for (var byA : FabricQueries.directLinks(s).entrySet()) {
                for (var e : byA.getValue().entrySet()) {
                    Gpu a = gpu(byA.getKey());
                    Gpu b = gpu(e.getKey());
                    if (ordered.indexOf(a) > ordered.indexOf(b)) {
                        Gpu t = a;
                        a = b;
                        b = t;
                    }
                    FabricQueries.DirectLink dl = e.getValue();
                    String text = FabricBoxes.nvlinkLabel(dl.count(), dl.gbps());
                    ElkNode via = hidden("bridge:" + a.pci() + ":" + b.pci(), text, 1);
                    ElkEdge up = edge(via, elk.get(gpuBoxes.get(a)));
                    ElkEdge down = edge(via, elk.get(gpuBoxes.get(b)));
                    List<Detail> d = new ArrayList<>();
                    d.add(new Detail("Connection", labels.get(a.pci().toString()) + " ↔ " + labels.get(b.pci().toString()) + " (direct)"));
                    d.addAll(FabricBoxes.nvlinkDetails(dl.count(), dl.gbps(), dl.links()));
                    bundles.add(new FabricBoxes.Bundle(dl.count(), dl.gbps()));
                    connections.add(new Connection("nvlink:" + a.pci() + ":" + b.pci(), EdgeKind.NVLINK, gpuBoxes.get(a).id,
                            gpuBoxes.get(b).id, dl.count(), dl.gbps(), text, d, List.of(new Leg(up, true), new Leg(down, false)), null, via));
                }
            }
        }

        /** Each GPU to its PCIe switch, else to its CPU (NVLink-C2C on a Grace host, labelled C2C). */
        void hostPaths() {
            Map<Gpu, Box> viaSwitch = new LinkedHashMap<>();
            for (int i = 0; i < pcieGroups.size(); i++) {
                for (Gpu g : pcieGroups.get(i)) {
                    viaSwitch.put(g, pcieBoxes.get(i));
                }
            }
            for (Gpu g : ordered) {
                Box gb = gpuBoxes.get(g);
                Box target = viaSwitch.containsKey(g) ? viaSwitch.get(g) : cpus.get(gpuCpu.get(g));
                if (target == null) {
                    continue;
                }
                boolean c2c = target.kind == NodeKind.CPU && FabricQueries.c2cToHost(s, g);
                List<Detail> d = FabricBoxes.hostPathDetails(g, labels.get(g.pci().toString()), target.title, c2c);
                ElkEdge e = edge(gb, target);
                connections.add(new Connection("host:" + g.pci(), c2c ? EdgeKind.C2C : EdgeKind.PCIE, gb.id, target.id, 0, 0,
                        c2c ? "C2C" : "", d, List.of(new Leg(e, false)), c2c ? label(e, "C2C") : null, null));
            }
        }

        void pcieUplinks() {
            for (int i = 0; i < pcieBoxes.size(); i++) {
                Box pb = pcieBoxes.get(i);
                Box cpu = cpus.get(gpuCpu.get(pcieGroups.get(i).get(0)));
                if (cpu == null) {
                    continue;
                }
                List<Detail> d = List.of(new Detail("Connection", pb.title + " → " + cpu.title + " (PCIe)"));
                connections.add(new Connection("host:switch" + i, EdgeKind.PCIE, pb.id, cpu.id, 0, 0, "", d,
                        List.of(new Leg(edge(pb, cpu), false)), null, null));
            }
        }

        /** Each NIC under the PCIe switch it shares with a GPU, else on its CPU's root port. */
        void nicLinks() {
            for (Map.Entry<Nic, Box> e : nicBoxes.entrySet()) {
                Nic n = e.getKey();
                Box nb = e.getValue();
                Gpu peer = nicPeer.get(n);
                List<Detail> d = new ArrayList<>();
                if (peer != null) {
                    Box parent = pcieBoxes.get(pcieGroups.indexOf(groupOf(peer)));
                    d.add(new Detail("Connection", n.name() + " → " + parent.title + " shared with "
                            + labels.get(peer.pci().toString()) + " (" + PcieTopology.gpuToNic(s, peer, n).orElse("?") + ")"));
                    d.add(new Detail("NIC PCI address", n.address().display()));
                    d.add(new Detail("Link", NodeDetails.nicLinks(n)));
                    connections.add(new Connection("nic-pcie:" + n.name(), EdgeKind.PCIE, parent.id, nb.id, 0, 0, "", d,
                            List.of(new Leg(edge(parent, nb), false)), null, null));
                    continue;
                }
                Box.CpuKey key = n.numaNode().isPresent() && cpus.containsKey(new Box.CpuKey(n.numaNode().value()))
                        ? new Box.CpuKey(n.numaNode().value()) : cpus.containsKey(new Box.CpuKey(null)) ? new Box.CpuKey(null)
                        : cpus.keySet().stream().findFirst().orElse(null);
                Box parent = key == null ? null : cpus.get(key);
                if (parent == null) {
                    continue;
                }
                d.add(new Detail("Connection", n.name() + " → " + parent.title + " (PCIe root port)"));
                d.add(new Detail("NIC PCI address", n.address().display()));
                d.add(new Detail("Link", NodeDetails.nicLinks(n)));
                connections.add(new Connection("nic-pcie:" + n.name(), EdgeKind.PCIE, nb.id, parent.id, 0, 0, "", d,
                        List.of(new Leg(edge(nb, parent), false)), null, null));
            }
        }

        /** The SMP interconnect between neighbouring CPU/NUMA nodes, through a hidden node below them; labelled once. */
        void cpuLinks() {
            List<Box> list = new ArrayList<>(cpus.values());
            for (int i = 0; i + 1 < list.size(); i++) {
                Box a = list.get(i);
                Box b = list.get(i + 1);
                String text = i == (list.size() - 2) / 2 ? "SMP interconnect" : "";
                ElkNode via = hidden("smp:" + i, text, 6);
                List<Detail> d = List.of(new Detail("Connection", a.title + " ↔ " + b.title),
                        new Detail("Path", "SMP interconnect between NUMA nodes (QPI/UPI, Infinity Fabric…): GPU pairs across it are SYS"));
                connections.add(new Connection("cpulink:" + i, EdgeKind.CPU_LINK, a.id, b.id, 0, 0, text, d,
                        List.of(new Leg(edge(elk.get(a), via), false), new Leg(edge(elk.get(b), via), true)), null,
                        text.isEmpty() ? null : via));
            }
        }

        private Gpu gpu(String pci) {
            return s.gpus().stream().filter(g -> g.pci().toString().equals(pci)).findFirst().orElseThrow();
        }

        /** The laid-out ELK graph as a {@link FabricGraph}: caption and notes on top, the legend under it. */
        FabricGraph read() {
            String caption = FabricBoxes.caption(s);
            List<String> notes = FabricBoxes.notes(s);
            double left = FabricLayout.MARGIN + 12;
            double contentWidth = left + root.getWidth() + FabricLayout.MARGIN + 12;
            double textWidth = Math.max(caption.length() * 8.4, notes.stream().mapToDouble(n -> n.length() * FabricLayout.CHAR_W).max().orElse(0));
            double width = Math.max(Math.max(FabricLayout.MIN_WIDTH, contentWidth), Math.min(textWidth + 2 * FabricLayout.MARGIN, 1180));
            List<String> wrapped = wrap(notes, (int) ((width - 2 * FabricLayout.MARGIN) / FabricLayout.CHAR_W));
            boolean groups = !tallBy.isEmpty();
            double top = FabricLayout.MARGIN + FabricLayout.CAPTION_H + wrapped.size() * FabricLayout.NOTE_H + 10 + (groups ? 14 : 0);
            left += Math.max(0, (width - contentWidth) / 2);
            for (Box b : all) {
                ElkNode n = elk.get(b);
                b.x = left + n.getX();
                b.y = top + n.getY();
            }
            List<Edge> edges = new ArrayList<>();
            for (Connection c : connections) {
                edges.addAll(edges(c, left, top));
            }
            List<Node> nodes = new ArrayList<>();
            for (Box b : all) {
                nodes.add(new Node(b.id, b.kind, b.title, b.subtitle, b.caption, b.x, b.y, b.w, b.h, b.warning, b.details));
            }
            double bottom = top + root.getHeight();
            double legendY = bottom + 24;
            boolean c2c = connections.stream().anyMatch(c -> c.kind == EdgeKind.C2C);
            List<FabricGraph.LegendEntry> legend = legend(width, legendY, c2c);
            double rows = legend.isEmpty() ? 1 : (legend.get(legend.size() - 1).y() - (legendY + 12)) / FabricLayout.LEGEND_ROW + 1;
            double height = legendY + FabricLayout.LEGEND_H + (rows - 1) * FabricLayout.LEGEND_ROW + FabricLayout.MARGIN / 2;
            return new FabricGraph(caption, nodes, edges, mnnvlGroups(), wrapped, width, height, legendY, legend);
        }

        /** A connection's route as straight edges of the graph, its label where ELK put it. */
        private List<Edge> edges(Connection c, double dx, double dy) {
            List<Point> pts = new ArrayList<>();
            for (Leg leg : c.legs) {
                List<Point> route = route(leg.edge(), dx, dy);
                if (leg.reversed()) {
                    Collections.reverse(route);
                }
                pts.addAll(route);
            }
            snapToDrawnBottom(pts, c.from, true);
            snapToDrawnBottom(pts, c.to, false);
            pts = simplify(pts);
            double lx;
            double ly;
            if (c.elkLabel != null) {
                lx = dx + c.elkLabel.getX() + c.elkLabel.getWidth() / 2;
                ly = dy + c.elkLabel.getY() + c.elkLabel.getHeight() / 2;
            } else if (c.labelNode != null) {
                lx = dx + c.labelNode.getX() + c.labelNode.getWidth() / 2;
                ly = dy + c.labelNode.getY() + c.labelNode.getHeight() / 2;
            } else {
                lx = (pts.get(0).x + pts.get(pts.size() - 1).x) / 2;
                ly = (pts.get(0).y + pts.get(pts.size() - 1).y) / 2;
            }
            List<Edge> out = new ArrayList<>();
            for (int i = 0; i + 1 < pts.size(); i++) {
                Point a = pts.get(i);
                Point b = pts.get(i + 1);
                out.add(new Edge(i == 0 ? c.id : c.id + "#" + i, c.kind, c.from, c.to, c.links, c.gbps, i == 0 ? c.label : "",
                        a.x, a.y, (a.x + b.x) / 2, (a.y + b.y) / 2, b.x, b.y, i == 0 ? lx : (a.x + b.x) / 2,
                        i == 0 ? ly : (a.y + b.y) / 2, c.details));
            }
            return out;
        }

        private static List<Point> route(ElkEdge e, double dx, double dy) {
            List<Point> out = new ArrayList<>();
            ElkEdgeSection sec = e.getSections().get(0);
            out.add(new Point(dx + sec.getStartX(), dy + sec.getStartY()));
            for (ElkBendPoint bp : sec.getBendPoints()) {
                out.add(new Point(dx + bp.getX(), dy + bp.getY()));
            }
            out.add(new Point(dx + sec.getEndX(), dy + sec.getEndY()));
            return out;
        }

        /** A clique GPU is drawn at its own height: a route leaving its (taller) ELK box's bottom starts at the drawn bottom. */
        private void snapToDrawnBottom(List<Point> pts, String boxId, boolean first) {
            Box b = all.stream().filter(x -> x.id.equals(boxId)).findFirst().orElseThrow();
            double extra = tallBy.getOrDefault(b, 0.0);
            int i = first ? 0 : pts.size() - 1;
            Point p = pts.get(i);
            if (extra > 0 && Math.abs(p.y - (b.y + b.h + extra)) < 0.5) {
                pts.set(i, new Point(p.x, b.y + b.h));
            }
        }

        /** Drops repeated points and the middle one of three on a line. */
        private static List<Point> simplify(List<Point> pts) {
            List<Point> out = new ArrayList<>();
            for (Point p : pts) {
                if (!out.isEmpty() && Math.abs(out.get(out.size() - 1).x - p.x) < 0.01 && Math.abs(out.get(out.size() - 1).y - p.y) < 0.01) {
                    continue;
                }
                if (out.size() >= 2) {
                    Point a = out.get(out.size() - 2);
                    Point b = out.get(out.size() - 1);
                    boolean vertical = Math.abs(a.x - b.x) < 0.01 && Math.abs(b.x - p.x) < 0.01;
                    boolean horizontal = Math.abs(a.y - b.y) < 0.01 && Math.abs(b.y - p.y) < 0.01;
                    if (vertical || horizontal) {
                        out.set(out.size() - 1, p);
                        continue;
                    }
                }
                out.add(p);
            }
            return out;
        }

        /** One MNNVL box per run of GPUs of one clique, left to right as ELK placed them. */
        private List<Group> mnnvlGroups() {
            List<Gpu> byX = new ArrayList<>(ordered);
            byX.sort(Comparator.comparingDouble(g -> gpuBoxes.get(g).x));
            List<Group> out = new ArrayList<>();
            int i = 0;
            while (i < byX.size()) {
                Gpu g = byX.get(i);
                if (!g.fabric().inMnnvlDomain()) {
                    i++;
                    continue;
                }
                String key = g.fabric().clusterUuid().value() + "/" + g.fabric().cliqueId().value();
                int j = i;
                while (j + 1 < byX.size() && byX.get(j + 1).fabric().inMnnvlDomain()
                        && key.equals(byX.get(j + 1).fabric().clusterUuid().value() + "/" + byX.get(j + 1).fabric().cliqueId().value())) {
                    j++;
                }
                Box first = gpuBoxes.get(g);
                Box last = gpuBoxes.get(byX.get(j));
                double top = byX.subList(i, j + 1).stream().mapToDouble(x -> gpuBoxes.get(x).y).min().orElse(first.y);
                out.add(new Group("mnnvl:" + out.size(), FabricBoxes.mnnvlTitle(g), first.x - 12, top - 12,
                        last.x + last.w + 12 - (first.x - 12), first.h + 12 + GROUP_STRIP, FabricBoxes.mnnvlDetails(byX.subList(i, j + 1), labels)));
                i = j + 1;
            }
            return out;
        }

        /** The legend as the hand placement writes it: left to right, a new row where the next entry would pass the width. */
        private List<FabricGraph.LegendEntry> legend(double width, double legendY, boolean c2c) {
            List<FabricGraph.LegendEntry> out = new ArrayList<>();
            double x = FabricLayout.MARGIN;
            double y = legendY + 12;
            for (var entry : FabricBoxes.legend(bundles, c2c).entrySet()) {
                double w = FabricLayout.legendWidth(entry.getValue());
                if (x > FabricLayout.MARGIN && x + w - 22 > width - FabricLayout.MARGIN) {
                    x = FabricLayout.MARGIN;
                    y += FabricLayout.LEGEND_ROW;
                }
                out.add(new FabricGraph.LegendEntry(entry.getKey(), entry.getValue(), x, y));
                x += w;
            }
            return out;
        }

        private static List<String> wrap(List<String> lines, int maxChars) {
            List<String> out = new ArrayList<>();
            for (String line : lines) {
                String rest = line;
                while (rest.length() > maxChars) {
                    int cut = rest.lastIndexOf(' ', maxChars);
                    cut = cut <= maxChars / 2 ? maxChars : cut;
                    out.add(rest.substring(0, cut).strip());
                    rest = rest.substring(cut).strip();
                }
                out.add(rest);
            }
            return out;
        }
    }
}
