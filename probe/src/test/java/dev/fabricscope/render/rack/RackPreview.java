package dev.fabricscope.render.rack;

import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Line;
import dev.fabricscope.render.rack.RackScene.Text;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Test aid: a scene painted with Java2D to a PNG, to look at the layout (the app paints the same scene with JavaFX). */
final class RackPreview {

    private RackPreview() {
    }

    static void png(RackScene s, Path file) throws java.io.IOException {
        BufferedImage img = new BufferedImage((int) Math.ceil(s.width()), (int) Math.ceil(s.height()), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(colour(s.background()));
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        for (var shape : s.shapes()) {
            if (shape instanceof Box b) {
                var r = new RoundRectangle2D.Double(b.x(), b.y(), b.w(), b.h(), 2 * b.radius(), 2 * b.radius());
                if (b.fill() != null) {
                    g.setColor(colour(b.fill()));
                    g.fill(r);
                }
                if (b.stroke() != null) {
                    g.setColor(colour(b.stroke()));
                    g.setStroke(stroke(b.strokeWidth(), b.dashed()));
                    g.draw(r);
                }
            } else if (shape instanceof Line l) {
                g.setColor(colour(l.colour()));
                g.setStroke(stroke(l.width(), l.dashed()));
                g.draw(new Line2D.Double(l.x1(), l.y1(), l.x2(), l.y2()));
            } else if (shape instanceof Text t) {
                g.setColor(colour(t.colour()));
                g.setFont(new Font("DejaVu Sans", t.bold() ? Font.BOLD : Font.PLAIN, (int) Math.round(t.size())));
                g.drawString(t.text(), (float) t.left(), (float) t.y());
            }
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private static BasicStroke stroke(double w, boolean dashed) {
        return dashed ? new BasicStroke((float) w, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {5, 3}, 0)
                : new BasicStroke((float) w);
    }

    private static Color colour(String css) {
        int rgb = Integer.parseInt(css.substring(1, 7), 16);
        int a = css.length() == 9 ? Integer.parseInt(css.substring(7), 16) : 255;
        return new Color((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, a);
    }
}
