package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.FabricVerdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The NVLink signals recorded on the one-H200 pass-through VM (issue 24), replayed here and held against what
 * nvidia-smi and an independent C reader ({@code bench/nvml-signals.c}) said in the same device call.
 */
class CapturedSignalsTest {

    static final Path DIR = CapturedTraces.ROOT.resolve("h200-passthrough-1gpu-2026-12-01-signals");

    private static MachineSnapshot replayed() {
        return CapturedTraces.replay(DIR);
    }

    /** The return code the C reader printed for {@code call} on GPU 0 ({@code rc=N}), or -1 for "symbol missing". */
    private static int cReaderRc(String line) {
        String out = CapturedTraces.read(DIR, "nvml-signals.txt");
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(line) + " (rc=(\\d+)|symbol missing)").matcher(out);
        assertTrue(m.find(), line + " in nvml-signals.txt");
        return m.group(2) == null ? -1 : Integer.parseInt(m.group(2));
    }

    private static void sameAsCReader(Reading<?> r, String line) {
        int rc = cReaderRc(line);
        if (rc == 0) {
            assertTrue(r.isPresent(), line + " answered in C: " + r);
        } else if (rc == -1) {
            assertEquals(Missing.Kind.SYMBOL_MISSING, r.missing().kind(), line);
        } else {
            assertEquals(Integer.valueOf(rc), r.missing().codeValue(), line + ": " + r.missing().describe());
        }
    }

    @Test
    void everyNewCallAnswersAsTheCReaderSawItInTheSameCall() {
        NvLinkSignals sig = replayed().gpus().get(0).signals();
        sameAsCReader(sig.systemBwMode(), "nvmlSystemGetNvlinkBwMode");
        sameAsCReader(sig.bwMode(), "gpu 0 nvmlDeviceGetNvlinkBwMode");
        sameAsCReader(sig.supportedBwModes(), "gpu 0 nvmlDeviceGetNvlinkSupportedBwModes");
        sameAsCReader(sig.nvle(), "gpu 0 nvmlDeviceGetNvLinkInfo v2");
        sameAsCReader(sig.fabricCliques(), "gpu 0 nvmlDeviceGetGpuFabricInfo_v4");
        assertEquals(Missing.Kind.UNSUPPORTED, sig.bwMode().missing().kind(), "NOT_SUPPORTED is a reading, not an error");
        assertEquals(Missing.Kind.SYMBOL_MISSING, sig.fabricCliques().missing().kind(), "R580 lacks the v4 call");
    }

    @Test
    void machineWideBandwidthModeIsWhatNvidiaSmiPrints() {
        String smi = CapturedTraces.read(DIR, "nvlink-bwmode.txt");
        Matcher m = Pattern.compile("GPU NVLINK bandwidth mode: (\\w+)").matcher(smi);
        assertTrue(m.find(), smi);
        String mode = replayed().gpus().get(0).signals().systemBwMode().value();
        assertEquals(m.group(1) + " (0)", mode);
        Matcher c = Pattern.compile("nvmlSystemGetNvlinkBwMode rc=0 mode=(\\d+)").matcher(CapturedTraces.read(DIR, "nvml-signals.txt"));
        assertTrue(c.find());
        assertEquals(mode, "FULL (" + c.group(1) + ")", "the C reader read the same number");
    }

    @Test
    void inThisVmTheFabricManagerIsNeitherInstalledNorJudgedAndNvlinkIsHidden() {
        MachineSnapshot s = replayed();
        assertTrue(CapturedTraces.read(DIR, "fm-version.txt").contains("cannot access '/usr/bin/nv-fabricmanager'"));
        assertEquals(Missing.Kind.NOT_APPLICABLE, s.node().fabricManagerVersion().missing().kind());
        assertTrue(CapturedTraces.read(DIR, "smi-q.txt").matches("(?s).*Virtualization Mode\\s+: Pass-Through.*"));
        assertEquals("Pass-Through", s.gpus().get(0).virtualizationMode().value());
        assertTrue(CapturedTraces.read(DIR, "nvlink-s.txt").isBlank(), "nvidia-smi shows no NVLink either");
        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertEquals(FabricVerdict.State.NOT_APPLICABLE, v.state(), v.summary());
        assertTrue(s.gpus().get(0).signals().links().isEmpty());
    }

    @Test
    void replayHereEqualsTheLiveProbeAndTheReplayThere() throws Exception {
        JsonNode live = signalsAndNode(CapturedTraces.read(DIR, "probe-json.txt"));
        assertEquals(live, signalsAndNode(Json.mapper().writeValueAsString(replayed())), "replay here = live probe there");
        assertEquals(live, signalsAndNode(CapturedTraces.read(DIR, "probe-replay-json.txt")), "replay there = live probe there");
        String text = CapturedTraces.read(DIR, "probe.txt");
        assertTrue(text.contains("GPU0  FULL (0)   N/S      N/S   N/A  none read    none read"), text);
        assertTrue(text.contains("fabric cliques (v4) no call"), text);
        CliTest.Run r = CliTest.run("probe", "--replay", DIR.resolve("trace.json").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("GPU0: NOT_APPLICABLE — not applicable: NVLink hidden from this OS"), r.out());
        assertTrue(r.out().contains("GPU0  FULL (0)   N/S"), r.out());
        String signals = r.out().substring(r.out().indexOf("NVLink signals:"));
        signals = signals.substring(0, signals.indexOf("\n\n"));
        assertFalse(signals.lines().anyMatch(l -> l.trim().startsWith("GPU0") && l.contains("not rec.")),
                "this trace holds every call of issue 24 (issue 27's host link came later: not rec. there)");
    }

    private static JsonNode signalsAndNode(String json) throws Exception {
        MachineSnapshot s = SnapshotIO.parse(json.getBytes(StandardCharsets.UTF_8), "snapshot");
        JsonNode tree = Json.mapper().readTree(dev.fabricscope.json.RecordJson.write(s));
        return Json.mapper().createObjectNode().set("signals", tree.path("gpus").path(0).path("signals"))
                .deepCopy();
    }
}
