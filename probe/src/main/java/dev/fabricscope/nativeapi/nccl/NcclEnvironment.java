package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Sets variables in the live process environment (libc {@code setenv}), where NCCL reads them at communicator
 * creation; Java's {@code System.getenv} is only a copy taken at start-up.
 */
public final class NcclEnvironment {

    interface LibC extends Library {
        int setenv(String name, String value, int overwrite);

        String getenv(String name);
    }

    private static volatile LibC libc;

    private NcclEnvironment() {
    }

    private static LibC libc() {
        if (libc == null) {
            libc = Native.load("c", LibC.class);
        }
        return libc;
    }

    /** The variable as the process sees it now, or null. */
    public static String get(String name) {
        return libc().getenv(name);
    }

    /** Sets {@code name=value} (overwriting); throws {@link IllegalStateException} if libc refuses. */
    public static void set(String name, String value) {
        if (libc().setenv(name, value, 1) != 0) {
            throw new IllegalStateException("setenv(" + name + ") failed");
        }
    }
}
