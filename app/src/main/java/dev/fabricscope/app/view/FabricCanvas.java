package dev.fabricscope.app.view;

import dev.fabricscope.render.fabric.FabricFonts;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.Group;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.fabric.FabricSvg;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.animation.PauseTransition;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Point2D;
import javafx.geometry.VPos;
import javafx.scene.Cursor;
import javafx.scene.SnapshotParameters;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.image.WritableImage;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

/**
 * Paints a {@link FabricGraph} on a canvas — one draw call per shape, no scene-graph node per element, so a graph
 * opens and redraws in milliseconds. Hover shows a tooltip, a click selects (see {@link #selectionProperty()}), the
 * wheel zooms around the pointer, dragging pans. Hit testing uses the graph's own geometry. {@link #render} paints
 * the same picture off screen for PNG export.
 */
public final class FabricCanvas extends Region {

    /** What is selected: a node, an edge or a group of the graph. */
    public record Selection(String id, String headline, List<Detail> details) {
    }

    static final double MIN_ZOOM = 0.2;
    static final double MAX_ZOOM = 4;

    private final Canvas canvas = new Canvas();
    private final ObjectProperty<FabricGraph> graph = new SimpleObjectProperty<>(this, "graph");
    private final ObjectProperty<FabricPalette> palette = new SimpleObjectProperty<>(this, "palette", FabricPalette.LIGHT);
    private final ReadOnlyObjectWrapper<Selection> selection = new ReadOnlyObjectWrapper<>(this, "selection");
    private final ReadOnlyDoubleWrapper zoom = new ReadOnlyDoubleWrapper(this, "zoom", 1);
    private final Tooltip hoverTip = new Tooltip();
    private final PauseTransition hoverDelay = new PauseTransition(Duration.millis(250));
    private final List<String> painted = new ArrayList<>();
    private double tx;
    private double ty;
    private boolean fitPending = true;
    private String hoverId;
    private Point2D dragFrom;
    private double screenX;
    private double screenY;

    public FabricCanvas() {
        getStyleClass().add("fabric-canvas");
        getChildren().add(canvas);
        setFocusTraversable(true);
        hoverTip.setWrapText(true);
        hoverTip.setMaxWidth(520);
        hoverDelay.setOnFinished(e -> {
            if (hoverId != null && getScene() != null && getScene().getWindow() != null) {
                hoverTip.show(this, screenX + 14, screenY + 18);
            }
        });
        graph.addListener((o, was, now) -> {
            fitPending = true;
            selection.set(null);
            hover(null);
            requestLayout();
            paint();
        });
        palette.addListener((o, was, now) -> paint());
        setOnScroll(e -> {
            if (e.getDeltaY() != 0) {
                zoomAt(e.getDeltaY() > 0 ? 1.15 : 1 / 1.15, e.getX(), e.getY());
                e.consume();
            }
        });
        setOnMousePressed(e -> {
            requestFocus();
            dragFrom = new Point2D(e.getX() - tx, e.getY() - ty);
        });
        setOnMouseDragged(e -> {
            if (dragFrom != null && e.getButton() == MouseButton.PRIMARY) {
                tx = e.getX() - dragFrom.getX();
                ty = e.getY() - dragFrom.getY();
                setCursor(Cursor.MOVE);
                hover(null);
                paint();
            }
        });
        setOnMouseReleased(e -> setCursor(hoverId == null ? Cursor.DEFAULT : Cursor.HAND));
        setOnMouseMoved(e -> {
            screenX = e.getScreenX();
            screenY = e.getScreenY();
            hover(hitTest(e.getX(), e.getY()));
        });
        setOnMouseExited(e -> hover(null));
        setOnMouseClicked(e -> {
            if (e.isStillSincePress() && e.getButton() == MouseButton.PRIMARY) {
                select(hitTest(e.getX(), e.getY()));
            }
        });
    }

    public ObjectProperty<FabricGraph> graphProperty() {
        return graph;
    }

    public ObjectProperty<FabricPalette> paletteProperty() {
        return palette;
    }

    public ReadOnlyObjectProperty<Selection> selectionProperty() {
        return selection.getReadOnlyProperty();
    }

    public ReadOnlyDoubleProperty zoomProperty() {
        return zoom.getReadOnlyProperty();
    }

