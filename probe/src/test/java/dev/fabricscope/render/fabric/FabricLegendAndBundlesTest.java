package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.LegendEntry;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import dev.fabricscope.render.fabric.FabricGraph.Swatch;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 item 4: each NVLink bundle carries one label on its edges, the legend says what a label means from the
 * machine's own links ("18 links, 450 GB/s in all"), and NVLink-C2C is drawn in a style of its own and named in the
 * legend.
 */
class FabricLegendAndBundlesTest {

    private static final Pattern LABEL = Pattern.compile("(\\d+) links?(?: · ([0-9.]+) GB/s)?");

    /** Every bundled sample and the real two-GPU NVSwitch traces. */
    static Map<String, MachineSnapshot> machines() throws Exception {
        Map<String, MachineSnapshot> m = new LinkedHashMap<>();
        for (Samples.Sample s : Samples.list()) {
            m.put(s.name(), s.snapshot().get());
        }
        for (String day : List.of("2026-11-30", "2026-12-01")) {
            Path f = Path.of("src/test/resources/captured/h200-nvswitch-2gpu-" + day + "/trace.json");
            m.put(f.toString(), TraceReplay.replay(TraceIO.read(Files.readAllBytes(f), f.toString()), f.toString()));
        }
        m.put("test:dgx-h100", TestMachines.dgxH100());
        m.put("big:72", dev.fabricscope.render.BigMachine.snapshot(72));
        return m;
    }

