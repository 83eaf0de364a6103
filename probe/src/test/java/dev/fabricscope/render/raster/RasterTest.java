package dev.fabricscope.render.raster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The rasterizer: coverage at edges, compositing, dashes, rounded corners, and bands that join without a seam. */
class RasterTest {

    static final int WHITE = 0xffffffff;
    static final int BLACK = 0xff000000;

    static Raster band(int w, int h, int background) {
        Raster r = new Raster(w, h);
        r.moveTo(0, h, background);
        return r;
    }

    static int grey(Raster r, int x, int y) {
        return r.argb(x, y) & 0xff;
    }

    @Test
    void anEdgeThroughAPixelCoversItByTheAreaInside() {
        Raster r = band(4, 1, WHITE);
        r.fillRoundRect(0.5, 0, 1, 1, 0, BLACK); // half of pixel 0, half of pixel 1
        assertEquals(255, grey(r, 3, 0));
        assertEquals(128, grey(r, 0, 0), 1);
        assertEquals(128, grey(r, 1, 0), 1);
        Raster q = band(4, 4, WHITE);
        q.fillRoundRect(0, 0, 4, 3.25, 0, BLACK);
        assertEquals(0, grey(q, 1, 1));
        assertEquals(255 - 64, grey(q, 1, 3), 1); // a quarter of row 3
    }

    @Test
    void translucentInkIsCompositedOverWhatIsThere() {
        Raster r = band(2, 1, WHITE);
        r.fillRoundRect(0, 0, 2, 1, 0, 0x80000000); // half-transparent black over white
        assertEquals(0xff7f7f7f, r.argb(0, 0), "opaque grey");
        Raster clear = band(2, 1, 0x00000000);
        clear.fillRoundRect(0, 0, 2, 1, 0, 0x80ff0000);
        assertEquals(0x80ff0000, clear.argb(0, 0), "over nothing: the ink itself, straight");
        clear.fillRoundRect(0, 0, 2, 1, 0, 0x80ff0000);
        assertEquals(0xc0, clear.argb(0, 0) >>> 24, 1, "twice: three quarters opaque");
        assertEquals(0xff0000, clear.argb(0, 0) & 0xffffff, "still red, not darkened");
    }

    @Test
    void aThinLineIsFaintAndAWideOneSolid() {
        Raster r = band(10, 5, WHITE);
        r.strokeLine(0, 2.5, 10, 2.5, 0.5, null, BLACK); // half a pixel of row 2
        assertEquals(128, grey(r, 5, 2), 1);
        assertEquals(255, grey(r, 5, 1));
        Raster w = band(10, 10, WHITE);
        w.strokeLine(0, 5, 10, 5, 4, null, BLACK); // rows 3 to 6
        for (int y = 3; y <= 6; y++) {
            assertEquals(0, grey(w, 5, y), "row " + y);
        }
        assertEquals(255, grey(w, 5, 2));
        assertEquals(255, grey(w, 5, 7));
        Raster d = band(20, 20, WHITE);
        d.strokeLine(0, 0, 20, 20, 3, null, BLACK);
        assertEquals(0, grey(d, 10, 10), "a diagonal line covers the pixels it crosses");
        assertEquals(255, grey(d, 18, 2), "and not the far ones");
        assertTrue(grey(d, 10, 12) > 0 && grey(d, 10, 12) < 255, "anti-aliased at its side");
    }

    @Test
    void aDashedLineAlternatesFromItsStart() {
        Raster r = band(40, 4, WHITE);
        r.strokeLine(0, 2, 40, 2, 2, new Dash(10, 6), BLACK);
        for (int x = 0; x < 40; x++) {
            boolean on = x % 16 < 10;
            assertEquals(on ? 0 : 255, grey(r, x, 2), "pixel " + x);
        }
    }

    @Test
    void aRoundedCornerLeavesTheCornerOut() {
        Raster r = band(20, 20, WHITE);
        r.fillRoundRect(0, 0, 20, 20, 8, BLACK);
        assertEquals(255, grey(r, 0, 0), "outside the arc");
        assertEquals(0, grey(r, 10, 10));
        assertEquals(0, grey(r, 0, 10), "the straight side");
        int arc = grey(r, 2, 2);
        assertTrue(arc < 255, "the arc passes near (2, 2): " + arc);
        Raster s = band(20, 20, WHITE);
        s.strokeRoundRect(2, 2, 16, 16, 4, 2, null, BLACK);
        assertEquals(255, grey(s, 10, 10), "a stroke leaves the inside alone");
        assertEquals(0, grey(s, 10, 2), "and covers its outline");
        assertEquals(255, grey(s, 1, 1), "but not the rounded-off corner");
    }

