package dev.fabricscope.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.NodeDetails;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 item 3: NVLink counters classed as DCGM's health check classes them, judged per GPU, a finding only past a
 * cited threshold. On the real two-GPU NVSwitch trace (whose nvidia-smi nvlink -e shows 0 CRC errors) and on copies
 * of it with counts set as DCGM's thresholds name them (synthetic, following DcgmHealthWatch.cpp MonitorNVLink4Fields).
 */
class NvLinkCountersTest {

    private static final Path DIR = Path.of("src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01");

    private static MachineSnapshot replayed() throws Exception {
        return TraceReplay.replay(TraceIO.read(Files.readAllBytes(DIR.resolve("trace.json")), "trace.json"), "trace.json");
    }

    /** {@code g}'s link {@code link} with counter {@code counter} ({@link NvLinkErrors#counters()} order) set to {@code value}. */
    private static Gpu withCount(Gpu g, int link, int counter, long value) {
        List<NvLink> links = new ArrayList<>(g.nvLinks());
        NvLink l = links.get(link);
        NvLinkErrors e = l.errors();
        List<Reading<Long>> c = new ArrayList<>(e.counters().stream().map(NvLinkErrors.Counter::value).toList());
        c.set(counter, Reading.of(value));
        links.set(link, l.withErrors(new NvLinkErrors(c.get(0), c.get(1), c.get(2), c.get(3), c.get(4), e.throughputTxKib(),
                e.throughputRxKib())));
        return g.withLinks(links);
    }

    private static MachineSnapshot withGpu0(MachineSnapshot s, Gpu g) {
        List<Gpu> gpus = new ArrayList<>(s.gpus());
        gpus.set(0, g);
        MachineSnapshot t = s.withGpus(gpus);
        return t.withFindings(SnapshotAnalyzer.findings(t));
    }

    @Test
    void everyCounterHasAClassAndASource() {
        assertEquals(List.of("replay", "recovery", "CRC flit", "CRC data", "ECC data"), NvLinkCounters.RULES.stream().map(NvLinkCounters.Rule::name).toList());
        for (NvLinkCounters.Rule r : NvLinkCounters.RULES) {
            assertTrue(r.nvml().startsWith("NVML_NVLINK_ERROR_DL_") && r.dcgmField().startsWith("DCGM_FI_DEV_NVLINK_"), r.toString());
            assertTrue(r.source().contains("DcgmHealthWatch.cpp") || r.source().contains("dcgm_structs.h"), r.toString());
        }
        assertEquals(NvLinkCounters.CounterClass.MUST_NOT_RISE, NvLinkCounters.classOf(0, 4));
        assertEquals(NvLinkCounters.CounterClass.MUST_NOT_RISE, NvLinkCounters.classOf(1, 4));
        assertEquals(NvLinkCounters.CounterClass.CORRECTED_CRC, NvLinkCounters.classOf(3, 4));
        assertEquals(NvLinkCounters.CounterClass.CORRECTED_UNJUDGED, NvLinkCounters.classOf(4, 4), "ECC data on NVLink 4");
        assertEquals(NvLinkCounters.CounterClass.MUST_NOT_RISE, NvLinkCounters.classOf(4, 5), "ECC data on NVLink 5 (MonitorNVLink5Fields)");
        assertEquals(6000, NvLinkCounters.CRC_TOTAL_THAT_COULD_FAIL, "100 per second over DCGM's one-minute window");
    }

