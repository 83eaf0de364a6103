package dev.fabricscope.io;

import dev.fabricscope.text.SafeTerminalWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
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
 * The one writer of every output file: {@code --out}, {@code --record}, {@code check --out} and the app's exports. A
 * regular file (or a new path in an existing folder) is replaced atomically: a temporary file in the same folder,
 * then a rename, so a failure never leaves a partial file or harms the old one. A symbolic link is followed and its
 * target replaced, never the link. A device, FIFO or socket is written as a stream (never replaced by a regular
 * file); {@code -} is standard output. Text that goes to a stream (standard output, a terminal, a device, a FIFO)
 * passes the terminal sanitiser ({@link SafeTerminalWriter}: JSON stays equivalent, nothing invisible reaches a
 * terminal); a regular file gets the exact text. A folder is refused before any work ({@link NotAFileException}); a
 * target that cannot be written (a full device, a read-only or missing folder) is a {@link CannotWriteException}
 * whose message is the reason in words. Temporary names always fit the file system's 255-byte name limit, and
 * temporary files left by a killed writer are removed on the next write to that folder.
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

    /** A target the system would not let us write; the message is the reason in words ("No space left on device"). */
    public static final class CannotWriteException extends IOException {
        private final transient Path target;

        CannotWriteException(Path target, String reason, Throwable cause) {
            super(ErrorText.oneLineSafe(reason), cause);
            this.target = target;
        }

        /** The target as given. */
        public Path target() {
            return target;
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
            throw new NotAFileException(ErrorText.oneLineSafe(target + ": is a folder; give a file name"));
        }
    }

    /**
     * Makes sure {@code dir} is a folder files can be written into, before any work is done: created when missing,
     * then written to once (a test file, removed). A file in the way, a read-only or full file system, or a folder of
     * {@code /proc} is a {@link CannotWriteException} whose message is the reason in words.
     */
    public static void prepareFolder(Path dir) throws CannotWriteException {
        try {
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new java.nio.file.NotDirectoryException(dir.toString());
            }
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, TEMP_PREFIX + ProcessHandle.current().pid() + "-", TEMP_SUFFIX);
            try {
                Files.write(probe, new byte[]{'\n'}, StandardOpenOption.SYNC);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | SecurityException e) {
            throw new CannotWriteException(dir, reason(e), e);
        }
    }

    /**
     * Writes {@code content} to the file {@code target}. {@code -} is refused: standard output belongs to the command
     * that prints ({@link #write(Path, String, PrintWriter)} with its writer).
     */
    public static Kind write(Path target, String content) throws IOException {
        if (isStandardOutput(target)) {
            throw new NotAFileException("-: standard output is written by a command only; give a file name");
        }
        return write(target, content, null);
    }

    /** Writes {@code content} to {@code target}; {@code -} is {@code stdout} (a command's own output), sanitised. */
    public static Kind write(Path target, String content, PrintWriter stdout) throws IOException {
        if (isStandardOutput(target)) {
            PrintWriter safe = SafeTerminalWriter.wrap(stdout);
            safe.print(content);
            safe.flush();
            if (safe.checkError()) {
                throw new CannotWriteException(target, "cannot write to standard output", null);
            }
            return Kind.STANDARD_OUTPUT;
        }
        return write(target, content.getBytes(StandardCharsets.UTF_8), true);
    }

    /** Writes binary {@code content} (a PNG) exactly, to a file or a stream; {@code -} is refused. */
    public static Kind writeBytes(Path target, byte[] content) throws IOException {
        if (isStandardOutput(target)) {
            throw new NotAFileException("-: binary content is not written to standard output; give a file name");
        }
        return write(target, content, false);
    }

    private static Kind write(Path target, byte[] content, boolean text) throws IOException {
        checkTarget(target);
        try {
            Path abs = target.toAbsolutePath();
            if (Files.exists(abs)) {
                BasicFileAttributes a = Files.readAttributes(abs, BasicFileAttributes.class); // links followed
                if (a.isDirectory()) {
                    throw new NotAFileException(ErrorText.oneLineSafe(target + ": is a folder; give a file name"));
                }
                if (!a.isRegularFile()) {
                    // opened as named: /dev/stdout on a pipe has no real path (/proc/self/fd/1 -> pipe:[…])
                    stream(abs, content, text);
                    return Kind.STREAMED;
                }
                abs = abs.toRealPath(); // a symbolic link: replace what it points to, keep the link
            } else if (Files.isSymbolicLink(abs)) {
                // a dangling link: write where it points, as a shell redirection would
                Path to = Files.readSymbolicLink(abs);
                abs = abs.resolveSibling(to).toAbsolutePath().normalize();
            }
            replaceAtomically(abs, content);
            return Kind.REPLACED;
        } catch (NotAFileException | CannotWriteException e) {
            throw e;
        } catch (IOException | SecurityException e) {
            throw new CannotWriteException(target, reason(e), e);
        }
    }

    /** A device, FIFO or socket (maybe this terminal: {@code /dev/stdout}, {@code /dev/tty}): text goes through the sanitiser. */
    private static void stream(Path device, byte[] content, boolean text) throws IOException {
        try (OutputStream out = Files.newOutputStream(device, StandardOpenOption.WRITE)) {
            if (!text) {
                out.write(content);
                return;
            }
            try (Writer w = new SafeTerminalWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))) {
                w.write(new String(content, StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Keeps {@code content} that could not be written where it was asked for: a new owner-only file in the system's
     * temporary folder, named {@code prefix…suffix}; its path returned. A failed keep leaves no file.
     */
    public static Path keep(String content, String prefix, String suffix) throws IOException {
        Path file = Files.createTempFile(prefix, suffix);
        try {
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** Why {@code e} failed, in the file system's words: "permission denied", "No space left on device". */
    public static String reason(Exception e) {
        if (e instanceof CannotWriteException c) {
            return c.getMessage();
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException n) {
            return "no such file or folder: " + n.getFile();
        }
        if (e instanceof java.nio.file.NotDirectoryException n) {
            return "not a folder: " + n.getFile();
        }
        if (e instanceof SecurityException) {
            return "permission denied";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    private static void replaceAtomically(Path abs, byte[] content) throws IOException {
        Path dir = abs.getParent();
        if (dir != null) {
            if (!Files.isDirectory(dir)) {
                // as a shell redirection: a mistyped folder is said, not made
                throw new java.nio.file.NoSuchFileException(dir.toString(), null,
                        Files.exists(dir) ? "not a folder: " + dir : "folder " + dir + " does not exist");
            }
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
