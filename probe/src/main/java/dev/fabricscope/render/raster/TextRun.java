package dev.fabricscope.render.raster;

/**
 * One line of text set in a face of a {@link GlyphAtlas}: each character's glyph and pen position, and the line's
 * width. A character the atlas lacks (a control character, an emoji, a lone surrogate, a letter of another script) is
 * drawn as an outlined box {@code unknownAdvance} px wide, so that it shows and is never silently dropped.
 */
public final class TextRun {

    /** Height of a box for a missing character, and where ink may reach above and below the baseline, in em. */
    static final double BOX_HEIGHT = 0.72;
    public static final double ASCENT = 1.0;
    public static final double DESCENT = 0.3;

    private final GlyphAtlas.Sized sized;
    private final double pixelSize;
    private final Glyph[] glyphs;
    private final double[] pen;
    private final double[] advance;
    private final double width;

    private TextRun(GlyphAtlas.Sized sized, double pixelSize, Glyph[] glyphs, double[] pen, double[] advance,
                    double width) {
        this.sized = sized;
        this.pixelSize = pixelSize;
        this.glyphs = glyphs;
        this.pen = pen;
        this.advance = advance;
        this.width = width;
    }

    /** {@code text} at {@code pixelSize} px in the atlas's regular or bold face. */
    public static TextRun of(GlyphAtlas atlas, String text, double pixelSize, boolean bold, double unknownAdvance) {
        GlyphAtlas.Sized sized = atlas.face(bold, pixelSize);
        int n = text.codePointCount(0, text.length());
        Glyph[] glyphs = new Glyph[n];
        double[] pen = new double[n];
        double[] advance = new double[n];
        double x = 0;
        int i = 0;
        for (int at = 0; at < text.length(); i++) {
            int cp = text.codePointAt(at);
            at += Character.charCount(cp);
            Glyph g = sized.face().glyph(cp);
            glyphs[i] = g;
            pen[i] = x;
            advance[i] = g == null ? unknownAdvance : g.advance() * sized.scale();
            x += advance[i];
        }
        return new TextRun(sized, pixelSize, glyphs, pen, advance, x);
    }

    /** Sum of the advances, px. */
    public double width() {
        return width;
    }

    /** Characters drawn as a box: the atlas has no glyph for them. */
    public int missing() {
        int n = 0;
        for (Glyph g : glyphs) {
            n += g == null ? 1 : 0;
        }
        return n;
    }

    /**
     * Paints the run with its pen starting at {@code left} on {@code baseline}, every advance times {@code squeeze}
     * (1: as set; less: narrower, to keep to a width the text was cut for), the glyphs narrowed as much. Glyphs at
     * their own size land on whole pixels, as the atlas rendered them; others are resampled.
     */
    public void draw(Raster r, double left, double baseline, double squeeze, int argb) {
        long base = Math.round(baseline);
        for (int i = 0; i < glyphs.length; i++) {
            double x = left + pen[i] * squeeze;
            Glyph g = glyphs[i];
            if (g == null) {
                missingBox(r, x, baseline, advance[i] * squeeze, argb);
            } else if (sized.scale() == 1 && squeeze == 1) {
                r.mask(g, (int) Math.round(x) + g.left(), (int) base + g.top(), argb);
            } else {
                double across = sized.scale() * squeeze;
                r.maskScaled(g, x + g.left() * across, base + g.top() * sized.scale(), across, sized.scale(), argb);
            }
        }
    }

    private void missingBox(Raster r, double x, double baseline, double room, int argb) {
        double line = Math.max(1, pixelSize / 14);
        double w = room * 0.8 - line;
        double h = pixelSize * BOX_HEIGHT - line;
        if (w > 0 && h > 0) {
            r.strokeRoundRect(x + room * 0.1 + line / 2, baseline - pixelSize * BOX_HEIGHT + line / 2, w, h, 0, line,
                    null, argb);
        }
    }
}
