package dev.fabricscope.check.api;

/**
 * What {@code fabricscope check p2p} measures: copies of {@code bufferBytes}, and a pointer-chase latency.
 *
 * @param bufferBytes bytes per copy (default 256 MiB)
 * @param repetitions timed copies per figure (default 10)
 * @param latencyHops dependent loads per latency figure (default 100000)
 */
public record P2pRequest(long bufferBytes, int repetitions, long latencyHops) {
    /** Bytes between the nodes of the latency ring; the buffer is a multiple of it. */
    public static final int LATENCY_STRIDE = 256;

    public P2pRequest {
        if (bufferBytes < (1 << 20) || bufferBytes % LATENCY_STRIDE != 0) {
            throw new IllegalArgumentException("buffer must be at least 1 MiB and a multiple of " + LATENCY_STRIDE);
        }
        if (repetitions < 1 || latencyHops < 1) {
            throw new IllegalArgumentException("repetitions and hops must be positive");
        }
    }

    public static P2pRequest defaults() {
        return new P2pRequest(256L << 20, 10, 100_000);
    }
}
