package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.util.List;
import java.util.Map;

/**
 * The seam to the host operating system for the probe: the files of /proc, /sys, /etc and /dev it reads, the JVM's
 * view of the processor, and the environment variables that steer the frameworks. Return codes are errno values
 * ({@link #ENOENT}, {@link #EACCES}, {@link #EIO}). Backends: {@link FileHost} (this machine), a recorded trace.
 *
 * <p>The least data: a trace records what crosses this seam, so where the probe needs one fact of a large file
 * (the process list, the TCP tables, /proc/cpuinfo) the seam answers that fact ({@link #processesNamed},
 * {@link #tcpListening}, {@link #fileFields}), not the file; the environment answers only allow-listed names.
 */
public interface HostCalls {

    int ENOENT = 2;
    int EIO = 5;
    int EACCES = 13;
    int ENOTDIR = 20;
    int EINVAL = 22;

    /** An absolute path's lines. */
    NativeAnswer<List<String>> readLines(String path);

    /** Names in a directory matching a glob, sorted. */
    NativeAnswer<List<String>> listDirectory(String path, String glob);

    /** Where a symbolic link leads, all links resolved ({@code realpath}): sysfs device links name the PCI tree. */
    NativeAnswer<String> realPath(String path);

    /** A JVM system property ({@code os.arch}). */
    NativeAnswer<String> systemProperty(String name);

    NativeAnswer<Integer> availableProcessors();

    /**
     * A file's first lines up to its first empty line (an RFC 822 header block: a wheel's {@code METADATA}), at most
     * {@code maxBytes}; the rest of the file is not read.
     */
    NativeAnswer<List<String>> readHeaderLines(String path, int maxBytes);

    /** readlink(2): a symbolic link's target as written; {@link #EINVAL} when the path is not a link. */
    NativeAnswer<String> readlink(String path);

    /**
     * getenv(3): one variable of the process environment; {@link #ENOENT} when it is unset, {@link #EACCES} (and
     * nothing read) when the name is not on the backend's allow-list.
     */
    NativeAnswer<String> getenv(String name);

    /** The allow-listed environment variables that are set (those the probe and the advisor read). */
    NativeAnswer<Map<String, String>> environment();

    /**
     * The installed fabric manager's own words for its version: the output lines of {@code nv-fabricmanager --version}
     * (at most 20); {@link #ENOENT} when no {@code nv-fabricmanager} is installed in the usual places.
     */
    NativeAnswer<List<String>> fabricManagerVersion();

    /**
     * The running processes whose name ({@code /proc/<pid>/comm}) is one of {@code names}: name → pids (every name
     * present, an empty list when none runs). The errno of listing {@code /proc} when it cannot be listed.
     */
    NativeAnswer<Map<String, List<Integer>>> processesNamed(List<String> names);

    /**
     * For each of {@code ports}, whether a TCP socket is in LISTEN state on it ({@code /proc/net/tcp} and
     * {@code tcp6}); the errno of {@code /proc/net/tcp} when it cannot be read and tcp6 shows no listening port.
     */
    NativeAnswer<Map<Integer, Boolean>> tcpListening(List<Integer> ports);

    /**
     * For each of {@code keys}, the value after the first ':' of the file's first line that starts with it
     * ({@code /proc/cpuinfo}'s {@code model name}); keys no line starts with are left out.
     */
    NativeAnswer<Map<String, String>> fileFields(String path, List<String> keys);
}
