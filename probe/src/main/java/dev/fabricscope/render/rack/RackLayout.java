package dev.fabricscope.render.rack;

import dev.fabricscope.text.Words;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.rack.RackModel.Domain;
import dev.fabricscope.render.rack.RackModel.Outside;
import dev.fabricscope.render.rack.RackModel.SwitchPlane;
import dev.fabricscope.render.rack.RackModel.Tray;
import dev.fabricscope.render.rack.RackScene.Anchor;
import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Line;
import dev.fabricscope.render.rack.RackScene.Panel;
import dev.fabricscope.render.rack.RackScene.Shape;
import dev.fabricscope.render.rack.RackScene.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays the cluster drawing out as rack elevations: each NVLink domain a panel of compute trays, one row each (name,
 * GPUs with their links up, the tray's bundle of links with count and rate), wired to the domain's switch plane on the
 * right; odd trays outlined in the warning colour with why. Panels side by side, several to a row; the nodes outside
 * any domain as a plain row of boxes under them. Linear in the tray count.
 */
public final class RackLayout {

    static final double MARGIN = 16;
    static final double GAP = 20;
    static final double PANEL_W = 820;
    static final double PAD = 14;
    static final double ROW_H = 30;
    static final double ODD_ROW_H = 46;
    static final double ROW_GAP = 4;
    static final double NAME_W = 150;
    static final double GPU_W = 66;
    static final double GPU_GAP = 4;
    static final double BUNDLE_W = 178;
    static final double WIRE_W = 40;
    static final double PLANE_W = 116;
    static final double OUTSIDE_W = 200;
    /** GPUs of a tray drawn one by one; the bundle counts them all. */
    static final int MAX_GPUS_DRAWN = 16;
    static final double OUTSIDE_H = 42;

    private final FabricPalette p;
    private final List<Shape> shapes = new ArrayList<>();
    private final List<Panel> panels = new ArrayList<>();

    private RackLayout(FabricPalette p) {
        this.p = p;
    }

    public static RackScene layout(RackModel m, FabricPalette p) {
        return new RackLayout(p).lay(m);
    }

    /** Panels to a row: all of up to three, else about the square root (8 racks: 3), at most 4. */
    static int columns(int panels) {
        return panels <= 3 ? Math.max(1, panels) : Math.min(4, (int) Math.ceil(Math.sqrt(panels)));
    }

    private RackScene lay(RackModel m) {
        int cols = columns(m.domains().size());
        // many nodes outside any domain get at least two panels' width, so that their row stays short
        int wide = m.outside().size() > 8 ? Math.max(cols, 2) : cols;
        double width = MARGIN * 2 + wide * PANEL_W + (wide - 1) * GAP;
        double y = MARGIN;
        String title = "Cluster " + name(m.directory()) + " · " + m.counts()
                + (m.outside().isEmpty() ? "" : " · " + Words.grouped(m.outside().size(), "node") + " outside any domain");
        for (String line : wrap(title, 16, true, width - 2 * MARGIN)) {
            text(MARGIN, y + 16, line, 16, true, p.text(), Anchor.START, "title");
            y += 21;
        }
        for (String line : wrap("Dashed: inferred from the links, not seen. Outlined in red: a tray whose links, fabric"
                + " state or health differ from its domain's, or that is in another clique (a partition of the domain) than"
                + " the domain's main clique.", 11, false, width - 2 * MARGIN)) {
            text(MARGIN, y + 12, line, 11, false, p.muted(), Anchor.START, "legend");
            y += 15;
        }
        y += 12;
        for (int row = 0; row * cols < m.domains().size(); row++) {
            double rowH = 0;
            for (int c = 0; c < cols && row * cols + c < m.domains().size(); c++) {
                int i = row * cols + c;
                rowH = Math.max(rowH, panel(m.domains().get(i), i + 1, MARGIN + c * (PANEL_W + GAP), y));
            }
            y += rowH + GAP;
        }
        if (!m.outside().isEmpty()) {
            y += outside(m.outside(), MARGIN, y, width - 2 * MARGIN) + GAP;
        }
        if (m.domains().isEmpty() && m.outside().isEmpty()) {
            text(MARGIN, y + 14, "No readable node report.", 12, false, p.muted(), Anchor.START, "empty");
            y += 30;
        }
        return new RackScene(width, y - GAP + MARGIN, p.background(), shapes, panels);
    }

    /** One domain's panel at ({@code x}, {@code y}); answers its height. */
    private double panel(Domain d, int number, double x, double y) {
        int frame = shapes.size();
        double inner = PANEL_W - 2 * PAD;
        double ty = y + PAD;
        text(x + PAD, ty + 14, fit(domainTitle(d, number), 14, true, inner), 14, true, p.text(), Anchor.START, "domain-title");
        text(x + PAD, ty + 32, fit(d.gfdLabel(), 12, false, inner), 12, false, p.text(), Anchor.START, "gfd-label");
        ty += 40;
        if (!d.otherCliques().isEmpty()) {
            boolean one = d.otherCliques().size() == 1;
            for (String line : wrap("Named by its main clique " + d.clique() + " (GFD's label above). "
                    + (one ? "Clique " : "Cliques ") + join(d.otherCliques()) + " (outlined) " + (one ? "is a partition" : "are partitions")
                    + " of the same domain: " + (one ? "its GPUs cannot reach the main clique's" : "their GPUs cannot reach the main"
                    + " clique's or each other's") + " over NVLink, so no job spans " + (one ? "both" : "two") + "; GFD labels " + (one ? "its" : "their")
                    + " trays with their own clique.", 11, false, inner)) {
                text(x + PAD, ty + 10, line, 11, false, p.warnStroke(), Anchor.START, "other-cliques");
                ty += 15;
            }
            ty += 1;
        }
        for (String line : wrap(planeLine(d), 11, inner)) {
            text(x + PAD, ty + 10, line, 11, false, p.muted(), Anchor.START, "plane-basis");
            ty += 15;
        }
        ty += 8;
        double rowsTop = ty;
        double planeX = x + PAD + inner - PLANE_W;
        double wireX = planeX - WIRE_W;
        for (Tray t : d.trays()) {
            ty += tray(t, d, x + PAD, ty, wireX, planeX) + ROW_GAP;
        }
        double rowsBottom = ty - ROW_GAP;
        plane(d.switches(), planeX, rowsTop, Math.max(rowsBottom - rowsTop, 60));
        ty = Math.max(rowsBottom, rowsTop + 60) + 10;
        if (!d.odd().isEmpty()) {
            text(x + PAD, ty + 12, "Odd trays (" + d.odd().size() + ")", 12, true, p.warnStroke(), Anchor.START, "odd-title");
            ty += 18;
            for (Tray t : d.odd()) {
                for (String line : wrap(t.name() + ": " + String.join("; ", t.odd()), 11, inner)) {
                    text(x + PAD, ty + 11, line, 11, false, p.text(), Anchor.START, "odd-reason");
                    ty += 15;
                }
            }
        }
        double h = ty + PAD - y;
        shapes.add(frame, new Box(x, y, PANEL_W, h, 8, p.groupFill(), p.groupStroke(), 1, false, "domain",
                d.gfdLabel()));
        panels.add(new Panel(d.gfdLabel(), x, y, PANEL_W, h));
        return h;
    }

    /** "NVLink domain 1 · 18 trays · 72 GPUs · 2 cliques · 2 odd trays". */
    static String domainTitle(Domain d, int number) {
        return "NVLink domain " + number + " · " + Words.grouped(d.trays().size(), "tray") + " · "
                + Words.grouped(d.gpus(), "GPU") + " · " + Words.grouped(d.cliques(), "clique")
                + (d.odd().isEmpty() ? "" : " · " + Words.grouped(d.odd().size(), "odd tray"));
    }

    private static String planeLine(Domain d) {
        SwitchPlane s = d.switches();
        String count = s.trays() < 0 ? "Switch plane: count unknown" : s.trays() == 0 ? "No switch plane"
                : s.chipsPerTray() > 0 ? "Switch plane: " + Words.grouped(s.trays(), "NVLink switch tray") + " of "
                + s.chipsPerTray() + " switch chips" : "Switch plane: " + Words.grouped(s.trays(), "NVSwitch");
        return count + " — " + s.basis() + ". Links per tray: " + d.links().label() + ".";
    }

    /** One tray's row; answers its height. */
    private double tray(Tray t, Domain d, double x, double y, double wireX, double planeX) {
        boolean odd = t.isOdd();
        double h = odd ? ODD_ROW_H : ROW_H;
        double w = wireX - x;
        shapes.add(new Box(x, y, w, h, 4, p.labelFill(), odd ? p.warnStroke() : p.labelStroke(), odd ? 2 : 1, false,
                odd ? "odd-tray" : "tray", t.name() + (odd ? ": " + String.join("; ", t.odd()) : "")
                + (t.note() == null ? "" : " (" + t.note() + ")")));
        text(x + 8, y + 19, fit(t.name(), 12, true, NAME_W - 12), 12, true, p.text(), Anchor.START, "tray-name");
        // four GPUs a tray (GB200) get their name and links up; more share the same room, with links up only
        List<TrayLinks> drawn = t.gpus().subList(0, Math.min(t.gpus().size(), MAX_GPUS_DRAWN));
        int n = Math.max(1, drawn.size());
        boolean narrow = n > 4;
        double gw = narrow ? (4 * (GPU_W + GPU_GAP) - n * GPU_GAP) / n : GPU_W;
        double gx = x + NAME_W;
        for (TrayLinks g : drawn) {
            boolean down = g.down() > 0;
            shapes.add(new Box(gx, y + 5, gw, 20, 3, p.gpuFill(), down ? p.warnStroke() : p.gpuStroke(),
                    down ? 2 : 1, false, "gpu", "GPU" + g.gpu() + ": " + g.up() + (g.links() < 0 ? "" : " of " + g.links())
                    + " links up" + (g.gbps() == null ? "" : ", " + RackModel.number(g.gbps()) + " GB/s each")));
            String count = g.links() < 0 ? String.valueOf(g.up()) : g.up() + "/" + g.links();
            if (gw < 20) {
                gx += gw + GPU_GAP;
                continue;
            }
            double size = narrow ? 9 : 10;
            text(gx + gw / 2, y + 19, fit(narrow ? count : "GPU" + g.gpu() + " " + count, size, false, gw - 2), size, false,
                    p.text(), Anchor.MIDDLE, "gpu-label");
            gx += gw + GPU_GAP;
        }
        double bx = x + NAME_W + 4 * (GPU_W + GPU_GAP) + 4;
        RackModel.Bundle b = t.bundle();
        boolean linksOdd = b.up() != d.links().up() || b.links() > b.up();
        text(bx, y + 19, fit(b.label(), 11, false, wireX - bx - 6), 11, false, linksOdd ? p.warnStroke() : p.text(),
                Anchor.START, "bundle-label");
        if (odd) {
            text(x + 8, y + 38, fit("(!) " + String.join("; ", t.odd().stream().map(RackLayout::headline).toList()), 10,
                    false, w - 16), 10, false, p.warnStroke(),
                    Anchor.START, "odd-line");
        }
        double share = b.links() > 0 ? (double) b.up() / b.links() : 1;
        double wy = y + 15;
        if (b.up() > 0) {
            shapes.add(new Line(wireX, wy, planeX, wy, linksOdd ? p.warnStroke() : p.nvlink(), 1.5 + 3.5 * share,
                    false, "bundle"));
        }
        return h;
    }

    private void plane(SwitchPlane s, double x, double y, double h) {
        shapes.add(new Box(x, y, PLANE_W, h, 6, p.switchFill(), p.switchStroke(), 1.5, s.inferred(), "switch-plane",
                s.basis()));
        text(x + PLANE_W / 2, y + 16, "switch plane", 11, true, p.text(), Anchor.MIDDLE, "plane-title");
        text(x + PLANE_W / 2, y + 30, s.inferred() ? "inferred" : "seen on PCI", 10, false, p.note(), Anchor.MIDDLE,
                "plane-inferred");
        int n = s.trays();
        double top = y + 40;
        double room = h - 40 - 6;
        if (n <= 0) {
            text(x + PLANE_W / 2, top + 18, n == 0 ? "none" : "count unknown", 10, false, p.muted(), Anchor.MIDDLE,
                    "plane-unknown");
            return;
        }
        double each = room / n;
        double boxH = Math.max(6, each - 4);
        for (int i = 0; i < n; i++) {
            double by = top + i * each;
            String name = s.chipsPerTray() > 0 ? "switch tray " + (i + 1) : "NVSwitch " + (i + 1);
            shapes.add(new Box(x + 8, by, PLANE_W - 16, boxH, 3, p.background(), p.switchStroke(), 1, s.inferred(),
                    "switch-tray", name + (s.chipsPerTray() > 0 ? ", " + s.chipsPerTray() + " switch chips" : "")
                    + (s.inferred() ? " (inferred)" : "")));
            if (boxH >= 13) {
                text(x + PLANE_W / 2, by + boxH / 2 + 4, fit(name, 10, false, PLANE_W - 20), 10, false, p.text(),
                        Anchor.MIDDLE, "switch-tray-name");
            }
        }
    }

    /** The nodes outside any multi-node domain as a row of boxes; answers its height. */
    private double outside(List<Outside> nodes, double x, double y, double w) {
        int frame = shapes.size();
        double ty = y + PAD;
        text(x + PAD, ty + 13, fit("Outside any multi-node NVLink domain · " + Words.grouped(nodes.size(), "node")
                + " (each node its own NVLink domain)", 13, true, w - 2 * PAD), 13, true, p.text(), Anchor.START,
                "outside-title");
        ty += 22;
        int perRow = Math.max(1, (int) ((w - 2 * PAD + 8) / (OUTSIDE_W + 8)));
        for (int i = 0; i < nodes.size(); i++) {
            Outside o = nodes.get(i);
            double bx = x + PAD + (i % perRow) * (OUTSIDE_W + 8);
            double by = ty + (i / perRow) * (OUTSIDE_H + 8);
            boolean odd = !"no multi-node NVLink fabric".equals(o.why());
            shapes.add(new Box(bx, by, OUTSIDE_W, OUTSIDE_H, 4, p.labelFill(), odd ? p.warnStroke() : p.labelStroke(),
                    odd ? 2 : 1, false, odd ? "odd-outside-node" : "outside-node", o.name() + ": " + o.gpus() + "; " + o.why()));
            text(bx + 8, by + 17, fit(o.name(), 12, true, OUTSIDE_W - 16), 12, true, p.text(), Anchor.START, "node-name");
            text(bx + 8, by + 33, fit((odd ? "(!) " : "") + o.gpus(), 10, false, OUTSIDE_W - 16), 10, false,
                    odd ? p.warnStroke() : p.muted(), Anchor.START, "node-gpus");
        }
        int rows = (nodes.size() + perRow - 1) / perRow;
        ty += rows * (OUTSIDE_H + 8);
        double h = ty + PAD - 8 - y;
        shapes.add(frame, new Box(x, y, w, h, 8, p.background(), p.labelStroke(), 1, false, "outside", null));
        panels.add(new Panel("outside", x, y, w, h));
        return h;
    }

    private void text(double x, double y, String text, double size, boolean bold, String colour, Anchor anchor, String role) {
        if (text != null && !text.isEmpty()) {
            shapes.add(new Text(x, y, text, size, bold, colour, anchor, role));
        }
    }

    /** {@code s} cut with an ellipsis to fit {@code width} px. */
    static String fit(String s, double size, boolean bold, double width) {
        if (s == null || RackScene.textWidth(s, size, bold) <= width) {
            return s;
        }
        int keep = Math.min(s.length(), Math.max(0, (int) Math.floor(width / (size * (bold ? 0.68 : 0.62))) - 1));
        if (keep > 0 && Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--; // never half a character
        }
        return s.substring(0, keep) + "…";
    }

    /** {@code s} broken at spaces into lines of at most {@code width} px; a word too long is cut. */
    static List<String> wrap(String s, double size, double width) {
        return wrap(s, size, false, width);
    }

    static List<String> wrap(String s, double size, boolean bold, double width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : s.split(" ")) {
            String next = line.length() == 0 ? word : line + " " + word;
            if (RackScene.textWidth(next, size, bold) <= width) {
                line.setLength(0);
                line.append(next);
            } else {
                if (line.length() > 0) {
                    out.add(line.toString());
                }
                line.setLength(0);
                line.append(fit(word, size, bold, width));
            }
        }
        if (line.length() > 0) {
            out.add(line.toString());
        }
        return out;
    }

    /** A reason up to its colon: "clique 32767, not the domain's main clique 32766" (the list under the trays has it whole). */
    static String headline(String reason) {
        int colon = reason.indexOf(": ");
        return colon < 0 ? reason : reason.substring(0, colon);
    }

    private static String join(List<Long> values) {
        return String.join(", ", values.stream().map(String::valueOf).toList());
    }

    private static String name(String directory) {
        String d = directory == null ? "?" : directory.replaceAll("[/\\\\]+$", "");
        int slash = Math.max(d.lastIndexOf('/'), d.lastIndexOf('\\'));
        return RackModel.tame(slash < 0 || slash == d.length() - 1 ? d : d.substring(slash + 1));
    }
}
