package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The probe, replayed now from the native calls recorded on the two real H200 machines, held against the nvidia-smi
 * outputs taken in the same device call (each folder's README): what this build's probe makes of those answers, not a
 * file an older build saved.
 */
class ProbeCapturedFixtureTest {

    private static final Path CAPTURED = Path.of("src/test/resources/captured");
    static final Path PASSTHROUGH = CAPTURED.resolve("h200-passthrough-1gpu-2026-12-01");
    static final Path NVSWITCH = CAPTURED.resolve("h200-nvswitch-2gpu-2026-12-01");

    /** One machine: the probe's replay of its trace and nvidia-smi -q -x of the same call. */
    record Machine(String name, MachineSnapshot snapshot, Document smi, Path dir) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Machine machine(Path dir) throws Exception {
        MachineSnapshot s = TraceReplay.replay(TraceIO.read(Files.readAllBytes(dir.resolve("trace.json")), dir.toString()),
                dir.getFileName().toString());
        var f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return new Machine(dir.getFileName().toString(), s, f.newDocumentBuilder().parse(dir.resolve("smi-q.xml").toFile()), dir);
    }

    static Stream<Machine> machines() throws Exception {
        return Stream.of(machine(PASSTHROUGH), machine(NVSWITCH));
    }

    private static String text(Element parent, String tag) {
        NodeList l = parent.getElementsByTagName(tag);
        return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
    }

    private static List<Element> smiGpus(Document smi) {
        NodeList l = smi.getElementsByTagName("gpu");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            out.add((Element) l.item(i));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("machines")
    void driverAndCudaVersionsMatchNvidiaSmi(Machine m) {
        Element root = m.smi().getDocumentElement();
        assertEquals(DriverInfo.Status.OK, m.snapshot().driver().status());
        assertEquals(text(root, "driver_version"), m.snapshot().driver().driverVersion().value());
        assertEquals(text(root, "cuda_version"), m.snapshot().driver().cudaDriverVersion().value());
    }

    @ParameterizedTest
    @MethodSource("machines")
    void sameGpusByBusIdWithNamesUuidsSerialsAndMemory(Machine m) {
        List<Element> gpus = smiGpus(m.smi());
        MachineSnapshot s = m.snapshot();
        assertEquals(gpus.size(), s.gpus().size());
        assertEquals(Integer.parseInt(text(m.smi().getDocumentElement(), "attached_gpus")), s.gpus().size());
        for (Element e : gpus) {
            PciAddress bus = PciAddress.parse(e.getAttribute("id"));
            Gpu g = s.gpu(bus).orElseThrow(() -> new AssertionError("no GPU at " + bus));
            assertEquals(text(e, "product_name"), g.name().value());
            assertEquals(text(e, "uuid"), g.uuid().value());
            assertEquals(text(e, "serial"), g.serial().value());
            assertEquals(text(e, "product_architecture"), g.architecture().value());
            assertEquals(text(e, "virtualization_mode"), g.virtualizationMode().value());
            assertEquals(text((Element) e.getElementsByTagName("mig_mode").item(0), "current_mig"), g.migMode().value());
            assertEquals("Enabled".equals(text(e, "persistence_mode")), g.persistenceMode().value());
            long fbMiB = Long.parseLong(text((Element) e.getElementsByTagName("fb_memory_usage").item(0), "total").replace(" MiB", ""));
            assertEquals(fbMiB, g.memoryTotalBytes().value() / (1024 * 1024));
            // nvidia-smi -q does not print the compute capability; H200 is SM 9.0 with 132 SMs (CUDA attributes 75/76/16)
            assertEquals("9.0", g.computeCapability().value());
            assertEquals(132, g.smCount().value());
        }
    }

    @ParameterizedTest
    @MethodSource("machines")
    void topologyMatrixMatchesNvidiaSmiTopoM(Machine m) throws Exception {
        MachineSnapshot s = m.snapshot();
        List<String> lines = Files.readAllLines(m.dir().resolve("topo-m.txt"), StandardCharsets.UTF_8);
        Pattern row = Pattern.compile("^GPU(\\d+)\\s+(.*)$");
        int rows = 0;
        for (String raw : lines) {
            Matcher r = row.matcher(raw.replaceAll("\u001b\\[[0-9;]*m", ""));
            if (!r.matches()) {
                continue;
            }
            rows++;
            int i = Integer.parseInt(r.group(1));
            String[] cells = r.group(2).trim().split("\\s+");
            for (int j = 0; j < s.gpus().size(); j++) {
                String actual = i == j ? "X" : s.pair(s.gpus().get(i).pci(), s.gpus().get(j).pci()).orElseThrow().topology().value();
                assertEquals(cells[j], actual, m + ": GPU" + i + "↔GPU" + j);
            }
            assertEquals(cells[s.gpus().size()], s.gpus().get(i).cpuAffinity().value(), m + ": CPU affinity");
            assertEquals(cells[s.gpus().size() + 1], String.valueOf(s.gpus().get(i).numaNode().value()), m + ": NUMA affinity");
        }
        assertEquals(s.gpus().size(), rows);
    }

    @ParameterizedTest
    @MethodSource("machines")
    void fabricStateMatchesNvidiaSmi(Machine m) {
        for (Element e : smiGpus(m.smi())) {
            Element fabric = (Element) e.getElementsByTagName("fabric").item(0);
            assertNotNull(fabric);
            Gpu g = m.snapshot().gpu(PciAddress.parse(e.getAttribute("id"))).orElseThrow();
            String smiState = text(fabric, "state");
            if (smiState.equals("N/A")) {
                // nvidia-smi prints N/A where NVML answers NOT_SUPPORTED; the probe records why the rest is missing
                assertEquals("NOT_SUPPORTED", g.fabric().state().value(), m.toString());
            } else {
                assertEquals(smiState.toUpperCase(Locale.ROOT).replace(' ', '_'), g.fabric().state().value(), m.toString());
                assertEquals(text(fabric, "clusterUuid"), g.fabric().clusterUuid().value(), m.toString());
                assertEquals(Long.parseLong(text(fabric, "cliqueId")), g.fabric().cliqueId().value(), m.toString());
            }
        }
    }

    @Test
    void nvLinkIsNotExposedInThePassThroughVmAndMulticastIsOff() throws Exception {
        MachineSnapshot s = machine(PASSTHROUGH).snapshot();
        Gpu g = s.gpus().get(0);
        assertEquals(18, g.nvLinks().size(), "links 0..17 probed, as NCCL does for SM 9.0");
        for (NvLink l : g.nvLinks()) {
            assertFalse(l.active().isPresent());
            assertEquals(Missing.Kind.UNSUPPORTED, l.active().missing().kind());
            assertEquals("nvmlDeviceGetNvLinkState", l.active().missing().call());
            assertEquals("NVML_ERROR_NOT_SUPPORTED", l.active().missing().code());
        }
        assertTrue(s.nvSwitches().isEmpty());
        assertTrue(s.findings().stream().anyMatch(f -> f.code().equals("nvlink-hidden") && f.message().contains("pass-through VM")));
        assertEquals(Boolean.FALSE, g.cuda().multicast().value(), "CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 0 on this machine");
        assertEquals(Boolean.TRUE, g.cuda().fabricHandles().value());
        assertEquals(Boolean.TRUE, g.cuda().vmm().value());
    }

    @Test
    void theNvSwitchMachineHas18ActiveLinksPerGpuAsNvidiaSmiSays() throws Exception {
        Machine m = machine(NVSWITCH);
        // nvlink-s.txt: nvidia-smi nvlink -s of the same call, one "Link N: 26.562 GB/s" line per active link
        List<String> status = Files.readAllLines(m.dir().resolve("nvlink-s.txt"), StandardCharsets.UTF_8);
        long smiActive = status.stream().filter(l -> l.trim().matches("Link \\d+: [0-9.]+ GB/s")).count();
        long ours = m.snapshot().gpus().stream().flatMap(g -> g.nvLinks().stream())
                .filter(l -> Boolean.TRUE.equals(l.active().value())).count();
        assertEquals(smiActive, ours);
        assertEquals(36, ours, "18 per GPU");
        for (Gpu g : m.snapshot().gpus()) {
            assertEquals(Boolean.TRUE, g.cuda().multicast().value(), "the NVSwitch machine reads multicast 1");
        }
    }
}
