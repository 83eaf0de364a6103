package dev.fabricscope.nativeapi.host;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Ends the process with libc {@code _exit}, skipping the C library's exit handlers. Once a live command has printed
 * everything, those handlers only tear down the driver libraries (libcuda's teardown: 68–94 ms of a cold probe on the
 * GPU machine, docs/benchmarks.md "Start-up, round 4"), which the kernel driver does itself when the process ends.
 */
public final class ProcessExit {

    interface LibC extends Library {
        void _exit(int status);
    }

    private ProcessExit() {
    }

    /**
     * Flushes the standard streams and ends the process now with {@code status}; returns only when libc cannot be
     * reached (the caller then exits the ordinary way).
     */
    public static void withoutTeardown(int status) {
        System.out.flush();
        System.err.flush();
        if (System.out.checkError() || System.err.checkError()) {
            return; // let the ordinary exit report nothing lost silently
        }
        try {
            Native.load("c", LibC.class)._exit(status);
        } catch (LinkageError | RuntimeException e) {
            // no libc through JNA: exit the ordinary way
        }
    }
}
