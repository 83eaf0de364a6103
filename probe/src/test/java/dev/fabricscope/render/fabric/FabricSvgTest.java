package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class FabricSvgTest {

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void dgxH100SvgIsWellFormedWithOneGroupPerNodeAndEdge() throws Exception {
        FabricGraph g = FabricLayout.layout(TestMachines.dgxH100());
        Document doc = parse(FabricSvg.render(g, FabricPalette.LIGHT));
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        int nodeGroups = 0;
        int edgeGroups = 0;
        var groups = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        for (int i = 0; i < groups.getLength(); i++) {
            String cls = groups.item(i).getAttributes().getNamedItem("class").getNodeValue();
            if (cls.startsWith("node ")) nodeGroups++;
            if (cls.startsWith("edge ")) edgeGroups++;
        }
        assertEquals(g.nodes().size(), nodeGroups);
        assertEquals(g.edges().size(), edgeGroups);
    }

    @Test
    void tooltipsCarryTheDetails() {
        String svg = FabricSvg.render(FabricLayout.layout(TestMachines.dgxH100()), FabricPalette.DARK);
        assertTrue(svg.contains("<title>GPU0 · H100 80GB HBM3\nGPU: GPU0"), "GPU tooltip");
        assertTrue(svg.contains("Bandwidth: 125 GB/s per direction (nominal; 25 GB/s per link)"), "edge tooltip");
        assertTrue(svg.contains(FabricPalette.DARK.background()));
    }

    @Test
    void textIsEscaped() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot;", FabricSvg.esc("a <b> & \"c\""));
        assertFalse(FabricSvg.esc("x\u0001y").contains("\u0001"));
    }
}
