package dev.fabricscope.render.fabric;

import java.util.List;
import java.util.Optional;

/**
 * A machine's fabric laid out for drawing: GPUs, NVSwitches, inferred PCIe switches and CPU/NUMA nodes with
 * positions, NVLink / PCIe / CPU-interconnect edges with their geometry and labels, MNNVL groups, and notes about
 * what could not be read. Coordinates are in pixels, origin top-left. Immutable and toolkit-free: the desktop app
 * draws it with JavaFX shapes and {@link FabricSvg} writes it as SVG. Built by {@link FabricLayout}.
 *
 * @param caption one line naming the machine
 * @param nodes   every box
 * @param edges   every connection
 * @param groups  MNNVL clique boxes drawn around GPUs
 * @param notes   what the drawing cannot show and why (e.g. NVLink state hidden in a VM)
 * @param width   drawing width
 * @param height  drawing height
 * @param legendY top of the legend strip
 * @param legend  the legend's entries, left to right
 */
public record FabricGraph(String caption, List<Node> nodes, List<Edge> edges, List<Group> groups, List<String> notes,
                          double width, double height, double legendY, List<LegendEntry> legend) {

    public FabricGraph {
        legend = List.copyOf(legend);
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        groups = List.copyOf(groups);
        notes = List.copyOf(notes);
    }

    public enum NodeKind {
        GPU, NVSWITCH, PCIE_SWITCH, CPU,
        /** An RDMA adapter ({@code nvidia-smi topo -m}'s NIC columns), under its PCIe switch or on its CPU. */
        NIC
    }

    public enum EdgeKind {
        /** NVLinks between two GPUs or a GPU and an NVSwitch. */
        NVLINK,
        /** The PCIe path from a GPU towards its CPU (through an inferred PCIe switch where GPUs share one). */
        PCIE,
        /** The SMP interconnect between CPU sockets / NUMA nodes (what {@code SYS} traverses). */
        CPU_LINK,
        /** NVLink-C2C between a GPU and its Grace CPU (a superchip), in place of the PCIe path. */
        C2C
    }

    /** What a legend entry shows: a line in an edge kind's style, or the MNNVL clique box. */
    public enum Swatch {
        NVLINK, C2C, PCIE, CPU_LINK, MNNVL
    }

    /**
     * One entry of the legend: its swatch and its words (for NVLink, what a label means, from this machine's links).
     *
     * @param x left of the swatch
     * @param y the swatch's middle line; the text's baseline is 4 px below it, starting at {@code x + 32}
     */
    public record LegendEntry(Swatch swatch, String text, double x, double y) {
    }

    /** One labelled fact for tooltips and the details pane. */
    public record Detail(String key, String value) {
    }

    /**
     * A box.
     *
     * @param id       stable id: {@code gpu:0000:18:00.0}, {@code nvswitch:NVS0}, {@code pcie:0}, {@code cpu:0}, {@code nic:mlx5_0}
     * @param title    first line (e.g. {@code GPU0})
     * @param subtitle second line (e.g. the GPU's short name)
     * @param caption  third, small line (e.g. the PCI address), or empty
     * @param x        left
     * @param y        top
     * @param warning  the machine's findings flag this node
     * @param details  everything known about it, in display order
     */
    public record Node(String id, NodeKind kind, String title, String subtitle, String caption, double x, double y,
                       double width, double height, boolean warning, List<Detail> details) {
        public Node {
            details = List.copyOf(details);
        }

        public double centerX() {
            return x + width / 2;
        }

        public double centerY() {
            return y + height / 2;
        }

        public double bottom() {
            return y + height;
        }

        /** First line of a tooltip: title and subtitle. */
        public String headline() {
            return subtitle.isEmpty() ? title : title + " · " + subtitle;
        }
    }

    /**
     * A connection drawn as a quadratic curve from (x1,y1) through control point (cx,cy) to (x2,y2); a straight
     * line when the control point is the midpoint.
     *
     * @param links            NVLink count (0 for PCIe and CPU links)
     * @param gbpsPerDirection nominal bandwidth per direction over all its links, GB/s (0 when unknown or not NVLink)
     * @param label            short text drawn on the edge, or empty
     * @param labelX           centre of the label
     * @param labelY           centre of the label
     */
    public record Edge(String id, EdgeKind kind, String from, String to, int links, double gbpsPerDirection,
                       String label, double x1, double y1, double cx, double cy, double x2, double y2,
                       double labelX, double labelY, List<Detail> details) {
        public Edge {
            details = List.copyOf(details);
        }

        /** Stroke width: grows with the link count. */
        public double strokeWidth() {
            return switch (kind) {
                case NVLINK -> Math.min(5.5, 1.2 + links * 0.24);
                case PCIE -> 1.4;
                case CPU_LINK -> 2.0;
                case C2C -> 3.0;
            };
        }

        public boolean straight() {
            return Math.abs(cx - (x1 + x2) / 2) < 0.01 && Math.abs(cy - (y1 + y2) / 2) < 0.01;
        }

        /** First line of a tooltip. */
        public String headline() {
            return details.isEmpty() ? label : details.get(0).value();
        }
    }

    /** A dashed box around GPUs that share an MNNVL clique in one cluster. */
    public record Group(String id, String title, double x, double y, double width, double height,
                        List<Detail> details) {
        public Group {
            details = List.copyOf(details);
        }
    }

    public Optional<Node> node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    public Optional<Edge> edge(String id) {
        return edges.stream().filter(e -> e.id().equals(id)).findFirst();
    }

    public List<Node> nodes(NodeKind kind) {
        return nodes.stream().filter(n -> n.kind() == kind).toList();
    }

    public List<Edge> edges(EdgeKind kind) {
        return edges.stream().filter(e -> e.kind() == kind).toList();
    }

    /** Edges touching a node. */
    public List<Edge> edgesOf(String nodeId) {
        return edges.stream().filter(e -> e.from().equals(nodeId) || e.to().equals(nodeId)).toList();
    }
}
