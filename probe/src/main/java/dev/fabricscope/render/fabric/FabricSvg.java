package dev.fabricscope.render.fabric;

import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Group;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes a {@link FabricGraph} as a self-contained SVG document (no scripts, no external resources). Hovering an
 * element in a browser shows its details through SVG {@code <title>} elements. Used by the desktop app's export
 * and by reports.
 */
public final class FabricSvg {

    /** Font stack used by both the SVG and the desktop app. */
    public static final String FONT = "DejaVu Sans, Segoe UI, Helvetica, Arial, sans-serif";

    private FabricSvg() {
    }

    public static String render(FabricGraph g, FabricPalette p) {
        StringBuilder sb = new StringBuilder(16_384);
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\">\n",
                g.width(), g.height(), g.width(), g.height(), FONT));
        sb.append("<title>").append(esc(g.caption())).append("</title>\n");
        rect(sb, 0, 0, g.width(), g.height(), 0, p.background(), "none", 0, null);
        text(sb, FabricLayout.MARGIN, FabricLayout.MARGIN + 6, g.caption(), FabricFonts.CAPTION, "bold", p.text(), "start");
        double ny = FabricLayout.MARGIN + FabricLayout.CAPTION_H + 2;
        for (String note : g.notes()) {
            text(sb, FabricLayout.MARGIN, ny, note, FabricFonts.NOTE, "normal", p.note(), "start");
            ny += FabricLayout.NOTE_H;
        }
        for (Group gr : g.groups()) {
            sb.append("<g class=\"group\">");
            tooltip(sb, gr.title(), gr.details());
            rect(sb, gr.x(), gr.y(), gr.width(), gr.height(), 10, p.groupFill(), p.groupStroke(), 1.4, "6 4");
            double tw = gr.title().length() * 6.9 + 14;
            rect(sb, gr.x() + 8, gr.y() + gr.height() - 23, tw, 17, 8.5, p.background(), p.groupStroke(), 1, null);
            text(sb, gr.x() + 15, gr.y() + gr.height() - 10.5, gr.title(), FabricFonts.GROUP_TITLE, "bold", p.groupStroke(), "start");
            sb.append("</g>\n");
        }
        for (Edge e : g.edges()) {
            sb.append("<g class=\"edge ").append(e.kind().name().toLowerCase(Locale.ROOT)).append("\">");
            tooltip(sb, e.headline(), e.details());
            String stroke = switch (e.kind()) {
                case NVLINK -> p.nvlink();
                case PCIE -> p.pcie();
                case CPU_LINK -> p.cpuLink();
                case C2C -> p.c2c();
            };
            String dash = switch (e.kind()) {
                case NVLINK -> null;
                case PCIE -> "6 4";
                case CPU_LINK -> "2 3";
                case C2C -> null;
            };
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s stroke-linecap=\"round\"/>",
                    path(e), stroke, e.strokeWidth(), dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
            sb.append("</g>\n");
        }
        for (Edge e : g.edges()) {
            if (!e.label().isEmpty()) {
                labelPill(sb, e.labelX(), e.labelY(), e.label(), e.kind() == EdgeKind.NVLINK ? p.nvlink() : e.kind() == EdgeKind.C2C ? p.c2c() : p.muted(), p);
            }
        }
        for (Node n : g.nodes()) {
            node(sb, n, p);
        }
        legend(sb, g, p);
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** SVG path data of an edge: a line, or a quadratic curve. */
    public static String path(Edge e) {
        return e.straight()
                ? String.format(Locale.ROOT, "M%.1f %.1f L%.1f %.1f", e.x1(), e.y1(), e.x2(), e.y2())
                : String.format(Locale.ROOT, "M%.1f %.1f Q%.1f %.1f %.1f %.1f", e.x1(), e.y1(), e.cx(), e.cy(), e.x2(), e.y2());
    }

    /** Estimated width of a label pill at the edge-label font size. */
    public static double labelWidth(String label) {
        return FabricLayout.labelWidth(label);
    }

    private static void node(StringBuilder sb, Node n, FabricPalette p) {
        String[] colours = switch (n.kind()) {
            case GPU -> new String[] {p.gpuFill(), p.gpuStroke()};
            case NVSWITCH -> new String[] {p.switchFill(), p.switchStroke()};
            case PCIE_SWITCH -> new String[] {p.pcieSwitchFill(), p.pcieSwitchStroke()};
            case CPU -> new String[] {p.cpuFill(), p.cpuStroke()};
            case NIC -> new String[] {p.nicFill(), p.nicStroke()};
        };
        String stroke = n.warning() ? p.warnStroke() : colours[1];
        sb.append("<g class=\"node ").append(n.kind().name().toLowerCase(Locale.ROOT)).append("\">");
        tooltip(sb, n.headline(), n.details());
        rect(sb, n.x(), n.y(), n.width(), n.height(), 7, colours[0], stroke, n.warning() ? 2.2 : 1.5, null);
        double cx = n.centerX();
        switch (n.kind()) {
            case GPU -> {
                text(sb, cx, n.y() + 19, n.title(), FabricFonts.GPU_TITLE, "bold", p.text(), "middle");
                text(sb, cx, n.y() + 36, n.subtitle(), FabricFonts.GPU_SUBTITLE, "normal", p.text(), "middle");
                String[] cap = n.caption().split("\n", 2);
                text(sb, cx, n.y() + 52, cap[0], FabricFonts.GPU_CAPTION, "normal", p.muted(), "middle");
                if (cap.length > 1) {
                    text(sb, cx, n.y() + 66, cap[1], FabricFonts.GPU_CAPTION, "normal", cap[1].contains("NVLink") && !cap[1].contains("unknown") ? p.nvlink() : p.muted(), "middle");
                }
                if (n.warning()) {
                    warnBadge(sb, n.x() + n.width() - 12, n.y() + 12, p);
                }
            }
            case NVSWITCH, CPU -> {
                text(sb, cx, n.y() + 19, n.title(), FabricFonts.BOX_TITLE, "bold", p.text(), "middle");
                text(sb, cx, n.y() + 35, n.subtitle(), FabricFonts.BOX_SUBTITLE, "normal", p.muted(), "middle");
            }
            case PCIE_SWITCH -> text(sb, cx, n.y() + 19, n.title(), FabricFonts.PCIE_SWITCH, "normal", p.muted(), "middle");
            case NIC -> {
                text(sb, cx, n.y() + 15, n.title(), FabricFonts.NIC_TITLE, "bold", p.text(), "middle");
                text(sb, cx, n.y() + 28, n.subtitle(), FabricFonts.NIC_LINE, "normal", p.text(), "middle");
                text(sb, cx, n.y() + 40, n.caption(), FabricFonts.NIC_LINE, "normal", n.warning() ? p.warnStroke() : p.muted(), "middle");
            }
        }
        sb.append("</g>\n");
    }

    private static void warnBadge(StringBuilder sb, double x, double y, FabricPalette p) {
        sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"%s\"/>", x, y, p.warnStroke()));
        text(sb, x, y + 4, "!", 11, "bold", "#ffffff", "middle");
    }

    private static void labelPill(StringBuilder sb, double cx, double cy, String label, String colour, FabricPalette p) {
        double w = labelWidth(label);
        rect(sb, cx - w / 2, cy - 8, w, 16, 8, p.labelFill(), p.labelStroke(), 1, null);
        text(sb, cx, cy + 3.6, label, FabricFonts.EDGE_LABEL, "bold", colour, "middle");
        sb.append('\n');
    }

    private static void legend(StringBuilder sb, FabricGraph g, FabricPalette p) {
        sb.append("<g class=\"legend\">");
        for (FabricGraph.LegendEntry e : g.legend()) {
            double x = e.x();
            double y = e.y();
            switch (e.swatch()) {
                case NVLINK -> legendLine(sb, x, y, p.nvlink(), 3.5, null);
                case C2C -> legendLine(sb, x, y, p.c2c(), 3.0, null);
                case PCIE -> legendLine(sb, x, y, p.pcie(), 1.4, "6 4");
                case CPU_LINK -> legendLine(sb, x, y, p.cpuLink(), 2, "2 3");
                case MNNVL -> rect(sb, x + 2, y - 6, 22, 12, 3, p.groupFill(), p.groupStroke(), 1.2, "4 3");
            }
            text(sb, x + 32, y + 4, e.text(), FabricFonts.LEGEND, "normal", p.muted(), "start");
        }
        sb.append("</g>\n");
    }

    private static void legendLine(StringBuilder sb, double x, double y, String colour, double width, String dash) {
        sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>",
                x, y, x + 26, y, colour, width, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    private static void tooltip(StringBuilder sb, String headline, List<Detail> details) {
        sb.append("<title>").append(esc(headline));
        if (!details.isEmpty()) {
            sb.append('\n').append(esc(details.stream().map(d -> d.key() + ": " + d.value()).collect(Collectors.joining("\n"))));
        }
        sb.append("</title>");
    }

    private static void rect(StringBuilder sb, double x, double y, double w, double h, double r, String fill,
                             String stroke, double strokeWidth, String dash) {
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" %s stroke=\"%s\" stroke-width=\"%.1f\"%s/>",
                x, y, w, h, r, fill(fill), stroke, strokeWidth, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    /** {@code #rrggbbaa} → fill + fill-opacity, which every SVG viewer understands. */
    private static String fill(String colour) {
        if (colour.length() == 9 && colour.startsWith("#")) {
            double alpha = Integer.parseInt(colour.substring(7), 16) / 255.0;
            return String.format(Locale.ROOT, "fill=\"%s\" fill-opacity=\"%.3f\"", colour.substring(0, 7), alpha);
        }
        return "fill=\"" + colour + "\"";
    }

    private static void text(StringBuilder sb, double x, double y, String text, double size, String weight,
                             String colour, String anchor) {
        if (text == null || text.isEmpty()) {
            return;
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-weight=\"%s\" fill=\"%s\" text-anchor=\"%s\">",
                x, y, size, weight, colour, anchor)).append(esc(text)).append("</text>");
    }

    static String esc(String raw) {
        String s = dev.fabricscope.text.Escape.visible(raw, false);
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        out.append(' ');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
