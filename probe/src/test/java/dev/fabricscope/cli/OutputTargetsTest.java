package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 3: every {@code --out} and {@code --record} goes through one writer. What reaches standard output or a
 * stream is sanitised like the command's own output; an unwritable target is one line naming it and why, exit 8,
 * never {@code internal error}; a recording that cannot be written where asked is kept and said where.
 */
class OutputTargetsTest {

    /** C1 CSI, the right-to-left override and DEL in a GPU name: what the hostile-input run planted. */
    static final String HOSTILE_NAME = "NVIDIA H200 \u009b31m\u202eevil\u007f";
    static final char[] RAW = {'\u009b', '\u202e', '\u007f'};

    @TempDir
    Path tmp;

    /** The captured one-H200 trace with {@link #HOSTILE_NAME} as nvmlDeviceGetName's answer. */
    static Path hostileTrace(Path dir, String name) throws Exception {
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(
                Files.readString(CapturedTraces.PASSTHROUGH_1GPU.resolve("trace.json")));
        int planted = 0;
        for (JsonNode call : tree.get("calls")) {
            if (call.get("call").asText().equals("nvmlDeviceGetName")) {
                ((ObjectNode) call).put("value", name);
                planted++;
            }
        }
        assertEquals(1, planted);
        return Files.writeString(dir.resolve("hostile.trace.json"), Json.write(tree));
    }

    static void noRaw(String output, String what) {
        for (char c : RAW) {
            assertEquals(-1, output.indexOf(c), what + ": raw U+" + Integer.toHexString(c));
        }
    }

    @Test
    void probeOutDashIsSanitisedAndStillTheSameJson() throws Exception {
        Path trace = hostileTrace(tmp, HOSTILE_NAME);
        CliTest.Run r = CliTest.run("probe", "--replay", trace.toString(), "--out", "-");
        assertEquals(0, r.code(), r.err());
        noRaw(r.out(), "probe --out -");
        String json = r.out().substring(0, r.out().indexOf("\n}") + 2); // the snapshot, then the text view
        JsonNode first = Json.mapper().readTree(json);
        assertEquals(HOSTILE_NAME, first.at("/gpus/0/name/value").textValue(), "escapes inside JSON strings keep the same value");
    }

