package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.MachineSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        return run(CliEnvironment.of(args), args);
    }

    /** Runs the command line in {@code env}. */
    static Run run(CliEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(env, args.length > 0 ? args[0] : null);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static boolean driverPresent() {
        return Files.exists(Paths.get("/dev/nvidiactl"));
    }

    @Test
    void helpListsTheCommandsAndExitCodes() {
        Run r = run("--help");
        assertEquals(0, r.code());
        for (String c : new String[] {"probe", "samples", "show"}) {
            assertTrue(r.out().contains("  " + c + " "), c + " missing from:\n" + r.out());
        }
        assertTrue(r.out().contains("3  no NVIDIA driver found"));
    }

    @Test
    void probeWithoutDriverSaysSoInOneLineAndExits3() throws Exception {
        assumeFalse(driverPresent(), "this machine has an NVIDIA driver");
        Path out = tmp.resolve("snap.json");
        Run r = run("probe", "--out", out.toString());
        assertEquals(ExitCodes.NO_DRIVER, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: NVIDIA driver not found: "), r.err());
        assertTrue(r.err().contains("libnvidia-ml.so.1"), r.err());
        MachineSnapshot s = SnapshotIO.read(out);
        assertEquals(DriverInfo.Status.NOT_FOUND, s.driver().status());
        assertTrue(s.gpus().isEmpty());
        assertTrue(s.host().hostname().isPresent());
        assertTrue(s.findings().get(0).code().equals("no-driver"));
    }

    @Test
    void probeJsonIsASnapshot() throws Exception {
        assumeFalse(driverPresent(), "this machine has an NVIDIA driver");
        Run r = run("probe", "--json");
        MachineSnapshot s = SnapshotIO.parse(r.out(), "stdout");
        assertEquals(MachineSnapshot.SCHEMA_VERSION, s.schemaVersion());
        assertEquals(java.util.List.of("fabricscope", "probe", "--json"), s.probe().commandLine());
    }

    @Test
    void showRendersTheCapturedSnapshotLikeProbe() {
        Run r = run("show", "--snapshot", "src/test/resources/captured/h200-vm-2026-11-29/probe.json");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("NVIDIA H200"));
        assertTrue(r.out().contains("NV#  = Connection traversing a bonded set of # NVLinks"));
        assertTrue(r.out().contains("NVLink state not exposed: GPU is in a pass-through VM"));
        assertTrue(r.out().contains("Multicast"));
    }

    @Test
    void usageErrorsExit2AndBadFilesExit4() throws Exception {
        assertEquals(ExitCodes.USAGE, run("probe", "--bogus").code());
        assertEquals(ExitCodes.USAGE, run("show").code());
        assertEquals(ExitCodes.USAGE, run("show", "--sample", "no-such-sample").code());
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{ truncated");
        Run r = run("show", "--snapshot", bad.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertTrue(r.err().contains("not valid JSON"), r.err());
    }

    @Test
    void samplesListsNameFirstOnePerLine() {
        Run r = run("samples");
        assertEquals(0, r.code());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("h200-vm ")), r.out());
        // A name, two spaces or more, the description; long descriptions continue under the description column.
        r.out().lines().forEach(l -> assertTrue(l.matches("^[a-z0-9-]+\\s{2,}\\S.*") || l.matches("^ {10,}\\S.*"), l));
        r.out().lines().forEach(l -> assertTrue(l.length() <= 120, l));
    }
}
