package dev.fabricscope.nativeapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cached libjnidispatch is used only when it is the jar's, in folders only this user can write. */
class JnaNativeCacheTest {

    @TempDir
    Path tmp;

    @Test
    void theJarHoldsJnasNativePartForThisPlatform() throws Exception {
        assertNotNull(JnaNativeCache.jarCopy());
    }

    @Test
    void madeOnceThenReused() throws Exception {
        byte[] lib = JnaNativeCache.jarCopy();
        Path root = tmp.resolve("cache");
        Path dir = JnaNativeCache.use(root, lib);
        assertNotNull(dir);
        assertArrayEquals(lib, Files.readAllBytes(dir.resolve("libjnidispatch.so")));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals(dir, JnaNativeCache.use(root, lib));
    }

    @Test
    void aChangedCopyIsNeverUsed() throws Exception {
        byte[] lib = JnaNativeCache.jarCopy();
        Path root = tmp.resolve("cache");
        Path dir = JnaNativeCache.use(root, lib);
        Files.write(dir.resolve("libjnidispatch.so"), new byte[] {1, 2, 3});
        assertNull(JnaNativeCache.use(root, lib));
    }

    @Test
    void aFolderOthersCanWriteIsNeverUsed() throws Exception {
        byte[] lib = JnaNativeCache.jarCopy();
        Path root = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertNull(JnaNativeCache.use(root, lib));
    }
}