    @Test
    void aDashedOutlineRunsRoundTheBox() {
        Raster r = band(60, 40, WHITE);
        r.strokeRoundRect(5, 5, 50, 30, 6, 2, new Dash(10, 6), BLACK);
        // along the top edge (row 5, from x = 11, where the edge leaves the corner): 10 on, 6 off
        int changes = 0;
        boolean was = grey(r, 11, 5) < 128;
        assertTrue(was, "the pattern starts drawn where the top edge starts");
        for (int x = 12; x < 49; x++) {
            boolean on = grey(r, x, 5) < 128;
            changes += on != was ? 1 : 0;
            was = on;
        }
        assertTrue(changes >= 4, "on and off along the top: " + changes + " changes");
        int inked = 0;
        for (int y = 0; y < 40; y++) {
            inked += grey(r, 5, y) < 128 ? 1 : 0;
        }
        assertTrue(inked > 6 && inked < 24, "the left side is dashed too: " + inked + " of 18 pixels");
    }

    @Test
    void bandsJoinWithoutASeam() {
        Consumer<Raster> paint = r -> {
            r.fillRoundRect(3.3, 2.7, 40.2, 30.9, 6, 0xff3366cc);
            r.strokeRoundRect(3.3, 2.7, 40.2, 30.9, 6, 1.5, new Dash(5, 3), 0xc0000000);
            r.strokeLine(0, 0, 47, 35, 2.5, null, 0x80ff8800);
        };
        int w = 48;
        int h = 36;
        Raster whole = band(w, h, WHITE);
        paint.accept(whole);
        for (int rows : new int[] {1, 5, 7}) {
            Raster b = new Raster(w, rows);
            for (int top = 0; top < h; top += rows) {
                b.moveTo(top, Math.min(rows, h - top), WHITE);
                paint.accept(b);
                for (int y = top; y < top + b.rows(); y++) {
                    for (int x = 0; x < w; x++) {
                        assertEquals(whole.argb(x, y), b.argb(x, y), "bands of " + rows + ": (" + x + ", " + y + ")");
                    }
                }
            }
        }
    }

    @Test
    void aMaskStretchedOnceIsTheMaskItself() {
        byte[] cov = new byte[12];
        for (int i = 0; i < cov.length; i++) {
            cov[i] = (byte) (i * 20);
        }
        Glyph g = new Glyph('x', 4, 0, 0, 4, 3, cov);
        Raster a = band(8, 6, WHITE);
        a.mask(g, 2, 1, BLACK);
        Raster b = band(8, 6, WHITE);
        b.maskScaled(g, 2, 1, 1, 1, BLACK);
        int[] pa = new int[48];
        int[] pb = new int[48];
        for (int i = 0; i < 48; i++) {
            pa[i] = a.argb(i % 8, i / 8);
            pb[i] = b.argb(i % 8, i / 8);
        }
        assertArrayEquals(pa, pb);
        assertEquals(255 - 220, grey(a, 5, 3), 1, "mask (3, 2) at (5, 3)");
        Raster clip = band(3, 2, WHITE);
        clip.mask(g, -2, -1, BLACK); // partly off the band: what is on it, nothing else
        assertEquals(255 - 120, grey(clip, 0, 0), 1);
    }

    @Test
    void shapesOffTheImageOrDegenerateDrawNothing() {
        Raster r = band(10, 10, WHITE);
        r.fillRoundRect(-50, -50, 20, 20, 4, BLACK);
        r.fillRoundRect(2, 2, -5, 5, 1, BLACK);
        r.fillRoundRect(Double.NaN, 2, 5, 5, 1, BLACK);
        r.strokeRoundRect(2, 2, 5, 5, 100, Double.NaN, null, BLACK);
        r.strokeLine(3, 3, 3, 3, 5, null, BLACK);
        r.strokeLine(0, Double.POSITIVE_INFINITY, 5, 5, 1, null, BLACK);
        r.fillRoundRect(1e12, 1e12, 1e13, 1e13, 0, BLACK);
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 10; x++) {
                assertEquals(WHITE, r.argb(x, y), "(" + x + ", " + y + ")");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new Dash(0, 3));
        assertThrows(IllegalArgumentException.class, () -> r.moveTo(0, 11, WHITE));
    }

    @Test
    void cssColours() {
        assertEquals(0xffffffff, CssColour.argb("#fff"));
        assertEquals(0xff0969da, CssColour.argb("#0969da"));
        assertEquals(0x0d0969da, CssColour.argb("#0969da0d"));
        assertEquals(0x88112233, CssColour.argb("#1238"));
        assertThrows(IllegalArgumentException.class, () -> CssColour.argb("red"));
        assertThrows(IllegalArgumentException.class, () -> CssColour.argb("#12345"));
        assertThrows(IllegalArgumentException.class, () -> CssColour.argb("#gggggg"));
    }
}
