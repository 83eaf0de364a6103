package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import dev.fabricscope.samples.Samples;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The layout over every bundled sample: counts per machine, and no overlapping boxes or labels anywhere. */
class FabricLayoutSamplesTest {

    static Stream<Arguments> expected() {
        // sample, GPUs, switch nodes, NVLink edges, MNNVL groups
        return Stream.of(
                Arguments.of("dgx-h100", 8, 4, 32, 0),
                Arguments.of("hgx-b200", 8, 2, 16, 0),
                Arguments.of("gb200-nvl72-tray", 4, 1, 4, 1),
                Arguments.of("dgx-a100", 8, 6, 48, 0),
                Arguments.of("h100-nvl-pairs", 4, 0, 2, 0),
                Arguments.of("rtx-pro-6000-2x", 2, 0, 0, 0),
                Arguments.of("l40s-4x", 4, 0, 0, 0),
                Arguments.of("h200-vm", 1, 0, 0, 0));
    }

    private static FabricGraph graph(String sample) {
        MachineSnapshot s = Samples.find(sample).orElseThrow().snapshot().get();
        return FabricLayout.layout(s);
    }

    @ParameterizedTest
    @MethodSource("expected")
    void sampleGraphHasTheMachinesGpusSwitchesAndLinks(String sample, int gpus, int switches, int nvlinks, int groups) {
        FabricGraph g = graph(sample);
        assertEquals(gpus, g.nodes(NodeKind.GPU).size(), "GPUs");
        assertEquals(switches, g.nodes(NodeKind.NVSWITCH).size(), "NVSwitch nodes");
        assertEquals(nvlinks, g.edges(EdgeKind.NVLINK).size(), "NVLink edges");
        assertEquals(groups, g.groups().size(), "MNNVL groups");
        assertTrue(g.edges(EdgeKind.PCIE).size() + g.edges(EdgeKind.C2C).size() >= gpus, "every GPU has a host path");
    }

    @ParameterizedTest
    @MethodSource("expected")
    void sampleGraphHasNoOverlaps(String sample) {
        FabricGraph g = graph(sample);
        List<Node> n = g.nodes();
        for (int i = 0; i < n.size(); i++) {
            Node a = n.get(i);
            assertTrue(a.x() >= 0 && a.x() + a.width() <= g.width() && a.bottom() <= g.legendY(), a.id() + " outside");
            for (int j = i + 1; j < n.size(); j++) {
                Node b = n.get(j);
                assertFalse(a.x() < b.x() + b.width() && b.x() < a.x() + a.width() && a.y() < b.bottom() && b.y() < a.bottom(),
                        a.id() + " overlaps " + b.id());
            }
        }
        List<Edge> labelled = g.edges().stream().filter(e -> !e.label().isEmpty()).toList();
        for (int i = 0; i < labelled.size(); i++) {
            for (int j = i + 1; j < labelled.size(); j++) {
                Edge a = labelled.get(i);
                Edge b = labelled.get(j);
                boolean x = Math.abs(a.labelX() - b.labelX()) < (FabricSvg.labelWidth(a.label()) + FabricSvg.labelWidth(b.label())) / 2;
                boolean y = Math.abs(a.labelY() - b.labelY()) < 16;
                assertFalse(x && y, a.id() + " label overlaps " + b.id());
            }
        }
    }

    @Test
    void dgxH100LinksSumToEighteenPerGpu() {
        FabricGraph g = graph("dgx-h100");
        for (Node gpu : g.nodes(NodeKind.GPU)) {
            int links = g.edgesOf(gpu.id()).stream().filter(e -> e.kind() == EdgeKind.NVLINK).mapToInt(Edge::links).sum();
            assertEquals(18, links, gpu.id());
        }
    }

    @Test
    void gpusAppearInLabelOrderEvenWhenNumaNodesAreNot() {
        FabricGraph g = graph("dgx-a100");
        List<Node> gpus = g.nodes(NodeKind.GPU).stream().sorted(java.util.Comparator.comparingDouble(Node::x)).toList();
        for (int i = 0; i < gpus.size(); i++) {
            assertEquals("GPU" + i, gpus.get(i).title());
        }
    }

    @Test
    void graceSuperchipGpusHangOffC2cNotPcie() {
        FabricGraph g = graph("gb200-nvl72-tray");
        assertEquals(List.of("C2C", "C2C", "C2C", "C2C"), g.edges(EdgeKind.C2C).stream().filter(e -> e.id().startsWith("host:"))
                .map(Edge::label).toList());
        assertTrue(g.edges(EdgeKind.PCIE).stream().noneMatch(e -> e.id().startsWith("host:0")), "no GPU of the tray on PCIe");
        assertEquals(List.of("", ""), graph("rtx-pro-6000-2x").edges(EdgeKind.PCIE).stream().map(Edge::label).toList());
        assertTrue(graph("rtx-pro-6000-2x").edges(EdgeKind.C2C).isEmpty());
        Edge first = g.edges(EdgeKind.C2C).get(0);
        assertTrue(first.details().stream().anyMatch(d -> d.key().equals("NVLink-C2C") && d.value().startsWith("mode enabled")),
                first.details().toString());
        assertFalse(first.details().toString().contains("inferred"), "the sample's C2C is a reading, not an inference");
    }

    /** The C2C readings decide where the driver gave them: a Grace host whose GPU says NOT_SUPPORTED hangs off PCIe. */
    @Test
    void c2cReadingsOutweighTheGraceName() {
        MachineSnapshot s = Samples.find("gb200-nvl72-tray").orElseThrow().snapshot().get();
        dev.fabricscope.model.Missing ns = dev.fabricscope.model.Missing.unsupported("nvmlDeviceGetC2cModeInfoV", "NVML_ERROR_NOT_SUPPORTED", 3);
        dev.fabricscope.model.HostLink none = new dev.fabricscope.model.HostLink(dev.fabricscope.model.Reading.missing(ns),
                dev.fabricscope.model.Reading.missing(dev.fabricscope.model.Missing.unsupported(
                        "nvmlDeviceGetFieldValues(NVML_FI_DEV_C2C_LINK_COUNT)", "NVML_ERROR_NOT_SUPPORTED", 3)),
                List.of(), dev.fabricscope.model.Reading.missing(ns));
        MachineSnapshot pcie = new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(),
                s.gpus().stream().map(x -> x.withHostLink(none)).toList(), s.nvSwitches(), s.pairs(), s.environment(), s.findings(),
                s.node(), s.pythonStack());
        assertEquals(List.of("", "", "", ""), FabricLayout.layout(pcie).edges(EdgeKind.PCIE).stream()
                .filter(e -> e.id().startsWith("host:") && !e.id().startsWith("host:switch")).map(Edge::label).toList());
        // a snapshot from before the readings: the Grace name still implies C2C, and the details say it is inferred
        MachineSnapshot old = new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(),
                s.gpus().stream().map(x -> x.withHostLink(dev.fabricscope.model.HostLink.notRead())).toList(), s.nvSwitches(),
                s.pairs(), s.environment(), s.findings(), s.node(), s.pythonStack());
        Edge e = FabricLayout.layout(old).edges(EdgeKind.C2C).stream().filter(x -> x.label().equals("C2C")).findFirst().orElseThrow();
        assertTrue(e.details().toString().contains("inferred from the Grace CPU"), e.details().toString());
    }
}
