package dev.fabricscope.render.rack;

import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Line;
import dev.fabricscope.render.rack.RackScene.Shape;
import dev.fabricscope.render.rack.RackScene.Text;
import dev.fabricscope.render.raster.CssColour;
import dev.fabricscope.render.raster.Dash;
import dev.fabricscope.render.raster.GlyphAtlas;
import dev.fabricscope.render.raster.PngEncoder;
import dev.fabricscope.render.raster.Raster;
import dev.fabricscope.render.raster.TextRun;

/**
 * The cluster drawing ({@link RackScene}) as a PNG, painted with no toolkit (so the command line's runtime, which has
 * no {@code java.desktop}, writes it too): the scene's shapes as {@link RackSvg} and the app's canvas draw them, at
 * twice the scene's size as the app's PNG export, text from the bundled DejaVu Sans glyphs. A text is set with the
 * font's own advances, and pressed to the width {@link RackScene#textWidth} estimates where it would be wider (the
 * layout cut it to fit that estimate), so it never runs past the room it was given. Painted in bands of rows, so a
 * drawing of many racks needs little memory beyond its compressed file.
 */
public final class RackPng {

    /** Pixels per scene unit, as the app's export ({@code PngWriter.writeRack}). */
    public static final double SCALE = 2;
    static final int BAND_ROWS = 64;
    static final Dash DASH = new Dash(5, 3);

    private RackPng() {
    }

    /** The PNG file of {@code s} at {@link #SCALE}. */
    public static byte[] render(RackScene s) {
        return render(s, SCALE);
    }

    public static byte[] render(RackScene s, double scale) {
        return render(s, scale, BAND_ROWS);
    }

    /** Painted {@code bandRows} rows at a time (the tests check that bands join without a seam). */
    static byte[] render(RackScene s, double scale, int bandRows) {
        int width = pixels(s.width() * scale);
        int height = pixels(s.height() * scale);
        GlyphAtlas atlas = GlyphAtlas.dejaVuSans();
        int background = CssColour.argb(s.background());
        PngEncoder png = new PngEncoder(width, height);
        Raster band = new Raster(width, Math.min(bandRows, height));
        for (int top = 0; top < height; top += bandRows) {
            band.moveTo(top, Math.min(bandRows, height - top), background);
            for (Shape shape : s.shapes()) {
                paint(band, shape, scale, atlas);
            }
            png.rows(band);
        }
        return png.finish();
    }

    /** Paints {@code shape} where it meets the band. */
    static void paint(Raster band, Shape shape, double k, GlyphAtlas atlas) {
        if (shape instanceof Box b) {
            double reach = b.strokeWidth() * k / 2 + 1;
            if (!meets(band, b.y() * k - reach, (b.y() + b.h()) * k + reach)) {
                return;
            }
            if (b.fill() != null) {
                band.fillRoundRect(b.x() * k, b.y() * k, b.w() * k, b.h() * k, b.radius() * k, CssColour.argb(b.fill()));
            }
            if (b.stroke() != null) {
                band.strokeRoundRect(b.x() * k, b.y() * k, b.w() * k, b.h() * k, b.radius() * k, b.strokeWidth() * k,
                        b.dashed() ? DASH.scaled(k) : null, CssColour.argb(b.stroke()));
            }
        } else if (shape instanceof Line l) {
            double reach = l.width() * k / 2 + 1;
            if (meets(band, Math.min(l.y1(), l.y2()) * k - reach, Math.max(l.y1(), l.y2()) * k + reach)) {
                band.strokeLine(l.x1() * k, l.y1() * k, l.x2() * k, l.y2() * k, l.width() * k,
                        l.dashed() ? DASH.scaled(k) : null, CssColour.argb(l.colour()));
            }
        } else if (shape instanceof Text t) {
            double px = t.size() * k;
            if (t.colour() != null && meets(band, t.y() * k - px * TextRun.ASCENT, t.y() * k + px * TextRun.DESCENT)) {
                text(band, t, k, atlas);
            }
        }
    }

    private static void text(Raster band, Text t, double k, GlyphAtlas atlas) {
        double px = t.size() * k;
        double perCharacter = RackScene.textWidth("x", px, t.bold());
        TextRun run = TextRun.of(atlas, t.text(), px, t.bold(), perCharacter);
        double room = RackScene.textWidth(t.text(), px, t.bold());
        double squeeze = run.width() > room ? room / run.width() : 1;
        double drawn = run.width() * squeeze;
        double left = switch (t.anchor()) {
            case START -> t.x() * k;
            case MIDDLE -> t.x() * k - drawn / 2;
            case END -> t.x() * k - drawn;
        };
        run.draw(band, left, t.y() * k, squeeze, CssColour.argb(t.colour()));
    }

    private static boolean meets(Raster band, double from, double to) {
        return to >= band.top() && from < band.top() + band.rows();
    }

    private static int pixels(double v) {
        if (!(v >= 0) || v > 1 << 20) {
            throw new IllegalArgumentException("a drawing " + v + " px on a side");
        }
        return Math.max(1, (int) Math.ceil(v));
    }
}
