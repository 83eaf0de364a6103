package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two-GPU NVSwitch H200 recorded by Fabricscope itself (2026-12-01, `bench/device-capture.sh` on nvidia-h200-x2):
 * a replay here reproduces the probe made there, and what it prints matches the nvidia-smi outputs of the same call.
 */
class RecordedNvSwitchTraceTest {

    private static final Path DIR = CapturedTraces.NVSWITCH_2GPU_RECORDED;
    private static final String TRACE = DIR.resolve("trace.json").toString();

    private static MachineSnapshot replayed() throws Exception {
        CliTest.Run r = CliTest.run("probe", "--replay", TRACE, "--json");
        assertEquals(0, r.code(), r.err());
        return SnapshotIO.parse(r.out().getBytes(StandardCharsets.UTF_8), "replay");
    }

    @Test
    void replayReproducesTheProbeRecordedOnTheMachine() throws Exception {
        JsonNode recorded = ReplayedMachinesTest.normalised(Files.readString(DIR.resolve("probe.json")));
        ReplayedMachinesTest.assertSame(recorded,
                ReplayedMachinesTest.normalised(Json.mapper().writeValueAsString(CapturedTraces.trace(DIR).snapshot())),
                "the trace carries the recorded snapshot");
        ReplayedMachinesTest.assertSame(recorded,
                ReplayedMachinesTest.normalised(CliTest.run("probe", "--replay", TRACE, "--json").out()),
                "a replay here reproduces the probe recorded there");
        ReplayedMachinesTest.assertSame(recorded,
                ReplayedMachinesTest.normalised(Files.readString(DIR.resolve("probe-replay-json.txt"))),
                "the replay on the GPU machine agrees");
    }

    @Test
    void withoutFlashInferInstalledSglangSkipsFusionAndSaysWhy() throws Exception {
        CliTest.Run r = CliTest.run("advise", "--snapshot", TRACE, "--framework", "sglang", "--tp", "2",
                "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals(0, r.code(), r.err());
        for (JsonNode v : Json.mapper().readTree(r.out()).get("verdicts")) {
            if (v.get("knob").asText().equals("--flashinfer-allreduce-fusion-backend")) {
                assertEquals("fallback", v.get("outcome").asText());
                assertTrue(v.get("why").asText().contains("FlashInfer is not importable"), v.get("why").asText());
            }
        }
    }

    @Test
    void topologyMatchesTopoMCellByCell() {
        CliTest.Run r = CliTest.run("probe", "--replay", TRACE, "--wide");
        assertEquals(0, r.code(), r.err());
        Map<String, Map<String, String>> smi = ReplayedMachinesTest.smiTopology(CapturedTraces.read(DIR, "topo-m.txt"));
        assertEquals(2, smi.size());
        assertEquals(smi, ReplayedMachinesTest.ourTopology(r.out()));
        assertEquals("NV18", smi.get("GPU0").get("GPU1"));
    }

    @Test
    void linksSpeedsHiddenSwitchMulticastAndFabricMatchNvidiaSmi() throws Exception {
        MachineSnapshot s = replayed();
        Map<Integer, List<String>> speeds = ReplayedMachinesTest.smiLinkSpeeds(CapturedTraces.read(DIR, "nvlink-s.txt"));
        List<String[]> fabric = ReplayedMachinesTest.smiFabric(CapturedTraces.read(DIR, "smi-q.txt"));
        assertEquals(2, s.gpus().size());
        for (int i = 0; i < 2; i++) {
            Gpu g = s.gpus().get(i);
            assertEquals(18, g.activeLinks().size());
            for (NvLink l : g.activeLinks()) {
                assertEquals("4.0", NvLink.versionName(l.versionCode().value()));
                assertEquals(speeds.get(i).get(l.index()), String.format(Locale.ROOT, "%.3f", l.speedMbps().value() / 1000.0),
                        "GPU" + i + " link " + l.index() + " as nvidia-smi nvlink -s printed it");
                assertEquals(NvLink.REMOTE_SWITCH, l.remoteType().value());
                assertTrue(l.remotePci().missing().raw().startsWith("FFFFFFFF:FF:FF.0"));
            }
            assertEquals(Boolean.TRUE, g.cuda().multicast().value());
            assertEquals(fabric.get(i)[0].toUpperCase(), g.fabric().state().value());
            assertEquals(fabric.get(i)[2], g.fabric().clusterUuid().value());
            assertFalse(g.fabric().inMnnvlDomain());
        }
        assertEquals(1, s.nvSwitches().size());
        assertEquals("NV18", s.pairs().get(0).topology().value());
        assertTrue(s.findings().stream().anyMatch(f -> f.code().equals("nvswitch-hidden")));
        assertTrue(s.findings().stream().anyMatch(f -> f.code().equals("fabric-not-mnnvl")));
    }

    @Test
    void advisePredictsTheProceedThatCheckPreflightMeasuredInTheSameCall() throws Exception {
        JsonNode measured = Json.mapper().readTree(Files.readString(DIR.resolve("preflight.txt")));
        assertEquals("PASSED", measured.get("status").asText());
        assertTrue(measured.get("summary").asText().contains("vote PROCEED"));
        // The machine's Python has no FlashInfer (read from its stack), so SGLang would not reach the preflight at all;
        // the preflight check measures what it would do with FlashInfer installed, which is what is asked here.
        CliTest.Run r = CliTest.run("advise", "--snapshot", TRACE, "--framework", "sglang", "--tp", "2",
                "--assume", "flashinfer=true", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode verdict = null;
        for (JsonNode v : Json.mapper().readTree(r.out()).get("verdicts")) {
            if (v.get("knob").asText().equals("--flashinfer-allreduce-fusion-backend")) {
                verdict = v;
            }
        }
        assertEquals("ok", verdict.get("outcome").asText(), verdict.toString());
    }
}
