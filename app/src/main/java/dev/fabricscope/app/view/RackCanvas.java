package dev.fabricscope.app.view;

import dev.fabricscope.render.rack.RackScene;
import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Line;
import dev.fabricscope.render.rack.RackScene.Text;
import javafx.geometry.VPos;
import javafx.scene.SnapshotParameters;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

/**
 * The cluster drawing ({@link RackScene}, laid out by {@code RackLayout}) painted on a canvas in a scroll pane, as
 * the SVG writer draws the same scene; hovering a tray, GPU or switch tray tells what its box stands for.
 */
public final class RackCanvas extends ScrollPane {

    /** Largest canvas side painted at full size; a larger drawing is scaled down to it (GPU texture limits). */
    static final double MAX_SIDE = 8192;

    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private RackScene scene;
    private double scale = 1;

    public RackCanvas() {
        setId("clusterDrawing");
        getStyleClass().add("cluster-drawing");
        StackPane holder = new StackPane(canvas);
        holder.setStyle("-fx-padding: 0;");
        setContent(holder);
        setPannable(true);
        tip.setShowDelay(Duration.millis(250));
        tip.setWrapText(true);
        tip.setMaxWidth(520);
        canvas.setOnMouseMoved(e -> hover(e.getX() / scale, e.getY() / scale, e.getScreenX(), e.getScreenY()));
        canvas.setOnMouseExited(e -> tip.hide());
    }

    /** Shows {@code s} (null: nothing). */
    public void show(RackScene s) {
        scene = s;
        if (s == null) {
            canvas.setWidth(0);
            canvas.setHeight(0);
            return;
        }
        scale = Math.min(1, Math.min(MAX_SIDE / s.width(), MAX_SIDE / s.height()));
        canvas.setWidth(Math.ceil(s.width() * scale));
        canvas.setHeight(Math.ceil(s.height() * scale));
        GraphicsContext gc = canvas.getGraphicsContext2D();
        gc.setTransform(scale, 0, 0, scale, 0, 0);
        paint(gc, s);
    }

    public RackScene scene() {
        return scene;
    }

    /** The whole drawing at {@code scale}, off screen (PNG export, screenshots). */
    public static WritableImage render(RackScene s, double scale) {
        Canvas c = new Canvas(Math.ceil(s.width() * scale), Math.ceil(s.height() * scale));
        GraphicsContext gc = c.getGraphicsContext2D();
        gc.setTransform(scale, 0, 0, scale, 0, 0);
        paint(gc, s);
        SnapshotParameters sp = new SnapshotParameters();
        sp.setFill(Color.web(s.background()));
        return c.snapshot(sp, null);
    }

    static void paint(GraphicsContext gc, RackScene s) {
        gc.setFill(Color.web(s.background()));
        gc.fillRect(0, 0, s.width(), s.height());
        gc.setTextBaseline(VPos.BASELINE);
        for (RackScene.Shape shape : s.shapes()) {
            if (shape instanceof Box b) {
                if (b.fill() != null) {
                    gc.setFill(Color.web(b.fill()));
                    gc.fillRoundRect(b.x(), b.y(), b.w(), b.h(), 2 * b.radius(), 2 * b.radius());
                }
                if (b.stroke() != null) {
                    gc.setStroke(Color.web(b.stroke()));
                    gc.setLineWidth(b.strokeWidth());
                    gc.setLineDashes(b.dashed() ? new double[] {5, 3} : null);
                    gc.strokeRoundRect(b.x(), b.y(), b.w(), b.h(), 2 * b.radius(), 2 * b.radius());
                }
            } else if (shape instanceof Line l) {
                gc.setStroke(Color.web(l.colour()));
                gc.setLineWidth(l.width());
                gc.setLineDashes(l.dashed() ? new double[] {5, 3} : null);
                gc.strokeLine(l.x1(), l.y1(), l.x2(), l.y2());
            } else if (shape instanceof Text t) {
                gc.setFill(Color.web(t.colour()));
                gc.setFont(Font.font("DejaVu Sans", t.bold() ? FontWeight.BOLD : FontWeight.NORMAL, t.size()));
                gc.setTextAlign(switch (t.anchor()) {
                    case START -> TextAlignment.LEFT;
                    case MIDDLE -> TextAlignment.CENTER;
                    case END -> TextAlignment.RIGHT;
                });
                gc.fillText(t.text(), t.x(), t.y());
            }
        }
        gc.setLineDashes(null);
    }

    /** The innermost box under the pointer that tells something. */
    private void hover(double x, double y, double screenX, double screenY) {
        if (scene == null) {
            return;
        }
        String text = null;
        for (RackScene.Shape shape : scene.shapes()) {
            if (shape instanceof Box b && b.tooltip() != null && x >= b.x() && x <= b.x() + b.w() && y >= b.y() && y <= b.y() + b.h()) {
                text = b.tooltip();
            }
        }
        if (text == null) {
            tip.hide();
        } else if (!text.equals(tip.getText()) || !tip.isShowing()) {
            tip.setText(SafeText.shown(text));
            tip.show(canvas, screenX + 12, screenY + 12);
        }
    }
}