    @Test
    void probeOutDevStdoutIsSanitisedOnAPipe() throws Exception {
        assumeTrue(Files.exists(Path.of("/dev/stdout")));
        Path trace = hostileTrace(tmp, HOSTILE_NAME);
        for (String[] args : List.of(new String[] {"probe", "--replay", trace.toString(), "--out", "/dev/stdout"},
                new String[] {"report", "--snapshot", trace.toString(), "--out", "/dev/stdout"})) {
            Process p = new ProcessBuilder(javaCommand(args)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), String.join(" ", args));
            noRaw(out, String.join(" ", args));
            assertTrue(out.contains("\\u202e"), "the override shown as its escape");
        }
    }

    /** This JVM's class path running {@code fabricscope args}, so {@code /dev/stdout} is a real pipe. */
    static List<String> javaCommand(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void aFullDeviceIsOneLineAndExit8ForEveryOut() throws Exception {
        assumeTrue(Files.exists(Path.of("/dev/full")));
        Path trace = CapturedTraces.PASSTHROUGH_1GPU.resolve("trace.json");
        for (String[] args : List.of(new String[] {"probe", "--replay", trace.toString(), "--out", "/dev/full"},
                new String[] {"probe", "--replay", trace.toString(), "--json", "--out", "/dev/full"},
                new String[] {"report", "--snapshot", trace.toString(), "--out", "/dev/full"},
                new String[] {"report", "--sample", "h200-vm", "--format", "md", "--out", "/dev/full"},
                new String[] {"check", "node", "--snapshot", trace.toString(), "--out", "/dev/full"})) {
            CliTest.Run r = CliTest.run(args);
            String what = String.join(" ", args);
            assertEquals(ExitCodes.CANNOT_WRITE, r.code(), what + ": " + r.err());
            assertEquals("fabricscope: cannot write --out /dev/full: No space left on device\n", r.err(), what);
            if (!args[0].equals("report")) {
                assertFalse(r.out().isEmpty(), what + ": what was probed or checked is still shown");
            }
        }
    }

    @Test
    void aMissingOrNonFolderParentIsOneLineAndExit8() throws Exception {
        Path trace = CapturedTraces.PASSTHROUGH_1GPU.resolve("trace.json");
        Path missing = tmp.resolve("no-such-folder/snap.json");
        CliTest.Run r = CliTest.run("probe", "--replay", trace.toString(), "--out", missing.toString());
        assertEquals(ExitCodes.CANNOT_WRITE, r.code(), r.err());
        assertEquals("fabricscope: cannot write --out " + missing + ": folder " + missing.getParent() + " does not exist\n", r.err());
        assertFalse(Files.exists(missing.getParent()));
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        CliTest.Run r2 = CliTest.run("report", "--sample", "h200-vm", "--out", file.resolve("r.json").toString());
        assertEquals(ExitCodes.CANNOT_WRITE, r2.code(), r2.err());
        assertEquals("fabricscope: cannot write --out " + file.resolve("r.json") + ": not a folder: " + file + "\n", r2.err());
    }

    @Test
    void clusterCollectIntoAFolderItCannotWriteIsOneLineAndExit8BeforeAnyNodeRuns() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        for (Path out : List.of(file, file.resolve("nodes"))) {
            CliTest.Run r = CliTest.run("cluster", "collect", "--slurm", "--out", out.toString());
            assertEquals(ExitCodes.CANNOT_WRITE, r.code(), r.err());
            assertTrue(r.err().startsWith("fabricscope: cannot write --out " + out + ": "), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
        assertEquals("x", Files.readString(file), "the file in the way is left as it was");
        Path fresh = tmp.resolve("new/nodes");
        CliTest.Run r = CliTest.run("cluster", "collect", "--pdsh", "node[1-2]", "--out", fresh.toString());
        assertTrue(Files.isDirectory(fresh), "a missing folder is made, as --out DIR promises");
        try (var left = Files.list(fresh)) {
            assertEquals(0, left.count(), "the write test leaves nothing behind: " + r.err());
        }
    }

    @Test
    void aReadOnlyFolderIsOneLineAndExit8() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeFalse(Files.isWritable(dir), "running as root: folder permissions do not apply");
            Path target = dir.resolve("r.json");
            CliTest.Run r = CliTest.run("report", "--sample", "h200-vm", "--out", target.toString());
            assertEquals(ExitCodes.CANNOT_WRITE, r.code(), r.err());
            assertEquals("fabricscope: cannot write --out " + target + ": permission denied\n", r.err());
        } finally {
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private static final Pattern KEPT = Pattern.compile("the recording \\((\\d+) native calls\\) was kept in (\\S+)\n");

    @Test
    void aRecordingThatCannotBeWrittenIsKeptAndSaidWhere() throws Exception {
        assumeFalse(CliTest.driverPresent(), "records this machine's driver: the assertions below are for the no-driver record");
        for (String target : List.of("/dev/full", tmp.resolve("no-such-folder/node.trace.json").toString())) {
            CliTest.Run r = CliTest.run("probe", "--record", target);
            assertEquals(ExitCodes.CANNOT_WRITE, r.code(), r.err());
            String first = r.err().lines().findFirst().orElse("");
            assertTrue(first.startsWith("fabricscope: cannot write --record " + target + ": "), first);
            assertFalse(r.err().contains("internal error"), r.err());
            Matcher m = KEPT.matcher(r.err());
            assertTrue(m.find(), r.err());
            Path kept = Path.of(m.group(2));
            try {
                var trace = TraceIO.read(Files.readAllBytes(kept), kept.toString());
                assertEquals(Integer.parseInt(m.group(1)), trace.calls().size(), "the whole recording was kept");
                CliTest.Run replay = CliTest.run("probe", "--replay", kept.toString());
                assertEquals(0, replay.code(), replay.err());
            } finally {
                Files.deleteIfExists(kept);
            }
        }
    }

    @Test
    void aFolderIsStillAUsageErrorBeforeAnyWork() {
        CliTest.Run r = CliTest.run("probe", "--record", tmp.toString());
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("fabricscope: --record " + tmp + ": is a folder; give a file name\n"), r.err());
    }
}
