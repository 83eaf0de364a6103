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
        assertTrue(r.err().startsWith("fabricscope: drew 1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays, 0 node(s) outside"),
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
        assertTrue(r.err().contains("2 odd trays") && r.err().contains("rack.PNG"), r.err());
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
        assertTrue(r.err().replaceAll("\\s+", " ").contains("18 trays · 72 GPUs · 1 clique · 0 odd trays, 0 node(s) outside any"
                + " domain, 1 unreadable file(s)"), r.err());
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

    /**
     * The test folder is ONE NVLink domain of 72 GPUs (one cluster UUID), partitioned into 2 cliques, with the
     * odd trays rack1-tray07 (links down) and rack1-tray12 (the other clique): in the text, the JSON and the drawing alike.
     */
    @Test
    void theTestFolderIsOneDomainOf72GpusInTwoCliquesInShowTextJsonAndTheDrawing(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rack");
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        String uuid = "00000000-0000-4000-8000-000000000001";

        CliTest.Run text = CliTest.run("cluster", "show", dir.toString());
        assertEquals(ExitCodes.OK, text.code(), text.err());
        String t = text.out();
        assertTrue(t.contains("18 node(s), 72 GPU(s), 1 NVLink domain(s) (2 MNNVL cliques)"), t);
        List<String> rows = t.lines().toList();
        assertTrue(rows.stream().anyMatch(l -> l.matches("  " + uuid + " +MNNVL domain, 2 cliques +18 +72")), t);
        assertTrue(rows.stream().anyMatch(l -> l.matches("    " + uuid + "\\.32766 +clique 32766 \\(main\\) +17 +68 +rack1-tray01,.*")), t);
        assertTrue(rows.stream().anyMatch(l -> l.matches("    " + uuid + "\\.32767 +clique 32767 +1 +4 +rack1-tray12")), t);
        assertTrue(rows.stream().anyMatch(l -> l.matches(" +GPU0: 18, GPU1: 18, GPU2: 14, GPU3: 18: rack1-tray07")),
                "the tray with four links down is the one difference: " + t);

        CliTest.Run json = CliTest.run("cluster", "show", dir.toString(), "--json");
        assertEquals(ExitCodes.OK, json.code(), json.err());
        com.fasterxml.jackson.databind.JsonNode v = dev.fabricscope.json.Json.mapper().readTree(json.out());
        assertEquals(1, v.get("domains").size());
        com.fasterxml.jackson.databind.JsonNode d = v.get("domains").get(0);
        assertEquals(uuid, d.get("id").asText());
        assertEquals(uuid, d.get("clusterUuid").asText());
        assertEquals(72, d.get("gpus").asInt());
        assertEquals(LABEL, d.get("gfdLabel").asText(), "the domain as GFD names it: its main clique");
        assertEquals(2, d.get("cliques").size());
        assertEquals(32766, d.get("cliques").get(0).get("cliqueId").asLong());
        assertEquals(17, d.get("cliques").get(0).get("nodes").size());
        assertEquals(68, d.get("cliques").get(0).get("gpus").asInt());
        assertEquals(LABEL, d.get("cliques").get(0).get("gfdLabel").asText());
        assertEquals(32767, d.get("cliques").get(1).get("cliqueId").asLong());
        assertEquals("[\"rack1-tray12\"]", d.get("cliques").get(1).get("nodes").toString());
        assertEquals("nvidia.com/gpu.clique=" + uuid + ".32767", d.get("cliques").get(1).get("gfdLabel").asText());
        com.fasterxml.jackson.databind.JsonNode links = v.get("inconsistencies").get(0);
        assertEquals("active NVLinks per GPU", links.get("field").asText());
        assertEquals("[\"rack1-tray07\"]", links.get("outliers").toString());

        CliTest.Run svg = CliTest.run("cluster", "draw", dir.toString(), "--out", "-");
        assertEquals(ExitCodes.OK, svg.code(), svg.err());
        String s = svg.out();
        assertEquals(1, s.split("class=\"domain\"", -1).length - 1, "one panel");
        assertTrue(s.contains(">NVLink domain 1 · 18 trays · 72 GPUs · 2 cliques · 2 odd trays<"), s.substring(0, 2000));
        assertTrue(s.contains(">" + LABEL + "<"), "the main clique's label");
        java.util.regex.Matcher odd = java.util.regex.Pattern.compile("class=\"odd-tray\"[^>]*><title>([^:<]+):").matcher(s);
        List<String> oddTrays = new java.util.ArrayList<>();
        while (odd.find()) {
            oddTrays.add(odd.group(1));
        }
        assertEquals(List.of("rack1-tray07", "rack1-tray12"), oddTrays, s.substring(0, 2000));
        assertTrue(s.contains("<title>rack1-tray12: clique 32767, not the domain's main clique 32766: a partition of its own;"
                + " no job spans both"), "the odd clique worded as a partition of the same domain");
    }

    /** Two racks, each its own cluster UUID: two NVLink domains (one clique each), two panels. */
    @Test
    void twoRacksWithTheirOwnClusterUuidsAreTwoDomains(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("racks");
        SyntheticCluster.writeNvl72Racks(dir, 2, false);
        CliTest.Run text = CliTest.run("cluster", "show", dir.toString());
        assertTrue(text.out().contains("36 node(s), 144 GPU(s), 2 NVLink domain(s)\n"), text.out());
        com.fasterxml.jackson.databind.JsonNode v = dev.fabricscope.json.Json.mapper().readTree(
                CliTest.run("cluster", "show", dir.toString(), "--json").out());
        assertEquals(2, v.get("domains").size());
        for (com.fasterxml.jackson.databind.JsonNode d : v.get("domains")) {
            assertEquals(72, d.get("gpus").asInt());
            assertEquals(1, d.get("cliques").size());
            assertEquals(18, d.get("cliques").get(0).get("nodes").size());
        }
        assertFalse(v.get("domains").get(0).get("clusterUuid").asText().equals(v.get("domains").get(1).get("clusterUuid").asText()));
        CliTest.Run svg = CliTest.run("cluster", "draw", dir.toString(), "--out", "-");
        assertTrue(svg.err().contains("drew 2 NVLink domains · 36 trays · 144 GPUs · 2 cliques · 0 odd trays"), svg.err());
        assertEquals(2, svg.out().split("class=\"domain\"", -1).length - 1, "two panels");
    }
}
