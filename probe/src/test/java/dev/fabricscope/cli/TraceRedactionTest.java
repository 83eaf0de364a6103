package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.SnapshotText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 2: {@code fabricscope redact} over the planted trace ({@link PlantedTrace}: a real recording with the
 * issue's 15 kinds of identifier planted) leaves none of them anywhere in the file, replays to the same fabric with
 * pseudonyms, and redacting again changes nothing; reports get the pseudonyms {@code report --redact} gives; and
 * {@code probe --record} says what an unredacted trace holds, or redacts it.
 */
class TraceRedactionTest {

    @TempDir
    Path tmp;

    @Test
    void theCommittedPlantedTraceIsWhatPlantedTraceMakes() throws Exception {
        String made = PlantedTrace.make();
        if (Boolean.getBoolean("fabricscope.regenerate")) {
            PlantedTrace.main(new String[0]);
        }
        assertEquals(made, Files.readString(PlantedTrace.FILE));
        String lower = made.toLowerCase(Locale.ROOT);
        PlantedTrace.PLANTED.forEach((kind, values) -> values.forEach(v ->
                assertTrue(lower.contains(v.toLowerCase(Locale.ROOT)), kind + " planted: " + v)));
        assertEquals(15, PlantedTrace.PLANTED.size());
    }

    @Test
    void noPlantedIdentifierSurvivesAndTheTraceReplaysToTheSameFabric() throws Exception {
        Path red = tmp.resolve("red.trace.json");
        CliTest.Run r = CliTest.run("redact", PlantedTrace.FILE.toString(), "--out", red.toString());
        assertEquals(0, r.code(), r.err());
        String text = Files.readString(red);
        String lower = text.toLowerCase(Locale.ROOT);
        PlantedTrace.PLANTED.forEach((kind, values) -> values.forEach(v ->
                assertFalse(lower.contains(v.toLowerCase(Locale.ROOT)), kind + " survives: " + v)));
        // the summary counts per kind, within 120 columns (continuations indented by two)
        assertTrue(r.err().lines().allMatch(l -> l.length() <= 120), r.err());
        String summary = r.err().replace("\n  ", " ");
        assertEquals(1, summary.lines().count(), r.err());
        for (String kind : List.of("host names (", "serial numbers (2)", "GPU and MIG UUIDs (2)", "fabric cluster UUIDs (1)",
                "user names (in paths) (1)", "IP addresses (2)", "MAC and other hardware addresses (1)", "InfiniBand GUIDs (", "board part numbers (1)")) {
            assertTrue(summary.contains(kind), kind + " in: " + r.err());
        }

        MachineSnapshot before = TraceReplay.replay(read(PlantedTrace.FILE), "planted");
        MachineSnapshot after = TraceReplay.replay(read(red), "redacted");
        assertEquals(fabric(before), fabric(after), "the same GPUs, links, switches, pairs and fabric state");
        assertEquals(topology(before), topology(after), "the same topology letters");
        assertEquals("GPU-redacted-1", after.gpus().get(0).uuid().value());
        assertEquals("serial-2", after.gpus().get(1).serial().value());
        assertEquals("4edac7ed-0000-4000-8000-000000000001", after.gpus().get(0).fabric().clusterUuid().value(),
                "UUID-shaped, so the probe still reads a (non-zero) cluster UUID");
        assertEquals(before.gpus().get(0).fabric().state(), after.gpus().get(0).fabric().state());
        assertTrue(after.host().hostname().value().startsWith("host-"), after.host().hostname().toString());
        assertEquals(0, CliTest.run("probe", "--replay", red.toString()).code());

        Path again = tmp.resolve("again.trace.json");
        CliTest.Run twice = CliTest.run("redact", red.toString(), "--out", again.toString());
        assertEquals(0, twice.code(), twice.err());
        assertEquals(text, Files.readString(again), "redacting a redacted trace changes nothing");
        assertEquals(r.err().replace(red.toString(), ""), twice.err().replace(again.toString(), ""), "the same summary");
    }

    static java.util.stream.Stream<Path> capturedTraces() throws Exception {
        return dev.fabricscope.replay.LeastDataTracesTestAccess.traces();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("capturedTraces")
    void everyCapturedTraceRedactedReplaysToTheSameFabricAndStack(Path file) throws Exception {
        NativeTrace t = read(file);
        NativeTrace red = dev.fabricscope.usecase.Redact.trace(t).trace();
        MachineSnapshot before = TraceReplay.replay(t, "captured");
        MachineSnapshot after = TraceReplay.replay(red, "redacted");
        assertEquals(fabric(before), fabric(after), file.toString());
        assertEquals(topology(before), topology(after), file.toString());
        assertEquals(Json.mapper().valueToTree(before.pythonStack()).toString(),
                Json.mapper().valueToTree(after.pythonStack()).toString(), "the Python stack: " + file);
        assertEquals(TraceIO.write(red), TraceIO.write(dev.fabricscope.usecase.Redact.trace(red).trace()), "idempotent: " + file);
    }

    @Test
    void anOldTraceLosesItsProcessListAndTcpTablesWhenRedacted() throws Exception {
        // the planted trace as a recording made before issue 25 would hold it: the raw process list and TCP table
        ObjectNode t = (ObjectNode) Json.mapper().readTree(Files.readString(PlantedTrace.FILE));
        ArrayNode calls = t.withArray("calls");
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).path("call").asText().equals("tcpListening")) {
                ObjectNode raw = calls.get(i).deepCopy();
                raw.put("call", "readLines").putArray("args").add("/proc/net/tcp");
                raw.putArray("value").add("  sl  local_address rem_address   st").add("   0: 0A110329:1A0A 00000000:0000 0A 0")
                        .add("   1: 0A110329:0016 0A110301:D2F0 01 0");
                calls.set(i, raw);
            }
        }
        Path old = tmp.resolve("old.trace.json");
        Files.writeString(old, Json.write(t));
        assertTrue(TraceReplay.replay(read(old), "old").node().services().get(0).listening().value(), "6666 listens there");
        Path red = tmp.resolve("old-red.json");
        assertEquals(0, CliTest.run("redact", old.toString(), "--out", red.toString()).code());
        String text = Files.readString(red);
        assertFalse(text.contains("/proc/net/tcp\""), "no raw table");
        assertFalse(text.contains("0A110329"), "no address in hex");
        assertTrue(TraceReplay.replay(read(red), "old, redacted").node().services().get(0).listening().value());
    }

    @Test
    void aReportGetsThePseudonymsOfReportRedact() throws Exception {
        Path report = CapturedTraces.ROOT.resolve("h200-vm-2026-11-29-report/report.json");
        CliTest.Run viaReport = CliTest.run("report", "--from", report.toString(), "--redact", "--format", "json");
        assertEquals(0, viaReport.code(), viaReport.err());
        CliTest.Run viaRedact = CliTest.run("redact", report.toString());
        assertEquals(0, viaRedact.code(), viaRedact.err());
        assertEquals(viaReport.out(), viaRedact.out());
        assertTrue(viaRedact.err().startsWith("fabricscope: report redacted: "), viaRedact.err());
    }

    @Test
    void aSnapshotStaysASnapshot() throws Exception {
        Path snapshot = CapturedTraces.ROOT.resolve("h200-vm-2026-11-29/probe.json");
        Path red = tmp.resolve("snap.json");
        CliTest.Run r = CliTest.run("redact", snapshot.toString(), "--out", red.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("fabricscope: snapshot redacted: host names (1), serial numbers (1), GPU and MIG UUIDs (1)"), r.err());
        MachineSnapshot s = dev.fabricscope.io.SnapshotIO.read(red);
        assertEquals("host-1", s.host().hostname().value());
        assertEquals("GPU-redacted-1", s.gpus().get(0).uuid().value());
        assertFalse(Files.readString(red).contains("\"reportVersion\""), "written back as a snapshot");
    }

    @Test
    void notATraceNorAReportIsOneLineAndExit4() throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"format\": \"something-else\"}");
        CliTest.Run r = CliTest.run("redact", bad.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals(ExitCodes.BAD_INPUT, CliTest.run("redact", tmp.resolve("none.json").toString()).code());
    }

    @Test
    void theUnredactedNoticeOfThePlantedTraceIsOneLineThatFits120Columns() throws Exception {
        String line = "fabricscope: " + dev.fabricscope.usecase.Redact.unredactedNotice(read(PlantedTrace.FILE));
        assertTrue(line.length() <= 120, line.length() + ": " + line);
        assertTrue(line.startsWith("fabricscope: trace not redacted: host names ("), line);
        assertTrue(line.matches(".*, \\+\\d+ more kinds?; see 'fabricscope redact'$") || line.split("\\), ").length >= 8, line);
    }

    @Test
    void recordingSaysWhatAnUnredactedTraceHoldsOrRedactsIt() throws Exception {
        assumeFalse(CliTest.driverPresent(), "records this machine's driver answers: run where there is none");
        Path plain = tmp.resolve("plain.trace.json");
        CliTest.Run r = CliTest.run("probe", "--record", plain.toString());
        String notice = r.err().lines().filter(l -> l.startsWith("fabricscope: trace ")).findFirst().orElse("");
        assertTrue(notice.startsWith("fabricscope: trace not redacted: "), r.err());
        assertTrue(notice.endsWith("; see 'fabricscope redact'"), notice);
        Path hostnameFile = Path.of("/proc/sys/kernel/hostname");
        String hostname = Files.exists(hostnameFile) ? Files.readAllLines(hostnameFile).get(0).strip() : "";
        assertTrue(hostname.isEmpty() || notice.contains("host names (1)"), notice);

        Path red = tmp.resolve("red.trace.json");
        CliTest.Run rr = CliTest.run("probe", "--record", red.toString(), "--redact", "--json");
        assertTrue(rr.err().contains("fabricscope: trace redacted"), rr.err());
        NativeTrace t = read(red);
        assertTrue(t.redacted());
        if (hostname.length() >= 3) {
            assertFalse(Files.readString(red).contains("\"" + hostname + "\""), "host name " + hostname);
            assertFalse(rr.out().contains("\"" + hostname + "\""), "printed as redacted too");
        }
        assertNotEquals(ExitCodes.USAGE, rr.code());
        assertEquals(ExitCodes.USAGE, CliTest.run("probe", "--redact").code(), "--redact needs --record");
    }

    private static NativeTrace read(Path p) throws Exception {
        return TraceIO.read(Files.readAllBytes(p), p.toString());
    }

    /** The fabric as the snapshot holds it, identifiers (UUIDs, serials, cluster UUIDs) left out. */
    static JsonNode fabric(MachineSnapshot s) throws Exception {
        ObjectNode n = (ObjectNode) Json.mapper().readTree(RecordJson.write(s));
        for (JsonNode g : n.withArray("gpus")) {
            ((ObjectNode) g).remove(List.of("uuid", "serial"));
            ((ObjectNode) g.get("fabric")).remove("clusterUuid");
        }
        ObjectNode kept = Json.mapper().createObjectNode();
        for (String f : List.of("gpus", "nvSwitches", "pairs", "node")) {
            kept.set(f, n.get(f));
        }
        return kept;
    }

    /** The topology matrix as {@code probe} prints it (the letters between every pair). */
    static String topology(MachineSnapshot s) {
        String text = SnapshotText.render(s, true);
        int from = text.indexOf("Topology");
        return from < 0 ? "(no topology: " + s.gpus().size() + " GPUs)" : text.substring(from, text.indexOf("Legend", from));
    }
}
