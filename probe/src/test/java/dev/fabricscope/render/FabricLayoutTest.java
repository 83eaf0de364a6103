package dev.fabricscope.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.FabricGraph.Edge;
import dev.fabricscope.render.FabricGraph.EdgeKind;
import dev.fabricscope.render.FabricGraph.Node;
import dev.fabricscope.render.FabricGraph.NodeKind;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FabricLayoutTest {

    @Test
    void dgxH100HasEightGpusFourSwitchesAndThirtyTwoNvlinkEdges() {
        FabricGraph g = FabricLayout.layout(TestMachines.dgxH100());
        assertEquals(8, g.nodes(NodeKind.GPU).size());
        assertEquals(4, g.nodes(NodeKind.NVSWITCH).size());
        assertEquals(2, g.nodes(NodeKind.CPU).size());
        assertEquals(32, g.edges(EdgeKind.NVLINK).size());
        assertEquals(8, g.edges(EdgeKind.PCIE).size());
        assertEquals(1, g.edges(EdgeKind.CPU_LINK).size());
    }

    @Test
    void dgxH100EdgeLabelsCarryLinkCountAndBandwidthWithoutUnitOnADenseBoard() {
        FabricGraph g = FabricLayout.layout(TestMachines.dgxH100());
        Edge e = g.edge("nvlink:0000:18:00.0:NVS0").orElseThrow();
        assertEquals(5, e.links());
        assertEquals(125.0, e.gbpsPerDirection());
        assertEquals("5× · 125", e.label());
        assertEquals("SM 9.0 · 80 GiB\n18 NVLinks · 450 GB/s", g.node("gpu:0000:18:00.0").orElseThrow().caption());
    }

    @Test
    void sparseSwitchEdgesCarryTheUnit() {
        FabricGraph g = FabricLayout.layout(TestMachines.gb200Tray());
        assertEquals(Set.of("18× · 900 GB/s"), g.edges(EdgeKind.NVLINK).stream().map(Edge::label).collect(Collectors.toSet()));
    }

    @Test
    void edgeLabelsDoNotOverlap() {
        for (MachineSnapshot s : List.of(TestMachines.dgxH100(), TestMachines.gb200Tray(), TestMachines.h100NvlPairs())) {
            List<Edge> labelled = FabricLayout.layout(s).edges().stream().filter(e -> !e.label().isEmpty()).toList();
            for (int i = 0; i < labelled.size(); i++) {
                for (int j = i + 1; j < labelled.size(); j++) {
                    Edge a = labelled.get(i);
                    Edge b = labelled.get(j);
                    boolean overlapX = Math.abs(a.labelX() - b.labelX()) < (FabricSvg.labelWidth(a.label()) + FabricSvg.labelWidth(b.label())) / 2;
                    boolean overlapY = Math.abs(a.labelY() - b.labelY()) < 16;
                    assertFalse(overlapX && overlapY, a.id() + " overlaps " + b.id());
                }
            }
        }
    }

    @Test
    void nodesDoNotOverlap() {
        for (MachineSnapshot s : List.of(TestMachines.dgxH100(), TestMachines.gb200Tray(), TestMachines.h100NvlPairs(),
                TestMachines.l40s(), TestMachines.vm())) {
            FabricGraph g = FabricLayout.layout(s);
            List<Node> n = g.nodes();
            for (int i = 0; i < n.size(); i++) {
                Node a = n.get(i);
                assertTrue(a.x() >= 0 && a.y() >= 0 && a.x() + a.width() <= g.width() && a.bottom() <= g.legendY(), a.id() + " outside the drawing");
                for (int j = i + 1; j < n.size(); j++) {
                    Node b = n.get(j);
                    boolean overlap = a.x() < b.x() + b.width() && b.x() < a.x() + a.width() && a.y() < b.bottom() && b.y() < a.bottom();
                    assertFalse(overlap, a.id() + " overlaps " + b.id());
                }
            }
        }
    }

    @Test
    void gb200TrayPoolsOffTraySwitchAndShowsItsClique() {
        FabricGraph g = FabricLayout.layout(TestMachines.gb200Tray());
        assertEquals(4, g.nodes(NodeKind.GPU).size());
        assertEquals(1, g.nodes(NodeKind.NVSWITCH).size());
        assertEquals(Set.of(18), g.edges(EdgeKind.NVLINK).stream().map(Edge::links).collect(Collectors.toSet()));
        assertEquals(Set.of(900.0), g.edges(EdgeKind.NVLINK).stream().map(Edge::gbpsPerDirection).collect(Collectors.toSet()));
        assertEquals(1, g.groups().size());
        assertEquals("MNNVL clique 32766 · cluster 7a3c1e52-0d4b-4f8e-9b21-5c6d7e8f9a01", g.groups().get(0).title());
        assertTrue(g.notes().stream().anyMatch(n -> n.contains("pooled")), String.valueOf(g.notes()));
    }

    @Test
    void groupEnclosesItsGpus() {
        FabricGraph g = FabricLayout.layout(TestMachines.gb200Tray());
        FabricGraph.Group group = g.groups().get(0);
        for (Node n : g.nodes(NodeKind.GPU)) {
            assertTrue(n.x() > group.x() && n.x() + n.width() < group.x() + group.width()
                    && n.y() > group.y() && n.bottom() < group.y() + group.height(), n.id());
        }
    }

    @Test
    void nvlPairsAreDirectArcsBetweenNeighbours() {
        FabricGraph g = FabricLayout.layout(TestMachines.h100NvlPairs());
        assertEquals(0, g.nodes(NodeKind.NVSWITCH).size());
        List<Edge> nv = g.edges(EdgeKind.NVLINK);
        assertEquals(2, nv.size());
        Edge e = nv.get(0);
        assertEquals("gpu:0000:18:00.0", e.from());
        assertEquals("gpu:0000:2a:00.0", e.to());
        assertEquals(12, e.links());
        assertFalse(e.straight());
        assertTrue(e.cy() < e.y1(), "arc bends upwards");
    }

    @Test
    void pciePairsGetAnInferredSwitchEach() {
        FabricGraph g = FabricLayout.layout(TestMachines.l40s());
        assertEquals(2, g.nodes(NodeKind.PCIE_SWITCH).size());
        assertEquals(0, g.edges(EdgeKind.NVLINK).size());
        // 4 GPU→switch + 2 switch→CPU
        assertEquals(6, g.edges(EdgeKind.PCIE).size());
        assertEquals("pcie:0", g.edge("host:0000:18:00.0").orElseThrow().to());
    }

    @Test
    void gpusOfOneNumaNodeSitAboveItsCpu() {
        FabricGraph g = FabricLayout.layout(TestMachines.dgxH100());
        Node cpu1 = g.node("cpu:1").orElseThrow();
        for (String bus : new String[] {"9a", "ab", "ba", "db"}) {
            Node gpu = g.node("gpu:0000:" + bus + ":00.0").orElseThrow();
            assertTrue(gpu.x() >= cpu1.x() && gpu.x() + gpu.width() <= cpu1.x() + cpu1.width(), gpu.id());
        }
    }

    @Test
    void hiddenNvlinksAreExplainedNotDrawn() {
        FabricGraph g = FabricLayout.layout(TestMachines.vm());
        assertEquals(1, g.nodes(NodeKind.GPU).size());
        assertEquals(0, g.edges(EdgeKind.NVLINK).size());
        assertEquals(1, g.edges(EdgeKind.PCIE).size());
        assertTrue(g.notes().stream().anyMatch(n -> n.contains("NVML_ERROR_NOT_SUPPORTED") && n.contains("pass-through VM")), String.valueOf(g.notes()));
        Node gpu = g.nodes(NodeKind.GPU).get(0);
        assertTrue(gpu.warning());
        assertTrue(gpu.details().stream().anyMatch(d -> d.key().equals("NVLinks") && d.value().startsWith("state unknown for 18 links")));
    }

    @Test
    void layoutIsDeterministic() {
        assertEquals(FabricLayout.layout(TestMachines.dgxH100()), FabricLayout.layout(TestMachines.dgxH100()));
    }
}
