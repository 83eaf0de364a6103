package dev.fabricscope.render.raster;

import java.util.Arrays;

/**
 * A band of rows of an RGBA image, painted without any toolkit: filled and stroked rectangles with rounded corners,
 * lines of any width, dashed or not, and glyph masks, each anti-aliased by how much of a pixel it covers, composited
 * over what is there (source over). Coordinates are the whole image's, in pixels; what falls outside the band is not
 * painted, so a tall image is painted band by band in little memory ({@link PngEncoder#rows}). Colours are straight
 * ARGB ({@link CssColour}); pixels are kept premultiplied.
 */
public final class Raster {

    private final int width;
    private final int capacity;
    private final int[] pixels;
    private int top;
    private int rows;

    /** A band {@code width} pixels wide of up to {@code bandRows} rows, at the image's top. */
    public Raster(int width, int bandRows) {
        if (width <= 0 || bandRows <= 0 || (long) width * bandRows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("raster of " + width + " × " + bandRows + " pixels");
        }
        this.width = width;
        this.capacity = bandRows;
        this.pixels = new int[width * bandRows];
        this.rows = bandRows;
    }

    /** Places the band at image row {@code first}, {@code count} rows tall, filled with {@code argb}. */
    public void moveTo(int first, int count, int argb) {
        if (count <= 0 || count > capacity || first < 0) {
            throw new IllegalArgumentException("band of " + count + " rows at " + first + " (room for " + capacity + ")");
        }
        top = first;
        rows = count;
        Arrays.fill(pixels, 0, width * count, premultiplied(argb));
    }

    public int width() {
        return width;
    }

    /** The image row of the band's first row. */
    public int top() {
        return top;
    }

    public int rows() {
        return rows;
    }

    /** The straight ARGB colour at ({@code x}, image row {@code y}), which must lie in the band. */
    public int argb(int x, int y) {
        if (x < 0 || x >= width || y < top || y >= top + rows) {
            throw new IndexOutOfBoundsException("(" + x + ", " + y + ") outside the band");
        }
        int p = pixels[(y - top) * width + x];
        int a = p >>> 24;
        return a << 24 | straight(p >> 16 & 0xff, a) << 16 | straight(p >> 8 & 0xff, a) << 8 | straight(p & 0xff, a);
    }

    /** Row {@code row} of the band as straight RGBA bytes, 4 a pixel, from {@code out[at]} on. */
    void rgbaRow(int row, byte[] out, int at) {
        int base = row * width;
        for (int x = 0, o = at; x < width; x++, o += 4) {
            int p = pixels[base + x];
            int a = p >>> 24;
            if (a == 255) {
                out[o] = (byte) (p >> 16);
                out[o + 1] = (byte) (p >> 8);
                out[o + 2] = (byte) p;
                out[o + 3] = (byte) 255;
                continue;
            }
            out[o] = (byte) straight(p >> 16 & 0xff, a);
            out[o + 1] = (byte) straight(p >> 8 & 0xff, a);
            out[o + 2] = (byte) straight(p & 0xff, a);
            out[o + 3] = (byte) a;
        }
    }

    // ---- shapes

    /** Fills the rectangle at ({@code x}, {@code y}) with corners of {@code radius}. */
    public void fillRoundRect(double x, double y, double w, double h, double radius, int argb) {
        if (!(w > 0) || !(h > 0) || argb >>> 24 == 0) {
            return;
        }
        RoundRect rr = new RoundRect(x, y, w, h, radius);
        int y0 = Math.max(top, floor(y));
        int y1 = Math.min(top + rows, ceil(y + h));
        int x0 = Math.max(0, floor(x));
        int x1 = Math.min(width, ceil(x + w));
        int solid = premultiplied(argb);
        for (int py = y0; py < y1; py++) {
            int row = (py - top) * width;
            // a pixel wholly inside the sides, between the corners, or between the corners' columns, is wholly covered
            boolean between = py >= y + rr.r() && py + 1 <= y + h - rr.r();
            boolean inside = py >= y && py + 1 <= y + h;
            int fullFrom = !inside ? x1 : Math.max(x0, ceil(between ? x : x + rr.r()));
            int fullTo = !inside ? x1 : Math.min(x1, floor(between ? x + w : x + w - rr.r()));
            for (int px = x0; px < x1; px++) {
                if (px == fullFrom && fullFrom < fullTo) {
                    span(row + fullFrom, row + fullTo, argb, solid);
                    px = fullTo - 1;
                    continue;
                }
                blend(row + px, argb, Math.min(1, Math.max(0, 0.5 - rr.distance(px + 0.5, py + 0.5))));
            }
        }
    }