    @Test
    void eachGpusSwitchBundleHasOneLabelOnItsEdgesSayingItsTotal() throws Exception {
        List<String> wrong = new ArrayList<>();
        int bundles = 0;
        for (var m : machines().entrySet()) {
            FabricGraph g = FabricLayout.layout(m.getValue());
            for (Node gpu : g.nodes(NodeKind.GPU)) {
                List<Edge> toSwitches = g.edgesOf(gpu.id()).stream()
                        .filter(e -> e.kind() == EdgeKind.NVLINK && e.to().startsWith("nvswitch:")).toList();
                if (toSwitches.isEmpty()) {
                    continue;
                }
                bundles++;
                List<Edge> labelled = toSwitches.stream().filter(e -> !e.label().isEmpty()).toList();
                if (labelled.size() != 1) {
                    wrong.add(m.getKey() + " " + gpu.title() + ": " + labelled.size() + " labels on its switch bundle");
                    continue;
                }
                Edge e = labelled.get(0);
                Matcher l = LABEL.matcher(e.label());
                int links = toSwitches.stream().mapToInt(Edge::links).sum();
                double gbps = toSwitches.stream().mapToDouble(Edge::gbpsPerDirection).sum();
                if (!l.matches() || Integer.parseInt(l.group(1)) != links
                        || (gbps > 0 ? l.group(2) == null || Math.abs(Double.parseDouble(l.group(2)) - gbps) > 0.05 : l.group(2) != null)) {
                    wrong.add(m.getKey() + " " + gpu.title() + ": label '" + e.label() + "' for " + links + " links, " + gbps + " GB/s");
                }
                // on the bundle: over its GPU, where all of the bundle's edges leave the box
                if (e.labelX() < gpu.x() || e.labelX() > gpu.x() + gpu.width() || e.labelY() > gpu.y() || e.labelY() < gpu.y() - 30) {
                    wrong.add(m.getKey() + " " + gpu.title() + ": label at " + e.labelX() + "," + e.labelY() + " not over its bundle");
                }
            }
            for (Edge e : g.edges(EdgeKind.NVLINK)) {
                if (e.to().startsWith("gpu:") && !LABEL.matcher(e.label()).matches()) {
                    wrong.add(m.getKey() + " direct link " + e.id() + " labelled '" + e.label() + "'");
                }
            }
        }
        assertTrue(bundles > 20, "bundles seen: " + bundles);
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void theLegendSaysWhatALabelMeansFromTheMachinesLinks() throws Exception {
        assertEquals("NVLink · 18 links, 450 GB/s in all (18 × 25 GB/s per direction, nominal)", nvlinkLegend(sample("dgx-h100")));
        assertEquals("NVLink · 12 links, 300 GB/s in all (12 × 25 GB/s per direction, nominal)", nvlinkLegend(sample("dgx-a100")));
        assertEquals("NVLink · 18 links, 900 GB/s in all (18 × 50 GB/s per direction, nominal)", nvlinkLegend(sample("hgx-b200")));
        assertEquals("NVLink", nvlinkLegend(sample("l40s-4x")), "no NVLink, no example");
        // two bridged pairs of different widths: the first as an example
        MachineSnapshot mixed = new TestMachines.Builder("mixed").numa(0, "0-63")
                .gpu("0000:18:00.0", "NVIDIA H100 NVL", "9.0", 0).gpu("0000:2a:00.0", "NVIDIA H100 NVL", "9.0", 0)
                .gpu("0000:3a:00.0", "NVIDIA H100 NVL", "9.0", 0).gpu("0000:5d:00.0", "NVIDIA H100 NVL", "9.0", 0)
                .direct(0, 1, 12).direct(2, 3, 4).build();
        assertEquals("NVLink · e.g. 12 links, 300 GB/s in all (12 × 25 GB/s per direction, nominal)", nvlinkLegend(mixed));
        // a GPU with no nominal NVLink rate: the count, and the rate unknown
        MachineSnapshot unknown = new TestMachines.Builder("unknown").numa(0, "0-63")
                .gpu("0000:18:00.0", "NVIDIA Future GPU", "99.0", 0).gpu("0000:2a:00.0", "NVIDIA Future GPU", "99.0", 0)
                .direct(0, 1, 6).build();
        FabricGraph u = FabricLayout.layout(unknown);
        assertEquals(0.0, u.edges(EdgeKind.NVLINK).get(0).gbpsPerDirection(), "the test machine must have no nominal rate");
        assertEquals("NVLink · 6 links, rate unknown", nvlinkLegend(unknown));
        assertEquals("6 links", u.edges(EdgeKind.NVLINK).get(0).label());
    }

    @Test
    void theLegendFitsTheDrawing() throws Exception {
        for (var m : machines().entrySet()) {
            FabricGraph g = FabricLayout.layout(m.getValue());
            for (LegendEntry e : g.legend()) {
                double right = e.x() + FabricLayout.legendWidth(e.text()) - 22;
                assertTrue(right <= g.width() - FabricLayout.MARGIN + 0.01, m.getKey() + ": '" + e.text() + "' ends at " + right);
                assertTrue(e.y() + 10 <= g.height(), m.getKey() + ": legend below the drawing");
            }
        }
    }

    @Test
    void c2cIsDrawnInItsOwnStyleAndNamedInTheLegend() throws Exception {
        FabricGraph g = FabricLayout.layout(sample("gb200-nvl72-tray"));
        assertEquals(4, g.edges(EdgeKind.C2C).size());
        assertTrue(g.legend().stream().anyMatch(e -> e.swatch() == Swatch.C2C && e.text().startsWith("NVLink-C2C")), g.legend().toString());
        assertTrue(g.edges(EdgeKind.C2C).get(0).strokeWidth() > g.edges(EdgeKind.PCIE).stream().mapToDouble(Edge::strokeWidth).max().orElse(1.4));
        for (FabricPalette p : List.of(FabricPalette.LIGHT, FabricPalette.DARK)) {
            for (String other : List.of(p.pcie(), p.nvlink(), p.cpuLink(), p.muted())) {
                assertNotEquals(other.toLowerCase(), p.c2c().toLowerCase(), "C2C's colour is its own");
            }
            String svg = FabricSvg.render(g, p);
            Matcher c2c = Pattern.compile("<g class=\"edge c2c\">.*?<path d=\"[^\"]+\" fill=\"none\" stroke=\"([^\"]+)\" stroke-width=\"[0-9.]+\"( stroke-dasharray)?",
                    Pattern.DOTALL).matcher(svg);
            assertTrue(c2c.find(), "a C2C edge in the SVG");
            assertEquals(p.c2c(), c2c.group(1));
            assertEquals(null, c2c.group(2), "C2C is solid, PCIe dashed");
            assertTrue(svg.contains("stroke=\"" + p.c2c() + "\" stroke-width=\"3.0\"/>"), "the C2C swatch in the legend");
        }
        FabricGraph pcieOnly = FabricLayout.layout(sample("dgx-h100"));
        assertTrue(pcieOnly.edges(EdgeKind.C2C).isEmpty());
        assertFalse(pcieOnly.legend().stream().anyMatch(e -> e.swatch() == Swatch.C2C), "no C2C entry where there is none");
    }

    private static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    private static String nvlinkLegend(MachineSnapshot s) {
        return FabricLayout.layout(s).legend().stream().filter(e -> e.swatch() == Swatch.NVLINK).findFirst().orElseThrow().text();
    }
}
