package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Issue 11's seam: JNA only inside {@code dev.fabricscope.nativeapi} (the checks included). */
class NativeSeamTest {

    @Test
    void checksUseNoNativeBindingDirectly() throws IOException {
        Path root = Path.of("src/main/java/dev/fabricscope");
        assertTrue(Files.isDirectory(root.resolve("check")), "run from the probe module");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(root.resolve("check"))) {
            offenders = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    String s = Files.readString(f);
                    return s.contains("import com.sun.jna") || s.contains("import jcuda");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(f -> f.getFileName().toString()).toList();
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void peersBlockMatchesTheKernelsStruct() {
        byte[] b = CustomAllReduce.peersBlock(new long[] {0x10, 0x20}, new long[] {0x30, 0x40}, new long[] {0x50, 0x60},
                4096, 0x70, 1, 2);
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(CustomAllReduce.PEERS_BYTES, b.length);
        assertEquals(0x20, le.getLong(8), "signal[1]");
        assertEquals(0, le.getLong(16), "signal[2]: unused ranks are null");
        assertEquals(0x30, le.getLong(64), "stage[0]");
        assertEquals(0x60, le.getLong(136), "gather[1]");
        assertEquals(4096, le.getLong(192), "half");
        assertEquals(0x70, le.getLong(200), "error");
        assertEquals(1, le.getInt(208), "rank");
        assertEquals(2, le.getInt(212), "nranks");
    }
}