    @Test
    void theRealNvSwitchTraceIsCorrectedOnlyAsNvidiaSmiSaysAndNoFinding() throws Exception {
        MachineSnapshot s = replayed();
        // nvidia-smi nvlink -e of the same machine: every link 0 replay, 0 recovery, 0 CRC errors
        String smi = Files.readString(DIR.resolve("nvlink-e.txt"));
        Matcher m = Pattern.compile("Link (\\d+): CRC Errors: (\\d+)").matcher(smi);
        int links = 0;
        while (m.find()) {
            links++;
            assertEquals("0", m.group(2));
        }
        assertEquals(36, links);
        for (Gpu g : s.gpus()) {
            NvLinkCounters.GpuCounters c = NvLinkCounters.of(g);
            assertEquals(NvLinkCounters.Verdict.CORRECTED_ONLY, c.verdict(), c.toString());
            assertEquals(0, c.total("CRC flit").sum(), "our CRC flit is nvidia-smi's CRC Errors: 0");
            assertTrue(c.total("CRC data").sum() > 0 && c.total("ECC data").sum() > 0);
        }
        assertTrue(s.findings().stream().noneMatch(f -> f.code().equals("nvlink-errors")), s.findings().toString());
        String text = SnapshotText.render(s);
        assertFalse(text.contains("! link"), text);
        assertEquals(0, text.lines().filter(l -> l.matches("\\s+!?\\s*link \\d+:.*")).count(), "no line per link by default");
        assertTrue(text.contains("  GPU0: ok — links 0–17: replay 0, recovery 0, CRC flit 0; corrected: CRC data 111, ECC data 164 "
                + "(links 0–3, 5–17)"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
        // the raw counts stay in --wide and in the JSON
        String wide = SnapshotText.render(s, true);
        assertEquals(35, wide.lines().filter(l -> l.matches("    link \\d+: CRC data=\\d+, ECC data=\\d+")).count(), wide);
        String json = Json.write(s);
        assertTrue(json.contains("\"crcData\"") && json.contains("\"eccData\""));
        // the GUI's details: the counts listed, nothing highlighted
        List<FabricGraph.Detail> d = NodeDetails.gpu(s, s.gpus().get(1));
        assertEquals(18, d.stream().filter(x -> x.key().matches("Link \\d+ errors")).count());
        assertTrue(d.stream().noneMatch(x -> x.value().startsWith(NodeDetails.NON_ZERO)), d.toString());
        // and the node check passes its counters line with the corrected counts said as such
        NodeAcceptance.Expectation e = NodeAcceptance.compare(NodeAcceptance.profileOf(s, "itself", 0.5), s, null).stream()
                .filter(x -> x.name().equals("NVLink replay/recovery errors")).findFirst().orElseThrow();
        assertEquals(NodeAcceptance.Outcome.PASS, e.outcome());
        assertTrue(e.measured().startsWith("0 on 36 links (corrected CRC/ECC counts "), e.measured());
    }

    @Test
    void oneReplayIsPastTheThresholdAFindingAHighlightAndAFailedNodeCheck() throws Exception {
        MachineSnapshot real = replayed();
        MachineSnapshot s = withGpu0(real, withCount(real.gpus().get(0), 3, 0, 4));
        NvLinkCounters.GpuCounters c = NvLinkCounters.of(s.gpus().get(0));
        assertEquals(NvLinkCounters.Verdict.PAST_THRESHOLD, c.verdict());
        Finding f = s.findings().stream().filter(x -> x.code().equals("nvlink-errors")).findFirst().orElseThrow();
        assertEquals(Finding.Severity.WARNING, f.severity());
        assertTrue(f.message().contains("replay 4 on link 3") && f.subject().startsWith("GPU0"), f.toString());
        assertTrue(s.findings().stream().filter(x -> x.code().equals("nvlink-errors")).count() == 1, "GPU1 stays below");
        String text = SnapshotText.render(s);
        assertTrue(text.contains("  GPU0: check — links 0–17: replay 4 on link 3"), text);
        List<FabricGraph.Detail> d = NodeDetails.gpu(s, s.gpus().get(0));
        assertTrue(d.stream().anyMatch(x -> x.key().equals("NVLink errors") && x.value().startsWith(NodeDetails.NON_ZERO)), d.toString());
        assertTrue(d.stream().anyMatch(x -> x.key().equals("Link 3 errors") && x.value().startsWith(NodeDetails.NON_ZERO)), d.toString());
        assertTrue(d.stream().anyMatch(x -> x.key().equals("Link 0 errors") && !x.value().startsWith(NodeDetails.NON_ZERO)), d.toString());
        NodeAcceptance.Expectation e = NodeAcceptance.compare(NodeAcceptance.profileOf(real, "itself", 0.5), s, null).stream()
                .filter(x -> x.name().equals("NVLink replay/recovery errors")).findFirst().orElseThrow();
        assertEquals(NodeAcceptance.Outcome.FAIL, e.outcome());
        assertTrue(e.measured().startsWith("GPU0 replay 4 on link 3"), e.measured());
    }

    @Test
    void crcCountsFailOnlyWhereTheyCouldHoldAMinuteAtDcgmsRate() throws Exception {
        MachineSnapshot real = replayed();
        Gpu g = real.gpus().get(0);
        long others = NvLinkCounters.of(g).total("CRC data").sum() - g.nvLinks().get(0).errors().crcData().value();
        Gpu below = withCount(g, 0, 3, NvLinkCounters.CRC_TOTAL_THAT_COULD_FAIL - 1 - others);
        assertEquals(NvLinkCounters.CRC_TOTAL_THAT_COULD_FAIL - 1, NvLinkCounters.of(below).total("CRC data").sum());
        assertEquals(NvLinkCounters.Verdict.CORRECTED_ONLY, NvLinkCounters.of(below).verdict());
        Gpu at = withCount(g, 0, 3, NvLinkCounters.CRC_TOTAL_THAT_COULD_FAIL - others);
        NvLinkCounters.GpuCounters c = NvLinkCounters.of(at);
        assertEquals(NvLinkCounters.Verdict.PAST_THRESHOLD, c.verdict());
        assertTrue(c.reasons().get(0).startsWith("CRC 6000 since the driver loaded"), c.reasons().toString());
        // ECC data is corrected noise on NVLink 4: a large count alone is no finding
        assertEquals(NvLinkCounters.Verdict.CORRECTED_ONLY, NvLinkCounters.of(withCount(g, 0, 4, 1_000_000)).verdict());
    }

    @Test
    void aSnapshotWithoutCountersSaysNothingAboutThem() {
        MachineSnapshot dgx = dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get();
        for (Gpu g : dgx.gpus()) {
            NvLinkCounters.Verdict v = NvLinkCounters.of(g).verdict();
            assertTrue(v == NvLinkCounters.Verdict.NOT_READ || v == NvLinkCounters.Verdict.CLEAN
                    || v == NvLinkCounters.Verdict.CORRECTED_ONLY, v.toString());
        }
        assertTrue(dgx.findings().stream().noneMatch(f -> f.code().equals("nvlink-errors")));
    }
}
