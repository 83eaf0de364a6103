package dev.fabricscope.render.rack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.rack.RackScene.Anchor;
import dev.fabricscope.render.rack.RackScene.Box;
import dev.fabricscope.render.rack.RackScene.Shape;
import dev.fabricscope.render.rack.RackScene.Text;
import dev.fabricscope.render.raster.CssColour;
import dev.fabricscope.render.raster.GlyphAtlas;
import dev.fabricscope.samples.SyntheticCluster;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster drawing as PNG ({@link RackPng}) of SYNTHETIC GB200 NVL72 racks ({@link SyntheticCluster#nvl72Rack}),
 * decoded with ImageIO: its size, the palette's colours where the scene puts them, and text ink where the texts are
 * and nowhere near the drawing's edges.
 */
class RackPngTest {

    static BufferedImage decode(byte[] png) throws Exception {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(img, "ImageIO reads the PNG");
        return img;
    }

    static int rgb(String css) {
        return CssColour.argb(css) & 0xffffff;
    }

    /** Pixel (scene units × scale) as 0xRRGGBB. */
    static int at(BufferedImage img, double x, double y) {
        return img.getRGB((int) Math.floor(x * RackPng.SCALE), (int) Math.floor(y * RackPng.SCALE)) & 0xffffff;
    }

    static List<Box> boxes(RackScene s, String role) {
        return s.shapes().stream().filter(x -> x instanceof Box b && b.role().equals(role)).map(x -> (Box) x).toList();
    }

    static List<Text> texts(RackScene s, String role) {
        return s.shapes().stream().filter(x -> x instanceof Text t && t.role().equals(role)).map(x -> (Text) x).toList();
    }

    @Test
    void oneRackAtTwiceItsSizeWithThePalettesColoursAndItsText(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("nvl72-rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        RackScene scene = RackLayout.layout(RackDrawingTest.model(dir), FabricPalette.LIGHT);
        byte[] png = RackPng.render(scene);
        Files.write(Path.of("target", "rack-drawing-1-raster.png"), png); // to look at
        BufferedImage img = decode(png);
        FabricPalette p = FabricPalette.LIGHT;
        assertEquals((int) Math.ceil(scene.width() * 2), img.getWidth());
        assertEquals((int) Math.ceil(scene.height() * 2), img.getHeight());
        assertEquals(rgb(p.background()), img.getRGB(0, 0) & 0xffffff, "background at the top-left corner");
        assertEquals(rgb(p.background()), img.getRGB(img.getWidth() - 1, img.getHeight() - 1) & 0xffffff);
        assertEquals(255, img.getRGB(0, 0) >>> 24, "opaque");

        Box gpu = boxes(scene, "gpu").get(0);
        // the box's middle, above its label (label ink starts about 7 units above its baseline, 14 below the box's top)
        assertEquals(rgb(p.gpuFill()), at(img, gpu.x() + gpu.w() / 2, gpu.y() + 3), "a GPU box's fill inside it");
        assertEquals(rgb(p.gpuFill()), at(img, gpu.x() + 2.5, gpu.y() + gpu.h() / 2), "left of its label");
        assertEquals(rgb(p.gpuStroke()), at(img, gpu.x() + gpu.w() / 2, gpu.y()), "its outline");

        List<Box> odd = boxes(scene, "odd-tray");
        assertEquals(2, odd.size());
        for (Box b : odd) {
            assertEquals(rgb(p.warnStroke()), at(img, b.x() + b.w() / 2, b.y()), "an odd tray outlined in the warning colour");
        }
        Box plain = boxes(scene, "tray").get(0);
        assertEquals(rgb(p.labelStroke()), at(img, plain.x() + plain.w() / 2, plain.y()), "a plain tray is not");

        // a bundle's line at its middle
        RackScene.Line bundle = scene.shapes().stream().filter(s -> s instanceof RackScene.Line).map(s -> (RackScene.Line) s)
                .findFirst().orElseThrow();
        assertEquals(rgb(p.nvlink()), at(img, (bundle.x1() + bundle.x2()) / 2, bundle.y1()));

        Text name = texts(scene, "tray-name").get(0);
        assertTrue(ink(img, name, rgb(p.text())) > 40, "the tray's name is drawn where it stands");
        Text title = texts(scene, "title").get(0);
        assertTrue(ink(img, title, rgb(p.text())) > 200, "the title is drawn");
        assertTrue(exactInk(img, title, rgb(p.text())), "bold stems reach the text colour itself");
        edgesAreBackground(img, scene, rgb(p.background()));
    }

    @Test
    void eightRacksDarkAreOneImageOfEveryPanel(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("nvl72-8-racks");
        SyntheticCluster.writeNvl72Racks(dir, 8, true);
        RackScene scene = RackLayout.layout(RackDrawingTest.model(dir), FabricPalette.DARK);
        byte[] png = RackPng.render(scene);
        Files.write(Path.of("target", "rack-drawing-8-raster.png"), png); // to look at
        BufferedImage img = decode(png);
        FabricPalette p = FabricPalette.DARK;
        assertEquals((int) Math.ceil(scene.width() * 2), img.getWidth());
        assertEquals((int) Math.ceil(scene.height() * 2), img.getHeight());
        assertEquals(rgb(p.background()), img.getRGB(0, 0) & 0xffffff);
        for (Text name : texts(scene, "tray-name")) {
            assertTrue(ink(img, name, rgb(p.text())) > 40, "tray " + name.text() + " is drawn");
        }
        List<Box> gpus = boxes(scene, "gpu");
        assertEquals(8 * 72, gpus.size());
        Box last = gpus.get(gpus.size() - 1);
        assertEquals(rgb(p.gpuFill()), at(img, last.x() + last.w() / 2, last.y() + 3), "the last panel's last GPU");
        edgesAreBackground(img, scene, rgb(p.background()));
    }

    @Test
    void bandsJoinSeamlessly(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        RackScene scene = RackLayout.layout(RackDrawingTest.model(dir), FabricPalette.LIGHT);
        BufferedImage banded = decode(RackPng.render(scene, 2, 7)); // bands cut through every row of trays
        BufferedImage whole = decode(RackPng.render(scene, 2, (int) Math.ceil(scene.height() * 2)));
        int[] a = banded.getRGB(0, 0, banded.getWidth(), banded.getHeight(), null, 0, banded.getWidth());
        int[] b = whole.getRGB(0, 0, whole.getWidth(), whole.getHeight(), null, 0, whole.getWidth());
        assertArrayEquals(b, a, "painted band by band or at once, the same pixels");
    }

    @Test
    void everyTextSizeTheDrawingUsesIsInTheAtlas(@TempDir Path tmp) throws Exception {
        SyntheticCluster.writeNvl72Racks(tmp.resolve("racks"), 2, true);
        SyntheticCluster.write(tmp.resolve("racks"), SyntheticCluster.node(SyntheticCluster.sample("dgx-h100"), "dgx-1", 900),
                "dgx-1.json");
        var h100 = SyntheticCluster.sample("dgx-h100");
        for (int i = 1; i <= 2; i++) {
            SyntheticCluster.write(tmp.resolve("h100"), SyntheticCluster.withFabric(SyntheticCluster.node(h100, "h100-" + i, i),
                    "00000000-0000-4000-8000-0000000000aa", 5), "h" + i + ".json");
        }
        Set<String> missing = new TreeSet<>();
        Set<String> used = new TreeSet<>();
        GlyphAtlas atlas = GlyphAtlas.dejaVuSans();
        List<RackScene> scenes = new ArrayList<>();
        for (String folder : List.of("racks", "h100")) {
            scenes.add(RackLayout.layout(RackDrawingTest.model(tmp.resolve(folder)), FabricPalette.LIGHT));
        }
        scenes.add(RackLayout.layout(new RackModel("empty", List.of(), List.of()), FabricPalette.LIGHT)); // "No readable…"
        for (RackScene s : scenes) {
            for (Shape shape : s.shapes()) {
                if (shape instanceof Text t) {
                    String face = (t.bold() ? "bold " : "") + t.size();
                    used.add(face);
                    if (atlas.face(t.bold(), t.size() * RackPng.SCALE).scale() != 1) {
                        missing.add(face);
                    }
                    t.text().codePoints().filter(c -> c >= 0x80 && atlas.face(t.bold(), t.size() * 2).face().glyph(c) == null)
                            .forEach(c -> missing.add("U+" + Integer.toHexString(c) + " in " + t.role()));
                }
            }
        }
        assertTrue(used.size() >= 8, "the scenes use the drawing's sizes: " + used);
        assertEquals(Set.of(), missing, "sizes and characters the atlas lacks: run GlyphAtlasGenerator");
    }

    @Test
    void aTextWiderThanItsEstimateIsPressedIntoIt() throws Exception {
        // "W" is wider in DejaVu Sans than the 0.68 em a bold character is counted
        String wide = "WWWWWWWWWW";
        List<Shape> shapes = new ArrayList<>();
        Text start = new Text(10, 30, wide, 12, true, "#000000", Anchor.START, "x");
        Text middle = new Text(150, 60, wide, 12, true, "#000000", Anchor.MIDDLE, "x");
        Text end = new Text(290, 90, wide, 12, true, "#000000", Anchor.END, "x");
        shapes.addAll(List.of(start, middle, end));
        RackScene s = new RackScene(300, 100, "#ffffff", shapes, List.of());
        BufferedImage img = decode(RackPng.render(s));
        for (Text t : List.of(start, middle, end)) {
            int[] span = inkColumns(img, t);
            assertTrue(span[0] >= Math.floor(t.left() * 2) - 1 && span[1] <= Math.ceil(t.right() * 2) + 1,
                    t.anchor() + ": ink from " + span[0] + " to " + span[1] + " px, room " + t.left() * 2 + " to " + t.right() * 2);
            assertTrue(span[1] - span[0] > (t.right() - t.left()) * 2 * 0.9, "and uses the room: " + span[0] + ".." + span[1]);
        }
    }

    @Test
    void aCharacterTheAtlasLacksIsABox() throws Exception {
        Text t = new Text(10, 30, "\u4e2d", 12, false, "#000000", Anchor.START, "x");
        BufferedImage img = decode(RackPng.render(new RackScene(60, 40, "#ffffff", List.of(t), List.of())));
        int[] span = inkColumns(img, t);
        assertTrue(span[1] - span[0] >= 8, "a visible box: " + span[0] + ".." + span[1]);
        // a box, not a blob: its middle is empty
        double mid = (span[0] + span[1]) / 2.0;
        assertEquals(0xffffff, img.getRGB((int) mid, (int) ((t.y() - t.size() * 0.36) * 2)) & 0xffffff);
    }

    /** Pieces of hostile text: controls, invisible and bidi characters, emoji (pairs, sequences, flags), lone halves. */
    static final String[] HOSTILE = {"\u0000", "\u0007", "\u001b[31m", "\t", "\n", "\r", "\u007f", "\u0085", "\u00a0",
        "\u200b", "\u200d", "\u202e", "\u2028", "\ufeff", "\ufffd", "\ud83d\ude00",
        "\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67", "\ud83c\uddfa\ud83c\uddf8", "\ud800", "\udc00", "e\u0301",
        "\u4e2d\u6587", "\u0627\u0644\u0639", "\u00b7", "\u2026", "W", "<b>&amp;", "%s%n", "x".repeat(5000),
        "\ud83d\ude00".repeat(3000)};

    @Test
    void hostileTextNeverThrowsAtAnySizePlaceOrAnchor() throws Exception {
        double[] sizes = {9, 10, 11, 12, 13, 14, 16, 7.5, 15, 40};
        java.util.Random random = new java.util.Random(30);
        for (int round = 0; round < 40; round++) {
            List<Shape> shapes = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                StringBuilder text = new StringBuilder();
                for (int k = random.nextInt(6); k >= 0; k--) {
                    text.append(HOSTILE[random.nextInt(HOSTILE.length)]);
                }
                shapes.add(new Text(random.nextDouble() * 260 - 30, random.nextDouble() * 140 - 20, text.toString(),
                        sizes[random.nextInt(sizes.length)], random.nextBoolean(), "#1f2328",
                        Anchor.values()[random.nextInt(3)], "x"));
            }
            RackScene s = new RackScene(200, 100, "#ffffff", shapes, List.of());
            BufferedImage img = decode(RackPng.render(s));
            assertEquals(400, img.getWidth());
            assertEquals(200, img.getHeight());
        }
    }

    @Test
    void hostileNamesFromFilesAreDrawnInsideTheDrawing(@TempDir Path dir) throws Exception {
        var tray = SyntheticCluster.sample("gb200-nvl72-tray");
        // a file holds no lone surrogate (its UTF-8 cannot): the rest, each with a neighbour
        List<String> valid = java.util.Arrays.stream(HOSTILE).filter(h -> !h.equals("\ud800") && !h.equals("\udc00")).toList();
        for (int i = 0; i < valid.size(); i++) {
            String host = "n" + i + valid.get(i) + valid.get((i + 7) % valid.size());
            SyntheticCluster.write(dir, SyntheticCluster.withFabric(SyntheticCluster.node(tray, host, i + 1),
                    "<uuid>&\u0007" + valid.get(i), 9), "n" + i + ".json");
        }
        SyntheticCluster.write(dir, SyntheticCluster.node(SyntheticCluster.sample("dgx-h100"), "dgx\u202e" + "W".repeat(300), 900),
                "dgx.json");
        RackScene scene = RackLayout.layout(RackDrawingTest.model(dir), FabricPalette.LIGHT);
        byte[] png = RackPng.render(scene);
        Files.write(Path.of("target", "rack-drawing-hostile-raster.png"), png); // to look at
        BufferedImage img = decode(png);
        assertEquals((int) Math.ceil(scene.width() * 2), img.getWidth());
        edgesAreBackground(img, scene, rgb(FabricPalette.LIGHT.background()));
        for (Text t : texts(scene, "tray-name")) {
            // a window 5 units wider than its room each side (the GPU boxes start 12 units after it)
            int[] span = inkColumns(img, t, rgb(FabricPalette.LIGHT.text()), (int) (t.left() * 2) - 10,
                    (int) (t.right() * 2) + 10);
            assertTrue(span[0] >= Math.floor(t.left() * 2) - 1 && span[1] <= Math.ceil(t.right() * 2) + 1,
                    "the name keeps to its room: " + t);
        }
    }

    /** Text-coloured (or near) pixels inside the text's box as {@link RackScene#textWidth} estimates it. */
    static int ink(BufferedImage img, Text t, int colour) {
        int n = 0;
        for (int y = (int) ((t.y() - t.size()) * 2); y < (int) ((t.y() + t.size() * 0.25) * 2); y++) {
            for (int x = (int) (t.left() * 2); x < (int) Math.ceil(t.right() * 2); x++) {
                if (close(img.getRGB(x, y) & 0xffffff, colour, 60)) {
                    n++;
                }
            }
        }
        return n;
    }

    static boolean exactInk(BufferedImage img, Text t, int colour) {
        for (int y = (int) ((t.y() - t.size()) * 2); y < (int) (t.y() * 2); y++) {
            for (int x = (int) (t.left() * 2); x < (int) Math.ceil(t.right() * 2); x++) {
                if ((img.getRGB(x, y) & 0xffffff) == colour) {
                    return true;
                }
            }
        }
        return false;
    }

    /** First and last column with ink (not the white background) in the text's line. */
    static int[] inkColumns(BufferedImage img, Text t) {
        return inkColumns(img, t, -1, 0, img.getWidth());
    }

    /**
     * First and last column in the text's line, between columns {@code from} and {@code to}, with ink of {@code colour}
     * (or near it; -1: anything not white).
     */
    static int[] inkColumns(BufferedImage img, Text t, int colour, int from, int to) {
        int first = Integer.MAX_VALUE;
        int last = -1;
        for (int y = Math.max(0, (int) ((t.y() - t.size() * 1.2) * 2)); y < Math.min(img.getHeight(), (t.y() + t.size() * 0.4) * 2); y++) {
            for (int x = Math.max(0, from); x < Math.min(img.getWidth(), to); x++) {
                int p = img.getRGB(x, y) & 0xffffff;
                if (colour < 0 ? p != 0xffffff : close(p, colour, 40)) {
                    first = Math.min(first, x);
                    last = Math.max(last, x);
                }
            }
        }
        return new int[] {first, last};
    }

    /** Nothing at all in the margin round the drawing: every pixel there is the background. */
    static void edgesAreBackground(BufferedImage img, RackScene scene, int background) {
        int margin = (int) ((RackLayout.MARGIN - 2) * RackPng.SCALE);
        for (int y = 0; y < img.getHeight(); y++) {
            boolean edgeRow = y < margin || y >= img.getHeight() - margin;
            for (int x = 0; x < img.getWidth(); x++) {
                if (edgeRow || x < margin || x >= img.getWidth() - margin) {
                    assertEquals(background, img.getRGB(x, y) & 0xffffff, "ink at (" + x + ", " + y + "), in the margin");
                }
            }
        }
    }

    static boolean close(int a, int b, int tolerance) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs((a >> shift & 0xff) - (b >> shift & 0xff)) > tolerance) {
                return false;
            }
        }
        return true;
    }
}
