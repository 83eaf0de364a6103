package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.util.List;
import java.util.Map;

/**
 * The seam to the host operating system for the probe: the files of /proc, /sys, /etc and /dev it reads, the JVM's
 * view of the processor, and the environment variables that steer the frameworks. Return codes are errno values
 * ({@link #ENOENT}, {@link #EACCES}, {@link #EIO}). Backends: {@link FileHost} (this machine), a recorded trace.
 */
public interface HostCalls {

    int ENOENT = 2;
    int EIO = 5;
    int EACCES = 13;
    int ENOTDIR = 20;

    /** An absolute path's lines. */
    NativeAnswer<List<String>> readLines(String path);

    /** Names in a directory matching a glob, sorted. */
    NativeAnswer<List<String>> listDirectory(String path, String glob);

    /** Where a symbolic link leads, all links resolved ({@code realpath}): sysfs device links name the PCI tree. */
    NativeAnswer<String> realPath(String path);

    /** A JVM system property ({@code os.arch}). */
    NativeAnswer<String> systemProperty(String name);

    NativeAnswer<Integer> availableProcessors();

    /** The environment variables that steer NCCL, CUDA, PyTorch, NVSHMEM, vLLM and SGLang (filtered). */
    NativeAnswer<Map<String, String>> environment();
}
