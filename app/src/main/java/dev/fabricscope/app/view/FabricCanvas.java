package dev.fabricscope.app.view;

import dev.fabricscope.render.FabricGraph;
import dev.fabricscope.render.FabricGraph.Detail;
import dev.fabricscope.render.FabricGraph.Edge;
import dev.fabricscope.render.FabricGraph.Group;
import dev.fabricscope.render.FabricGraph.Node;
import dev.fabricscope.render.FabricLayout;
import dev.fabricscope.render.FabricPalette;
import dev.fabricscope.render.FabricSvg;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Point2D;
import javafx.geometry.VPos;
import javafx.scene.Cursor;
import javafx.scene.Parent;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.Circle;
import javafx.scene.shape.Line;
import javafx.scene.shape.QuadCurve;
import javafx.scene.shape.Rectangle;
import javafx.scene.shape.Shape;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;
import javafx.scene.transform.Scale;
import javafx.scene.transform.Translate;
import javafx.util.Duration;

/**
 * Draws a {@link FabricGraph} with JavaFX shapes: hover shows a tooltip, a click selects (see
 * {@link #selectionProperty()}), the wheel zooms around the pointer, dragging pans. The same picture, without the
 * interaction, is built by {@link #drawing} for PNG export.
 */
public final class FabricCanvas extends Region {

    /** What is selected: a node, an edge or a group of the graph. */
    public record Selection(String id, String headline, List<Detail> details) {
    }

    static final double MIN_ZOOM = 0.2;
    static final double MAX_ZOOM = 4;

    private final javafx.scene.Group content = new javafx.scene.Group();
    private final Scale scale = new Scale(1, 1, 0, 0);
    private final Translate translate = new Translate();
    private final ObjectProperty<FabricGraph> graph = new SimpleObjectProperty<>(this, "graph");
    private final ObjectProperty<FabricPalette> palette = new SimpleObjectProperty<>(this, "palette", FabricPalette.LIGHT);
    private final ReadOnlyObjectWrapper<Selection> selection = new ReadOnlyObjectWrapper<>(this, "selection");
    private final Map<String, javafx.scene.Group> elements = new LinkedHashMap<>();
    private final Rectangle clip = new Rectangle();
    private boolean fitPending = true;
    private Point2D dragFrom;

