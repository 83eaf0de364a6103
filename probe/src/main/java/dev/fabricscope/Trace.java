package dev.fabricscope;

import java.time.Duration;
import java.time.Instant;

/**
 * Start-up phase timings on stderr when {@code FABRICSCOPE_TRACE=1}: milliseconds since the process started, and the
 * thread. {@code FABRICSCOPE_TRACE_T0} (epoch milliseconds, e.g. {@code date +%s%3N} just before the start) gives an
 * exact origin; without it the process's start instant is used, which the kernel gives only to about a second.
 */
public final class Trace {
    private static final boolean ON = "1".equals(System.getenv("FABRICSCOPE_TRACE"));
    private static final Instant START = ON ? start() : Instant.EPOCH;

    private static Instant start() {
        String t0 = System.getenv("FABRICSCOPE_TRACE_T0");
        if (t0 != null && t0.matches("[0-9]{1,15}")) {
            return Instant.ofEpochMilli(Long.parseLong(t0));
        }
        return ProcessHandle.current().info().startInstant().orElse(Instant.now());
    }

    static {
        if (ON) { // what the JVM's exit costs after the last mark
            Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
                @Override
                public void run() {
                    mark("shutdown hooks start");
                }
            }, "fabricscope-trace-exit"));
        }
    }

    private Trace() {
    }

    public static void mark(String phase) {
        if (ON) {
            System.err.println("[trace] " + Duration.between(START, Instant.now()).toMillis() + " ms  " + phase
                    + "  (" + Thread.currentThread().getName() + ")");
        }
    }
}
