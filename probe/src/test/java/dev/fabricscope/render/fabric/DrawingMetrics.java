package dev.fabricscope.render.fabric;

import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.Group;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a laid-out {@link FabricGraph} looks like, counted from its geometry: size, link crossings, bends, edges
 * over boxes they do not join, edges drawn over each other, overlapping boxes and labels, and text wider than the box
 * or pill it is drawn in. A connection is an edge of the graph, or the chain of straight edges an orthogonal route is
 * made of ({@code id}, {@code id#1}, … as {@link ElkFabricLayout} writes them). Curves (the hand placement's arcs) are
 * followed as 16 straight pieces and count as curved, not as bends.
 *
 * @param crossings        points where two connections cross, away from the boxes either joins
 * @param bends            corners of the routes (orthogonal bends)
 * @param curved           connections drawn as curves
 * @param edgesOverBoxes   (connection, box) pairs where a connection runs over a box it does not join
 * @param edgeOverlaps     pairs of connections that run on top of each other for more than 3 px
 * @param boxOverlaps      pairs of boxes that overlap, and boxes outside the drawing
 * @param labelOverlaps    label pills over a box or another pill
 * @param labelsCut        lines of text wider than their box, pill, clique title or the drawing
 * @param problems         each of the above, in words
 */
record DrawingMetrics(double width, double height, int connections, int crossings, int bends, int curved,
                      int edgesOverBoxes, int edgeOverlaps, int boxOverlaps, int labelOverlaps, int labelsCut,
                      List<String> problems) {

    private static final int CURVE_STEPS = 16;
    /** Text this close to its box's border still fits (the box's stroke and rounding). */
    private static final double TEXT_SLACK = 2;

    private record P(double x, double y) {
    }

    private record Seg(P a, P b) {
    }

    private record Route(String id, String from, String to, List<Seg> segs, int bends, boolean curved) {
    }

    static DrawingMetrics of(FabricGraph g) {
        List<String> problems = new ArrayList<>();
        List<Route> routes = routes(g);
        Map<String, Node> nodes = new LinkedHashMap<>();
        g.nodes().forEach(n -> nodes.put(n.id(), n));

        int crossings = 0;
        int overlaps = 0;
        for (int i = 0; i < routes.size(); i++) {
            for (int j = i + 1; j < routes.size(); j++) {
                Route a = routes.get(i);
                Route b = routes.get(j);
                List<Node> ends = new ArrayList<>();
                for (String id : List.of(a.from, a.to, b.from, b.to)) {
                    if (nodes.containsKey(id)) {
                        ends.add(nodes.get(id));
                    }
                }
                int here = 0;
                boolean over = false;
                for (Seg s : a.segs) {
                    for (Seg t : b.segs) {
                        P x = crossing(s, t);
                        if (x != null && ends.stream().noneMatch(n -> inside(n, x, 1.5))) {
                            here++;
                        }
                        over |= collinearOverlap(s, t) > 3;
                    }
                }
                crossings += here;
                if (over) {
                    overlaps++;
                    problems.add("edges on top of each other: " + a.id + " and " + b.id);
                }
            }
        }

        int bends = routes.stream().mapToInt(Route::bends).sum();
        int curved = (int) routes.stream().filter(Route::curved).count();

        int overBoxes = 0;
        for (Route r : routes) {
            for (Node n : g.nodes()) {
                if (n.id().equals(r.from) || n.id().equals(r.to)) {
                    continue;
                }
                if (r.segs.stream().anyMatch(s -> hitsBox(s, n))) {
                    overBoxes++;
                    problems.add("edge " + r.id + " over " + n.id());
                }
            }
        }

        int boxOverlaps = 0;
        List<Node> ns = g.nodes();
        for (int i = 0; i < ns.size(); i++) {
            Node a = ns.get(i);
            if (a.x() < 0 || a.x() + a.width() > g.width() || a.y() < 0 || a.bottom() > g.legendY()) {
                boxOverlaps++;
                problems.add(a.id() + " outside the drawing");
            }
            for (int j = i + 1; j < ns.size(); j++) {
                Node b = ns.get(j);
                if (a.x() < b.x() + b.width() && b.x() < a.x() + a.width() && a.y() < b.bottom() && b.y() < a.bottom()) {
                    boxOverlaps++;
                    problems.add(a.id() + " overlaps " + b.id());
                }
            }
        }

        List<Edge> labelled = g.edges().stream().filter(e -> !e.label().isEmpty()).toList();
        int labelOverlaps = 0;
        for (int i = 0; i < labelled.size(); i++) {
            Edge e = labelled.get(i);
            double w = FabricSvg.labelWidth(e.label());
            for (Node n : ns) {
                if (Math.abs(e.labelX() - n.centerX()) < (w + n.width()) / 2 && Math.abs(e.labelY() - n.centerY()) < (16 + n.height()) / 2) {
                    labelOverlaps++;
                    problems.add("label of " + e.id() + " over " + n.id());
                }
            }
            for (int j = i + 1; j < labelled.size(); j++) {
                Edge f = labelled.get(j);
                if (Math.abs(e.labelX() - f.labelX()) < (w + FabricSvg.labelWidth(f.label())) / 2 && Math.abs(e.labelY() - f.labelY()) < 16) {
                    labelOverlaps++;
                    problems.add("label of " + e.id() + " over label of " + f.id());
                }
            }
        }

        int cut = 0;
        for (Node n : ns) {
            for (TextMeasure.Line l : TextMeasure.lines(n.kind(), n.title(), n.subtitle(), n.caption())) {
                if (l.width() > n.width() - TEXT_SLACK) {
                    cut++;
                    problems.add(n.id() + ": '" + l.text() + "' is " + Math.round(l.width()) + " px in a " + Math.round(n.width()) + " px box");
                }
            }
        }
        for (Edge e : labelled) {
            double tw = TextMeasure.width(e.label(), FabricFonts.EDGE_LABEL, true);
            if (tw > FabricSvg.labelWidth(e.label()) - TEXT_SLACK) {
                cut++;
                problems.add("label '" + e.label() + "' is " + Math.round(tw) + " px in a " + Math.round(FabricSvg.labelWidth(e.label())) + " px pill");
            }
        }
        for (Group gr : g.groups()) {
            double tw = TextMeasure.width(gr.title(), FabricFonts.GROUP_TITLE, true);
            if (7 + tw > Math.min(gr.width() - 8, gr.title().length() * 6.9 + 14) - TEXT_SLACK) {
                cut++;
                problems.add(gr.id() + ": title " + Math.round(tw) + " px in a " + Math.round(gr.width()) + " px clique box");
            }
        }
        double room = g.width() - 2 * FabricLayout.MARGIN;
        if (TextMeasure.width(g.caption(), FabricFonts.CAPTION, true) > room) {
            cut++;
            problems.add("caption wider than the drawing");
        }
        for (String note : g.notes()) {
            if (TextMeasure.width(note, FabricFonts.NOTE, false) > room) {
                cut++;
                problems.add("note wider than the drawing: " + note);
            }
        }
        for (FabricGraph.LegendEntry e : g.legend()) {
            if (e.x() + 32 + TextMeasure.width(e.text(), FabricFonts.LEGEND, false) > g.width()) {
                cut++;
                problems.add("legend entry past the right edge: " + e.text());
            }
        }
        return new DrawingMetrics(g.width(), g.height(), routes.size(), crossings, bends, curved, overBoxes, overlaps,
                boxOverlaps, labelOverlaps, cut, problems);
    }

    /** The connections: an edge of the graph, or the chain {@code id}, {@code id#1}, … of one orthogonal route. */
    private static List<Route> routes(FabricGraph g) {
        Map<String, List<Edge>> byId = new LinkedHashMap<>();
        for (Edge e : g.edges()) {
            byId.computeIfAbsent(e.id().replaceFirst("#\\d+$", ""), k -> new ArrayList<>()).add(e);
        }
        List<Route> out = new ArrayList<>();
        for (var entry : byId.entrySet()) {
            List<Seg> segs = new ArrayList<>();
            boolean curved = false;
            for (Edge e : entry.getValue()) {
                if (e.straight()) {
                    segs.add(new Seg(new P(e.x1(), e.y1()), new P(e.x2(), e.y2())));
                } else {
                    curved = true;
                    P prev = new P(e.x1(), e.y1());
                    for (int k = 1; k <= CURVE_STEPS; k++) {
                        double t = (double) k / CURVE_STEPS;
                        double u = 1 - t;
                        P next = new P(u * u * e.x1() + 2 * u * t * e.cx() + t * t * e.x2(), u * u * e.y1() + 2 * u * t * e.cy() + t * t * e.y2());
                        segs.add(new Seg(prev, next));
                        prev = next;
                    }
                }
            }
            Edge first = entry.getValue().get(0);
            int bends = curved ? 0 : entry.getValue().size() - 1;
            out.add(new Route(entry.getKey(), first.from(), first.to(), segs, bends, curved));
        }
        return out;
    }

    /** Where two segments cross inside both (not at an end, not when parallel), or null. */
    private static P crossing(Seg s, Seg t) {
        double rx = s.b.x - s.a.x;
        double ry = s.b.y - s.a.y;
        double qx = t.b.x - t.a.x;
        double qy = t.b.y - t.a.y;
        double den = rx * qy - ry * qx;
        if (Math.abs(den) < 1e-9) {
            return null;
        }
        double wx = t.a.x - s.a.x;
        double wy = t.a.y - s.a.y;
        double u = (wx * qy - wy * qx) / den;
        double v = (wx * ry - wy * rx) / den;
        double eps = 1e-6;
        if (u <= eps || u >= 1 - eps || v <= eps || v >= 1 - eps) {
            return null;
        }
        return new P(s.a.x + u * rx, s.a.y + u * ry);
    }

    /** Length over which two segments lie on one line (0 when they do not). */
    private static double collinearOverlap(Seg s, Seg t) {
        double rx = s.b.x - s.a.x;
        double ry = s.b.y - s.a.y;
        double len = Math.hypot(rx, ry);
        if (len < 1e-9) {
            return 0;
        }
        double ux = rx / len;
        double uy = ry / len;
        // both ends of t within half a pixel of s's line
        double d1 = Math.abs((t.a.x - s.a.x) * uy - (t.a.y - s.a.y) * ux);
        double d2 = Math.abs((t.b.x - s.a.x) * uy - (t.b.y - s.a.y) * ux);
        if (d1 > 0.5 || d2 > 0.5) {
            return 0;
        }
        double p1 = (t.a.x - s.a.x) * ux + (t.a.y - s.a.y) * uy;
        double p2 = (t.b.x - s.a.x) * ux + (t.b.y - s.a.y) * uy;
        double lo = Math.max(0, Math.min(p1, p2));
        double hi = Math.min(len, Math.max(p1, p2));
        return Math.max(0, hi - lo);
    }

    private static boolean inside(Node n, P p, double slack) {
        return p.x >= n.x() - slack && p.x <= n.x() + n.width() + slack && p.y >= n.y() - slack && p.y <= n.bottom() + slack;
    }

    /** Whether a segment passes through a box's inside (1 px in from its border). */
    private static boolean hitsBox(Seg s, Node n) {
        double x0 = n.x() + 1;
        double y0 = n.y() + 1;
        double x1 = n.x() + n.width() - 1;
        double y1 = n.bottom() - 1;
        // Liang-Barsky clipping of the segment against the box
        double dx = s.b.x - s.a.x;
        double dy = s.b.y - s.a.y;
        double t0 = 0;
        double t1 = 1;
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {s.a.x - x0, x1 - s.a.x, s.a.y - y0, y1 - s.a.y};
        for (int i = 0; i < 4; i++) {
            if (Math.abs(p[i]) < 1e-12) {
                if (q[i] < 0) {
                    return false;
                }
            } else {
                double r = q[i] / p[i];
                if (p[i] < 0) {
                    t0 = Math.max(t0, r);
                } else {
                    t1 = Math.min(t1, r);
                }
            }
        }
        return t0 < t1;
    }
}
