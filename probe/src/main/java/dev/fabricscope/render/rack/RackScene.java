package dev.fabricscope.render.rack;

import java.util.List;

/**
 * The cluster drawing laid out: boxes, lines and texts with their places and colours (CSS hex), in drawing order. The
 * SVG writer ({@link RackSvg}), the PNG writer ({@link RackPng}) and the desktop app's canvas paint the same scene, so
 * all look the same.
 *
 * @param width  of the whole drawing, px
 * @param height of the whole drawing, px
 * @param panels where each domain's panel (and the row of nodes outside any domain) lies, in drawing order
 */
public record RackScene(double width, double height, String background, List<Shape> shapes, List<Panel> panels) {

    public RackScene {
        shapes = List.copyOf(shapes);
        panels = List.copyOf(panels);
    }

    /** One thing drawn. */
    public sealed interface Shape permits Box, Line, Text {
    }

    /**
     * A rectangle.
     *
     * @param stroke  outline colour, or null for none
     * @param dashed  an inferred thing, not seen
     * @param role    what it stands for ({@code tray}, {@code odd-tray}, {@code gpu}, {@code switch-tray}, …), for the
     *                SVG's class and tests
     * @param tooltip what hovering over it tells, or null
     */
    public record Box(double x, double y, double w, double h, double radius, String fill, String stroke,
                      double strokeWidth, boolean dashed, String role, String tooltip) implements Shape {
    }

    /** A straight line: a bundle of links. */
    public record Line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed,
                       String role) implements Shape {
    }

    /** Where a text is anchored on its x. */
    public enum Anchor { START, MIDDLE, END }

    /**
     * One line of text, already cut to fit {@code maxWidth} by {@link RackScene#textWidth}.
     *
     * @param y baseline
     */
    public record Text(double x, double y, String text, double size, boolean bold, String colour, Anchor anchor,
                       String role) implements Shape {

        /** Left edge as estimated by {@link RackScene#textWidth}. */
        public double left() {
            double w = textWidth(text, size, bold);
            return anchor == Anchor.START ? x : anchor == Anchor.MIDDLE ? x - w / 2 : x - w;
        }

        public double right() {
            return left() + textWidth(text, size, bold);
        }
    }

    /**
     * A domain's panel or the row of nodes outside any domain.
     *
     * @param id the domain's GFD label, or {@code outside}
     */
    public record Panel(String id, double x, double y, double w, double h) {
    }

    /**
     * Width of {@code text} at {@code size} px as drawn in DejaVu Sans, estimated on the wide side (0.62 em a
     * character, 0.68 bold; DejaVu Sans averages about 0.55 em over Latin text), so estimated fits are real fits.
     */
    public static double textWidth(String text, double size, boolean bold) {
        return text.length() * size * (bold ? 0.68 : 0.62);
    }
}
