package dev.fabricscope.render.fabric;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Text widths in drawing pixels, measured with the font the drawing names first ({@link FabricSvg#FONT}: DejaVu Sans,
 * read from its TrueType file) through AWT, headless. Used by the ELK comparison to size boxes to their words and by
 * {@link DrawingMetrics} to find labels wider than their box. Where DejaVu Sans is not installed, AWT's logical
 * SansSerif stands in and {@link #font()} says so.
 */
final class TextMeasure {

    private static final String DIR = "/usr/share/fonts/truetype/dejavu/";
    private static final FontRenderContext FRC = new FontRenderContext(null, true, true);
    private static final Font REGULAR;
    private static final Font BOLD;
    private static final String NAME;
    private static final Map<String, Double> CACHE = new ConcurrentHashMap<>();

    static {
        System.setProperty("java.awt.headless", "true");
        Font regular;
        Font bold;
        String name;
        try {
            regular = Font.createFont(Font.TRUETYPE_FONT, new File(DIR + "DejaVuSans.ttf"));
            bold = Font.createFont(Font.TRUETYPE_FONT, new File(DIR + "DejaVuSans-Bold.ttf"));
            name = "DejaVu Sans (" + DIR + ")";
        } catch (Exception e) {
            regular = new Font(Font.SANS_SERIF, Font.PLAIN, 1);
            bold = new Font(Font.SANS_SERIF, Font.BOLD, 1);
            name = "AWT SansSerif (DejaVu Sans not found: " + e.getMessage() + ")";
        }
        REGULAR = regular;
        BOLD = bold;
        NAME = name;
    }

    private TextMeasure() {
    }

    /** The font the widths are measured in. */
    static String font() {
        return NAME;
    }

    /** Advance width of {@code text} at {@code size} px. */
    static double width(String text, double size, boolean bold) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return CACHE.computeIfAbsent((bold ? "b" : "r") + size + ":" + text,
                k -> (bold ? BOLD : REGULAR).deriveFont((float) size).getStringBounds(text, FRC).getWidth());
    }

    /** One line of text in a box, as the SVG writer and the app's canvas draw it. */
    record Line(String text, double size, boolean bold) {
        double width() {
            return TextMeasure.width(text, size, bold);
        }
    }

    /** The lines a box of this kind shows, in the font sizes {@link FabricSvg} and the canvas use for it. */
    static List<Line> lines(FabricGraph.NodeKind kind, String title, String subtitle, String caption) {
        List<Line> out = new ArrayList<>();
        switch (kind) {
            case GPU -> {
                out.add(new Line(title, FabricFonts.GPU_TITLE, true));
                out.add(new Line(subtitle, FabricFonts.GPU_SUBTITLE, false));
                for (String c : caption.split("\n", 2)) {
                    out.add(new Line(c, FabricFonts.GPU_CAPTION, false));
                }
            }
            case NVSWITCH, CPU -> {
                out.add(new Line(title, FabricFonts.BOX_TITLE, true));
                out.add(new Line(subtitle, FabricFonts.BOX_SUBTITLE, false));
            }
            case PCIE_SWITCH -> out.add(new Line(title, FabricFonts.PCIE_SWITCH, false));
            case NIC -> {
                out.add(new Line(title, FabricFonts.NIC_TITLE, true));
                out.add(new Line(subtitle, FabricFonts.NIC_LINE, false));
                out.add(new Line(caption, FabricFonts.NIC_LINE, false));
            }
        }
        out.removeIf(l -> l.text() == null || l.text().isEmpty());
        return out;
    }

    /** The widest of a box's lines. */
    static double widest(FabricGraph.NodeKind kind, String title, String subtitle, String caption) {
        return lines(kind, title, subtitle, caption).stream().mapToDouble(Line::width).max().orElse(0);
    }
}
