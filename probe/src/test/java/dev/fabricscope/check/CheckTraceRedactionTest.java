package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.cli.Main;
import dev.fabricscope.cli.PlantedTrace;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A check trace is a trace a user attaches too (issue 25): {@code fabricscope redact} over a recorded p2p check whose
 * snapshot is the planted machine ({@link PlantedTrace}: a real recording with 15 kinds of identifier planted) leaves
 * none of them in the file — snapshot, check request and result included — and the redacted trace still replays.
 */
class CheckTraceRedactionTest {

    @TempDir
    Path tmp;

    @Test
    void redactLeavesNoPlantedIdentifierInACheckTrace() throws Exception {
        MachineSnapshot planted = TraceReplay.replay(TraceIO.read(Files.readAllBytes(PlantedTrace.FILE), "planted"), "planted");
        P2pRequest req = new P2pRequest(1 << 20, 2, 1000);
        CheckTraces.Recorded rec = CheckTraces.record(P2pCheck.NAME, req, planted, List.of("fabricscope", "check", "p2p"),
                new SimulatedGpus().backends(), b -> P2pCheck.run(req, planted, CheckTraceReplayTest.options(), b));
        Path trace = tmp.resolve("p2p.trace.json");
        Files.writeString(trace, TraceIO.write(rec.trace()));
        String before = Files.readString(trace).toLowerCase(Locale.ROOT);
        List<String> present = PlantedTrace.PLANTED.values().stream().flatMap(List::stream)
                .filter(v -> before.contains(v.toLowerCase(Locale.ROOT))).toList();
        assertTrue(present.size() >= 5, "the unredacted check trace holds the planted machine's identifiers: " + present);

        Path red = tmp.resolve("p2p.redacted.json");
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(0, cl.execute("redact", trace.toString(), "--out", red.toString()), err.toString());
        String after = Files.readString(red).toLowerCase(Locale.ROOT);
        PlantedTrace.PLANTED.forEach((kind, values) -> values.forEach(v ->
                assertFalse(after.contains(v.toLowerCase(Locale.ROOT)), kind + " survives in the check trace: " + v)));

        var replayed = CheckTraces.replay(TraceIO.read(Files.readAllBytes(red), "redacted"), CheckTraceReplayTest.options(), "redacted");
        assertEquals(CheckStatus.PASSED, replayed.status(), replayed.summary());
    }
}
