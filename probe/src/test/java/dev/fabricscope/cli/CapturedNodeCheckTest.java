package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Read-back of {@code check node} as it ran on the one-GPU H200: what the machine printed (first call, 2026-12-01
 * 01:29), and the node report, the recorded probe trace and nvidia-smi's views of a second call (02:05), held
 * against each other.
 */
class CapturedNodeCheckTest {

    private static final Path DIR = CapturedTraces.ROOT.resolve("h200-passthrough-1gpu-2026-12-01-node");

    @Test
    void theSummaryLineComesFirstAndEveryRowHasAResult() {
        List<String> lines = CapturedTraces.read(DIR, "check-node.txt").lines().toList();
        assertTrue(lines.get(0).startsWith("FAIL: 1 of 13 expectations failed (Preflight)"), lines.get(0));
        assertEquals("5", CapturedTraces.read(DIR, "check-node.rc").trim(), "exit 5: a live check failed the node");
        List<String> rows = lines.subList(3, lines.size());
        assertEquals(13, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.matches("(PASS|FAIL|SKIP) .*")), rows.toString());
        String preflight = rows.stream().filter(r -> r.contains("Preflight")).findFirst().orElseThrow();
        assertTrue(preflight.contains("801") && preflight.contains("world size 1"), preflight);
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("PASS") && r.contains("All-reduce") && r.contains("all results exact")));
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("PASS") && r.contains("ECC and row remapping")));
        String stderr = CapturedTraces.read(DIR, "check-node.stderr.txt");
        for (String check : List.of("preflight", "p2p", "allreduce")) {
            assertTrue(stderr.contains("[" + check + "] " + check + " started in process"), "each check in its child process: " + check);
        }
    }

    @Test
    void againstTheDgxH100SampleItNamesEveryDifference() {
        String out = CapturedTraces.read(DIR, "check-node-dgx.txt");
        assertTrue(out.startsWith("FAIL: 10 of 18"), out);
        assertTrue(out.contains("missing mlx5_0"), out);
        assertTrue(out.contains("GPU0 NVIDIA H200"), out);
    }

    @Test
    void theSecondCallsNodeReportReadsBackAndPassesWithThePreflightSkipped() throws Exception {
        assertEquals("0", CapturedTraces.read(DIR, "check-node-2.rc").trim(),
                "exit 0: a preflight SKIP without multicast on the reference no longer fails the node");
        Report report = ReportIO.read(DIR.resolve("node-report.json"));
        assertEquals(1, report.snapshot().gpus().size());
        String json = CapturedTraces.read(DIR, "node-report.json");
        assertTrue(json.contains("\"status\" : \"PASSED\"") && json.contains("\"summary\" : \"PASS: 10 of 13 expectations met, 3 skipped\""));
        assertTrue(json.contains("\"vote\" : \"SKIP\""), "the preflight's own vote stays SKIP");
        String stderr = CapturedTraces.read(DIR, "check-node-2.stderr.txt");
        for (String check : List.of("preflight", "p2p", "allreduce")) {
            assertTrue(stderr.contains("[" + check + "] " + check + " started in process"), "each check in its child process: " + check);
        }
    }

    @Test
    void theReplayedTraceGivesTheReportsHealthReadings() throws Exception {
        MachineSnapshot replayed = CapturedTraces.replay(DIR);
        MachineSnapshot reported = ReportIO.read(DIR.resolve("node-report.json")).snapshot();
        assertEquals(1, replayed.gpus().size());
        Gpu live = reported.gpus().get(0);
        Gpu again = replayed.gpus().get(0);
        assertEquals(live.pci(), again.pci());
        assertEquals(live.health(), again.health(), "probe --record and check node read the same health, same call");
        assertEquals(live.persistenceMode(), again.persistenceMode());
    }

    @Test
    void eccRemappedRowsPowerAndPcieMatchNvidiaSmiOfTheSameCall() {
        Gpu gpu = CapturedTraces.replay(DIR).gpus().get(0);
        GpuHealth h = gpu.health();
        String smi = CapturedTraces.read(DIR, "smi-health.txt");
        String xml = CapturedTraces.read(DIR, "smi-q.xml");

        assertEquals(field(smi, "ECC Mode", "Current").equals("Enabled"), h.eccEnabled().value());
        assertEquals(field(smi, "ECC Mode", "Pending").equals("Enabled"), h.eccPendingEnabled().value());
        assertEquals(sum(section(smi, "Volatile", "Aggregate"), "Correctable"), h.eccVolatileCorrected().value());
        assertEquals(sum(section(smi, "Volatile", "Aggregate"), "Uncorrectable"), h.eccVolatileUncorrected().value());
        assertEquals(sum(section(smi, "Aggregate\n", "Aggregate Uncorrectable SRAM Sources"), "Correctable"), h.eccAggregateCorrected().value());
        assertEquals(sum(section(smi, "Aggregate\n", "Aggregate Uncorrectable SRAM Sources"), "Uncorrectable"),
                h.eccAggregateUncorrected().value());

        GpuHealth.RemappedRows rows = h.remappedRows().value();
        assertEquals(Integer.parseInt(field(smi, "Remapped Rows", "Correctable Error")), rows.correctable());
        assertEquals(Integer.parseInt(field(smi, "Remapped Rows", "Uncorrectable Error")), rows.uncorrectable());
        assertEquals(field(smi, "Remapped Rows", "Pending").equals("Yes"), rows.pending());
        assertEquals(field(smi, "Remapped Rows", "Remapping Failure Occurred").equals("Yes"), rows.failureOccurred());

        assertEquals("N/A", field(smi, "Retired Pages", "Single Bit ECC"));
        assertEquals(Missing.Kind.UNSUPPORTED, h.retiredPagesSingleBit().missing().kind(), "N/A in nvidia-smi: not supported on Hopper");
        assertEquals(Missing.Kind.UNSUPPORTED, h.retiredPagesDoubleBit().missing().kind());

        double limit = Double.parseDouble(field(smi, "GPU Power Readings", "Current Power Limit").replace(" W", ""));
        assertEquals(limit, h.powerLimitWatts().value(), 0.01);
        assertEquals(limit, h.enforcedPowerLimitWatts().value(), 0.01);
        assertTrue(field(smi, "Clocks Event Reasons", "Idle").equals("Active") == h.clocksEventReasons().value().contains("Idle"));
        assertEquals("Not Active", field(smi, "Clocks Event Reasons", "SW Power Cap"));
        assertFalse(h.clocksEventReasons().value().stream().anyMatch(r -> r.contains("Power")), h.clocksEventReasons().toString());

        assertEquals("Gen" + tag(xml, "current_link_gen") + " x" + tag(xml, "current_link_width").replace("x", ""), h.pcieLinkCurrent().value());
        assertEquals("Gen" + tag(xml, "max_link_gen") + " x" + tag(xml, "max_link_width").replace("x", ""), h.pcieLinkMax().value());
        assertEquals(tag(xml, "persistence_mode").equals("Enabled"), gpu.persistenceMode().value());
        assertTrue(tag(xml, "pci_bus_id").toLowerCase().endsWith(gpu.pci().toString().substring(5)), tag(xml, "pci_bus_id"));
    }

    @Test
    void nvlinkCountersAndNicsAreWhatTheMachineShowed() {
        MachineSnapshot s = CapturedTraces.replay(DIR);
        assertTrue(CapturedTraces.read(DIR, "nvlink-e.txt").isBlank(), "nvidia-smi nvlink -e printed nothing: NVLink hidden in this VM");
        for (NvLink link : s.gpus().get(0).nvLinks()) {
            assertFalse(link.errors().replay().isPresent(), "no counter invented for link " + link.index());
            assertFalse(link.errors().crcData().isPresent());
        }
        String sys = CapturedTraces.read(DIR, "sys-ls.txt");
        assertTrue(sys.contains("/sys/class/infiniband:\ntotal 0"), "no RDMA device on the machine");
        assertTrue(s.node().rdmaNics().isEmpty());
        Matcher eth = Pattern.compile("(\\w+) -> \\.\\./\\.\\./devices/pci[0-9a-f:]+/([0-9a-f:.]+)/").matcher(sys);
        int pciInterfaces = 0;
        while (eth.find()) {
            pciInterfaces++;
            String name = eth.group(1);
            String address = eth.group(2);
            Nic nic = s.node().nics().value().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
            assertEquals(address, nic.address().value());
            assertFalse(nic.rdma());
        }
        assertEquals(pciInterfaces, s.node().nics().value().size(), "one NIC per PCI interface; virtual ones (lo, ifb) left out");
    }

    /** The value of {@code key} in the first block that follows the line {@code header}. */
    private static String field(String smi, String header, String key) {
        int at = smi.indexOf(header);
        assertTrue(at >= 0, header);
        Matcher m = Pattern.compile("\\n\\s+" + Pattern.quote(key) + "\\s+: ([^\\n]*)").matcher(smi);
        assertTrue(m.find(at), header + " / " + key);
        return m.group(1).trim();
    }

    private static String section(String smi, String from, String to) {
        int a = smi.indexOf(from);
        int b = smi.indexOf(to, a + from.length());
        return smi.substring(a, b);
    }

    /** The sum of every counter in the section whose name ends in {@code kind} (SRAM and DRAM; parity and SEC-DED). */
    private static long sum(String section, String kind) {
        Matcher m = Pattern.compile("(SRAM|DRAM) " + kind + "[^:\\n]*:\\s+(\\d+)").matcher(section);
        long total = 0;
        int n = 0;
        while (m.find()) {
            total += Long.parseLong(m.group(2));
            n++;
        }
        assertTrue(n > 0, kind + " in " + section);
        return total;
    }

    private static String tag(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
        assertTrue(m.find(), name);
        return m.group(1).trim();
    }
}
