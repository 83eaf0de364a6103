package dev.fabricscope.render.raster;

import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.GlyphVector;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Development tool: builds the bundled glyph atlas ({@link GlyphAtlas#RESOURCE}) from the DejaVu Sans font files with
 * Java2D (on the JDK, not in the command line's runtime). Each glyph's outline is filled anti-aliased at its size, the
 * pen at a whole pixel, unhinted; the advance is the font's own (fractional metrics). Run it after changing the
 * sizes or characters the cluster drawing uses:
 * {@code mvn -q -B -pl probe test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.fabricscope.render.raster.GlyphAtlasGenerator}; {@code GlyphAtlasTest} checks the committed
 * file against a fresh build.
 */
public final class GlyphAtlasGenerator {

    /** Where the atlas is committed, from the repository root or from probe/. */
    static final String RESOURCE_PATH = "src/main/resources/dev/fabricscope/render/raster/" + GlyphAtlas.RESOURCE;
    static final String FAMILY = "DejaVu Sans";
    static final String REGULAR_FILE = "DejaVuSans.ttf";
    static final String BOLD_FILE = "DejaVuSans-Bold.ttf";
    /** Pixels per unit the drawing is painted at ({@code RackPng.SCALE}). */
    static final int SCALE = 2;
    /** Text sizes of the cluster drawing ({@code RackLayout}), px before scaling; {@code RackPngTest} keeps them true. */
    static final int[] REGULAR_SIZES = {9, 10, 11, 12};
    static final int[] BOLD_SIZES = {11, 12, 13, 14, 16};
    /**
     * The characters beyond printable ASCII that the drawing writes itself: · (counts, rates), × (GPU counts), — (the
     * switch plane's line), … (a cut text). Anything else (from a file) is drawn as a box.
     */
    static final String EXTRA = "\u00b7\u00d7\u2014\u2026";

    private GlyphAtlasGenerator() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path regular = find(REGULAR_FILE).orElseThrow(() -> new IllegalStateException(REGULAR_FILE + " not installed"));
        Path bold = find(BOLD_FILE).orElseThrow(() -> new IllegalStateException(BOLD_FILE + " not installed"));
        Path out = Files.isDirectory(Path.of("probe")) ? Path.of("probe").resolve(RESOURCE_PATH) : Path.of(RESOURCE_PATH);
        byte[] atlas = build(regular, bold);
        Files.write(out, atlas);
        System.out.println("wrote " + out + ": " + atlas.length + " bytes from " + regular + " and " + bold);
    }

    /** The characters of every face: printable ASCII, then {@link #EXTRA}. */
    static List<Integer> characters() {
        List<Integer> out = new ArrayList<>();
        for (int c = 0x20; c < 0x7f; c++) {
            out.add(c);
        }
        EXTRA.codePoints().forEach(out::add);
        return out;
    }

    /** The installed font file {@code name} (a fontconfig or system font folder), if any. */
    static Optional<Path> find(String name) {
        String home = System.getProperty("user.home", "");
        List<Path> roots = List.of(Path.of("/usr/share/fonts"), Path.of("/usr/local/share/fonts"),
                Path.of(home, ".local/share/fonts"), Path.of(home, ".fonts"), Path.of("/Library/Fonts"),
                Path.of(home, "Library/Fonts"), Path.of("C:/Windows/Fonts"));
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root, 5)) {
                Optional<Path> hit = files.filter(p -> p.getFileName().toString().equals(name)).sorted().findFirst();
                if (hit.isPresent()) {
                    return hit;
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // an unreadable folder: look in the next one
            }
        }
        return Optional.empty();
    }

    /** The atlas file's bytes from the two font files. */
    static byte[] build(Path regular, Path bold) throws IOException, FontFormatException {
        Font plain = Font.createFont(Font.TRUETYPE_FONT, regular.toFile());
        Font heavy = Font.createFont(Font.TRUETYPE_FONT, bold.toFile());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream head = new DataOutputStream(bytes);
        head.writeInt(GlyphAtlas.MAGIC);
        head.writeInt(GlyphAtlas.VERSION);
        head.flush();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes, deflater))) {
            out.writeUTF(source(regular, bold));
            out.writeInt(REGULAR_SIZES.length + BOLD_SIZES.length);
            for (int size : REGULAR_SIZES) {
                face(out, plain, false, size * SCALE);
            }
            for (int size : BOLD_SIZES) {
                face(out, heavy, true, size * SCALE);
            }
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    /** "DejaVuSans.ttf sha256 …, DejaVuSans-Bold.ttf sha256 …": what the atlas was built from. */
    static String source(Path regular, Path bold) throws IOException {
        return FAMILY + ": " + regular.getFileName() + " sha256 " + sha256(regular) + ", " + bold.getFileName()
                + " sha256 " + sha256(bold);
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void face(DataOutputStream out, Font font, boolean bold, int pixelSize) throws IOException {
        Font sized = font.deriveFont((float) pixelSize);
        FontRenderContext frc = new FontRenderContext(null, true, true);
        List<Integer> chars = characters();
        out.writeUTF(FAMILY);
        out.writeBoolean(bold);
        out.writeInt(pixelSize);
        out.writeInt(chars.size());
        for (int cp : chars) {
            if (!sized.canDisplay(cp)) {
                throw new IllegalStateException(FAMILY + " has no glyph for U+" + Integer.toHexString(cp));
            }
            GlyphVector gv = sized.createGlyphVector(frc, new String(Character.toChars(cp)));
            Shape outline = gv.getGlyphOutline(0);
            double advance = gv.getGlyphMetrics(0).getAdvanceX();
            Rectangle2D b = outline.getBounds2D();
            int left = 0;
            int top = 0;
            int w = 0;
            int h = 0;
            byte[] mask = new byte[0];
            if (!b.isEmpty()) {
                left = (int) Math.floor(b.getMinX());
                top = (int) Math.floor(b.getMinY());
                w = (int) Math.ceil(b.getMaxX()) - left;
                h = (int) Math.ceil(b.getMaxY()) - top;
                mask = coverage(outline, left, top, w, h);
            }
            out.writeInt(cp);
            out.writeInt((int) Math.round(advance * 64));
            out.writeShort(left);
            out.writeShort(top);
            out.writeShort(w);
            out.writeShort(h);
            out.write(mask);
        }
    }

    /** The outline filled anti-aliased into a {@code w} × {@code h} mask whose top-left is ({@code left}, {@code top}). */
    private static byte[] coverage(Shape outline, int left, int top, int w, int h) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.setColor(java.awt.Color.WHITE);
        g.translate(-left, -top);
        g.fill(outline);
        g.dispose();
        byte[] mask = new byte[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                mask[y * w + x] = (byte) (img.getRGB(x, y) >>> 24);
            }
        }
        return mask;
    }
}