    /** Strokes the outline of the rectangle, centred on it, {@code lineWidth} wide; {@code dash} null: solid. */
    public void strokeRoundRect(double x, double y, double w, double h, double radius, double lineWidth, Dash dash,
                                int argb) {
        if (!(w >= 0) || !(h >= 0) || !(lineWidth > 0) || argb >>> 24 == 0) {
            return;
        }
        RoundRect rr = new RoundRect(x, y, w, h, radius);
        double half = lineWidth / 2;
        double reach = half + 1;
        int y0 = Math.max(top, floor(y - reach));
        int y1 = Math.min(top + rows, ceil(y + h + reach));
        int x0 = Math.max(0, floor(x - reach));
        int x1 = Math.min(width, ceil(x + w + reach));
        // away from the top and bottom edges a row meets the outline only near the sides (corners included)
        int leftEnd = Math.min(x1, ceil(x + rr.r() + reach));
        int rightStart = Math.max(x0, floor(x + w - rr.r() - reach));
        for (int py = y0; py < y1; py++) {
            int row = (py - top) * width;
            boolean edgeRow = py < y + reach && py + 1 > y - reach || py < y + h + reach && py + 1 > y + h - reach;
            boolean sidesOnly = !edgeRow && leftEnd < rightStart;
            for (int px = x0; px < x1; px++) {
                if (sidesOnly && px == leftEnd) {
                    px = rightStart - 1;
                    continue;
                }
                double cx = px + 0.5;
                double cy = py + 0.5;
                double d = rr.distance(cx, cy);
                double cov = Dash.overlap(-half, half, d - 0.5, d + 0.5);
                if (cov > 0 && dash != null) {
                    cov *= dash.coverage(rr.along(cx, cy));
                }
                blend(row + px, argb, cov);
            }
        }
    }

    /** A straight line from ({@code x1}, {@code y1}) to ({@code x2}, {@code y2}), {@code lineWidth} wide, butt ends. */
    public void strokeLine(double x1, double y1, double x2, double y2, double lineWidth, Dash dash, int argb) {
        double dx = x2 - x1;
        double dy = y2 - y1;
        double length = Math.hypot(dx, dy);
        if (!(length > 0) || !(lineWidth > 0) || Double.isInfinite(length) || argb >>> 24 == 0) {
            return;
        }
        double ux = dx / length;
        double uy = dy / length;
        double half = lineWidth / 2;
        double reach = half + 1;
        int y0 = Math.max(top, floor(Math.min(y1, y2) - reach));
        int yEnd = Math.min(top + rows, ceil(Math.max(y1, y2) + reach));
        int x0 = Math.max(0, floor(Math.min(x1, x2) - reach));
        int xEnd = Math.min(width, ceil(Math.max(x1, x2) + reach));
        for (int py = y0; py < yEnd; py++) {
            int row = (py - top) * width;
            double ry = py + 0.5 - y1;
            for (int px = x0; px < xEnd; px++) {
                double rx = px + 0.5 - x1;
                double along = rx * ux + ry * uy;
                double across = ry * ux - rx * uy;
                double cov = Dash.overlap(-half, half, across - 0.5, across + 0.5)
                        * Dash.overlap(0, length, along - 0.5, along + 0.5);
                if (cov > 0 && dash != null) {
                    cov *= dash.coverage(along);
                }
                blend(row + px, argb, cov);
            }
        }
    }

    /** The glyph's mask with its top-left pixel at ({@code x}, {@code y}), ink of {@code argb}. */
    public void mask(Glyph g, int x, int y, int argb) {
        int gy0 = Math.max(0, top - y);
        int gy1 = Math.min(g.height(), top + rows - y);
        int gx0 = Math.max(0, -x);
        int gx1 = Math.min(g.width(), width - x);
        for (int gy = gy0; gy < gy1; gy++) {
            int row = (y + gy - top) * width + x;
            for (int gx = gx0; gx < gx1; gx++) {
                int c = g.coverage(gx, gy);
                if (c > 0) {
                    blend(row + gx, argb, c);
                }
            }
        }
    }

