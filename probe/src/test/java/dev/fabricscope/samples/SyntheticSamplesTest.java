package dev.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.topology.NvLinkSpecs;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.topology.Topology;
import dev.fabricscope.samples.SyntheticMachine.GpuModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SyntheticSamplesTest {

    static final List<String> SYNTHETIC = List.of("dgx-h100", "hgx-b200", "gb200-nvl72-tray", "dgx-a100",
            "h100-nvl-pairs", "rtx-pro-6000-2x", "l40s-4x");
    static final Set<String> PCIE_LETTERS = Set.of("PIX", "PXB", "PHB", "NODE", "SYS");

    static Stream<String> synthetic() {
        return SYNTHETIC.stream();
    }

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow(() -> new AssertionError("no sample " + name)).snapshot().get();
    }

    @Test
    void syntheticSamplesAreListedAfterTheCapturedOne() {
        List<String> expected = new ArrayList<>(List.of("h200-vm"));
        expected.addAll(SYNTHETIC);
        assertEquals(expected, Samples.names());
    }

    @Test
    void capturedSampleIsLabelledCaptured() throws Exception {
        MachineSnapshot s = sample("h200-vm");
        assertEquals(ProbeInfo.Origin.CAPTURED, s.probe().origin());
        assertEquals(Samples.find("h200-vm").orElseThrow().description(), s.probe().description());
        try (var in = Samples.class.getResourceAsStream("captured/h200-vm.json")) {
            String savedAt = Json.mapper().readTree(in).get("probe").get("probedAt").asText();
            assertEquals(savedAt, s.probe().probedAt(), "the capture keeps its probe time");
        }
    }

    // ------------------------------------------------------------------ every sample

    @ParameterizedTest
    @MethodSource("synthetic")
    void isLabelledSyntheticWithItsSpecs(String name) {
        MachineSnapshot s = sample(name);
        String description = Samples.find(name).orElseThrow().description();
        assertEquals(ProbeInfo.Origin.SYNTHETIC, s.probe().origin());
        assertEquals(description, s.probe().description());
        assertTrue(description.startsWith("SYNTHETIC:"), description);
        assertFalse(description.contains("\n"));
        assertTrue(description.matches(".*(datasheet|User Guide|whitepaper|product brief).*"), description);
    }

    @ParameterizedTest
    @MethodSource("synthetic")
    void derivedFactsAreWhatTheProbeHelpersDerive(String name) {
        MachineSnapshot s = sample(name);
        assertEquals(Topology.switches(s.gpus()), s.nvSwitches());
        assertEquals(SnapshotAnalyzer.findings(s), s.findings());
        assertEquals(s.gpus().size() * (s.gpus().size() - 1) / 2, s.pairs().size());
        for (GpuPair p : s.pairs()) {
            Gpu a = s.gpu(p.a()).orElseThrow();
            Gpu b = s.gpu(p.b()).orElseThrow();
            assertTrue(a.pci().compareTo(b.pci()) < 0);
            assertEquals(Topology.nvLinksBetween(a, b), p.nvLinks());
            assertEquals(Topology.letter(p.nvLinks(), p.pcieLevel()), p.topology());
            boolean nvlink = p.nvLinks().value() > 0;
            assertEquals(nvlink, p.cudaNativeAtomics().value(), "native atomics only over NVLink");
            assertEquals(nvlink ? "OK" : "NS", p.p2pNvlink().value());
        }
    }

    @ParameterizedTest
    @MethodSource("synthetic")
    void gpusAreConsistentWithTheirModelAndHost(String name) {
        MachineSnapshot s = sample(name);
        assertEquals(s.gpus().size(), s.driver().cudaDeviceCount().value());
        Set<String> uuids = new HashSet<>();
        List<HostInfo.NumaNode> nodes = s.host().numaNodes().value();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            if (i > 0) {
                assertTrue(s.gpus().get(i - 1).pci().compareTo(g.pci()) < 0, "sorted by PCI address");
            }
            assertTrue(g.uuid().value().matches("GPU-00000000-0000-4000-8000-[0-9a-f]{12}"), g.uuid().value());
            assertTrue(uuids.add(g.uuid().value()), "unique UUID");
            assertTrue(g.serial().value().matches("SYN\\d{10}"), g.serial().value());
            assertEquals(i, g.nvmlIndex().value());
            assertEquals(nodes.get(g.numaNode().value()).cpus(), g.cpuAffinity().value());
            assertEquals(g.numaNode().value(), g.cuda().hostNumaId().value());
            assertEquals(g.nvLinks().size(), g.nvLinkCount().value());
            double cc = g.computeCapabilityNumber();
            for (NvLink l : g.nvLinks()) {
                assertEquals(Boolean.TRUE, l.active().value());
                assertEquals(NvLinkSpecs.generation(cc), l.generation().value());
                assertEquals(NvLinkSpecs.gbpsPerLinkPerDirection(cc), l.gbpsPerDirection().value());
            }
        }
        int cpus = nodes.stream().mapToInt(n -> HostInfo.countCpus(n.cpus())).sum();
        assertEquals(cpus, s.host().logicalCpus().value());
        assertTrue(s.host().hostname().value().endsWith("-sample"));
    }

    // ------------------------------------------------------------------ per sample

    @Test
    void dgxH100() {
        MachineSnapshot s = sample("dgx-h100");
        assertModel(s, 8, "NVIDIA H100 80GB HBM3", "9.0", 132);
        assertSwitchedLinks(s, 18, 4);
        for (Gpu g : s.gpus()) {
            List<Integer> perSwitch = linksPerSwitch(s, g);
            assertEquals(List.of(4, 4, 5, 5), perSwitch.stream().sorted().toList(), "18 links split 5/5/4/4");
            assertEquals(4, g.activeLinks().get(0).generation().value());
        }
        assertAllPairs(s, "NV18");
        assertFlags(s, true, true);
        assertSingleNodeFabric(s);
        assertEquals("Intel(R) Xeon(R) Platinum 8480C", s.host().cpuModel().value());
        assertEquals(2, cpuNodes(s));
        assertEquals(List.of("fabric-not-mnnvl"), codes(s), "a single-node NVSwitch board is said not to be an MNNVL domain");
    }

    @Test
    void hgxB200() {
        MachineSnapshot s = sample("hgx-b200");
        assertModel(s, 8, "NVIDIA B200", "10.0", 148);
        assertSwitchedLinks(s, 18, 2);
        for (Gpu g : s.gpus()) {
            assertEquals(List.of(9, 9), linksPerSwitch(s, g));
            assertEquals(5, g.activeLinks().get(0).generation().value());
            assertEquals(50.0, g.activeLinks().get(0).gbpsPerDirection().value());
        }
        assertAllPairs(s, "NV18");
        assertFlags(s, true, true);
        assertSingleNodeFabric(s);
        assertEquals(List.of("fabric-not-mnnvl"), codes(s), "a single-node NVSwitch board is said not to be an MNNVL domain");
    }

    @Test
    void gb200Nvl72Tray() {
        MachineSnapshot s = sample("gb200-nvl72-tray");
        assertModel(s, 4, "NVIDIA GB200", "10.0", null);
        assertEquals(SyntheticMachine.NOT_IN_SPEC, s.gpus().get(0).smCount().missing().detail(), "SM count is not published");
        assertEquals("?", s.gpus().get(0).smCount().shortDisplay(), "unknown, not 'not applicable'");
        assertSwitchedLinks(s, 18, 1);
        NvSwitch hidden = s.nvSwitches().get(0);
        assertFalse(hidden.pci().isPresent(), "switch trays are not PCI-visible from the tray");
        assertEquals(4, hidden.gpuLinks().size());
        for (Gpu g : s.gpus()) {
            assertTrue(g.nvLinks().stream().noneMatch(l -> l.remotePci().isPresent()));
        }
        assertAllPairs(s, "NV18");
        assertFlags(s, true, true);
        for (Gpu g : s.gpus()) {
            FabricInfo f = g.fabric();
            assertEquals("COMPLETED", f.state().value());
            assertEquals("NVML_SUCCESS", f.status().value());
            assertTrue(f.inMnnvlDomain(), "non-zero cluster UUID");
            assertTrue(f.cliqueId().isPresent());
            assertEquals("HEALTHY", f.healthSummary().value());
        }
        assertEquals(1, s.gpus().stream().map(g -> g.fabric().clusterUuid().value() + "/" + g.fabric().cliqueId().value())
                .distinct().count(), "one clique of one cluster");
        assertEquals(List.of("/dev/nvidia-caps-imex-channels/channel0"), s.driver().imexChannels().value());
        assertEquals("aarch64", s.host().architecture().value());
        assertEquals(2, cpuNodes(s), "two Grace CPUs");
        assertEquals(144, s.host().logicalCpus().value());
        assertEquals(List.of(), s.findings());
    }

    @Test
    void dgxA100() {
        MachineSnapshot s = sample("dgx-a100");
        assertModel(s, 8, "NVIDIA A100-SXM4-80GB", "8.0", 108);
        assertSwitchedLinks(s, 12, 6);
        for (Gpu g : s.gpus()) {
            assertEquals(List.of(2, 2, 2, 2, 2, 2), linksPerSwitch(s, g));
            assertEquals(3, g.activeLinks().get(0).generation().value());
        }
        assertAllPairs(s, "NV12");
        assertFlags(s, false, false);
        for (Gpu g : s.gpus()) {
            assertFalse(g.fabric().inMnnvlDomain());
            assertFalse("COMPLETED".equals(g.fabric().state().value()));
        }
        assertEquals(8, codes(s).stream().filter("no-multicast"::equals).count());
    }

    @Test
    void h100NvlPairs() {
        MachineSnapshot s = sample("h100-nvl-pairs");
        assertModel(s, 4, "NVIDIA H100 NVL", "9.0", 132);
        assertEquals(List.of(), s.nvSwitches());
        for (int i = 0; i < 4; i++) {
            Gpu g = s.gpus().get(i);
            Gpu peer = s.gpus().get(i ^ 1);
            assertEquals(12, g.activeLinks().size());
            assertTrue(g.activeLinks().stream().allMatch(l -> NvLink.REMOTE_GPU.equals(l.remoteType().value())
                    && l.remotePci().value().equals(peer.pci())));
        }
        for (int i = 0; i < 4; i++) {
            for (int j = i + 1; j < 4; j++) {
                String letter = letter(s, i, j);
                if (j == (i ^ 1)) {
                    assertEquals("NV12", letter);
                } else {
                    assertTrue(PCIE_LETTERS.contains(letter), letter);
                }
            }
        }
        assertFlags(s, false, null);
        assertEquals("NOT_SUPPORTED", s.gpus().get(0).fabric().state().value());
    }

    @Test
    void rtxPro6000() {
        MachineSnapshot s = sample("rtx-pro-6000-2x");
        assertModel(s, 2, "NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0", 188);
        assertPcieOnly(s);
    }

    @Test
    void l40s() {
        MachineSnapshot s = sample("l40s-4x");
        assertModel(s, 4, "NVIDIA L40S", "8.9", 142);
        assertPcieOnly(s);
        assertFalse(s.gpus().get(0).migMode().isPresent(), "L40S has no MIG");
    }

    // ------------------------------------------------------------------ the builder refuses inconsistent machines

    @Test
    void refusesNvLinkOnAGpuWithoutNvLink() {
        SyntheticMachine m = minimal(GpuModel.of("NVIDIA L40S", "Ada", "8.9")).nvLinkBridge(0, 1, 4);
        assertThrows(IllegalStateException.class, m::build);
    }

    @Test
    void refusesMulticastWithoutNvSwitches() {
        SyntheticMachine m = minimal(GpuModel.of("NVIDIA H100 NVL", "Hopper", "9.0").multicast(true)).nvLinkBridge(0, 1, 12);
        assertThrows(IllegalStateException.class, m::build);
    }

    @Test
    void refusesCpuAffinityOutsideItsNumaNode() {
        SyntheticMachine m = SyntheticMachine.tagged(0xfff0).describedAs("SYNTHETIC: test (no datasheet)")
                .host("t-sample", "os", "k", "amd64", "cpu", List.of("0-7", "8-15")).driver("580.126.20", "13.0")
                .systemNccl("2.28.3").gpuModel(GpuModel.of("NVIDIA L40S", "Ada", "8.9"))
                .gpu("0000:1a:00.0", 1, "0-7").fabricCallUnsupported();
        assertThrows(IllegalStateException.class, m::build);
    }

    @Test
    void refusesADescriptionNotLabelledSynthetic() {
        assertThrows(IllegalArgumentException.class, () -> SyntheticMachine.tagged(1).describedAs("DGX H100"));
    }

    @Test
    void minimalMachineBuilds() {
        MachineSnapshot s = minimal(GpuModel.of("NVIDIA L40S", "Ada", "8.9")).build();
        assertNotNull(s.pair(s.gpus().get(0).pci(), s.gpus().get(1).pci()).orElse(null));
        assertEquals("NODE", s.pairs().get(0).topology().value());
    }

    private static SyntheticMachine minimal(GpuModel model) {
        return SyntheticMachine.tagged(0xfff0).describedAs("SYNTHETIC: test (no datasheet)")
                .host("t-sample", "os", "k", "amd64", "cpu", List.of("0-7")).driver("580.126.20", "13.0")
                .systemNccl("2.28.3").gpuModel(model)
                .gpu("0000:1a:00.0", 0, "0-7").gpu("0000:3b:00.0", 0, "0-7").fabricCallUnsupported();
    }

    // ------------------------------------------------------------------ helpers

    private static void assertModel(MachineSnapshot s, int count, String name, String cc, Integer sms) {
        assertEquals(count, s.gpus().size());
        for (Gpu g : s.gpus()) {
            assertEquals(name, g.name().value());
            assertEquals(cc, g.computeCapability().value());
            if (sms != null) {
                assertEquals(sms, g.smCount().value());
            }
        }
    }

    private static void assertSwitchedLinks(MachineSnapshot s, int linksPerGpu, int switches) {
        assertEquals(switches, s.nvSwitches().size());
        for (Gpu g : s.gpus()) {
            assertEquals(linksPerGpu, g.nvLinkCount().value());
            assertEquals(linksPerGpu, Topology.switchLinks(g));
        }
        for (NvSwitch sw : s.nvSwitches()) {
            assertEquals(s.gpus().size(), sw.gpuLinks().size(), sw.id() + " reaches every GPU");
        }
    }

    /** Links from {@code g} to each switch, in switch order. */
    private static List<Integer> linksPerSwitch(MachineSnapshot s, Gpu g) {
        return s.nvSwitches().stream().map(sw -> sw.gpuLinks().getOrDefault(g.pci().toString(), 0)).toList();
    }

    private static void assertAllPairs(MachineSnapshot s, String letter) {
        for (GpuPair p : s.pairs()) {
            assertEquals(letter, p.topology().value(), s.label(p.a()) + "-" + s.label(p.b()));
            assertEquals("OK", p.p2pRead().value());
            assertEquals(Boolean.TRUE, p.cudaCanAccessPeer().value());
        }
    }

    private static void assertPcieOnly(MachineSnapshot s) {
        assertEquals(List.of(), s.nvSwitches());
        for (Gpu g : s.gpus()) {
            assertEquals(0, g.nvLinkCount().value());
            assertEquals(List.of(), g.nvLinks());
        }
        for (GpuPair p : s.pairs()) {
            assertEquals(0, p.nvLinks().value());
            assertTrue(PCIE_LETTERS.contains(p.topology().value()), p.topology().value());
            assertEquals(p.pcieLevel(), p.topology());
        }
        assertFlags(s, false, null);
    }

    /** @param fabricHandles expected attribute 128, or null when no public source states it */
    private static void assertFlags(MachineSnapshot s, boolean multicast, Boolean fabricHandles) {
        for (Gpu g : s.gpus()) {
            assertEquals(multicast, g.cuda().multicast().value());
            if (fabricHandles != null) {
                assertEquals(fabricHandles, g.cuda().fabricHandles().value());
            }
            assertEquals(Boolean.TRUE, g.cuda().vmm().value());
        }
    }

    private static void assertSingleNodeFabric(MachineSnapshot s) {
        for (Gpu g : s.gpus()) {
            assertEquals("COMPLETED", g.fabric().state().value());
            assertEquals(FabricInfo.ZERO_UUID, g.fabric().clusterUuid().value());
            assertFalse(g.fabric().inMnnvlDomain(), "single node: not an MNNVL domain");
        }
    }

    private static String letter(MachineSnapshot s, int i, int j) {
        return s.pair(s.gpus().get(i).pci(), s.gpus().get(j).pci()).orElseThrow().topology().value();
    }

    private static long cpuNodes(MachineSnapshot s) {
        return s.host().numaNodes().value().stream().filter(n -> !n.cpus().isEmpty()).count();
    }

    private static List<String> codes(MachineSnapshot s) {
        return s.findings().stream().map(Finding::code).collect(Collectors.toList());
    }
}
