package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster draw} and {@code cluster show --format html} on a SYNTHETIC GB200 NVL72 rack of 18 trays from the
 * gb200-nvl72-tray sample ({@link SyntheticCluster#nvl72Rack}: tray 7 with four links down, tray 12 in another clique).
 */
class ClusterDrawCommandTest {

    static final String LABEL = "nvidia.com/gpu.clique=00000000-0000-4000-8000-000000000001.32766";

    @Test
    void drawsTheRackAsOneDomainWithTwoOddTrays(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        Path svg = tmp.resolve("rack.svg");
        CliTest.Run r = CliTest.run("cluster", "draw", dir.toString(), "--out", svg.toString());
        assertEquals(ExitCodes.OK, r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("fabricscope: drew 2 NVLink domains on 1 NVLink fabric, 18 tray(s), 2 odd tray(s), 0 node(s) outside"),
                r.err());
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<?xml") && text.contains(LABEL), text.substring(0, 300));
        assertEquals(2, text.split("class=\"odd-tray\"", -1).length - 1);
        r.err().lines().forEach(l -> assertTrue(l.length() <= 120, l));
    }

    @Test
    void pngIsWrittenThroughTheOneWriterAtTwiceTheDrawingsSize(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        Path png = tmp.resolve("rack.PNG");
        Files.writeString(png, "an old file, replaced whole");
        CliTest.Run r = CliTest.run("cluster", "draw", dir.toString(), "--out", png.toString(), "--dark");
        assertEquals(ExitCodes.OK, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("2 odd tray(s)") && r.err().contains("rack.PNG"), r.err());
        assertEquals("", r.out(), "nothing binary on standard output");
        byte[] bytes = Files.readAllBytes(png);
        assertEquals(0x89, bytes[0] & 0xff);
        assertEquals("PNG", new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        CliTest.Run svg = CliTest.run("cluster", "draw", dir.toString(), "--out", "-");
        java.util.regex.Matcher size = java.util.regex.Pattern.compile("width=\"(\\d+)\" height=\"(\\d+)\"").matcher(svg.out());
        assertTrue(size.find(), svg.out().substring(0, 300));
        assertEquals(2 * Integer.parseInt(size.group(1)), img.getWidth(), "twice the SVG's width");
        assertEquals(2 * Integer.parseInt(size.group(2)), img.getHeight());
        assertEquals(dev.fabricscope.render.fabric.FabricPalette.DARK.background(),
                String.format("#%06x", img.getRGB(0, 0) & 0xffffff), "--dark: the dark background");
        try (var left = Files.list(tmp)) {
            assertEquals(List.of("rack", "rack.PNG"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file left beside it");
        }
    }

    @Test
    void anotherKindOfFileIsRefusedBeforeAnyWork(@TempDir Path tmp) throws Exception {
        SyntheticCluster.writeNvl72Racks(tmp.resolve("rack"), 1, false);
        Path jpg = tmp.resolve("rack.jpg");
        CliTest.Run r = CliTest.run("cluster", "draw", tmp.resolve("rack").toString(), "--out", jpg.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("name an .svg or a .png file"), r.err());
        assertFalse(Files.exists(jpg));
    }

    @Test
    void anUnreadableFileExitsFourAndTheOthersAreStillDrawn(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, false);
        Files.writeString(dir.resolve("broken.json"), "{\"gpus\": [");
        Path svg = tmp.resolve("rack.svg");
        CliTest.Run r = CliTest.run("cluster", "draw", dir.toString(), "--out", svg.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("18 tray(s), 0 odd tray(s), 0 node(s) outside any domain, 1 unreadable file(s)"), r.err());
        assertTrue(Files.readString(svg).contains(LABEL));
    }

    @Test
    void anEmptyFolderIsBadInput(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("empty"));
        CliTest.Run r = CliTest.run("cluster", "draw", tmp.resolve("empty").toString(), "--out", tmp.resolve("x.svg").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code(), r.err());
        assertFalse(Files.exists(tmp.resolve("x.svg")));
    }

    @Test
    void showAsHtmlEmbedsTheDrawingSelfContained(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString(), "--format", "html");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        String html = r.out();
        assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 100));
        int svg = html.indexOf("<svg xmlns=\"http://www.w3.org/2000/svg\"");
        assertTrue(svg > 0 && html.indexOf("</svg>") > svg, "the drawing inline");
        assertTrue(html.contains(LABEL));
        assertEquals(2, html.split("class=\"odd-tray\"", -1).length - 1);
        assertTrue(html.contains("<pre>18 nodes, 72 GPUs"), "the merged view as cluster show prints it");
        for (String fetch : new String[] {"<script", "<link", "src=", "href=", "url(", "@import"}) {
            assertFalse(html.contains(fetch), "self-contained: no " + fetch);
        }
        CliTest.Run bad = CliTest.run("cluster", "show", dir.toString(), "--format", "pdf");
        assertEquals(ExitCodes.USAGE, bad.code());
        assertTrue(bad.err().contains("the formats are text, json and html"), bad.err());
    }
}