    public double getZoom() {
        return zoom.get();
    }

    /** Ids of the elements drawn by the last paint, in drawing order. */
    public List<String> paintedIds() {
        return List.copyOf(painted);
    }

    /** Where a graph element's centre is, in this region's coordinates (null when unknown). */
    public Point2D centerOf(String id) {
        FabricGraph g = graph.get();
        if (g == null) {
            return null;
        }
        return g.node(id).map(n -> toView(n.centerX(), n.centerY()))
                .or(() -> g.edge(id).map(e -> toView(e.labelX(), e.labelY())))
                .orElse(null);
    }

    /** The text of the hover tooltip (tests). */
    public String hoverText() {
        return hoverTip.getText();
    }

    // ---- commands

    public void zoomIn() {
        zoomAt(1.25, getWidth() / 2, getHeight() / 2);
    }

    public void zoomOut() {
        zoomAt(1 / 1.25, getWidth() / 2, getHeight() / 2);
    }

    public void actualSize() {
        zoom.set(1);
        tx = 0;
        ty = 0;
        paint();
    }

    /** Scales the whole drawing into the view (never above 150 %) and centres it (the Fit button). */
    public void fit() {
        FabricGraph g = graph.get();
        if (g == null || getWidth() <= 0 || getHeight() <= 0) {
            fitPending = true;
            return;
        }
        place(g, fitZoom(g, getWidth(), getHeight()));
    }

    /** The drawing as a view opens it: fitted, but never below the zoom at which its smallest text is 9 px. */
    private void openView() {
        FabricGraph g = graph.get();
        if (g == null || getWidth() <= 0 || getHeight() <= 0) {
            fitPending = true;
            return;
        }
        place(g, defaultZoom(g, getWidth(), getHeight()));
    }

    /** At zoom {@code z}: centred where the drawing fits, else from its left or top edge. */
    private void place(FabricGraph g, double z) {
        zoom.set(z);
        tx = g.width() * z <= getWidth() ? (getWidth() - g.width() * z) / 2 : 0;
        ty = Math.max(0, (getHeight() - g.height() * z) / 2);
        fitPending = false;
        paint();
    }

    /** The zoom at which the whole drawing fits a view of {@code w} × {@code h} (never above 150 %). */
    static double fitZoom(FabricGraph g, double w, double h) {
        return Math.max(MIN_ZOOM, Math.min(1.5, Math.min(w / g.width(), h / g.height())));
    }

    /**
     * The zoom a view of {@code w} × {@code h} opens the drawing at: the fit zoom, raised to
     * {@link FabricFonts#READABLE_ZOOM} where fitting would draw the smallest text under 9 px (a wide machine is then
     * panned rather than shrunk).
     */
    public static double defaultZoom(FabricGraph g, double w, double h) {
        return Math.max(FabricFonts.READABLE_ZOOM, fitZoom(g, w, h));
    }

    /** Selects a graph element by id (null clears). */
    public void select(String id) {
        FabricGraph g = graph.get();
        Selection s = id == null || g == null ? null : g.node(id).map(n -> new Selection(n.id(), n.headline(), n.details()))
                .or(() -> g.edge(id).map(e -> new Selection(e.id(), e.headline(), e.details())))
                .or(() -> g.groups().stream().filter(x -> x.id().equals(id)).findFirst().map(x -> new Selection(x.id(), x.title(), x.details())))
                .orElse(null);
        selection.set(s);
        paint();
    }

