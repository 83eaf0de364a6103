package dev.fabricscope.render.raster;

import java.util.Arrays;

/**
 * One character's coverage mask at one size: {@code width} × {@code height} bytes (0 = no ink, 255 = full), placed
 * {@code left} px right of the pen and {@code top} px below the baseline (negative: above it), then the pen moves
 * {@code advance} px.
 */
public final class Glyph {

    private final int codePoint;
    private final double advance;
    private final int left;
    private final int top;
    private final int width;
    private final int height;
    private final byte[] coverage;

    public Glyph(int codePoint, double advance, int left, int top, int width, int height, byte[] coverage) {
        if (width < 0 || height < 0 || coverage.length != width * height) {
            throw new IllegalArgumentException("glyph U+" + Integer.toHexString(codePoint) + ": " + width + "×" + height
                    + " mask of " + coverage.length + " bytes");
        }
        this.codePoint = codePoint;
        this.advance = advance;
        this.left = left;
        this.top = top;
        this.width = width;
        this.height = height;
        this.coverage = coverage.clone();
    }

    public int codePoint() {
        return codePoint;
    }

    public double advance() {
        return advance;
    }

    public int left() {
        return left;
    }

    public int top() {
        return top;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Coverage at ({@code x}, {@code y}) of the mask, 0 to 255; 0 outside it. */
    public int coverage(int x, int y) {
        return x < 0 || y < 0 || x >= width || y >= height ? 0 : coverage[y * width + x] & 0xff;
    }

    /** Largest difference of coverage between this mask and {@code o}'s, over both masks' pixels (255: other boxes). */
    public int maxDifference(Glyph o) {
        if (o.width != width || o.height != height || o.left != left || o.top != top) {
            return 255;
        }
        int max = 0;
        for (int i = 0; i < coverage.length; i++) {
            max = Math.max(max, Math.abs((coverage[i] & 0xff) - (o.coverage[i] & 0xff)));
        }
        return max;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Glyph g && g.codePoint == codePoint && g.advance == advance && g.left == left && g.top == top
                && g.width == width && g.height == height && Arrays.equals(g.coverage, coverage);
    }

    @Override
    public int hashCode() {
        return 31 * Integer.hashCode(codePoint) + Arrays.hashCode(coverage);
    }

    @Override
    public String toString() {
        return "U+" + String.format("%04X", codePoint) + " advance " + advance + ", " + width + "×" + height + " at ("
                + left + ", " + top + ")";
    }
}
