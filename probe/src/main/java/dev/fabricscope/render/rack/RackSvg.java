package dev.fabricscope.render.rack;

import dev.fabricscope.render.fabric.FabricSvg;
import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Line;
import dev.fabricscope.render.rack.RackScene.Shape;
import dev.fabricscope.render.rack.RackScene.Text;
import java.util.Locale;

/** The cluster drawing ({@link RackScene}) as a standalone SVG document; every text from a file is escaped. */
public final class RackSvg {

    private RackSvg() {
    }

    /** A whole SVG file: XML prolog and the {@code <svg>} element. */
    public static String render(RackScene s) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element(s);
    }

    /** The {@code <svg>} element alone, to embed in an HTML page. */
    public static String element(RackScene s) {
        StringBuilder sb = new StringBuilder(64 * s.shapes().size() + 512);
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\""
                + " viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" class=\"fabricscope-cluster\">\n",
                s.width(), s.height(), s.width(), s.height(), FabricSvg.FONT));
        sb.append(String.format(Locale.ROOT, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"%s\"/>\n", s.width(), s.height(),
                s.background()));
        for (Shape shape : s.shapes()) {
            if (shape instanceof Box b) {
                box(sb, b);
            } else if (shape instanceof Line l) {
                sb.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
                                + " stroke=\"%s\" stroke-width=\"%.1f\"%s/>\n", l.role(), l.x1(), l.y1(), l.x2(), l.y2(),
                        l.colour(), l.width(), l.dashed() ? " stroke-dasharray=\"5 3\"" : ""));
            } else if (shape instanceof Text t) {
                sb.append(String.format(Locale.ROOT, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"%s"
                                + " fill=\"%s\" text-anchor=\"%s\">", t.role(), t.x(), t.y(), t.size(),
                        t.bold() ? " font-weight=\"bold\"" : "", t.colour(), anchor(t.anchor())))
                        .append(esc(t.text())).append("</text>\n");
            }
        }
        return sb.append("</svg>\n").toString();
    }

    private static void box(StringBuilder sb, Box b) {
        sb.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                        + " rx=\"%.1f\" %s stroke=\"%s\" stroke-width=\"%.1f\"%s", b.role(), b.x(), b.y(), b.w(), b.h(),
                b.radius(), fill(b.fill()), b.stroke() == null ? "none" : b.stroke(), b.strokeWidth(),
                b.dashed() ? " stroke-dasharray=\"5 3\"" : ""));
        if (b.tooltip() == null) {
            sb.append("/>\n");
        } else {
            sb.append("><title>").append(esc(b.tooltip())).append("</title></rect>\n");
        }
    }

    /** {@code #rrggbbaa} as SVG 1.1 viewers understand it: the colour and a fill-opacity. */
    private static String fill(String colour) {
        if (colour != null && colour.length() == 9 && colour.startsWith("#")) {
            double alpha = Integer.parseInt(colour.substring(7), 16) / 255.0;
            return String.format(Locale.ROOT, "fill=\"%s\" fill-opacity=\"%.3f\"", colour.substring(0, 7), alpha);
        }
        return "fill=\"" + (colour == null ? "none" : colour) + "\"";
    }

    private static String anchor(RackScene.Anchor a) {
        return switch (a) {
            case START -> "start";
            case MIDDLE -> "middle";
            case END -> "end";
        };
    }

    /** Markup escaped; control characters (already shown as escapes by the model) never reach the file. */
    static String esc(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append(c < 0x20 || (c >= 0x7f && c < 0xa0) ? ' ' : c);
            }
        }
        return out.toString();
    }
}
