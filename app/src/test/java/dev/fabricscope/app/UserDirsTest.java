package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-user folders for unpacked native libraries (Linux). */
class UserDirsTest {

    private static final String[] KEYS = {"jna.tmpdir", "javafx.cachedir", "java.io.tmpdir"};

    @Test
    void linuxUsesTheXdgCacheFolderAndKeepsValuesGivenOnTheCommandLine(@TempDir Path cache) {
        Map<String, String> saved = save();
        try {
            System.clearProperty("jna.tmpdir");
            System.setProperty("javafx.cachedir", "/given/on/command/line");
            System.setProperty("java.io.tmpdir", "/tmp");
            UserDirs.apply(Map.of("XDG_CACHE_HOME", cache.toString()), "Linux");
            Path tmp = cache.resolve("fabricscope").resolve("tmp");
            assertTrue(Files.isDirectory(tmp));
            assertEquals(tmp.toString(), System.getProperty("jna.tmpdir"));
            assertEquals(tmp.toString(), System.getProperty("java.io.tmpdir"));
            assertEquals("/given/on/command/line", System.getProperty("javafx.cachedir"));
        } finally {
            restore(saved);
        }
    }

    @Test
    void otherSystemsAreLeftAlone(@TempDir Path cache) {
        Map<String, String> saved = save();
        try {
            System.clearProperty("jna.tmpdir");
            UserDirs.apply(Map.of("XDG_CACHE_HOME", cache.toString()), "Windows 11");
            UserDirs.apply(Map.of("XDG_CACHE_HOME", cache.toString()), "Mac OS X");
            assertNull(System.getProperty("jna.tmpdir"));
            assertTrue(!Files.exists(cache.resolve("fabricscope")));
        } finally {
            restore(saved);
        }
    }

    @Test
    void sharedFallbackIsCreatedOwnerOnlyAndAFolderOthersCanWriteIsRefused(@TempDir Path parent) throws IOException {
        File made = UserDirs.ownerOnly(parent.resolve("fabricscope-me").toFile());
        assertEquals(parent.resolve("fabricscope-me").toFile(), made);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made.toPath())));

        Path open = Files.createDirectory(parent.resolve("fabricscope-open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertNull(UserDirs.ownerOnly(open.toFile()));

        Path link = Files.createSymbolicLink(parent.resolve("fabricscope-link"), made.toPath());
        assertNull(UserDirs.ownerOnly(link.toFile()));
    }

    private static Map<String, String> save() {
        Map<String, String> m = new HashMap<>();
        for (String k : KEYS) {
            m.put(k, System.getProperty(k));
        }
        return m;
    }

    private static void restore(Map<String, String> m) {
        m.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
    }
}
