package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 4: a trace is accepted wherever a snapshot is — {@code diff}, {@code cluster show}, {@code check node
 * --expect} — read as the snapshot its replay makes; a report given to {@code probe --replay} is one line naming
 * what it is and the command that opens it.
 */
class TracesAsSnapshotsTest {

    static final Path ONE_GPU = CapturedTraces.PASSTHROUGH_1GPU.resolve("trace.json");
    static final Path TWO_GPU = CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("trace.json");

    @TempDir
    Path tmp;

    @Test
    void diffComparesTwoTracesAsTheirReplays() throws Exception {
        Path a = Files.copy(ONE_GPU, tmp.resolve("a.trace.json"));
        Path b = Files.copy(TWO_GPU, tmp.resolve("b.trace.json"));
        CliTest.Run r = CliTest.run("diff", a.toString(), b.toString(), "--exit-code");
        assertEquals(ExitCodes.DIFFERENT, r.code(), r.err());
        assertTrue(r.out().startsWith("Differ: "), r.out());
        assertTrue(r.out().contains("GPUs count 1 → 2"), r.out());

        // the same as comparing the snapshots the two replays write
        Path sa = tmp.resolve("a.json");
        Path sb = tmp.resolve("b.json");
        assertEquals(0, CliTest.run("probe", "--replay", a.toString(), "--out", sa.toString()).code());
        assertEquals(0, CliTest.run("probe", "--replay", b.toString(), "--out", sb.toString()).code());
        CliTest.Run snapshots = CliTest.run("diff", sa.toString(), sb.toString(), "--json");
        CliTest.Run traces = CliTest.run("diff", a.toString(), b.toString(), "--json");
        assertEquals(snapshots.out().replace("a.json", "a.trace.json").replace("b.json", "b.trace.json"), traces.out());

        CliTest.Run same = CliTest.run("diff", a.toString(), sa.toString(), "--exit-code");
        assertEquals(ExitCodes.OK, same.code(), same.out() + same.err());
    }

    @Test
    void aBrokenTraceIsStillOneLineAndExit4() throws Exception {
        Path broken = Files.writeString(tmp.resolve("broken.trace.json"),
                Files.readString(ONE_GPU).replace("\"traceVersion\" : 1", "\"traceVersion\" : 99"));
        CliTest.Run r = CliTest.run("diff", broken.toString(), ONE_GPU.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    @Test
    void clusterShowReadsAFolderOfTraces() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("rack"));
        Files.copy(ONE_GPU, dir.resolve("node1.trace.json"));
        Files.copy(TWO_GPU, dir.resolve("node2.trace.json"));
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("2 nodes, 3 GPUs: "), r.out());
        assertFalse(r.out().contains("could not be read"), r.out());
    }

    @Test
    void checkNodeExpectsATrace() {
        CliTest.Run same = CliTest.run("check", "node", "--snapshot", ONE_GPU.toString(), "--expect", ONE_GPU.toString());
        assertEquals(ExitCodes.OK, same.code(), same.out() + same.err());
        assertTrue(same.out().contains("expected: trace.json"), same.out());
        CliTest.Run other = CliTest.run("check", "node", "--snapshot", ONE_GPU.toString(), "--expect", TWO_GPU.toString());
        assertEquals(ExitCodes.CHECK_FAILED, other.code(), other.out() + other.err());
        assertTrue(other.out().contains("GPU count"), other.out());
    }

    @Test
    void replayingAReportOrSnapshotSaysWhatItIsAndWhatToRun() throws Exception {
        Path report = CapturedTraces.ROOT.resolve("h200-vm-2026-11-29-report/report.json");
        CliTest.Run r = CliTest.run("probe", "--replay", report.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertEquals("fabricscope: " + report + ": a Fabricscope report, not a native-call trace; open it with "
                + "'fabricscope show --snapshot " + report + "'\n", r.err());

        Path snapshot = tmp.resolve("s.json");
        assertEquals(0, CliTest.run("probe", "--replay", ONE_GPU.toString(), "--out", snapshot.toString()).code());
        CliTest.Run s = CliTest.run("probe", "--replay", snapshot.toString());
        assertEquals(ExitCodes.BAD_INPUT, s.code());
        assertTrue(s.err().startsWith("fabricscope: " + snapshot + ": a Fabricscope snapshot, not a native-call trace; "), s.err());

        Path other = Files.writeString(tmp.resolve("other.json"), "{\"a\": 1}");
        CliTest.Run o = CliTest.run("probe", "--replay", other.toString());
        assertEquals(ExitCodes.BAD_INPUT, o.code());
        assertEquals("fabricscope: " + other + ": not a native-call trace (no \"format\": \"fabricscope-native-trace\"); "
                + "'fabricscope probe --record FILE' records one\n", o.err());
        for (CliTest.Run each : new CliTest.Run[] {r, s, o}) {
            assertFalse(each.err().contains("DeserializationConfig") || each.err().contains("Cannot map"), each.err());
        }
    }
}
