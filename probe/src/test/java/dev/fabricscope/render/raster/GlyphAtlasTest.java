package dev.fabricscope.render.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bundled glyph atlas: it is what {@link GlyphAtlasGenerator} makes from the installed DejaVu Sans (skipped,
 * saying why, where the font is not installed or is another release), it holds every character and size the drawing
 * needs, and a damaged atlas is refused in words.
 */
class GlyphAtlasTest {

    static byte[] committed() throws Exception {
        try (InputStream in = GlyphAtlas.class.getResourceAsStream(GlyphAtlas.RESOURCE)) {
            assertTrue(in != null, "the atlas is on the class path");
            return in.readAllBytes();
        }
    }

    @Test
    void theCommittedAtlasIsWhatTheGeneratorMakesFromTheFont() throws Exception {
        Optional<Path> regular = GlyphAtlasGenerator.find(GlyphAtlasGenerator.REGULAR_FILE);
        Optional<Path> bold = GlyphAtlasGenerator.find(GlyphAtlasGenerator.BOLD_FILE);
        assumeTrue(regular.isPresent() && bold.isPresent(), "DejaVu Sans is not installed here (fc-list | grep -i dejavu"
                + " finds no DejaVuSans.ttf and DejaVuSans-Bold.ttf; Debian: fonts-dejavu-core): the atlas cannot be rebuilt");
        GlyphAtlas mine = GlyphAtlas.read(committed());
        String source = GlyphAtlasGenerator.source(regular.get(), bold.get());
        assumeTrue(source.equals(mine.source()), "the installed DejaVu Sans is another release than the atlas was made"
                + " from (" + source + " against " + mine.source() + "): not compared");
        GlyphAtlas fresh = GlyphAtlas.read(GlyphAtlasGenerator.build(regular.get(), bold.get()));
        assertEquals(fresh.faces().size(), mine.faces().size(), "faces");
        List<String> differences = new ArrayList<>();
        for (int f = 0; f < fresh.faces().size(); f++) {
            GlyphAtlas.Face a = fresh.faces().get(f);
            GlyphAtlas.Face b = mine.faces().get(f);
            assertEquals(a.bold() + " " + a.pixelSize(), b.bold() + " " + b.pixelSize(), "face " + f);
            assertEquals(a.glyphs().keySet(), b.glyphs().keySet(), "characters of face " + f);
            for (int cp : a.glyphs().keySet()) {
                Glyph x = a.glyph(cp);
                Glyph y = b.glyph(cp);
                // the same font and rasterizer give the same bytes; another JDK's anti-aliasing may differ by a level or two
                if (x.advance() != y.advance() || x.maxDifference(y) > 2) {
                    differences.add((a.bold() ? "bold " : "") + a.pixelSize() + " px " + x + " vs " + y);
                }
            }
        }
        assertEquals(List.of(), differences.subList(0, Math.min(5, differences.size())),
                differences.size() + " glyphs differ from a fresh build: run GlyphAtlasGenerator and commit the atlas");
    }

    @Test
    void everyFaceHasEveryCharacterOfTheDrawing() throws Exception {
        GlyphAtlas atlas = GlyphAtlas.dejaVuSans();
        assertEquals(GlyphAtlasGenerator.REGULAR_SIZES.length + GlyphAtlasGenerator.BOLD_SIZES.length, atlas.faces().size());
        for (int size : GlyphAtlasGenerator.REGULAR_SIZES) {
            assertEquals(1.0, atlas.face(false, size * 2.0).scale(), "regular " + size);
        }
        for (int size : GlyphAtlasGenerator.BOLD_SIZES) {
            assertEquals(1.0, atlas.face(true, size * 2.0).scale(), "bold " + size);
        }
        for (GlyphAtlas.Face f : atlas.faces()) {
            for (int cp : GlyphAtlasGenerator.characters()) {
                Glyph g = f.glyph(cp);
                assertTrue(g != null && g.advance() > 0, f.pixelSize() + " px lacks U+" + Integer.toHexString(cp));
                assertTrue(cp == ' ' || g.width() * g.height() > 0, "U+" + Integer.toHexString(cp) + " has ink");
            }
            Glyph m = f.glyph('M');
            // DejaVu Sans's M is 0.863 em wide (bold 0.995), its cap height 0.729 em
            assertEquals(f.pixelSize() * (f.bold() ? 0.995 : 0.863), m.advance(), 0.05 * f.pixelSize(), "advance of M");
            assertEquals(f.pixelSize() * 0.729, -m.top(), 1.5, "M stands on the baseline, cap height high");
        }
        assertTrue(atlas.source().contains("DejaVuSans.ttf sha256 "), atlas.source());
        assertTrue(committed().length < 120_000, "compact: " + committed().length + " bytes");
    }

    @Test
    void aDamagedAtlasIsRefusedInWords() throws Exception {
        byte[] good = committed();
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
                () -> GlyphAtlas.read(Arrays.copyOf(good, good.length / 2)));
        assertTrue(cut.getMessage().contains("glyph atlas"), cut.getMessage());
        byte[] magic = good.clone();
        magic[0] = 'X';
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GlyphAtlas.read(magic)).getMessage().contains("magic"));
        byte[] version = good.clone();
        version[7] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GlyphAtlas.read(version)).getMessage()
                .contains("version 9"));
        for (int at = 8; at < good.length; at += 997) {
            byte[] flipped = good.clone();
            flipped[at] ^= 0x5a;
            try {
                GlyphAtlas.read(flipped); // a flip the deflate stream does not notice is read as other masks
            } catch (IllegalArgumentException expected) {
                // refused in words: fine
            }
        }
    }
}
