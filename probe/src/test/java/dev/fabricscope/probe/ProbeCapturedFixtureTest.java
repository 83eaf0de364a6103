package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Holds the probe's JSON, captured on a real H200 (pass-through VM, 2026-11-29), against the nvidia-smi outputs
 * taken in the same device call (see the fixture folder's README).
 */
class ProbeCapturedFixtureTest {

    private static final Path DIR = Paths.get("src/test/resources/captured/h200-vm-2026-11-29");
    private static MachineSnapshot snapshot;
    private static Document smi;

    @BeforeAll
    static void load() throws Exception {
        snapshot = SnapshotIO.read(DIR.resolve("probe.json"));
        var f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        smi = f.newDocumentBuilder().parse(DIR.resolve("smi-q.xml").toFile());
    }

    private static String text(Element parent, String tag) {
        NodeList l = parent.getElementsByTagName(tag);
        return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
    }

    private static List<Element> smiGpus() {
        NodeList l = smi.getElementsByTagName("gpu");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            out.add((Element) l.item(i));
        }
        return out;
    }

    @Test
    void driverAndCudaVersionsMatchNvidiaSmi() {
        Element root = smi.getDocumentElement();
        assertEquals(DriverInfo.Status.OK, snapshot.driver().status());
        assertEquals(text(root, "driver_version"), snapshot.driver().driverVersion().value());
        assertEquals(text(root, "cuda_version"), snapshot.driver().cudaDriverVersion().value());
    }

    @Test
    void sameGpusByBusIdWithNamesUuidsSerials() {
        List<Element> gpus = smiGpus();
        assertEquals(gpus.size(), snapshot.gpus().size());
        assertEquals(Integer.parseInt(text(smi.getDocumentElement(), "attached_gpus")), snapshot.gpus().size());
        for (Element e : gpus) {
            PciAddress bus = PciAddress.parse(e.getAttribute("id"));
            Gpu g = snapshot.gpu(bus).orElseThrow(() -> new AssertionError("no GPU at " + bus));
            assertEquals(text(e, "product_name"), g.name().value());
            assertEquals(text(e, "uuid"), g.uuid().value());
            assertEquals(text(e, "serial"), g.serial().value());
            assertEquals(text(e, "product_architecture"), g.architecture().value());
            assertEquals(text(e, "virtualization_mode"), g.virtualizationMode().value());
            assertEquals(text((Element) e.getElementsByTagName("mig_mode").item(0), "current_mig"), g.migMode().value());
            assertEquals("Enabled".equals(text(e, "persistence_mode")), g.persistenceMode().value());
            long fbMiB = Long.parseLong(text((Element) e.getElementsByTagName("fb_memory_usage").item(0), "total").replace(" MiB", ""));
            assertEquals(fbMiB, g.memoryTotalBytes().value() / (1024 * 1024));
        }
    }

    @Test
    void computeCapabilityIsHopper90() {
        // nvidia-smi -q does not print the compute capability; H200 is SM 9.0 (also read via CUDA attributes 75/76).
        Gpu g = snapshot.gpus().get(0);
        assertEquals("9.0", g.computeCapability().value());
        assertEquals(132, g.smCount().value());
    }

    @Test
    void nvLinkIsNotExposedInThePassThroughVm() {
        Gpu g = snapshot.gpus().get(0);
        assertEquals(18, g.nvLinks().size(), "links 0..17 probed, as NCCL does for SM 9.0");
        for (NvLink l : g.nvLinks()) {
            assertFalse(l.active().isPresent());
            assertEquals(Missing.Kind.UNSUPPORTED, l.active().missing().kind());
            assertEquals("nvmlDeviceGetNvLinkState", l.active().missing().call());
            assertEquals("NVML_ERROR_NOT_SUPPORTED", l.active().missing().code());
        }
        assertTrue(snapshot.nvSwitches().isEmpty());
        assertTrue(snapshot.findings().stream().anyMatch(f -> f.code().equals("nvlink-hidden")
                && f.message().contains("pass-through VM")));
    }

    @Test
    void topologyMatrixMatchesNvidiaSmiTopoM() throws Exception {
        List<String> lines = Files.readAllLines(DIR.resolve("topo-m.txt"), StandardCharsets.UTF_8);
        Pattern row = Pattern.compile("^GPU(\\d+)\\s+(.*)$");
        int rows = 0;
        for (String raw : lines) {
            String line = raw.replaceAll("\u001b\\[[0-9;]*m", "");
            Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            rows++;
            int i = Integer.parseInt(m.group(1));
            String[] cells = m.group(2).trim().split("\\s+");
            for (int j = 0; j < snapshot.gpus().size(); j++) {
                String expected = cells[j];
                String actual = i == j ? "X" : snapshot.pair(snapshot.gpus().get(i).pci(), snapshot.gpus().get(j).pci())
                        .orElseThrow().topology().value();
                assertEquals(expected, actual, "GPU" + i + "↔GPU" + j);
            }
            assertEquals(cells[snapshot.gpus().size()], snapshot.gpus().get(i).cpuAffinity().value(), "CPU affinity");
            assertEquals(cells[snapshot.gpus().size() + 1], String.valueOf(snapshot.gpus().get(i).numaNode().value()), "NUMA affinity");
        }
        assertEquals(snapshot.gpus().size(), rows);
    }

    @Test
    void fabricFieldsMatchNvidiaSmiAndMulticastIsOff() {
        for (Element e : smiGpus()) {
            Element fabric = (Element) e.getElementsByTagName("fabric").item(0);
            assertNotNull(fabric);
            Gpu g = snapshot.gpu(PciAddress.parse(e.getAttribute("id"))).orElseThrow();
            // nvidia-smi prints N/A when the fabric state is NOT_SUPPORTED; the probe records why the rest is missing.
            assertEquals("N/A", text(fabric, "state"));
            assertEquals("NOT_SUPPORTED", g.fabric().state().value());
            assertFalse(g.fabric().inMnnvlDomain());
            assertEquals(Boolean.FALSE, g.cuda().multicast().value(), "CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 0 on this machine");
            assertEquals(Boolean.TRUE, g.cuda().fabricHandles().value());
            assertEquals(Boolean.TRUE, g.cuda().vmm().value());
        }
    }
}