    public FabricCanvas() {
        getStyleClass().add("fabric-canvas");
        content.getTransforms().addAll(translate, scale);
        getChildren().add(content);
        setClip(clip);
        setFocusTraversable(true);
        graph.addListener((o, was, now) -> {
            fitPending = true;
            redraw();
        });
        palette.addListener((o, was, now) -> redraw());
        setOnScroll(e -> {
            if (e.getDeltaY() != 0) {
                zoomAt(e.getDeltaY() > 0 ? 1.15 : 1 / 1.15, e.getX(), e.getY());
                e.consume();
            }
        });
        setOnMousePressed(e -> {
            requestFocus();
            dragFrom = new Point2D(e.getX() - translate.getX(), e.getY() - translate.getY());
        });
        setOnMouseDragged(e -> {
            if (dragFrom != null && e.getButton() == MouseButton.PRIMARY) {
                translate.setX(e.getX() - dragFrom.getX());
                translate.setY(e.getY() - dragFrom.getY());
                setCursor(Cursor.MOVE);
            }
        });
        setOnMouseReleased(e -> setCursor(Cursor.DEFAULT));
        setOnMouseClicked(e -> {
            if (e.getTarget() == this && e.isStillSincePress()) {
                select(null);
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

    /** The drawn element of a graph id ({@code gpu:…}, {@code nvlink:…}, …), or null. */
    public javafx.scene.Group element(String id) {
        return elements.get(id);
    }

    public double getZoom() {
        return scale.getX();
    }

    public javafx.beans.value.ObservableDoubleValue zoomProperty() {
        return scale.xProperty();
    }

    // ---- commands

    public void zoomIn() {
        zoomAt(1.25, getWidth() / 2, getHeight() / 2);
    }

    public void zoomOut() {
        zoomAt(1 / 1.25, getWidth() / 2, getHeight() / 2);
    }

    public void actualSize() {
        setZoom(1);
        translate.setX(0);
        translate.setY(0);
    }

    /** Scales the whole drawing into the view (never above 150 %) and centres it. */
    public void fit() {
        FabricGraph g = graph.get();
        if (g == null || getWidth() <= 0 || getHeight() <= 0) {
            fitPending = true;
            return;
        }
        double z = Math.max(MIN_ZOOM, Math.min(1.5, Math.min(getWidth() / g.width(), getHeight() / g.height())));
        setZoom(z);
        translate.setX((getWidth() - g.width() * z) / 2);
        translate.setY(Math.max(0, (getHeight() - g.height() * z) / 2));
        fitPending = false;
    }

    /** Selects a graph element by id (null clears). */
    public void select(String id) {
        Selection old = selection.get();
        if (old != null && elements.containsKey(old.id())) {
            elements.get(old.id()).getStyleClass().remove("selected");
            restyle(old.id(), false);
        }
        FabricGraph g = graph.get();
        if (id == null || g == null) {
            selection.set(null);
            return;
        }
        Selection s = g.node(id).map(n -> new Selection(n.id(), n.headline(), n.details()))
                .or(() -> g.edge(id).map(e -> new Selection(e.id(), e.headline(), e.details())))
                .or(() -> g.groups().stream().filter(x -> x.id().equals(id)).findFirst().map(x -> new Selection(x.id(), x.title(), x.details())))
                .orElse(null);
        selection.set(s);
        if (s != null && elements.containsKey(id)) {
            elements.get(id).getStyleClass().add("selected");
            restyle(id, true);
        }
    }

    private void setZoom(double z) {
        scale.setX(z);
        scale.setY(z);
    }

    private void zoomAt(double factor, double px, double py) {
        double old = scale.getX();
        double z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, old * factor));
        double f = z / old;
        translate.setX(px - (px - translate.getX()) * f);
        translate.setY(py - (py - translate.getY()) * f);
        setZoom(z);
    }

    @Override
    protected void layoutChildren() {
        clip.setWidth(getWidth());
        clip.setHeight(getHeight());
        if (fitPending) {
            fit();
        }
    }

    private void redraw() {
        String selected = selection.get() == null ? null : selection.get().id();
        elements.clear();
        content.getChildren().clear();
        FabricGraph g = graph.get();
        if (g == null) {
            selection.set(null);
            return;
        }
        Parent drawing = build(g, palette.get(), true);
        content.getChildren().add(drawing);
        setStyle("-fx-background-color: " + palette.get().background() + ";");
        selection.set(null);
        if (selected != null && elements.containsKey(selected)) {
            select(selected);
        }
        requestLayout();
    }

    /** The picture alone, for export: same shapes, no interaction. */
    public static Parent drawing(FabricGraph g, FabricPalette p) {
        return new FabricCanvas().build(g, p, false);
    }

    private Parent build(FabricGraph g, FabricPalette p, boolean interactive) {
        javafx.scene.Group root = new javafx.scene.Group();
        Rectangle bg = new Rectangle(0, 0, g.width(), g.height());
        bg.setFill(Color.web(p.background()));
        bg.setMouseTransparent(true);
        root.getChildren().add(bg);
        root.getChildren().add(text(FabricLayout.MARGIN, FabricLayout.MARGIN + 6, g.caption(), 14, true, p.text()));
        double ny = FabricLayout.MARGIN + FabricLayout.CAPTION_H + 2;
        for (String note : g.notes()) {
            root.getChildren().add(text(FabricLayout.MARGIN, ny, note, 11.5, false, p.note()));
            ny += FabricLayout.NOTE_H;
        }
        for (Group gr : g.groups()) {
            javafx.scene.Group el = new javafx.scene.Group();
            Rectangle r = rect(gr.x(), gr.y(), gr.width(), gr.height(), 10, p.groupFill(), p.groupStroke(), 1.4);
            r.getStrokeDashArray().addAll(6.0, 4.0);
            double tw = gr.title().length() * 6.9 + 14;
            Rectangle pill = rect(gr.x() + 8, gr.y() + gr.height() - 23, tw, 17, 8.5, p.background(), p.groupStroke(), 1);
            el.getChildren().addAll(r, pill, text(gr.x() + 15, gr.y() + gr.height() - 10.5, gr.title(), 11, true, p.groupStroke()));
            el.getStyleClass().add("fabric-group");
            register(el, gr.id(), gr.title(), gr.details(), interactive);
            root.getChildren().add(el);
        }
        javafx.scene.Group labels = new javafx.scene.Group();
        for (Edge e : g.edges()) {
            javafx.scene.Group el = new javafx.scene.Group();
            Shape line = edgeShape(e);
            line.setStroke(Color.web(switch (e.kind()) {
                case NVLINK -> p.nvlink();
                case PCIE -> p.pcie();
                case CPU_LINK -> p.cpuLink();
            }));
            line.setStrokeWidth(e.strokeWidth());
            line.setStrokeLineCap(StrokeLineCap.ROUND);
            line.setFill(null);
            switch (e.kind()) {
                case PCIE -> line.getStrokeDashArray().addAll(6.0, 4.0);
                case CPU_LINK -> line.getStrokeDashArray().addAll(2.0, 3.0);
                default -> {
                }
            }
            if (interactive) {
                Shape hit = edgeShape(e);
                hit.setStroke(Color.TRANSPARENT);
                hit.setStrokeWidth(Math.max(10, e.strokeWidth() + 6));
                hit.setFill(null);
                el.getChildren().add(hit);
            }
            el.getChildren().add(0, line);
            el.getStyleClass().addAll("fabric-edge", "fabric-" + e.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            el.setUserData(line);
            register(el, e.id(), e.headline(), e.details(), interactive);
            root.getChildren().add(el);
            if (!e.label().isEmpty()) {
                double w = FabricSvg.labelWidth(e.label());
                javafx.scene.Group lab = new javafx.scene.Group(
                        rect(e.labelX() - w / 2, e.labelY() - 8, w, 16, 8, p.labelFill(), p.labelStroke(), 1),
                        centred(e.labelX() - w / 2, e.labelY() + 3.6, w, e.label(), 10, true,
                                e.kind() == FabricGraph.EdgeKind.NVLINK ? p.nvlink() : p.muted()));
                lab.getStyleClass().add("fabric-edge-label");
                if (interactive) {
                    lab.setOnMouseClicked(ev -> select(e.id()));
                    lab.setCursor(Cursor.HAND);
                    installTooltip(lab, e.headline(), e.details());
                }
                labels.getChildren().add(lab);
            }
        }
        root.getChildren().add(labels);
        for (Node n : g.nodes()) {
            root.getChildren().add(node(n, p, interactive));
        }
        root.getChildren().add(legend(g, p));
        return root;
    }

    private javafx.scene.Group node(Node n, FabricPalette p, boolean interactive) {
        String[] c = switch (n.kind()) {
            case GPU -> new String[] {p.gpuFill(), p.gpuStroke()};
            case NVSWITCH -> new String[] {p.switchFill(), p.switchStroke()};
            case PCIE_SWITCH -> new String[] {p.pcieSwitchFill(), p.pcieSwitchStroke()};
            case CPU -> new String[] {p.cpuFill(), p.cpuStroke()};
        };
        javafx.scene.Group el = new javafx.scene.Group();
        Rectangle box = rect(n.x(), n.y(), n.width(), n.height(), 7, c[0], n.warning() ? p.warnStroke() : c[1], n.warning() ? 2.2 : 1.5);
        el.getChildren().add(box);
        el.setUserData(box);
        switch (n.kind()) {
            case GPU -> {
                el.getChildren().addAll(centred(n.x(), n.y() + 19, n.width(), n.title(), 13, true, p.text()),
                        centred(n.x(), n.y() + 36, n.width(), n.subtitle(), 11, false, p.text()),
                        centred(n.x(), n.y() + 52, n.width(), n.caption().split("\n", 2)[0], 10, false, p.muted()));
                String[] cap = n.caption().split("\n", 2);
                if (cap.length > 1) {
                    el.getChildren().add(centred(n.x(), n.y() + 66, n.width(), cap[1], 10, false,
                            cap[1].contains("NVLink") && !cap[1].contains("unknown") ? p.nvlink() : p.muted()));
                }
                if (n.warning()) {
                    Circle badge = new Circle(n.x() + n.width() - 12, n.y() + 12, 7, Color.web(p.warnStroke()));
                    el.getChildren().addAll(badge, centred(n.x() + n.width() - 19, n.y() + 16, 14, "!", 11, true, "#ffffff"));
                }
            }
            case NVSWITCH, CPU -> el.getChildren().addAll(centred(n.x(), n.y() + 19, n.width(), n.title(), 12.5, true, p.text()),
                    centred(n.x(), n.y() + 35, n.width(), n.subtitle(), 10, false, p.muted()));
            case PCIE_SWITCH -> el.getChildren().add(centred(n.x(), n.y() + 19, n.width(), n.title(), 10.5, false, p.muted()));
        }
        el.getStyleClass().addAll("fabric-node", "fabric-" + n.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        register(el, n.id(), n.headline(), n.details(), interactive);
        return el;
    }

    private javafx.scene.Group legend(FabricGraph g, FabricPalette p) {
        javafx.scene.Group el = new javafx.scene.Group();
        double y = g.legendY() + 12;
        double x = FabricLayout.MARGIN;
        x = legendLine(el, x, y, p.nvlink(), 3.5, null, "NVLink (links × nominal GB/s per direction)", p);
        x = legendLine(el, x, y, p.pcie(), 1.4, new Double[] {6.0, 4.0}, "PCIe", p);
        x = legendLine(el, x, y, p.cpuLink(), 2, new Double[] {2.0, 3.0}, "CPU interconnect", p);
        Rectangle r = rect(x, y - 6, 22, 12, 3, p.groupFill(), p.groupStroke(), 1.2);
        r.getStrokeDashArray().addAll(4.0, 3.0);
        el.getChildren().addAll(r, text(x + 28, y + 4, "MNNVL clique", 10.5, false, p.muted()));
        el.setMouseTransparent(true);
        return el;
    }

    private static double legendLine(javafx.scene.Group el, double x, double y, String colour, double width, Double[] dash,
                                     String label, FabricPalette p) {
        Line l = new Line(x, y, x + 26, y);
        l.setStroke(Color.web(colour));
        l.setStrokeWidth(width);
        if (dash != null) {
            l.getStrokeDashArray().addAll(dash);
        }
        el.getChildren().addAll(l, text(x + 32, y + 4, label, 10.5, false, p.muted()));
        return x + 32 + label.length() * 5.9 + 22;
    }

    private void register(javafx.scene.Group el, String id, String headline, List<Detail> details, boolean interactive) {
        if (!interactive) {
            return;
        }
        el.setId(null);
        el.getProperties().put("fabric-id", id);
        elements.put(id, el);
        el.setCursor(Cursor.HAND);
        installTooltip(el, headline, details);
        el.setOnMouseClicked(e -> {
            if (e.isStillSincePress()) {
                select(id);
                e.consume();
            }
        });
        el.setOnMouseEntered(e -> el.setOpacity(0.85));
        el.setOnMouseExited(e -> el.setOpacity(1));
    }

    private static void installTooltip(javafx.scene.Node el, String headline, List<Detail> details) {
        String body = details.stream().limit(14).map(d -> d.key() + ": " + d.value()).collect(Collectors.joining("\n"));
        javafx.scene.control.Tooltip t = new javafx.scene.control.Tooltip(headline + (body.isEmpty() ? "" : "\n" + body));
        t.setShowDelay(Duration.millis(200));
        t.setShowDuration(Duration.seconds(30));
        t.setWrapText(true);
        t.setMaxWidth(520);
        javafx.scene.control.Tooltip.install(el, t);
    }

    /** Highlights or restores the main shape of an element. */
    private void restyle(String id, boolean selected) {
        javafx.scene.Group el = elements.get(id);
        if (el == null || !(el.getUserData() instanceof Shape shape)) {
            return;
        }
        if (selected) {
            shape.getProperties().putIfAbsent("stroke", shape.getStroke());
            shape.getProperties().putIfAbsent("strokeWidth", shape.getStrokeWidth());
            shape.setStroke(Color.web(palette.get().selection()));
            shape.setStrokeWidth(Math.max(3, shape.getStrokeWidth() + 1.5));
        } else if (shape.getProperties().containsKey("stroke")) {
            shape.setStroke((javafx.scene.paint.Paint) shape.getProperties().remove("stroke"));
            shape.setStrokeWidth((Double) shape.getProperties().remove("strokeWidth"));
        }
    }

    private static Shape edgeShape(Edge e) {
        if (e.straight()) {
            return new Line(e.x1(), e.y1(), e.x2(), e.y2());
        }
        return new QuadCurve(e.x1(), e.y1(), e.cx(), e.cy(), e.x2(), e.y2());
    }

    private static Rectangle rect(double x, double y, double w, double h, double r, String fill, String stroke, double sw) {
        Rectangle rect = new Rectangle(x, y, w, h);
        rect.setArcWidth(2 * r);
        rect.setArcHeight(2 * r);
        rect.setFill(Color.web(fill));
        rect.setStroke(Color.web(stroke));
        rect.setStrokeWidth(sw);
        return rect;
    }

    private static Text text(double x, double baseline, String s, double size, boolean bold, String colour) {
        Text t = new Text(x, baseline, s);
        t.setFont(font(size, bold));
        t.setFill(Color.web(colour));
        t.setTextOrigin(VPos.BASELINE);
        t.setMouseTransparent(true);
        return t;
    }

    private static Text centred(double x, double baseline, double width, String s, double size, boolean bold, String colour) {
        Text t = text(x, baseline, s, size, bold, colour);
        t.setWrappingWidth(width);
        t.setTextAlignment(TextAlignment.CENTER);
        return t;
    }

    private static String family;

    /** DejaVu Sans where installed (the SVG's first choice, so exports match), else the system font. */
    private static Font font(double size, boolean bold) {
        if (family == null) {
            family = Font.getFamilies().contains("DejaVu Sans") ? "DejaVu Sans" : Font.getDefault().getFamily();
        }
        return Font.font(family, bold ? FontWeight.BOLD : FontWeight.NORMAL, size);
    }
}
