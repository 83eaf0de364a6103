package dev.fabricscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.SnapshotText;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The health and node readings of the two-GPU NVSwitch H200 machine (nvml-more-readings.json, nvidia-smi health and
 * /sys listings of 2026-11-30), replayed through the unchanged probe: every expected value is taken from the captured
 * files, not written here.
 */
class NodeReadingsReplayTest {

    private static MachineSnapshot s;
    private static JsonNode more;
    private static String smiHealth;

    @BeforeAll
    static void replay() throws Exception {
        s = CapturedTraces.replay(CapturedTraces.NVSWITCH_2GPU);
        more = Json.mapper().readTree(Files.readString(CapturedTraces.NVSWITCH_2GPU.resolve("nvml-more-readings.json")));
        smiHealth = CapturedTraces.read(CapturedTraces.NVSWITCH_2GPU, "nvidia-smi-health-and-pci.txt");
    }

    /** The captured answer of one call with these arguments. */
    private static JsonNode captured(int gpu, String call, int... args) {
        for (JsonNode c : more.get("gpus").get(gpu).get("calls")) {
            if (!c.get("call").asText().equals(call) || c.get("args").size() != args.length) {
                continue;
            }
            boolean same = true;
            for (int k = 0; k < args.length; k++) {
                same &= c.get("args").get(k).asInt() == args[k];
            }
            if (same) {
                return c;
            }
        }
        throw new AssertionError("no captured " + call);
    }

    @Test
    void everyLinkCounterIsTheCapturedAnswerIncludingTheOnesNvidiaSmiHides() {
        int nonZeroCrcData = 0;
        for (int g = 0; g < s.gpus().size(); g++) {
            Gpu gpu = s.gpus().get(g);
            assertEquals(18, gpu.activeLinks().size());
            for (NvLink l : gpu.activeLinks()) {
                List<NvLinkErrors.Counter> counters = l.errors().counters();
                for (int c = 0; c < 5; c++) {
                    JsonNode answer = captured(g, "nvmlDeviceGetNvLinkErrorCounter", l.index(), c);
                    assertEquals(answer.get("value").asLong(), counters.get(c).value().value(), "GPU" + g + " link " + l.index() + " counter " + c);
                }
                nonZeroCrcData += l.errors().crcData().value() > 0 ? 1 : 0;
                assertEquals(0L, l.errors().serious(), "replay and recovery are 0 there");
                // nvidia-smi nvlink -e prints "CRC Errors" = the flit counter: 0, so it hides the data counters
                assertTrue(smiHealth.contains("Link " + l.index() + ": CRC Errors: 0"));
            }
        }
        assertTrue(nonZeroCrcData > 18, "CRC data counts on most links: " + nonZeroCrcData);
        // the details pane of GPU0: corrected counts only, below DCGM's thresholds: listed, none highlighted
        List<dev.fabricscope.render.fabric.FabricGraph.Detail> d = dev.fabricscope.render.fabric.NodeDetails.gpu(s, s.gpus().get(0));
        assertTrue(d.stream().anyMatch(x -> x.key().equals("NVLink errors") && x.value().startsWith("ok — links 0–17")), d.toString());
        assertTrue(d.stream().noneMatch(x -> x.key().contains("errors") && x.value().startsWith(dev.fabricscope.render.fabric.NodeDetails.NON_ZERO)),
                d.toString());
        assertTrue(d.stream().anyMatch(x -> x.key().equals("Link 3 errors") && x.value().contains("CRC data=12")), d.toString());
        String text = SnapshotText.render(s);
        assertTrue(text.contains("NVLink error counters"), text);
        assertFalse(text.contains("! link"), "no line per link by default: " + text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  GPU0: ok — links 0–17: replay 0, recovery 0, CRC flit 0")), text);
        String wide = SnapshotText.render(s, true);
        assertTrue(wide.contains("    link 3: CRC data=" + captured(0, "nvmlDeviceGetNvLinkErrorCounter", 3, 3).get("value").asLong()), wide);
    }

    @Test
    void throughputCountersThatWereNotReadThereSayWhy() {
        NvLink l = s.gpus().get(0).activeLinks().get(0);
        assertFalse(l.errors().throughputTxKib().isPresent());
        assertTrue(l.errors().throughputTxKib().missing().describe().contains("not recorded in the trace"), l.errors().throughputTxKib().missing().describe());
    }

    @Test
    void healthMatchesNvidiaSmiOfTheSameHost() {
        for (int g = 0; g < 2; g++) {
            GpuHealth h = s.gpus().get(g).health();
            assertEquals(Boolean.TRUE, h.eccEnabled().value());
            assertTrue(smiHealth.contains("Current                                        : Enabled"));
            assertEquals(captured(g, "nvmlDeviceGetTotalEccErrors", 1, 0).get("value").asLong(), h.eccVolatileUncorrected().value());
            assertEquals(captured(g, "nvmlDeviceGetTotalEccErrors", 0, 1).get("value").asLong(), h.eccAggregateCorrected().value());
            assertEquals(new GpuHealth.RemappedRows(0, 0, false, false), h.remappedRows().value());
            Missing retired = h.retiredPagesDoubleBit().missing();
            assertEquals(Missing.Kind.UNSUPPORTED, retired.kind());
            assertEquals("nvmlDeviceGetRetiredPages_v2 → NVML_ERROR_NOT_SUPPORTED (3)", retired.describe());
            assertEquals(List.of("Idle"), h.clocksEventReasons().value(), "nvidia-smi: Idle Active, the rest Not Active");
            assertEquals(captured(g, "nvmlDeviceGetPowerManagementLimit").get("value").asInt() / 1000.0, h.powerLimitWatts().value());
            assertTrue(smiHealth.contains("Current Power Limit                            : 700.00 W"));
            assertEquals("Gen5 x16", h.pcieLinkCurrent().value());
            assertEquals(Missing.Kind.UNAVAILABLE, h.recoveryAction().missing().kind(), "field 230 was not read there");
        }
        String text = SnapshotText.render(s);
        assertTrue(text.contains("GPU health:"), text);
        assertTrue(text.contains("700 W"), text);
    }

    @Test
    void noRdmaNicsAndNoSystemdAnswerAreNormalCases() {
        Reading<List<Nic>> nics = s.node().nics();
        assertTrue(nics.isPresent(), String.valueOf(nics.missing()));
        assertEquals(List.of(), s.node().rdmaNics());
        Nic eth0 = nics.value().get(0);
        assertEquals("eth0", eth0.name());
        assertEquals("0000:00:03.0", eth0.address().value(), "eth0 -> /sys/devices/pci0000:00/0000:00:03.0/virtio2");
        assertEquals(List.of("pci0000:00"), eth0.pciePath().value());
        assertEquals(1, nics.value().size(), "ifb0, ifb1 and lo are virtual");
        String text = SnapshotText.render(s);
        assertFalse(text.contains("NIC0"), "no RDMA NIC: no NIC columns, as nvidia-smi topo -m there");
        assertTrue(text.contains("NICs (0 RDMA)"), text);
        // the fabric manager, IMEX and (issue 24) NVLSM: no systemd answer and no process list in this trace
        assertEquals(List.of("unknown", "unknown", "unknown"), s.node().services().stream().map(v -> v.state()).toList());
        assertTrue(text.contains("nvidia-fabricmanager: unknown"), text);
        System.out.println(text);
    }
}
