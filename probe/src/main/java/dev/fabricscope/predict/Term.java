package dev.fabricscope.predict;

/**
 * One candidate of a backend's all-reduce time: {@code latencyUs + bytes / (1000 × gbps)} µs ({@link CostModel}).
 *
 * @param label what it models, e.g. {@code Ring LL}
 */
public record Term(String label, double latencyUs, double gbps) {
    public double timeUs(long bytes, Scale s) {
        return s.latency() * latencyUs + bytes / (1000.0 * s.bandwidth() * gbps);
    }
}
