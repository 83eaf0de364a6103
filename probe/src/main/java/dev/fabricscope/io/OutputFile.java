package dev.fabricscope.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes an output file the safe way. A regular file (or a new path) is replaced atomically: a temporary file in
 * the same folder, then a rename, so a failure never leaves a partial file. A symbolic link is followed and its
 * target replaced, never the link. A device, FIFO or socket is written as a stream (never replaced by a regular
 * file); {@code -} is standard output; a folder is refused. Temporary names always fit the file system's
 * 255-byte name limit, and temporary files left by a killed writer are removed on the next write to that folder.
 */
public final class OutputFile {

    /** The prefix of our temporary files; the writer's process id follows, so stale ones can be told apart. */
    static final String TEMP_PREFIX = ".fabricscope-";
    static final String TEMP_SUFFIX = ".tmp";

    /** A target that cannot be written as asked (a folder): a usage error, not an I/O failure. */
    public static final class NotAFileException extends IOException {
        public NotAFileException(String message) {
            super(message);
        }
    }

    /** How the content was written. */
    public enum Kind { REPLACED, STREAMED, STANDARD_OUTPUT }

    private OutputFile() {
    }

    /** True for {@code -}, which means standard output. */
    public static boolean isStandardOutput(Path target) {
        return target != null && target.toString().equals("-");
    }

    /** Checks a target before any work is done: a folder (or {@code /}) is a {@link NotAFileException}. */
    public static void checkTarget(Path target) throws NotAFileException {
        if (isStandardOutput(target)) {
            return;
        }
        if (target.toString().isEmpty() || target.toAbsolutePath().getFileName() == null || Files.isDirectory(target)) {
            throw new NotAFileException(SnapshotIO.oneLineSafe(target + ": is a folder; give a file name"));
        }
    }

    /** Writes {@code content} as UTF-8 to {@code target}, {@code stdout} standing for {@code -}. */
    public static Kind write(Path target, String content, PrintStream stdout) throws IOException {
        return write(target, content.getBytes(StandardCharsets.UTF_8), stdout);
    }

    public static Kind write(Path target, byte[] content, PrintStream stdout) throws IOException {
        if (isStandardOutput(target)) {
            stdout.write(content);
            stdout.flush();
            if (stdout.checkError()) {
                throw new IOException("cannot write to standard output");
            }
            return Kind.STANDARD_OUTPUT;
        }
        checkTarget(target);
        Path abs = target.toAbsolutePath();
        if (Files.exists(abs)) {
            abs = abs.toRealPath(); // a symbolic link: replace what it points to, keep the link
            BasicFileAttributes a = Files.readAttributes(abs, BasicFileAttributes.class);
            if (a.isDirectory()) {
                throw new NotAFileException(SnapshotIO.oneLineSafe(target + ": is a folder; give a file name"));
            }
            if (!a.isRegularFile()) {
                try (OutputStream out = Files.newOutputStream(abs, StandardOpenOption.WRITE)) {
                    out.write(content);
                }
                return Kind.STREAMED;
            }
        } else if (Files.isSymbolicLink(abs)) {
            // a dangling link: write where it points, as a shell redirection would
            Path to = Files.readSymbolicLink(abs);
            abs = abs.resolveSibling(to).toAbsolutePath().normalize();
        }
        replaceAtomically(abs, content);
        return Kind.REPLACED;
    }

    private static void replaceAtomically(Path abs, byte[] content) throws IOException {
        Path dir = abs.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
            removeStaleTemporaries(dir);
        }
        Path tmp = (dir == null ? Path.of(".") : dir).resolve(TEMP_PREFIX + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + TEMP_SUFFIX);
        try {
            Files.write(tmp, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            keepOrDefaultPermissions(abs, tmp);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Removes our temporary files in {@code dir} whose writer process is gone (killed mid-write). */
    static void removeStaleTemporaries(Path dir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                String mid = name.substring(TEMP_PREFIX.length(), name.length() - TEMP_SUFFIX.length());
                int dash = mid.indexOf('-');
                long pid;
                try {
                    pid = Long.parseLong(dash < 0 ? mid : mid.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue; // not one of ours
                }
                boolean alive = pid == ProcessHandle.current().pid()
                        || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                if (!alive && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // another writer removed it, or no permission: harmless
                    }
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // an unreadable folder: the write itself will say so
        }
    }

    /** A temporary file is owner-only; the result gets the replaced file's permissions, or rw-r--r-- when new. */
    private static void keepOrDefaultPermissions(Path target, Path tmp) {
        try {
            Set<PosixFilePermission> perms = Files.exists(target) ? Files.getPosixFilePermissions(target)
                    : PosixFilePermissions.fromString("rw-r--r--");
            Files.setPosixFilePermissions(tmp, perms);
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system (Windows): the default ACLs apply
        }
    }
}
