package dev.fabricscope.predict;

/**
 * One number of the cost model with where it comes from.
 *
 * @param name   what it is, e.g. {@code NCCL Ring LL base latency}
 * @param value  the number, in {@code unit}
 * @param unit   {@code us}, {@code GB/s}, {@code ratio}, …
 * @param source repository@commit path:line, a spec, or an issue with the published figure
 */
public record Constant(String name, double value, String unit, String source) {
}
