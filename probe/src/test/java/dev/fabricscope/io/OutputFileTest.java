package dev.fabricscope.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 1: devices, FIFOs and links are never replaced; folders refused; temp names short; stale temps removed. */
class OutputFileTest {

    @TempDir
    Path tmp;

    @Test
    void aDeviceIsWrittenAsAStreamNeverReplaced() throws Exception {
        Path dev = Path.of("/dev/null");
        assumeTrue(Files.exists(dev));
        assertEquals(OutputFile.Kind.STREAMED, OutputFile.write(dev, "x"));
        assertFalse(Files.isRegularFile(dev));
        Path full = Path.of("/dev/full");
        if (Files.exists(full)) {
            assertThrows(java.io.IOException.class, () -> OutputFile.write(full, "x".repeat(100_000)));
            assertFalse(Files.isRegularFile(full), "/dev/full stays a device");
        }
    }

    @Test
    void aFifoIsStreamedToItsReader() throws Exception {
        Path fifo = tmp.resolve("pipe");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS));
        assumeTrue(Files.exists(fifo));
        Process cat = new ProcessBuilder("cat", fifo.toString()).start();
        assertEquals(OutputFile.Kind.STREAMED, OutputFile.write(fifo, "hello"));
        assertEquals("hello", new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertFalse(Files.isRegularFile(fifo));
    }

    @Test
    void aLinkKeepsBeingALinkAndItsTargetIsReplaced() throws Exception {
        Path real = Files.writeString(tmp.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), real.getFileName());
        assertEquals(OutputFile.Kind.REPLACED, OutputFile.write(link, "new"));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(real));
    }

    @Test
    void dashIsStandardOutput() throws Exception {
        java.io.StringWriter text = new java.io.StringWriter();
        assertEquals(OutputFile.Kind.STANDARD_OUTPUT, OutputFile.write(Path.of("-"), "to stdout \u202e\u009b", new java.io.PrintWriter(text)));
        assertEquals("to stdout \\u202e\\u009b", text.toString(), "standard output gets what the terminal sanitiser lets through");
        assertFalse(Files.exists(Path.of("-")));
    }

    @Test
    void foldersAreRefused() {
        assertThrows(OutputFile.NotAFileException.class, () -> OutputFile.write(Path.of("/"), "x"));
        assertThrows(OutputFile.NotAFileException.class, () -> OutputFile.write(tmp, "x"));
    }

    @Test
    void aNameAtTheLimitFitsItsTemporaryName() throws Exception {
        Path longName = tmp.resolve("r".repeat(250) + ".json");
        OutputFile.write(longName, "long");
        assertEquals("long", Files.readString(longName));
    }

    @Test
    void temporariesOfDeadWritersAreRemovedOthersKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.writeString(tmp.resolve(OutputFile.TEMP_PREFIX + gone.pid() + "-abc" + OutputFile.TEMP_SUFFIX), "half");
        Path mine = Files.writeString(tmp.resolve(OutputFile.TEMP_PREFIX + ProcessHandle.current().pid() + "-def" + OutputFile.TEMP_SUFFIX), "busy");
        Path notOurs = Files.writeString(tmp.resolve(".other.tmp"), "keep");
        OutputFile.write(tmp.resolve("out.json"), "{}");
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(mine));
        assertTrue(Files.exists(notOurs));
        try (var s = Files.list(tmp)) {
            assertEquals(3, s.count(), "no temporary of this write left");
        }
    }

    /** C1 CSI, the right-to-left override and DEL: what a hostile trace plants in a GPU name. */
    static final String HOSTILE = "H200 \u009b31m\u202eevil\u007f";

    @Test
    void textToAStreamPassesTheTerminalSanitiserAndStaysTheSameJson() throws Exception {
        Path fifo = tmp.resolve("pipe");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS));
        assumeTrue(Files.exists(fifo));
        Process cat = new ProcessBuilder("cat", fifo.toString()).start();
        String json = dev.fabricscope.json.Json.write(java.util.Map.of("name", HOSTILE));
        assertTrue(json.contains("\u202e"), "Jackson writes the override raw: " + json);
        assertEquals(OutputFile.Kind.STREAMED, OutputFile.write(fifo, json));
        String got = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        for (char c : new char[] {'\u009b', '\u202e', '\u007f'}) {
            assertEquals(-1, got.indexOf(c), "raw U+" + Integer.toHexString(c) + " reached the stream: " + got);
        }
        assertEquals(HOSTILE, dev.fabricscope.json.Json.mapper().readTree(got).get("name").textValue(), "the same JSON");
    }

    @Test
    void binaryContentIsWrittenExactlyAndNeverToStandardOutput() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0x1b, (byte) 0x9b};
        Path f = tmp.resolve("g.png");
        assertEquals(OutputFile.Kind.REPLACED, OutputFile.writeBytes(f, png));
        org.junit.jupiter.api.Assertions.assertArrayEquals(png, Files.readAllBytes(f));
        assertThrows(OutputFile.NotAFileException.class, () -> OutputFile.writeBytes(Path.of("-"), png));
    }

    @Test
    void aFullDeviceIsACannotWriteWithTheSystemsReason() {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full));
        var e = assertThrows(OutputFile.CannotWriteException.class, () -> OutputFile.write(full, "{}"));
        assertEquals("No space left on device", e.getMessage());
        assertEquals(full, e.target());
    }

    @Test
    void aMissingFolderIsSaidNotMade() throws Exception {
        Path target = tmp.resolve("no-such-folder/out.json");
        var e = assertThrows(OutputFile.CannotWriteException.class, () -> OutputFile.write(target, "{}"));
        assertEquals("folder " + tmp.resolve("no-such-folder") + " does not exist", e.getMessage());
        assertFalse(Files.exists(target.getParent()), "a mistyped folder is not created");
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        var e2 = assertThrows(OutputFile.CannotWriteException.class, () -> OutputFile.write(file.resolve("out.json"), "{}"));
        assertEquals("not a folder: " + file, e2.getMessage());
    }

    @Test
    void aReadOnlyFolderSaysPermissionDeniedAndKeepsTheOldFile() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Path old = Files.writeString(dir.resolve("out.json"), "old");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeFalse(Files.isWritable(dir), "running as root: folder permissions do not apply");
            var e = assertThrows(OutputFile.CannotWriteException.class, () -> OutputFile.write(old, "new"));
            assertEquals("permission denied", e.getMessage());
            assertEquals("old", Files.readString(old));
        } finally {
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void keptContentIsAnOwnerOnlyFileInTheTemporaryFolder() throws Exception {
        Path kept = OutputFile.keep("{\"calls\":[]}", "fabricscope-test-", ".trace.json");
        try {
            assertEquals(Path.of(System.getProperty("java.io.tmpdir")).toRealPath(), kept.getParent().toRealPath());
            assertEquals("{\"calls\":[]}", Files.readString(kept));
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
        } finally {
            Files.deleteIfExists(kept);
        }
    }
}
