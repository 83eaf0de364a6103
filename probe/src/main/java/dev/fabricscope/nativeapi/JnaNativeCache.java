package dev.fabricscope.nativeapi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * JNA's native part ({@code libjnidispatch}) kept in the user's cache folder, one copy per build of it, instead of
 * JNA extracting it to a new temporary file on every start (~40 ms of a cold probe on the H200: docs/benchmarks.md,
 * issue 31). The copy is used only when its bytes are the jar's, in a folder only this user can write; anything
 * else and JNA extracts as it always did. Must run before JNA's first use; never throws.
 */
public final class JnaNativeCache {

    /** JNA's own resource for this platform (linux-x86-64, linux-aarch64, ...). */
    static String resource() {
        String arch = System.getProperty("os.arch", "");
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x86-64" : arch.equals("aarch64") ? "aarch64" : arch;
        return "/com/sun/jna/linux-" + a + "/libjnidispatch.so";
    }

    private JnaNativeCache() {
    }

    /** Points JNA at the cached copy (made now if missing); does nothing off Linux or when the user chose a path. */
    public static void prepare() {
        if (!System.getProperty("os.name", "").startsWith("Linux") || System.getProperty("jna.boot.library.path") != null
                || "off".equals(System.getProperty("fabricscope.jnaCache"))) {
            return;
        }
        try {
            Path dir = use(cacheRoot(), jarCopy());
            if (dir != null) {
                System.setProperty("jna.boot.library.path", dir.toString());
                System.setProperty("jna.nosys", "true");
            }
        } catch (IOException | RuntimeException e) {
            // JNA extracts its own copy, as without the cache
        }
    }

    /** {@code $XDG_CACHE_HOME/fabricscope}, else {@code ~/.cache/fabricscope}; null without a home. */
    static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Paths.get(xdg, "fabricscope");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isEmpty() || home.equals("?") ? null : Paths.get(home, ".cache", "fabricscope");
    }

    static byte[] jarCopy() throws IOException {
        try (InputStream in = JnaNativeCache.class.getResourceAsStream(resource())) {
            if (in == null) {
                throw new IOException("no " + resource() + " in the class path");
            }
            return in.readAllBytes();
        }
    }

    /**
     * The folder holding {@code bytes} as libjnidispatch.so under {@code root}, written there when missing; null when
     * the folder is not this user's alone or the file there differs (it is never loaded then).
     */
    static Path use(Path root, byte[] bytes) throws IOException {
        if (root == null) {
            return null;
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        Path dir = root.resolve(String.format("jnidispatch-%08x-%d", crc.getValue(), bytes.length));
        Path lib = dir.resolve("libjnidispatch.so");
        if (!Files.isRegularFile(lib)) {
            Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(owner));
            Path tmp = Files.createTempFile(dir, "libjnidispatch", ".tmp");
            try {
                Files.write(tmp, bytes);
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return onlyMine(root) && onlyMine(dir) && onlyMine(lib) && Arrays.equals(Files.readAllBytes(lib), bytes) ? dir : null;
    }

    /** Owned by this process's user and writable by no one else. */
    private static boolean onlyMine(Path p) throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        String me = System.getProperty("user.name");
        return !Files.isSymbolicLink(p) && Files.getOwner(p, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName().equals(me)
                && !perms.contains(PosixFilePermission.GROUP_WRITE) && !perms.contains(PosixFilePermission.OTHERS_WRITE);
    }
}