    private void zoomAt(double factor, double px, double py) {
        double old = zoom.get();
        double z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, old * factor));
        double f = z / old;
        tx = px - (px - tx) * f;
        ty = py - (py - ty) * f;
        zoom.set(z);
        paint();
    }

    private Point2D toView(double x, double y) {
        return new Point2D(x * zoom.get() + tx, y * zoom.get() + ty);
    }

    @Override
    protected void layoutChildren() {
        if (canvas.getWidth() != getWidth() || canvas.getHeight() != getHeight()) {
            canvas.setWidth(Math.max(1, getWidth()));
            canvas.setHeight(Math.max(1, getHeight()));
            if (fitPending) {
                openView();
            } else {
                paint();
            }
        } else if (fitPending) {
            openView();
        }
    }

    private void hover(String id) {
        if (java.util.Objects.equals(id, hoverId)) {
            return;
        }
        hoverId = id;
        hoverDelay.stop();
        hoverTip.hide();
        setCursor(id == null ? Cursor.DEFAULT : Cursor.HAND);
        FabricGraph g = graph.get();
        if (id != null && g != null) {
            Selection s = g.node(id).map(n -> new Selection(n.id(), n.headline(), n.details()))
                    .or(() -> g.edge(id).map(e -> new Selection(e.id(), e.headline(), e.details())))
                    .or(() -> g.groups().stream().filter(x -> x.id().equals(id)).findFirst().map(x -> new Selection(x.id(), x.title(), x.details())))
                    .orElse(null);
            if (s != null) {
                String body = s.details().stream().limit(14).map(d -> d.key() + ": " + d.value()).collect(Collectors.joining("\n"));
                hoverTip.setText(s.headline() + (body.isEmpty() ? "" : "\n" + body));
                hoverDelay.playFromStart();
            }
        }
        paint();
    }

    // ---- hit testing (graph coordinates)

    /** The element under a point of this region: an edge label, a box, an edge, then a group; or null. */
    public String hitTest(double viewX, double viewY) {
        FabricGraph g = graph.get();
        if (g == null) {
            return null;
        }
        double x = (viewX - tx) / zoom.get();
        double y = (viewY - ty) / zoom.get();
        for (Edge e : g.edges()) {
            if (!e.label().isEmpty()) {
                double w = FabricSvg.labelWidth(e.label());
                if (Math.abs(x - e.labelX()) <= w / 2 && Math.abs(y - e.labelY()) <= 8) {
                    return e.id();
                }
            }
        }
        for (Node n : g.nodes()) {
            if (x >= n.x() && x <= n.x() + n.width() && y >= n.y() && y <= n.bottom()) {
                return n.id();
            }
        }
        String best = null;
        double bestD = 6 / Math.min(1, zoom.get());
        for (Edge e : g.edges()) {
            double d = distance(e, x, y);
            if (d < bestD) {
                bestD = d;
                best = e.id();
            }
        }
        if (best != null) {
            return best;
        }
        for (Group gr : g.groups()) {
            if (x >= gr.x() && x <= gr.x() + gr.width() && y >= gr.y() && y <= gr.y() + gr.height()) {
                return gr.id();
            }
        }
        return null;
    }

    private static double distance(Edge e, double x, double y) {
        double best = Double.MAX_VALUE;
        double px = e.x1();
        double py = e.y1();
        for (int i = 1; i <= 24; i++) {
            double t = i / 24.0;
            double qx = (1 - t) * (1 - t) * e.x1() + 2 * (1 - t) * t * e.cx() + t * t * e.x2();
            double qy = (1 - t) * (1 - t) * e.y1() + 2 * (1 - t) * t * e.cy() + t * t * e.y2();
            best = Math.min(best, segment(x, y, px, py, qx, qy));
            px = qx;
            py = qy;
        }
        return best;
    }

    private static double segment(double x, double y, double ax, double ay, double bx, double by) {
        double dx = bx - ax;
        double dy = by - ay;
        double len = dx * dx + dy * dy;
        double t = len == 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len));
        double cx = ax + t * dx - x;
        double cy = ay + t * dy - y;
        return Math.sqrt(cx * cx + cy * cy);
    }

    // ---- painting

    private void paint() {
        GraphicsContext gc = canvas.getGraphicsContext2D();
        FabricPalette p = palette.get();
        gc.setTransform(1, 0, 0, 1, 0, 0);
        gc.setFill(Color.web(p.background()));
        gc.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
        painted.clear();
        FabricGraph g = graph.get();
        if (g == null) {
            return;
        }
        gc.setTransform(zoom.get(), 0, 0, zoom.get(), tx, ty);
        String selected = selection.get() == null ? null : selection.get().id();
        paint(gc, g, p, selected, hoverId, painted);
    }

    /** The whole picture at {@code scale}, off screen (PNG export). */
    public static WritableImage render(FabricGraph g, FabricPalette p, double scale) {
        Canvas c = new Canvas(Math.ceil(g.width() * scale), Math.ceil(g.height() * scale));
        GraphicsContext gc = c.getGraphicsContext2D();
        gc.setTransform(scale, 0, 0, scale, 0, 0);
        paint(gc, g, p, null, null, new ArrayList<>());
        SnapshotParameters sp = new SnapshotParameters();
        sp.setFill(Color.web(p.background()));
        return c.snapshot(sp, null);
    }

    private static void paint(GraphicsContext gc, FabricGraph g, FabricPalette p, String selected, String hover, List<String> painted) {
        gc.setFill(Color.web(p.background()));
        gc.fillRect(0, 0, g.width(), g.height());
        gc.setTextBaseline(VPos.BASELINE);
        text(gc, FabricLayout.MARGIN, FabricLayout.MARGIN + 6, g.caption(), FabricFonts.CAPTION, true, p.text(), TextAlignment.LEFT);
        double ny = FabricLayout.MARGIN + FabricLayout.CAPTION_H + 2;
        for (String note : g.notes()) {
            text(gc, FabricLayout.MARGIN, ny, note, FabricFonts.NOTE, false, p.note(), TextAlignment.LEFT);
            ny += FabricLayout.NOTE_H;
        }
        gc.setLineCap(StrokeLineCap.ROUND);
        for (Group gr : g.groups()) {
            boolean on = gr.id().equals(selected) || gr.id().equals(hover);
            roundRect(gc, gr.x(), gr.y(), gr.width(), gr.height(), 10, p.groupFill(), on ? p.selection() : p.groupStroke(), on ? 2.2 : 1.4, 6, 4);
            double tw = gr.title().length() * 6.9 + 14;
            roundRect(gc, gr.x() + 8, gr.y() + gr.height() - 23, tw, 17, 8.5, p.background(), p.groupStroke(), 1);
            text(gc, gr.x() + 15, gr.y() + gr.height() - 10.5, gr.title(), FabricFonts.GROUP_TITLE, true, p.groupStroke(), TextAlignment.LEFT);
            painted.add(gr.id());
        }
        for (Edge e : g.edges()) {
            boolean sel = e.id().equals(selected);
            boolean hov = e.id().equals(hover);
            String colour = sel ? p.selection() : switch (e.kind()) {
                case NVLINK -> p.nvlink();
                case PCIE -> p.pcie();
                case CPU_LINK -> p.cpuLink();
                case C2C -> p.c2c();
            };
            gc.setStroke(Color.web(colour));
            gc.setLineWidth(e.strokeWidth() + (sel ? 1.5 : hov ? 1.2 : 0));
            switch (e.kind()) {
                case PCIE -> gc.setLineDashes(6, 4);
                case CPU_LINK -> gc.setLineDashes(2, 3);
                default -> gc.setLineDashes();
            }
            gc.beginPath();
            gc.moveTo(e.x1(), e.y1());
            if (e.straight()) {
                gc.lineTo(e.x2(), e.y2());
            } else {
                gc.quadraticCurveTo(e.cx(), e.cy(), e.x2(), e.y2());
            }
            gc.stroke();
            painted.add(e.id());
        }
        gc.setLineDashes();
        double scale = labelScale(g, gc.getTransform().getMxx());
        for (Edge e : g.edges()) {
            if (e.label().isEmpty()) {
                continue;
            }
            double w = FabricSvg.labelWidth(e.label()) * scale;
            double h = 16 * scale;
            boolean on = e.id().equals(selected) || e.id().equals(hover);
            String colour = e.kind() == FabricGraph.EdgeKind.NVLINK ? p.nvlink() : e.kind() == FabricGraph.EdgeKind.C2C ? p.c2c() : p.muted();
            // the pill is centred on its edge and outlined in the edge's colour, so it reads as part of that edge
            roundRect(gc, e.labelX() - w / 2, e.labelY() - h / 2, w, h, h / 2, p.labelFill(), on ? p.selection() : colour, on ? 1.6 : 1);
            text(gc, e.labelX(), e.labelY() + 3.6 * scale, e.label(), FabricFonts.EDGE_LABEL * scale, true, colour, TextAlignment.CENTER);
        }
        for (Node n : g.nodes()) {
            node(gc, n, p, n.id().equals(selected), n.id().equals(hover));
            painted.add(n.id());
        }
        legend(gc, g, p);
    }

    private static void node(GraphicsContext gc, Node n, FabricPalette p, boolean selected, boolean hover) {
        String[] c = switch (n.kind()) {
            case GPU -> new String[] {p.gpuFill(), p.gpuStroke()};
            case NVSWITCH -> new String[] {p.switchFill(), p.switchStroke()};
            case PCIE_SWITCH -> new String[] {p.pcieSwitchFill(), p.pcieSwitchStroke()};
            case CPU -> new String[] {p.cpuFill(), p.cpuStroke()};
            case NIC -> new String[] {p.nicFill(), p.nicStroke()};
        };
        String stroke = selected ? p.selection() : n.warning() ? p.warnStroke() : c[1];
        double width = selected ? 3 : n.warning() ? 2.2 : hover ? 2.2 : 1.5;
        roundRect(gc, n.x(), n.y(), n.width(), n.height(), 7, c[0], stroke, width);
        double cx = n.centerX();
        switch (n.kind()) {
            case GPU -> {
                text(gc, cx, n.y() + 19, n.title(), FabricFonts.GPU_TITLE, true, p.text(), TextAlignment.CENTER);
                text(gc, cx, n.y() + 36, n.subtitle(), FabricFonts.GPU_SUBTITLE, false, p.text(), TextAlignment.CENTER);
                String[] cap = n.caption().split("\n", 2);
                text(gc, cx, n.y() + 52, cap[0], FabricFonts.GPU_CAPTION, false, p.muted(), TextAlignment.CENTER);
                if (cap.length > 1) {
                    text(gc, cx, n.y() + 66, cap[1], FabricFonts.GPU_CAPTION, false,
                            cap[1].contains("NVLink") && !cap[1].contains("unknown") ? p.nvlink() : p.muted(), TextAlignment.CENTER);
                }
                if (n.warning()) {
                    gc.setFill(Color.web(p.warnStroke()));
                    gc.fillOval(n.x() + n.width() - 19, n.y() + 5, 14, 14);
                    text(gc, n.x() + n.width() - 12, n.y() + 16, "!", 11, true, "#ffffff", TextAlignment.CENTER);
                }
            }
            case NVSWITCH, CPU -> {
                text(gc, cx, n.y() + 19, n.title(), FabricFonts.BOX_TITLE, true, p.text(), TextAlignment.CENTER);
                text(gc, cx, n.y() + 35, n.subtitle(), FabricFonts.BOX_SUBTITLE, false, p.muted(), TextAlignment.CENTER);
            }
            case PCIE_SWITCH -> text(gc, cx, n.y() + 19, n.title(), FabricFonts.PCIE_SWITCH, false, p.muted(), TextAlignment.CENTER);
            case NIC -> {
                text(gc, cx, n.y() + 15, n.title(), FabricFonts.NIC_TITLE, true, p.text(), TextAlignment.CENTER);
                text(gc, cx, n.y() + 28, n.subtitle(), FabricFonts.NIC_LINE, false, p.text(), TextAlignment.CENTER);
                text(gc, cx, n.y() + 40, n.caption(), FabricFonts.NIC_LINE, false, n.warning() ? p.warnStroke() : p.muted(), TextAlignment.CENTER);
            }
        }
    }

    private static void legend(GraphicsContext gc, FabricGraph g, FabricPalette p) {
        for (FabricGraph.LegendEntry e : g.legend()) {
            double x = e.x();
            double y = e.y();
            switch (e.swatch()) {
                case NVLINK -> legendLine(gc, x, y, p.nvlink(), 3.5);
                case C2C -> legendLine(gc, x, y, p.c2c(), 3.0);
                case PCIE -> legendLine(gc, x, y, p.pcie(), 1.4, 6, 4);
                case CPU_LINK -> legendLine(gc, x, y, p.cpuLink(), 2, 2, 3);
                case MNNVL -> roundRect(gc, x + 2, y - 6, 22, 12, 3, p.groupFill(), p.groupStroke(), 1.2, 4, 3);
            }
            text(gc, x + 32, y + 4, e.text(), FabricFonts.LEGEND, false, p.muted(), TextAlignment.LEFT);
        }
    }

    private static void legendLine(GraphicsContext gc, double x, double y, String colour, double width, double... dash) {
        gc.setStroke(Color.web(colour));
        gc.setLineWidth(width);
        gc.setLineDashes(dash.length == 0 ? null : dash);
        gc.strokeLine(x, y, x + 26, y);
        gc.setLineDashes();
    }

    private static void roundRect(GraphicsContext gc, double x, double y, double w, double h, double r, String fill,
                                  String stroke, double strokeWidth, double... dash) {
        gc.setFill(Color.web(fill));
        gc.fillRoundRect(x, y, w, h, 2 * r, 2 * r);
        gc.setStroke(Color.web(stroke));
        gc.setLineWidth(strokeWidth);
        gc.setLineDashes(dash.length == 0 ? null : dash);
        gc.strokeRoundRect(x, y, w, h, 2 * r, 2 * r);
        gc.setLineDashes();
    }

    /** Edge labels drawn no smaller than this on screen (pixels of text height), zoom permitting. */
    static final double MIN_LABEL_PX = 9.5;

    /**
     * How much edge labels are enlarged at {@code zoom} so that their text stays {@link #MIN_LABEL_PX} on screen when the
     * drawing is shrunk to fit: as much as needed, but never so much that two labels, or a label and a box, would
     * overlap (then the largest scale that keeps them apart). 1 at 100 % and above.
     */
    static double labelScale(FabricGraph g, double zoom) {
        if (g == lastGraph && zoom == lastZoom) {
            return lastScale;
        }
        lastGraph = g;
        lastZoom = zoom;
        lastScale = computeLabelScale(g, zoom);
        return lastScale;
    }

    /** {@link #labelScale} for tests. */
    public static double labelScaleAt(FabricGraph g, double zoom) {
        return computeLabelScale(g, zoom);
    }

    private static FabricGraph lastGraph;
    private static double lastZoom;
    private static double lastScale;

    private static double computeLabelScale(FabricGraph g, double zoom) {
        double want = Math.max(1, MIN_LABEL_PX / (FabricFonts.EDGE_LABEL * zoom));
        if (want <= 1) {
            return 1;
        }
        double allowed = want;
        List<Edge> labelled = g.edges().stream().filter(e -> !e.label().isEmpty()).toList();
        for (int i = 0; i < labelled.size(); i++) {
            Edge a = labelled.get(i);
            double wa = FabricSvg.labelWidth(a.label());
            for (int j = i + 1; j < labelled.size(); j++) {
                Edge b = labelled.get(j);
                double wb = FabricSvg.labelWidth(b.label());
                double dx = Math.abs(a.labelX() - b.labelX());
                double dy = Math.abs(a.labelY() - b.labelY());
                // the scale at which the two pills (plus 2 px of air) touch, horizontally and vertically
                double sx = (dx - 2) / ((wa + wb) / 2);
                double sy = (dy - 2) / 16;
                double touch = Math.max(sx, sy);
                if (touch < allowed) {
                    allowed = Math.max(1, touch);
                }
            }
            for (Node n : g.nodes()) {
                double sx = (Math.abs(a.labelX() - (n.x() + n.width() / 2)) - n.width() / 2 - 2) / (wa / 2);
                double sy = (Math.abs(a.labelY() - (n.y() + n.height() / 2)) - n.height() / 2 - 2) / 8;
                double touch = Math.max(sx, sy);
                if (touch < allowed) {
                    allowed = Math.max(1, touch);
                }
            }
        }
        return allowed;
    }

    private static void text(GraphicsContext gc, double x, double y, String s, double size, boolean bold, String colour,
                             TextAlignment align) {
        if (s == null || s.isEmpty()) {
            return;
        }
        gc.setFont(font(size, bold));
        gc.setFill(Color.web(colour));
        gc.setTextAlign(align);
        gc.fillText(SafeText.shown(s), x, y); // labels come from files and devices
    }

    private static String family;
    private static final Map<String, Font> FONTS = new HashMap<>();

    /** DejaVu Sans where installed (the SVG's first choice, so exports match), else the system font. */
    private static Font font(double size, boolean bold) {
        if (family == null) {
            family = Font.getFamilies().contains("DejaVu Sans") ? "DejaVu Sans" : Font.getDefault().getFamily();
        }
        return FONTS.computeIfAbsent(size + (bold ? "b" : ""), k -> Font.font(family, bold ? FontWeight.BOLD : FontWeight.NORMAL, size));
    }
}
