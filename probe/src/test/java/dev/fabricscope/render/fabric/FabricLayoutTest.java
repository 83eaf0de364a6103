package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
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
    void dgxH100LabelsEachGpusSwitchBundleOnceWithItsTotal() {
        FabricGraph g = FabricLayout.layout(TestMachines.dgxH100());
        Edge e = g.edge("nvlink:0000:18:00.0:NVS0").orElseThrow();
        assertEquals(5, e.links());
        assertEquals(125.0, e.gbpsPerDirection());
        List<String> labels = g.edgesOf("gpu:0000:18:00.0").stream().filter(x -> x.kind() == EdgeKind.NVLINK)
                .map(Edge::label).filter(l -> !l.isEmpty()).toList();
        assertEquals(List.of("18 links · 450 GB/s"), labels);
        assertEquals("SM 9.0 · 80 GiB\n18 NVLinks · 450 GB/s", g.node("gpu:0000:18:00.0").orElseThrow().caption());
    }

    @Test
    void aGpuWithOneSwitchEdgeLabelsThatEdge() {
        FabricGraph g = FabricLayout.layout(TestMachines.gb200Tray());
        assertEquals(Set.of("18 links · 900 GB/s"), g.edges(EdgeKind.NVLINK).stream().map(Edge::label).collect(Collectors.toSet()));
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

    private static FabricGraph sample(String name) {
        return FabricLayout.layout(dev.fabricscope.samples.Samples.find(name).orElseThrow().snapshot().get());
    }

    @Test
    void dgxH100AndHgxB200DrawEachConnectX7UnderThePcieSwitchItSharesWithItsGpu() {
        for (String name : List.of("dgx-h100", "hgx-b200")) {
            MachineSnapshot s = dev.fabricscope.samples.Samples.find(name).orElseThrow().snapshot().get();
            FabricGraph g = FabricLayout.layout(s);
            List<Node> nics = g.nodes(NodeKind.NIC);
            assertEquals(8, nics.size(), name);
            assertEquals(8, g.nodes(NodeKind.PCIE_SWITCH).size(), name + ": one switch per GPU and its NIC");
            for (Node nic : nics) {
                List<Edge> up = g.edgesOf(nic.id());
                assertEquals(1, up.size(), nic.id());
                Edge e = up.get(0);
                assertEquals(EdgeKind.PCIE, e.kind());
                Node sw = g.node(e.from()).orElseThrow();
                assertEquals(NodeKind.PCIE_SWITCH, sw.kind(), nic.id() + " hangs under a PCIe switch");
                // the switch's GPU is the one topo -m calls PIX to this NIC, and it sits right above the switch
                String gpuId = g.edges(EdgeKind.PCIE).stream().filter(x -> x.to().equals(sw.id()) && x.from().startsWith("gpu:"))
                        .map(Edge::from).findFirst().orElseThrow();
                String nicName = nic.title();
                var model = s.node().rdmaNics().stream().filter(n -> n.name().equals(nicName)).findFirst().orElseThrow();
                var gpu = s.gpus().stream().filter(x -> gpuId.equals("gpu:" + x.pci())).findFirst().orElseThrow();
                assertEquals("PIX", dev.fabricscope.topology.PcieTopology.gpuToNic(s, gpu, model).value(), nic.id());
                Node gpuNode = g.node(gpuId).orElseThrow();
                assertTrue(nic.x() > gpuNode.x() && nic.x() < gpuNode.x() + gpuNode.width(), nic.id() + " below its GPU");
                assertTrue(nic.y() > sw.bottom(), nic.id() + " below its switch");
                assertEquals("400 Gb/s IB", nic.subtitle());
                assertTrue(nic.details().stream().anyMatch(d -> d.key().equals("Port 1") && d.value().equals("ACTIVE (LinkUp), 400 Gb/sec (4X NDR), InfiniBand")),
                        nic.details().toString());
                assertTrue(e.details().stream().anyMatch(d -> d.key().equals("Link") && d.value().contains("400 Gb/sec")), e.details().toString());
            }
        }
    }

    @Test
    void gb200TrayNicsSitOnTheirGraceCpuAndNoHostPathCrossesThem() {
        FabricGraph g = sample("gb200-nvl72-tray");
        List<Node> nics = g.nodes(NodeKind.NIC);
        assertEquals(4, nics.size());
        for (Node nic : nics) {
            List<Edge> e = g.edgesOf(nic.id());
            assertEquals(1, e.size(), nic.id());
            assertEquals(NodeKind.CPU, g.node(e.get(0).to()).orElseThrow().kind(), nic.id() + ": under its root port, on its CPU");
        }
        for (Edge e : g.edges(EdgeKind.PCIE)) {
            for (Node nic : nics) {
                if (e.from().equals(nic.id()) || e.to().equals(nic.id())) {
                    continue;
                }
                boolean vertical = Math.abs(e.x1() - e.x2()) < 0.5;
                boolean crosses = vertical && e.x1() > nic.x() && e.x1() < nic.x() + nic.width()
                        && Math.min(e.y1(), e.y2()) < nic.bottom() && Math.max(e.y1(), e.y2()) > nic.y();
                assertFalse(crosses, e.id() + " crosses " + nic.id());
                if (!e.label().isEmpty()) {
                    boolean x = Math.abs(e.labelX() - nic.centerX()) < (FabricSvg.labelWidth(e.label()) + nic.width()) / 2;
                    boolean y = Math.abs(e.labelY() - nic.centerY()) < (16 + nic.height()) / 2;
                    assertFalse(x && y, e.id() + " label on " + nic.id());
                }
            }
        }
    }

    @Test
    void aNicWithItsLinkDownIsFlaggedAndSaysSoInItsDetails() {
        MachineSnapshot s = dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get();
        var nics = new java.util.ArrayList<>(s.node().nics().value());
        var n = nics.get(0);
        var down = new dev.fabricscope.model.Nic.Port(1, n.ports().get(0).linkLayer(), dev.fabricscope.model.Reading.of("DOWN"),
                dev.fabricscope.model.Reading.of("Disabled"), n.ports().get(0).rate());
        nics.set(0, new dev.fabricscope.model.Nic(n.name(), n.rdma(), n.address(), n.model(), n.firmware(), n.numaNode(), n.pciePath(),
                List.of(down), n.netDevices()));
        MachineSnapshot broken = s.withNode(new dev.fabricscope.model.NodeInfo(dev.fabricscope.model.Reading.of(nics), s.node().gpuPcie(),
                s.node().services()));
        Node nic = FabricLayout.layout(broken).node("nic:" + n.name()).orElseThrow();
        assertTrue(nic.warning());
        assertEquals("link down", nic.caption());
        assertTrue(nic.details().stream().anyMatch(d -> d.key().equals("Port 1") && d.value().startsWith(NodeDetails.NON_ZERO + " DOWN (Disabled)")),
                nic.details().toString());
        assertFalse(FabricLayout.layout(s).node("nic:" + n.name()).orElseThrow().warning());
    }

    @Test
    void machinesWithoutRdmaNicsDrawNone() {
        for (String name : List.of("h200-vm", "dgx-a100", "l40s-4x")) {
            assertTrue(sample(name).nodes(NodeKind.NIC).isEmpty(), name);
        }
        assertEquals(4, sample("dgx-a100").nodes(NodeKind.PCIE_SWITCH).size(), "the GPU-pair switches stay as they were");
    }

    @Test
    void aNicUnderNoGpusSwitchBesideGpuPairSwitchesSitsOnItsCpu() {
        // DGX A100's GPU-pair PCIe switches (from the letters) and one ConnectX-7 under a root port of its own
        MachineSnapshot a100 = dev.fabricscope.samples.Samples.find("dgx-a100").orElseThrow().snapshot().get();
        var n = dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get().node().rdmaNics().get(0);
        var alone = new dev.fabricscope.model.Nic(n.name(), true, dev.fabricscope.model.Reading.of("0000:e1:00.0"), n.model(), n.firmware(),
                a100.gpus().get(5).numaNode(), dev.fabricscope.model.Reading.of(List.of("pci0000:e0", "0000:e0:01.0")), n.ports(),
                n.netDevices());
        MachineSnapshot s = a100.withNode(new dev.fabricscope.model.NodeInfo(dev.fabricscope.model.Reading.of(List.of(alone)),
                a100.node().gpuPcie(), a100.node().services()));
        FabricGraph g = FabricLayout.layout(s);
        assertEquals(4, g.nodes(NodeKind.PCIE_SWITCH).size());
        Node nic = g.node("nic:" + n.name()).orElseThrow();
        assertEquals(List.of("cpu:" + a100.gpus().get(5).numaNode().value()), g.edgesOf(nic.id()).stream().map(Edge::to).toList(),
                "on its own NUMA node's CPU");
    }
}
