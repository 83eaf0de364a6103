package dev.fabricscope.render.raster;

/**
 * A dash pattern: {@code on} px drawn, {@code off} px skipped, from the start of the path (butt ends, as SVG's
 * {@code stroke-dasharray="on off"}).
 */
public record Dash(double on, double off) {

    public Dash {
        if (!(on > 0) || !(off >= 0) || Double.isInfinite(on + off)) {
            throw new IllegalArgumentException("a dash needs on > 0 and off >= 0: " + on + " " + off);
        }
    }

    /** The same pattern {@code k} times longer (a drawing painted at scale {@code k}). */
    public Dash scaled(double k) {
        return new Dash(on * k, off * k);
    }

    /** How much of the one-pixel stretch of path centred on {@code s} px from its start is drawn, 0 to 1. */
    double coverage(double s) {
        double period = on + off;
        double m = s - Math.floor(s / period) * period;
        double c = overlap(0, on, m - 0.5, m + 0.5) + overlap(period, period + on, m - 0.5, m + 0.5)
                + overlap(-period, -period + on, m - 0.5, m + 0.5);
        return Math.min(1, c);
    }

    /** Length of [a0, a1] ∩ [b0, b1], 0 when they do not meet. */
    static double overlap(double a0, double a1, double b0, double b1) {
        return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
    }
}
