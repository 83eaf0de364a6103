package dev.fabricscope;

import java.time.Duration;
import java.time.Instant;

/** Start-up phase timings on stderr when {@code FABRICSCOPE_TRACE=1}: milliseconds since the JVM started. */
public final class Trace {
    private static final boolean ON = "1".equals(System.getenv("FABRICSCOPE_TRACE"));
    private static final Instant START = ON
            ? ProcessHandle.current().info().startInstant().orElse(Instant.now()) : Instant.EPOCH;

    private Trace() {
    }

    public static void mark(String phase) {
        if (ON) {
            System.err.printf("[trace] %5d ms  %s%n", Duration.between(START, Instant.now()).toMillis(), phase);
        }
    }
}