    /**
     * The glyph's mask stretched {@code scaleX} times across and {@code scaleY} times down (a size the atlas lacks, or
     * a text pressed narrower), its top-left at ({@code x}, {@code y}), sampled bilinearly.
     */
    public void maskScaled(Glyph g, double x, double y, double scaleX, double scaleY, int argb) {
        if (!(scaleX > 0) || !(scaleY > 0)) {
            return;
        }
        int y0 = Math.max(top, floor(y));
        int y1 = Math.min(top + rows, ceil(y + g.height() * scaleY));
        int x0 = Math.max(0, floor(x));
        int x1 = Math.min(width, ceil(x + g.width() * scaleX));
        for (int py = y0; py < y1; py++) {
            double sy = (py + 0.5 - y) / scaleY - 0.5;
            int gy = floor(sy);
            double fy = sy - gy;
            int row = (py - top) * width;
            for (int px = x0; px < x1; px++) {
                double sx = (px + 0.5 - x) / scaleX - 0.5;
                int gx = floor(sx);
                double fx = sx - gx;
                double c = (g.coverage(gx, gy) * (1 - fx) + g.coverage(gx + 1, gy) * fx) * (1 - fy)
                        + (g.coverage(gx, gy + 1) * (1 - fx) + g.coverage(gx + 1, gy + 1) * fx) * fy;
                blend(row + px, argb, c / 255);
            }
        }
    }

    // ---- compositing

    private void span(int from, int to, int argb, int solid) {
        if (argb >>> 24 == 0xff) {
            Arrays.fill(pixels, from, to, solid);
        } else { // translucent over runs of one colour (a panel's tint over the background): blend each colour once
            int in = ~pixels[from];
            int out = 0;
            for (int i = from; i < to; i++) {
                if (pixels[i] != in) {
                    in = pixels[i];
                    blend(i, argb, 255);
                    out = pixels[i];
                } else {
                    pixels[i] = out;
                }
            }
        }
    }

    private void blend(int i, int argb, double coverage) {
        if (coverage > 0) {
            blend(i, argb, coverage >= 1 ? 255 : (int) (coverage * 255 + 0.5));
        }
    }

    /** {@code argb} over pixel {@code i}, {@code coverage} of 255 of it covered. */
    private void blend(int i, int argb, int coverage) {
        int a = ((argb >>> 24) * coverage + 127) / 255;
        if (a == 0) {
            return;
        }
        if (a == 255) {
            pixels[i] = argb | 0xff000000;
            return;
        }
        int d = pixels[i];
        int keep = 255 - a;
        int oa = a + ((d >>> 24) * keep + 127) / 255;
        int or = ((argb >> 16 & 0xff) * a + (d >> 16 & 0xff) * keep + 127) / 255;
        int og = ((argb >> 8 & 0xff) * a + (d >> 8 & 0xff) * keep + 127) / 255;
        int ob = ((argb & 0xff) * a + (d & 0xff) * keep + 127) / 255;
        pixels[i] = oa << 24 | or << 16 | og << 8 | ob;
    }

    private static int premultiplied(int argb) {
        int a = argb >>> 24;
        if (a == 255) {
            return argb;
        }
        return a << 24 | ((argb >> 16 & 0xff) * a + 127) / 255 << 16 | ((argb >> 8 & 0xff) * a + 127) / 255 << 8
                | ((argb & 0xff) * a + 127) / 255;
    }

    private static int straight(int c, int a) {
        return a == 255 ? c : a == 0 ? 0 : Math.min(255, (c * 255 + a / 2) / a);
    }

    /** Floor of {@code v} as an int, clamped (a coordinate far off the image stays far off). */
    private static int floor(double v) {
        return (int) Math.max(-1e9, Math.min(1e9, Math.floor(v)));
    }

    private static int ceil(double v) {
        return (int) Math.max(-1e9, Math.min(1e9, Math.ceil(v)));
    }
}
