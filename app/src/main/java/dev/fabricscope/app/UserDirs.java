package dev.fabricscope.app;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;

/**
 * Per-user folders for the native libraries that JNA, JCuda and JavaFX unpack at start-up. JCuda writes its library
 * under a fixed name in {@code java.io.tmpdir}, so two users sharing {@code /tmp} would collide, and JavaFX writes to
 * {@code ~/.openjfx} by default. On Linux: {@code $XDG_CACHE_HOME/fabricscope} (or {@code ~/.cache/fabricscope}), else
 * {@code /tmp/fabricscope-$USER} (owner-only, refused if someone else owns it) where the home folder is not writable. Values given with {@code -D} win.
 */
final class UserDirs {

    private UserDirs() {
    }

    static void apply(Map<String, String> env, String osName) {
        if (osName == null || !osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return;    // Windows and macOS temp folders are per user already
        }
        File base = cacheDir(env);
        if (base == null) {
            return;
        }
        File tmp = new File(base, "tmp");
        if (!tmp.isDirectory() && !tmp.mkdirs()) {
            return;
        }
        setIfAbsent("jna.tmpdir", tmp.getPath());
        setIfAbsent("javafx.cachedir", new File(base, "openjfx").getPath());
        String ioTmp = System.getProperty("java.io.tmpdir", "");
        if (ioTmp.equals("/tmp") || ioTmp.equals("/tmp/")) {
            System.setProperty("java.io.tmpdir", tmp.getPath());
        }
    }

    /** The user's cache folder for Fabricscope, created if needed; null if none can be made. */
    static File cacheDir(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        File preferred = xdg != null && xdg.startsWith("/") ? new File(xdg, "fabricscope")
                : home != null && !home.isBlank() && !home.equals("?") ? new File(new File(home, ".cache"), "fabricscope")
                : null;
        if (preferred != null && (preferred.isDirectory() || preferred.mkdirs()) && preferred.canWrite()) {
            return preferred;
        }
        return ownerOnly(new File("/tmp", "fabricscope-" + System.getProperty("user.name", "user")));
    }

    /** The folder, created owner-only, if it is this user's and nobody else can write to it (else null). */
    static File ownerOnly(File dir) {
        Path p = dir.toPath();
        try {
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            boolean mine = a.owner().getName().equals(System.getProperty("user.name"));
            boolean othersWrite = a.permissions().contains(PosixFilePermission.GROUP_WRITE)
                    || a.permissions().contains(PosixFilePermission.OTHERS_WRITE);
            return mine && !othersWrite && a.isDirectory() ? dir : null;
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
