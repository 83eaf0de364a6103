package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.ProbeInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real machines, replayed: each captured trace runs through the unchanged probe, the CLI, advise and every report
 * format, and what the product prints is held against the nvidia-smi outputs taken on the same machine.
 */
class ReplayedMachinesTest {

    private static final Path TWO = CapturedTraces.NVSWITCH_2GPU;
    private static final Path ONE = CapturedTraces.PASSTHROUGH_1GPU;

    @TempDir
    Path tmp;

    private static String trace(Path dir) {
        return dir.resolve("trace.json").toString();
    }

    private static MachineSnapshot replayJson(Path dir) throws Exception {
        CliTest.Run r = CliTest.run("probe", "--replay", trace(dir), "--json");
        assertEquals(0, r.code(), r.err());
        return SnapshotIO.parse(r.out().getBytes(StandardCharsets.UTF_8), "replay");
    }

    // --- nvidia-smi parsing ---

    /** {@code topo -m} cells between GPUs: row label → column label → cell. */
    static Map<String, Map<String, String>> smiTopology(String topo) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        List<String> header = null;
        for (String raw : topo.split("\n")) {
            String line = raw.replaceAll("\u001b\\[[0-9;]*m", "");
            String[] cells = line.trim().split("\\s+");
            if (cells.length > 0 && cells[0].equals("GPU0") && line.startsWith("\t")) {
                header = new ArrayList<>();
                for (String c : cells) {
                    if (c.matches("GPU\\d+")) {
                        header.add(c);
                    }
                }
                continue;
            }
            if (header != null && cells.length > header.size() && cells[0].matches("GPU\\d+")) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < header.size(); i++) {
                    row.put(header.get(i), cells[i + 1]);
                }
                out.put(cells[0], row);
            }
        }
        return out;
    }

    /** The matrix under "Topology (as nvidia-smi topo -m):" in the probe's text. */
    static Map<String, Map<String, String>> ourTopology(String text) {
        String section = text.split("Topology \\(as nvidia-smi topo -m\\):\n")[1].split("\n\n")[0];
        String[] lines = section.split("\n");
        List<String> header = new ArrayList<>();
        for (String c : lines[0].trim().split("\\s+")) {
            if (c.matches("GPU\\d+")) {
                header.add(c);
            }
        }
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (int k = 1; k < lines.length; k++) {
            String[] cells = lines[k].trim().split("\\s+");
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), cells[i + 1]);
            }
            out.put(cells[0], row);
        }
        return out;
    }

    /** {@code nvidia-smi nvlink -s}: GPU index → per-link GB/s as printed. */
    static Map<Integer, List<String>> smiLinkSpeeds(String text) {
        Map<Integer, List<String>> out = new LinkedHashMap<>();
        int gpu = -1;
        for (String line : text.split("\n")) {
            Matcher g = Pattern.compile("^GPU (\\d+):").matcher(line);
            Matcher l = Pattern.compile("Link (\\d+): ([0-9.]+) GB/s").matcher(line);
            if (g.find()) {
                gpu = Integer.parseInt(g.group(1));
                out.put(gpu, new ArrayList<>());
            } else if (l.find()) {
                out.get(gpu).add(l.group(2));
            }
        }
        return out;
    }

    /** {@code nvidia-smi -q}'s Fabric blocks, in GPU order: State, CliqueId, ClusterUUID. */
    static List<String[]> smiFabric(String q) {
        List<String[]> out = new ArrayList<>();
        Matcher m = Pattern.compile("Fabric\\s+State\\s+: ([\\w ]+?)\\s*\\n\\s+Status\\s+: \\w+\\s+CliqueId\\s+: (\\d+)\\s+ClusterUUID\\s+: ([0-9a-f-]+)").matcher(q);
        while (m.find()) {
            out.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
        return out;
    }

    // --- two H200 through NVSwitch ---

    @Test
    void twoGpuNvSwitchTopologyMatchesNvidiaSmiCellByCell() {
        CliTest.Run r = CliTest.run("probe", "--replay", trace(TWO));
        assertEquals(0, r.code(), r.err());
        Map<String, Map<String, String>> smi = smiTopology(CapturedTraces.read(TWO, "nvidia-smi-topo.txt"));
        assertEquals(2, smi.size());
        assertEquals(smi, ourTopology(r.out()));
        assertEquals("NV18", ourTopology(r.out()).get("GPU0").get("GPU1"));
    }

    @Test
    void twoGpuLinksVersionsSpeedsAndHiddenSwitch() throws Exception {
        MachineSnapshot s = replayJson(TWO);
        Map<Integer, List<String>> speeds = smiLinkSpeeds(CapturedTraces.read(TWO, "nvlink-status.txt"));
        assertEquals(2, s.gpus().size());
        for (int i = 0; i < 2; i++) {
            Gpu g = s.gpus().get(i);
            List<NvLink> active = g.activeLinks();
            assertEquals(18, active.size());
            assertEquals(speeds.get(i).size(), active.size(), "nvlink -s lists the same links");
            for (NvLink l : active) {
                assertEquals("4.0", NvLink.versionName(l.versionCode().value()), "NVML version code " + l.versionCode().value());
                assertEquals(speeds.get(i).get(l.index()), String.format(java.util.Locale.ROOT, "%.3f", l.speedMbps().value() / 1000.0));
                assertEquals(NvLink.REMOTE_SWITCH, l.remoteType().value());
                assertFalse(l.remotePci().isPresent(), "an all-ones far end is not an address");
                assertTrue(l.remotePci().missing().raw().startsWith("FFFFFFFF:FF:FF.0"), "the raw answer is kept");
            }
            assertEquals(Boolean.TRUE, g.cuda().multicast().value(), "attribute 132 = 1 on this machine");
        }
        assertEquals(1, s.nvSwitches().size(), "links to hidden switches are pooled into one node");
        assertEquals(36, s.nvSwitches().get(0).totalLinks());
        GpuPair p = s.pairs().get(0);
        assertEquals("NV18", p.topology().value());
        String p2p = CapturedTraces.read(TWO, "nvidia-smi-topo.txt");
        assertTrue(p2p.contains("GPU0\tX\tOK"), "nvidia-smi topo -p2p says OK");
        assertEquals("OK", p.p2pRead().value());
        assertEquals("OK", p.p2pWrite().value());
        assertEquals("OK", p.p2pNvlink().value());
        assertEquals("OK", p.p2pAtomics().value());
        assertEquals(Boolean.TRUE, p.cudaCanAccessPeer().value());

        CliTest.Run text = CliTest.run("probe", "--replay", trace(TWO), "--wide");
        assertTrue(text.out().contains("GPU0: 18/18 active, NVLink 4.0, 26.562 GB/s per link"), text.out());
        assertTrue(text.out().contains("(not visible from this VM; switch count unknown): 36 links from 2 GPUs"), text.out());
    }

    @Test
    void twoGpuFabricIsCompletedButNotAnMnnvlDomain() throws Exception {
        MachineSnapshot s = replayJson(TWO);
        List<String[]> smi = smiFabric(CapturedTraces.read(TWO, "nvidia-smi-q.txt"));
        assertEquals(2, smi.size());
        for (int i = 0; i < 2; i++) {
            Gpu g = s.gpus().get(i);
            assertEquals(smi.get(i)[0].toUpperCase(), g.fabric().state().value());
            assertEquals(Long.parseLong(smi.get(i)[1]), g.fabric().cliqueId().value());
            assertEquals(smi.get(i)[2], g.fabric().clusterUuid().value());
            assertFalse(g.fabric().inMnnvlDomain());
        }
        List<String> ids = s.findings().stream().map(Finding::code).toList();
        assertTrue(ids.contains("fabric-not-mnnvl"), ids.toString());
        assertTrue(ids.contains("nvswitch-hidden"), ids.toString());
        String text = CliTest.run("probe", "--replay", trace(TWO), "--wide").out();
        assertTrue(text.contains("not a multi-node NVLink (MNNVL) domain"), text);
    }

    @Test
    void twoGpuAdviseAndEveryReportFormatWork() throws Exception {
        CliTest.Run advise = CliTest.run("advise", "--snapshot", trace(TWO), "--framework", "sglang", "--tp", "2");
        assertEquals(0, advise.code(), advise.err());
        assertTrue(advise.out().contains("replayed trace"), advise.out());
        for (String format : new String[] {"json", "md", "html"}) {
            Path out = tmp.resolve("report." + format);
            CliTest.Run r = CliTest.run("report", "--snapshot", trace(TWO), "--tp", "2", "--format", format, "--out", out.toString());
            assertEquals(0, r.code(), format + ": " + r.err());
            String body = Files.readString(out);
            assertTrue(body.contains("NV18"), format);
        }
        assertTrue(Files.readString(tmp.resolve("report.html")).contains("not visible from this VM"));
        MachineSnapshot reread = SnapshotIO.read(tmp.resolve("report.json"));
        assertEquals(ProbeInfo.Origin.REPLAYED, reread.probe().origin());
        assertEquals(2, reread.gpus().size());
    }

    // --- one H200 in a pass-through VM, recorded by Fabricscope ---

    @Test
    void oneGpuReplayReproducesTheRecordedProbe() throws Exception {
        JsonNode recorded = normalised(Files.readString(ONE.resolve("probe.json")));
        JsonNode inTrace = normalised(Json.mapper().writeValueAsString(CapturedTraces.trace(ONE).snapshot()));
        assertSame(recorded, inTrace, "the trace carries the recorded snapshot");
        JsonNode replayed = normalised(CliTest.run("probe", "--replay", trace(ONE), "--json").out());
        assertSame(recorded, replayed, "a replay here reproduces the probe recorded on the GPU machine");
        assertSame(replayed, normalised(Files.readString(ONE.resolve("probe-replay-json.txt"))),
                "a replay here equals the replay on the GPU machine");
    }

    /** Read through the model and written again by this build (so fields added since the capture compare equal), provenance dropped. */
    static JsonNode normalised(String json) throws Exception {
        MachineSnapshot s = SnapshotIO.parse(json.getBytes(StandardCharsets.UTF_8), "snapshot");
        ObjectNode copy = (ObjectNode) Json.mapper().readTree(dev.fabricscope.json.RecordJson.write(s));
        copy.remove("probe");
        // the recording build kept more variables than the allow-list the seam now answers (issue 25)
        copy.set("environment", Json.mapper().valueToTree(dev.fabricscope.probe.EnvironmentFilter.filter(s.environment())));
        // readings this trace's recording build did not take (issue 19): the replay answers "not in the trace"
        copy.remove("node");
        // the NUMA node masks and sizes (issue 27): "not recorded" in these traces
        ObjectNode host = (ObjectNode) copy.get("host");
        host.remove(List.of("nodesWithCpu", "nodesWithMemory", "nodesWithNormalMemory"));
        host.path("numaNodes").path("value").forEach(n -> ((ObjectNode) n).remove("memTotalBytes"));
        copy.withArray("gpus").forEach(g -> {
            ((ObjectNode) g).remove("health");
            ((ObjectNode) g).remove("signals"); // issue 24's NVLink signals: "not recorded" in these traces
            ((ObjectNode) g).remove("hostLink"); // issue 27's C2C and GPU NUMA node: "not recorded" in these traces
            g.withArray("nvLinks").forEach(l -> ((ObjectNode) l).remove("errors"));
        });
        // findings are this version's judgment of the readings: the same codes, in the wording of the build that ran;
        // the fabric verdicts (issue 24) are findings this trace's recording build did not make
        com.fasterxml.jackson.databind.node.ArrayNode findings = copy.withArray("findings");
        for (int i = findings.size() - 1; i >= 0; i--) {
            if (findings.get(i).path("code").asText().startsWith("nvlink-fabric-")) {
                findings.remove(i);
            } else {
                ((ObjectNode) findings.get(i)).remove("message");
            }
        }
        return copy;
    }

    static void assertSame(JsonNode expected, JsonNode actual, String what) {
        if (!expected.equals(actual)) {
            java.util.Iterator<String> names = expected.fieldNames();
            List<String> differing = new ArrayList<>();
            while (names.hasNext()) {
                String n = names.next();
                if (!expected.get(n).equals(actual.get(n))) {
                    differing.add(n);
                }
            }
            throw new AssertionError(what + ": snapshots differ in " + differing);
        }
    }

    @Test
    void oneGpuTextMatchesNvidiaSmi() {
        CliTest.Run r = CliTest.run("probe", "--replay", trace(ONE), "--wide");
        assertEquals(0, r.code(), r.err());
        assertEquals(smiTopology(CapturedTraces.read(ONE, "topo-m.txt")).keySet(), ourTopology(r.out()).keySet());
        assertTrue(r.out().contains("nvmlDeviceGetNvLinkState → NVML_ERROR_NOT_SUPPORTED (3)"), r.out());
        String q = CapturedTraces.read(ONE, "smi-q.txt");
        Matcher uuid = Pattern.compile("GPU UUID\\s+: (GPU-[0-9a-f-]+)").matcher(q);
        assertTrue(uuid.find());
        assertTrue(r.out().contains(uuid.group(1)), "same GPU as nvidia-smi in the same call");
    }

    // --- advice and live checks agree ---

    /** What `advise` predicts for SGLang's FlashInfer workspace preflight: the trtllm fusion verdict. */
    private static JsonNode fusionVerdict(Path dir) throws Exception {
        // The one-GPU machine is asked about a two-GPU machine like it (as its preflight asked world size 2 of its GPU).
        CliTest.Run r = CliTest.run("advise", "--snapshot", trace(dir), "--framework", "sglang", "--tp", "2",
                "--assume", "gpus-per-node=2", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals(0, r.code(), r.err());
        for (JsonNode v : Json.mapper().readTree(r.out()).get("verdicts")) {
            if (v.get("knob").asText().equals("--flashinfer-allreduce-fusion-backend")) {
                return v;
            }
        }
        throw new AssertionError("no fusion-backend verdict");
    }

    @Test
    void oneGpuAdvisePredictsTheSkipThatCheckPreflightMeasured() throws Exception {
        JsonNode measured = Json.mapper().readTree(Files.readString(ONE.resolve("preflight.txt")));
        String probeError = measured.get("gpus").get(0).get("probeError").asText();
        assertTrue(probeError.startsWith("cuMulticastGetGranularity failed"), probeError);
        assertTrue(probeError.contains("801"), probeError);
        JsonNode predicted = fusionVerdict(ONE);
        assertEquals("fallback", predicted.get("outcome").asText(), "measured: skip");
        String why = predicted.get("why").asText() + " " + predicted.path("message").asText();
        assertTrue(why.contains("cuMulticastGetGranularity") && why.contains("801"), why);
    }

    @Test
    void twoGpuAdvisePredictsTheProceedThatCheckPreflightMeasured() throws Exception {
        String measured = CapturedTraces.read(TWO, "fabricscope-0.1.0-preflight-ws2.txt");
        assertTrue(measured.contains("Vote (AND over ranks): PROCEED"), "captured on the machine");
        assertTrue(measured.contains("cuMulticastGetGranularity(numDevices=2, size=60817408, handleTypes=CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, RECOMMENDED) → CUDA_SUCCESS (0) = 536870912"));
        JsonNode predicted = fusionVerdict(TWO);
        assertEquals("ok", predicted.get("outcome").asText(), predicted.toString());
        assertNotNull(predicted.get("resolved"));
    }

    // --- bad traces and targets ---

    @Test
    void aTruncatedOrForeignTraceIsOneLineAndExit4() throws Exception {
        Path truncated = tmp.resolve("truncated.json");
        String whole = Files.readString(TWO.resolve("trace.json"));
        Files.writeString(truncated, whole.substring(0, whole.length() / 2));
        CliTest.Run r = CliTest.run("probe", "--replay", truncated.toString());
        assertEquals(4, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        Path foreign = tmp.resolve("foreign.json");
        Files.writeString(foreign, "{\"format\": \"fabricscope-native-trace\", \"traceVersion\": 99, \"calls\": []}");
        r = CliTest.run("probe", "--replay", foreign.toString());
        assertEquals(4, r.code());
        assertTrue(r.err().contains("traceVersion 99"), r.err());
    }

    @Test
    void recordingIntoAFolderIsAUsageError() {
        CliTest.Run r = CliTest.run("probe", "--record", tmp.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("is a folder"), r.err());
    }
}
