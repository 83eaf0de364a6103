package dev.fabricscope.check.api;

import dev.fabricscope.check.api.AllReduceMath.DType;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What {@code fabricscope check allreduce} runs: implementations, sizes, types, iterations and launch modes.
 *
 * @param impls         nccl, oneshot, twoshot (in that order)
 * @param minBytes      first size
 * @param maxBytes      last size
 * @param dtypes        data types
 * @param warmup        untimed iterations per size (-w)
 * @param iters         timed iterations per size (-n)
 * @param modes         plain and/or graph (-G)
 * @param graphLaunches graph replays per size in graph mode
 * @param threadPerGpu  one host thread per GPU instead of one group call
 * @param ncclLib       explicit libnccl.so.2, or null to search
 */
public record AllReduceRequest(List<String> impls, long minBytes, long maxBytes, List<DType> dtypes, int warmup,
                               int iters, List<String> modes, int graphLaunches, boolean threadPerGpu, String ncclLib) {
    /** The implementations, in the order run. */
    public static final List<String> IMPLS = List.of("nccl", "oneshot", "twoshot");
    /** The launch modes, in the order run. */
    public static final List<String> MODES = List.of("plain", "graph");

    public AllReduceRequest {
        if (impls == null || impls.isEmpty() || !IMPLS.containsAll(impls)) {
            throw new IllegalArgumentException("--impl must be nccl, oneshot, twoshot or all (comma-separated)");
        }
        impls = IMPLS.stream().filter(impls::contains).toList();
        if (modes == null || modes.isEmpty() || !MODES.containsAll(modes)) {
            throw new IllegalArgumentException("--mode must be plain, graph or both (comma-separated)");
        }
        modes = MODES.stream().filter(modes::contains).toList();
        AllReduceMath.sizes(minBytes, maxBytes, 2);
        if (maxBytes > (1L << 30)) {
            throw new IllegalArgumentException("--max-bytes is limited to 1 GiB");
        }
        if (dtypes == null || dtypes.isEmpty()) {
            throw new IllegalArgumentException("at least one --dtype");
        }
        dtypes = List.copyOf(new LinkedHashSet<>(dtypes));
        if (warmup < 0 || iters < 1 || graphLaunches < 1) {
            throw new IllegalArgumentException("--iters and --graph-launches must be ≥ 1 and --warmup ≥ 0");
        }
    }

    public static AllReduceRequest defaults() {
        return new AllReduceRequest(IMPLS, 8, 256L << 20, List.of(DType.BF16, DType.FP32), 5, 20, MODES, 1, false, null);
    }

    /** {@code all} or a comma-separated list. */
    public static List<String> parseImpls(String s) {
        return s.trim().equals("all") ? IMPLS : List.of(s.split(",")).stream().map(String::trim).toList();
    }

    public static List<String> parseModes(String s) {
        return s.trim().equals("both") ? MODES : List.of(s.split(",")).stream().map(String::trim).toList();
    }
}
