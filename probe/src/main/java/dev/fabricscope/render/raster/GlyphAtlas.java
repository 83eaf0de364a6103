package dev.fabricscope.render.raster;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.InflaterInputStream;

/**
 * Glyph masks of a typeface at a few pixel sizes, read from a resource built at development time (so that text is
 * drawn without a font engine). The bundled atlas ({@link #dejaVuSans()}) holds DejaVu Sans and DejaVu Sans Bold at
 * the sizes of the cluster drawing painted at scale 2; it is made by {@code GlyphAtlasGenerator} (probe's tests) from
 * the font files, whose licence is in {@code dejavu-sans.atlas.NOTICE} beside it.
 *
 * <p>Format (big-endian, as {@link java.io.DataOutput} writes): int {@link #MAGIC}, int {@link #VERSION}, then a
 * deflate stream of: UTF source (the font files and their SHA-256), int faces, and per face UTF family, boolean
 * bold, int pixel size, int glyphs, and per glyph int code point, int advance in 1/64 px, short left, short top,
 * short width, short height and width × height coverage bytes, row by row.
 */
public final class GlyphAtlas {

    /** {@code FSGA}. */
    public static final int MAGIC = 0x46534741;
    public static final int VERSION = 1;
    /** The bundled atlas, beside this class. */
    public static final String RESOURCE = "dejavu-sans.atlas";

    /** One weight of the typeface at one pixel size. */
    public record Face(String family, boolean bold, int pixelSize, Map<Integer, Glyph> glyphs) {
        public Face {
            glyphs = Map.copyOf(glyphs);
        }

        /** The glyph of {@code codePoint}, or null when the atlas has none. */
        public Glyph glyph(int codePoint) {
            return glyphs.get(codePoint);
        }
    }

    /** A face to draw text of some size with: the face and how many times its size to draw it (1 when it has it). */
    public record Sized(Face face, double scale) {
    }

    private final String source;
    private final List<Face> faces;

    public GlyphAtlas(String source, List<Face> faces) {
        this.source = source;
        this.faces = List.copyOf(faces);
    }

    /** Where the masks come from: the font files and their SHA-256. */
    public String source() {
        return source;
    }

    public List<Face> faces() {
        return faces;
    }

    /**
     * The face for text of {@code pixelSize} px: the atlas's face of that weight and size, else the nearest size of
     * that weight, scaled (blurrier; the tests hold the drawing to the sizes the atlas has).
     */
    public Sized face(boolean bold, double pixelSize) {
        Face best = faces.stream().filter(f -> f.bold() == bold)
                .min(Comparator.comparingDouble((Face f) -> Math.abs(f.pixelSize() - pixelSize)))
                .orElseGet(() -> faces.get(0));
        return new Sized(best, best.pixelSize() == pixelSize ? 1 : pixelSize / best.pixelSize());
    }

    /** The bundled DejaVu Sans atlas, read once. */
    public static GlyphAtlas dejaVuSans() {
        return Bundled.ATLAS;
    }

    private static final class Bundled {
        static final GlyphAtlas ATLAS = load();

        private static GlyphAtlas load() {
            try (InputStream in = GlyphAtlas.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the glyph atlas " + RESOURCE + " is missing from the build");
                }
                return read(in.readAllBytes());
            } catch (IOException e) {
                throw new IllegalStateException("the glyph atlas " + RESOURCE + " cannot be read: " + e.getMessage(), e);
            }
        }
    }

    /** An atlas from its bytes; a malformed one is an {@link IllegalArgumentException} saying where. */
    public static GlyphAtlas read(byte[] bytes) {
        try (DataInputStream head = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (head.readInt() != MAGIC) {
                throw new IllegalArgumentException("not a glyph atlas (no FSGA magic)");
            }
            int version = head.readInt();
            if (version != VERSION) {
                throw new IllegalArgumentException("glyph atlas version " + version + ", this build reads " + VERSION);
            }
            DataInputStream in = new DataInputStream(new InflaterInputStream(head));
            String source = in.readUTF();
            int faceCount = in.readInt();
            check(faceCount >= 1 && faceCount <= 256, "face count " + faceCount);
            List<Face> faces = new ArrayList<>();
            for (int f = 0; f < faceCount; f++) {
                String family = in.readUTF();
                boolean bold = in.readBoolean();
                int size = in.readInt();
                int glyphCount = in.readInt();
                check(size >= 1 && size <= 1024 && glyphCount >= 0 && glyphCount <= 65536, "face " + f + ": size " + size
                        + ", " + glyphCount + " glyphs");
                Map<Integer, Glyph> glyphs = new LinkedHashMap<>();
                for (int g = 0; g < glyphCount; g++) {
                    int codePoint = in.readInt();
                    double advance = in.readInt() / 64.0;
                    int left = in.readShort();
                    int top = in.readShort();
                    int w = in.readShort();
                    int h = in.readShort();
                    check(w >= 0 && h >= 0 && w <= 4 * size && h <= 4 * size, "glyph U+" + Integer.toHexString(codePoint)
                            + " of " + w + "×" + h);
                    byte[] mask = new byte[w * h];
                    in.readFully(mask);
                    glyphs.put(codePoint, new Glyph(codePoint, advance, left, top, w, h, mask));
                }
                faces.add(new Face(family, bold, size, glyphs));
            }
            return new GlyphAtlas(source, faces);
        } catch (IOException e) {
            throw new IllegalArgumentException("glyph atlas cut short or corrupt: " + e.getMessage(), e);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException("glyph atlas: implausible " + what);
        }
    }
}
