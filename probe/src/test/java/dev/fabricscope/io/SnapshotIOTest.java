package dev.fabricscope.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotIOTest {

    private static final Path CAPTURED = Paths.get("src/test/resources/captured/h200-vm-2026-11-29/probe.json");

    @TempDir
    Path tmp;

    private String fail(String content) throws Exception {
        Path f = tmp.resolve("bad.json");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(f));
        assertTrue(e.getMessage().startsWith(f.toString()), "names the file: " + e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void readsTheCapturedSnapshotAndAReportWrappingIt() throws Exception {
        MachineSnapshot s = SnapshotIO.read(CAPTURED);
        assertEquals(1, s.gpus().size());
        Path report = tmp.resolve("report.json");
        Files.writeString(report, "{\"reportVersion\":1,\"snapshot\":" + Files.readString(CAPTURED) + "}");
        assertEquals(s, SnapshotIO.read(report));
    }

    @Test
    void truncatedFile() throws Exception {
        String whole = Files.readString(CAPTURED);
        String msg = fail(whole.substring(0, whole.length() / 2));
        assertTrue(msg.contains("not valid JSON"), msg);
        assertTrue(!msg.contains("Source:") && !msg.contains("REDACTED"), "no Jackson internals: " + msg);
    }

    @Test
    void notUtf8() throws Exception {
        Path f = tmp.resolve("latin1.json");
        Files.write(f, new byte[] {'{', '"', (byte) 0xe9, '"', ':', '1', '}'});
        SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(f));
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    }

    @Test
    void newerSchemaVersion() throws Exception {
        assertTrue(fail("{\"schemaVersion\": 99}").contains("newer than this Fabricscope reads"));
    }

    @Test
    void notASnapshot() throws Exception {
        assertTrue(fail("[1,2,3]").contains("JSON object"));
        assertTrue(fail("{\"hello\": 1}").contains("schemaVersion"));
    }

    @Test
    void wrongTypeNamesWhere() throws Exception {
        String whole = Files.readString(CAPTURED).replace("\"gpus\" : [", "\"gpus\" : \"oops\", \"x\" : [");
        String msg = fail(whole);
        assertTrue(msg.contains("$.gpus"), msg);
    }

    @Test
    void invalidReadingIsUnreadableNotAFailure() throws Exception {
        String whole = Files.readString(CAPTURED).replaceFirst("\"hostname\" : \\{\\s*\"value\" : \"vm\"\\s*}", "\"hostname\" : { }");
        assertTrue(whole.contains("\"hostname\" : { }"));
        var host = SnapshotIO.parse(whole, "x.json").host().hostname();
        assertEquals("unreadable ({}: neither a value nor why it is missing)", host.missing().detail());
    }

    @Test
    void deepNestingIsBounded() throws Exception {
        String deep = "{\"schemaVersion\":1,\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}";
        assertTrue(fail(deep).endsWith(": nesting depth 65, over the limit of 64"), fail(deep));
    }

    @Test
    void missingFile() {
        SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(tmp.resolve("nope.json")));
        assertTrue(e.getMessage().endsWith("no such file"));
    }

    @Test
    void atomicWriteReplacesAndLeavesNoTemporaryFile() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("sub")).resolve("snap.json");
        OutputFile.write(out, "first");
        OutputFile.write(out, Json.write(SnapshotIO.read(CAPTURED)));
        assertEquals(SnapshotIO.read(CAPTURED), SnapshotIO.read(out));
        try (var files = Files.list(out.getParent())) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void writtenFilesAreReadableByOthersLikeAnyNewFileAndKeepReplacedPermissions() throws Exception {
        Path out = tmp.resolve("perm.json");
        OutputFile.write(out, "{}");
        assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        Files.setPosixFilePermissions(out, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        OutputFile.write(out, "{ }");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
    }
}
