package dev.fabricscope.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
        assertEquals(OutputFile.Kind.STREAMED, OutputFile.write(dev, "x", System.out));
        assertFalse(Files.isRegularFile(dev));
        Path full = Path.of("/dev/full");
        if (Files.exists(full)) {
            assertThrows(java.io.IOException.class, () -> OutputFile.write(full, "x".repeat(100_000), System.out));
            assertFalse(Files.isRegularFile(full), "/dev/full stays a device");
        }
    }

    @Test
    void aFifoIsStreamedToItsReader() throws Exception {
        Path fifo = tmp.resolve("pipe");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS));
        assumeTrue(Files.exists(fifo));
        Process cat = new ProcessBuilder("cat", fifo.toString()).start();
        assertEquals(OutputFile.Kind.STREAMED, OutputFile.write(fifo, "hello", System.out));
        assertEquals("hello", new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertFalse(Files.isRegularFile(fifo));
    }

    @Test
    void aLinkKeepsBeingALinkAndItsTargetIsReplaced() throws Exception {
        Path real = Files.writeString(tmp.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), real.getFileName());
        assertEquals(OutputFile.Kind.REPLACED, OutputFile.write(link, "new", System.out));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(real));
    }

    @Test
    void dashIsStandardOutput() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(OutputFile.Kind.STANDARD_OUTPUT, OutputFile.write(Path.of("-"), "to stdout", new PrintStream(bytes)));
        assertEquals("to stdout", bytes.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(Path.of("-")));
    }

    @Test
    void foldersAreRefused() {
        assertThrows(OutputFile.NotAFileException.class, () -> OutputFile.write(Path.of("/"), "x", System.out));
        assertThrows(OutputFile.NotAFileException.class, () -> OutputFile.write(tmp, "x", System.out));
    }

    @Test
    void aNameAtTheLimitFitsItsTemporaryName() throws Exception {
        Path longName = tmp.resolve("r".repeat(250) + ".json");
        OutputFile.write(longName, "long", System.out);
        assertEquals("long", Files.readString(longName));
    }

    @Test
    void temporariesOfDeadWritersAreRemovedOthersKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.writeString(tmp.resolve(OutputFile.TEMP_PREFIX + gone.pid() + "-abc" + OutputFile.TEMP_SUFFIX), "half");
        Path mine = Files.writeString(tmp.resolve(OutputFile.TEMP_PREFIX + ProcessHandle.current().pid() + "-def" + OutputFile.TEMP_SUFFIX), "busy");
        Path notOurs = Files.writeString(tmp.resolve(".other.tmp"), "keep");
        OutputFile.write(tmp.resolve("out.json"), "{}", System.out);
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(mine));
        assertTrue(Files.exists(notOurs));
        try (var s = Files.list(tmp)) {
            assertEquals(3, s.count(), "no temporary of this write left");
        }
    }
}
