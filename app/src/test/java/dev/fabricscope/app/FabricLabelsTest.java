package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.FabricCanvas;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.samples.Samples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edge labels sit on their edges (the label's centre is a point of the drawn line or curve) and, in the fabric view
 * at the zoom it opens at in a 1280×800 window, their text is at least 9 px on screen.
 */
class FabricLabelsTest {

    /** The canvas's width in a 1280×800 window: the window less the details pane (400) and the split's divider. */
    private static final double CANVAS_W = 1280 - 400 - 8;
    private static final double CANVAS_H = 800 - 170;

    @Test
    void everyLabelSitsOnItsEdge() {
        List<String> off = new ArrayList<>();
        for (Samples.Sample s : Samples.list()) {
            FabricGraph g = FabricLayout.layout(s.snapshot().get());
            for (FabricGraph.Edge e : g.edges()) {
                if (e.label().isEmpty()) {
                    continue;
                }
                double d = distanceToPath(e, e.labelX(), e.labelY());
                if (d > 0.5) {
                    off.add(s.name() + " " + e.id() + " \"" + e.label() + "\" " + String.format("%.1f", d) + " px off its edge");
                }
            }
        }
        assertTrue(off.isEmpty(), String.join("\n", off));
    }

    @Test
    void labelsAreReadableAtFitZoom() {
        List<String> small = new ArrayList<>();
        for (Samples.Sample s : Samples.list()) {
            FabricGraph g = FabricLayout.layout(s.snapshot().get());
            double fit = FabricCanvas.defaultZoom(g, CANVAS_W, CANVAS_H);
            double px = 10 * FabricCanvas.labelScaleAt(g, fit) * fit;
            if (px < 9) {
                small.add(s.name() + ": labels " + String.format("%.1f", px) + " px at " + Math.round(fit * 100) + " %");
            }
        }
        assertTrue(small.isEmpty(), String.join("\n", small));
    }

    /** Distance from (x, y) to the edge as drawn: a straight segment or a quadratic curve, sampled finely. */
    private static double distanceToPath(FabricGraph.Edge e, double x, double y) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i <= 2000; i++) {
            double t = i / 2000.0;
            double px = (1 - t) * (1 - t) * e.x1() + 2 * (1 - t) * t * e.cx() + t * t * e.x2();
            double py = (1 - t) * (1 - t) * e.y1() + 2 * (1 - t) * t * e.cy() + t * t * e.y2();
            best = Math.min(best, Math.hypot(px - x, py - y));
        }
        return best;
    }
}
