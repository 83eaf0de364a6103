package dev.fabricscope.render.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.rack.RackModel.Domain;
import dev.fabricscope.render.rack.RackModel.Tray;
import dev.fabricscope.render.rack.RackScene.Panel;
import dev.fabricscope.render.rack.RackScene.Text;
import dev.fabricscope.samples.SyntheticCluster;
import dev.fabricscope.usecase.DrawCluster;
import dev.fabricscope.usecase.InspectCluster;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The cluster drawing of SYNTHETIC GB200 NVL72 racks ({@link SyntheticCluster#nvl72Rack}, from the
 * {@code gb200-nvl72-tray} sample): one rack with a tray whose GPU2 has four links down and a tray in another clique,
 * and eight racks of 144 trays.
 */
class RackDrawingTest {

    static final String RACK1_UUID = "00000000-0000-4000-8000-000000000001";

    static RackModel model(Path dir) throws Exception {
        ClusterView v = new InspectCluster().open(InspectCluster.Request.of(dir)).view();
        return DrawCluster.model(v);
    }

    @Test
    void oneRackIsOneDomainOf72GpusWithItsTwoOddTraysAndWhy(@TempDir Path dir) throws Exception {
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        RackModel m = model(dir);
        assertEquals(1, m.domains().size(), "both cliques share the rack's cluster UUID: one NVLink domain, one panel");
        assertEquals(2, m.cliques(), "two cliques: partitions of the one domain");
        assertEquals("1 NVLink domain", m.domainCount());
        assertEquals("1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays", m.counts());
        assertTrue(m.outside().isEmpty());
        Domain d = m.domains().get(0);
        assertEquals(18, d.trays().size());
        assertEquals(72, d.gpus());
        assertEquals(RACK1_UUID, d.clusterUuid());
        assertEquals("nvidia.com/gpu.clique=" + RACK1_UUID + "." + d.clique(), d.gfdLabel());
        assertEquals(List.of(d.clique() + 1), d.otherCliques());

        assertEquals(List.of("rack1-tray07", "rack1-tray12"), d.odd().stream().map(Tray::name).toList());
        Tray down = d.odd().get(0);
        assertEquals(List.of("4 links down (GPU2 14/18)"), down.odd());
        assertEquals(new RackModel.Bundle(68, 72, 50.0), down.bundle());
        Tray clique = d.odd().get(1);
        assertEquals(1, clique.odd().size(), clique.odd().toString());
        assertEquals("clique " + (d.clique() + 1) + ", not the domain's main clique " + d.clique() + ": a partition of its"
                + " own; no job spans both; GFD labels it nvidia.com/gpu.clique=" + RACK1_UUID + "." + (d.clique() + 1),
                clique.odd().get(0));

        Tray plain = d.trays().get(0);
        assertEquals("rack1-tray01", plain.name());
        assertEquals(new RackModel.Bundle(72, 72, 50.0), plain.bundle());
        assertEquals("72/72 links · 50 GB/s each", plain.bundle().label());
        assertEquals(3600.0, plain.bundle().total());
        assertEquals(new RackModel.Bundle(72, 72, 50.0), d.links(), "the domain's yardstick: most trays' bundle");
        assertNull(plain.note(), "every report was read again for its links");

        RackModel.SwitchPlane plane = d.switches();
        assertEquals(9, plane.trays());
        assertEquals(2, plane.chipsPerTray());
        assertTrue(plane.inferred(), "an NVL72 tray sees no NVSwitch on PCI");
    }

    @Test
    void fabricStateAndHealthOfATrayAreOdd(@TempDir Path dir) throws Exception {
        List<dev.fabricscope.model.MachineSnapshot> trays = SyntheticCluster.nvl72Rack(0, false);
        for (int i = 0; i < trays.size(); i++) {
            var s = trays.get(i);
            if (i == 3) {
                s = SyntheticCluster.mapFabric(s, (g, f) -> g != 1 ? f : new dev.fabricscope.model.FabricInfo(f.api(),
                        f.state(), f.status(), f.cliqueId(), f.clusterUuid(), f.healthMask(),
                        dev.fabricscope.model.Reading.of("UNHEALTHY")));
            }
            SyntheticCluster.write(dir, s, "t" + i + ".json");
        }
        Domain d = model(dir).domains().get(0);
        assertEquals(List.of("rack1-tray04"), d.odd().stream().map(Tray::name).toList());
        assertEquals(List.of("fabric health UNHEALTHY (GPU1)"), d.odd().get(0).odd());
    }

    @Test
    void healthEveryTraySharesIsNoOddness(@TempDir Path dir) throws Exception {
        for (var s : SyntheticCluster.nvl72Rack(0, false)) {
            s = SyntheticCluster.mapFabric(s, (g, f) -> new dev.fabricscope.model.FabricInfo(f.api(), f.state(), f.status(),
                    f.cliqueId(), f.clusterUuid(), f.healthMask(), dev.fabricscope.model.Reading.of("NOT_SUPPORTED")));
            SyntheticCluster.write(dir, s, s.host().hostname().value() + ".json");
        }
        assertTrue(model(dir).domains().get(0).odd().isEmpty(), "every tray answers NOT_SUPPORTED: none differs");
    }

    @Test
    void nodesOutsideAnyDomainAreAPlainRowAndSeveralDomainsSideBySide(@TempDir Path dir) throws Exception {
        SyntheticCluster.writeNvl72Racks(dir, 2, false);
        SyntheticCluster.write(dir, SyntheticCluster.node(SyntheticCluster.sample("dgx-h100"), "dgx-1", 900), "dgx-1.json");
        RackModel m = model(dir);
        assertEquals(2, m.domains().size());
        assertEquals(List.of("dgx-1"), m.outside().stream().map(RackModel.Outside::name).toList());
        assertEquals("8 × H100 80GB HBM3", m.outside().get(0).gpus());
        RackModel.SwitchPlane h100 = RackModel.switchPlane(List.of(RackModel.NodeLinks.of(
                SyntheticCluster.sample("dgx-h100"))));
        assertEquals(4, h100.trays(), "a DGX H100 sees its 4 NVSwitches on PCI");
        assertFalse(h100.inferred());

        RackScene s = RackLayout.layout(m, FabricPalette.LIGHT);
        List<Panel> panels = s.panels();
        assertEquals(3, panels.size());
        assertEquals(panels.get(0).y(), panels.get(1).y(), "two domains side by side");
        assertTrue(panels.get(1).x() >= panels.get(0).x() + panels.get(0).w());
        assertEquals("outside", panels.get(2).id());
        assertTrue(panels.get(2).y() >= panels.get(0).y() + panels.get(0).h(), "the plain row under the domains");
    }

    @Test
    void svgIsWellFormedWithOnePanelPerDomainTheOddTraysMarkedAndTextInBounds(@TempDir Path dir) throws Exception {
        SyntheticCluster.writeNvl72Racks(dir, 1, true);
        RackModel m = model(dir);
        RackScene scene = RackLayout.layout(m, FabricPalette.LIGHT);
        String svg = RackSvg.render(scene);
        java.nio.file.Files.writeString(Path.of("target", "rack-drawing-1.svg"), svg); // to look at
        RackPreview.png(scene, Path.of("target", "rack-drawing-1.png"));
        Document doc = parse(svg);
        assertEquals(1, byClass(doc, "rect", "domain").size());
        List<Element> odd = byClass(doc, "rect", "odd-tray");
        assertEquals(2, odd.size());
        assertTrue(odd.get(0).getTextContent().startsWith("rack1-tray07: 4 links down"), odd.get(0).getTextContent());
        assertTrue(odd.get(1).getTextContent().startsWith("rack1-tray12: clique"), odd.get(1).getTextContent());
        assertEquals(16, byClass(doc, "rect", "tray").size());
        assertEquals(72, byClass(doc, "rect", "gpu").size());
        assertEquals(9, byClass(doc, "rect", "switch-tray").size());
        assertTrue(byClass(doc, "rect", "switch-tray").stream().allMatch(e -> e.hasAttribute("stroke-dasharray")),
                "inferred switch trays are dashed");
        assertEquals(18, byClass(doc, "line", "bundle").size());
        List<String> labels = byClass(doc, "text", "gfd-label").stream().map(Element::getTextContent).toList();
        assertEquals(List.of(m.domains().get(0).gfdLabel()), labels);
        assertEquals(List.of("NVLink domain 1 · 18 trays · 72 GPUs · 2 cliques · 2 odd trays"),
                byClass(doc, "text", "domain-title").stream().map(Element::getTextContent).toList());
        String title = String.join(" ", byClass(doc, "text", "title").stream().map(Element::getTextContent).toList());
        assertTrue(title.contains("· 1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays"), title);
        String partition = String.join(" ", byClass(doc, "text", "other-cliques").stream().map(Element::getTextContent).toList());
        assertTrue(partition.contains("Clique " + (m.domains().get(0).clique() + 1) + " (outlined) is a partition of the"
                + " same domain: its GPUs cannot reach the main clique's over NVLink, so no job spans both"), partition);
        assertTrue(odd.get(1).getTextContent().startsWith("rack1-tray12: clique 32767, not the domain's main clique 32766:"
                + " a partition of its own; no job spans both"), odd.get(1).getTextContent());
        assertTrue(byClass(doc, "text", "bundle-label").stream().anyMatch(e -> e.getTextContent().equals("68/72 links · 50 GB/s each")));
        textWithinBounds(scene);
    }

    @Test
    void eightRacksAreEightReadablePanels(@TempDir Path dir) throws Exception {
        SyntheticCluster.writeNvl72Racks(dir, 8, true);
        RackModel m = model(dir);
        assertEquals(8, m.domains().size());
        assertEquals("8 NVLink domains", m.domainCount(), "one per rack's cluster UUID");
        assertEquals(9, m.cliques(), "the odd clique is a ninth clique, not a ninth domain");
        assertEquals(144, m.trays());
        assertEquals(2, m.domains().stream().mapToInt(d -> d.odd().size()).sum());
        RackScene scene = RackLayout.layout(m, FabricPalette.DARK);
        assertEquals(8, scene.panels().size());
        String svg = RackSvg.render(scene);
        java.nio.file.Files.writeString(Path.of("target", "rack-drawing-8.svg"), svg); // to look at
        RackPreview.png(scene, Path.of("target", "rack-drawing-8.png"));
        Document doc = parse(svg);
        assertEquals(8, byClass(doc, "rect", "domain").size());
        assertEquals(8, byClass(doc, "text", "gfd-label").size());
        assertEquals(144, byClass(doc, "text", "tray-name").size());
        // every tray's name is drawn whole, at a readable size
        assertTrue(scene.shapes().stream().filter(t -> t instanceof Text x && x.role().equals("tray-name"))
                .map(t -> (Text) t).allMatch(t -> !t.text().endsWith("…") && t.size() >= 12));
        textWithinBounds(scene);
        for (int i = 0; i < scene.panels().size(); i++) {
            for (int j = i + 1; j < scene.panels().size(); j++) {
                assertFalse(overlap(scene.panels().get(i), scene.panels().get(j)), "panels " + i + " and " + j + " overlap");
            }
        }
    }

    @Test
    void eightGpusATrayFitTheirRow(@TempDir Path dir) throws Exception {
        var h100 = SyntheticCluster.sample("dgx-h100");
        for (int i = 1; i <= 2; i++) {
            SyntheticCluster.write(dir, SyntheticCluster.withFabric(SyntheticCluster.node(h100, "h100-" + i, i),
                    "00000000-0000-4000-8000-0000000000aa", 5), "h" + i + ".json");
        }
        RackModel m = model(dir);
        assertEquals(16, m.domains().get(0).gpus());
        assertEquals(new RackModel.Bundle(144, 144, 25.0), m.domains().get(0).trays().get(0).bundle());
        assertEquals(4, m.domains().get(0).switches().trays(), "the NVSwitches a DGX sees on PCI");
        RackScene scene = RackLayout.layout(m, FabricPalette.LIGHT);
        textWithinBounds(scene);
        List<RackScene.Box> gpus = scene.shapes().stream().filter(s -> s instanceof RackScene.Box b && b.role().equals("gpu"))
                .map(s -> (RackScene.Box) s).toList();
        assertEquals(16, gpus.size());
        List<Text> labels = scene.shapes().stream().filter(s -> s instanceof Text t && t.role().equals("gpu-label"))
                .map(s -> (Text) s).toList();
        assertTrue(labels.stream().allMatch(t -> t.text().equals("18/18")), labels.toString());
        for (int i = 0; i < 8; i++) {
            RackScene.Box g = gpus.get(i);
            Text t = labels.get(i);
            assertTrue(t.left() >= g.x() && t.right() <= g.x() + g.w(), "label within its GPU box: " + t);
        }
        RackScene.Box last = gpus.get(7);
        Text bundle = scene.shapes().stream().filter(s -> s instanceof Text t && t.role().equals("bundle-label"))
                .map(s -> (Text) s).findFirst().orElseThrow();
        assertTrue(last.x() + last.w() < bundle.left(), "the GPUs end before the bundle's label");
    }

    @Test
    void hostileHostsAndFabricIdsFromFilesStayText(@TempDir Path dir) throws Exception {
        var tray = SyntheticCluster.sample("gb200-nvl72-tray");
        String host = "<b>tray\u001b[31m&\u202e";
        SyntheticCluster.write(dir, SyntheticCluster.withFabric(SyntheticCluster.node(tray, host, 1), "<uuid>&\u0007", 9), "a.json");
        SyntheticCluster.write(dir, SyntheticCluster.withFabric(SyntheticCluster.node(tray, "\ud83d\ude00".repeat(40), 2),
                "<uuid>&\u0007", 9), "b.json"); // a name cut where a pair of surrogates would be split
        RackModel m = model(dir);
        String svg = RackSvg.render(RackLayout.layout(m, FabricPalette.LIGHT));
        Document doc = parse(svg); // well-formed: no markup or control character got in
        for (int i = 0; i < svg.length(); i++) {
            char c = svg.charAt(i);
            if (Character.isHighSurrogate(c)) {
                assertTrue(i + 1 < svg.length() && Character.isLowSurrogate(svg.charAt(++i)), "half a character at " + i);
            } else {
                assertFalse(Character.isLowSurrogate(c), "half a character at " + i);
            }
        }
        assertFalse(svg.contains("\u001b") || svg.contains("\u0007") || svg.contains("\u202e"), "controls shown as escapes");
        assertTrue(byClass(doc, "text", "gfd-label").get(0).getTextContent().startsWith("nvidia.com/gpu.clique=<uuid>&\\u0007"));
        assertTrue(byClass(doc, "text", "tray-name").stream().anyMatch(e -> e.getTextContent().startsWith("<b>tray\\u001b")));
    }

    @Test
    void hostileNamesAreEscapedAndCut() {
        String svg = RackSvg.element(new RackScene(10, 10, "#fff", List.of(new Text(1, 5, "<b>&\u0007\"", 10, false,
                "#000", RackScene.Anchor.START, "x")), List.of()));
        assertTrue(svg.contains("&lt;b&gt;&amp; &quot;"), svg);
        assertEquals("a\\u001b[31m", RackModel.tame("a\u001b[31m"));
    }

    /** Every text lies inside the drawing, and inside the panel it starts in. */
    static void textWithinBounds(RackScene scene) {
        for (var shape : scene.shapes()) {
            if (shape instanceof Text t) {
                assertTrue(t.left() >= 0 && t.right() <= scene.width() && t.y() <= scene.height() && t.y() - t.size() >= 0,
                        "outside the drawing: " + t);
                for (Panel p : scene.panels()) {
                    if (t.x() >= p.x() && t.x() <= p.x() + p.w() && t.y() >= p.y() && t.y() <= p.y() + p.h()) {
                        assertTrue(t.left() >= p.x() && t.right() <= p.x() + p.w() && t.y() <= p.y() + p.h(),
                                "runs off its panel " + p.id() + ": " + t);
                    }
                }
            }
        }
    }

    static boolean overlap(Panel a, Panel b) {
        return a.x() < b.x() + b.w() && b.x() < a.x() + a.w() && a.y() < b.y() + b.h() && b.y() < a.y() + a.h();
    }

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    static List<Element> byClass(Document doc, String tag, String cls) {
        NodeList l = doc.getElementsByTagName(tag);
        List<Element> out = new java.util.ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            Element e = (Element) l.item(i);
            if (cls.equals(e.getAttribute("class"))) {
                out.add(e);
            }
        }
        assertNotNull(out);
        return out;
    }
}
