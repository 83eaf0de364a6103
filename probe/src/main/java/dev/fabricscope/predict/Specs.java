package dev.fabricscope.predict;

import java.util.List;

/**
 * The published figures the cost model starts from (besides NCCL's own, {@link NcclConstants}), each with its source.
 * Latencies in µs, bandwidths in GB/s (1e9 B/s).
 */
public final class Specs {
    private Specs() {
    }

    public static final Constant READ_EFFICIENCY = new Constant("SM reads of peer memory over NVLink, share of line rate",
            671.0 / 900.0, "ratio", "nvbandwidth device_to_device_bidirectional_memcpy_read_sm on H200: 671 GB/s both "
            + "directions of 2 × 450 (Azure/AI-benchmarking-guide, shared/reference/anchors-2026.md §3)");

    public static final Constant HOP_NVLINK = new Constant("one step over NVLink (flag write or read seen by the peer)", 0.6, "us",
            NcclConstants.HW_LAT_NVLINK_SRC + " (Ring LL hwLatency); astra-sim/astra-sim#59 estimates 500-700 ns per hop");
    public static final Constant HOP_PCI = new Constant("one step over PCIe", 1.0, "us", NcclConstants.HW_LAT_PCI_SRC
            + " (Ring LL hwLatency)");

    private static final String ONE_GPU = "probe/src/test/resources/captured/h200-passthrough-1gpu-2026-12-01-checks/"
            + "allreduce.json (graph, bf16, one H200: the kernel's launch and local memory work, no peer)";
    public static final Constant OURS_ONESHOT_FLOOR = new Constant("Fabricscope one-shot kernel, one GPU, 8 B", 5.15, "us", ONE_GPU);
    public static final Constant OURS_ONESHOT_LOCAL = new Constant("Fabricscope one-shot kernel, one GPU, local GB/s",
            268435456 / (392.87 - 5.15) / 1000, "GB/s", ONE_GPU + ": 256 MiB in 392.87 us");
    public static final Constant OURS_TWOSHOT_FLOOR = new Constant("Fabricscope two-shot kernel, one GPU, 8 B", 5.60, "us", ONE_GPU);
    public static final Constant OURS_TWOSHOT_LOCAL = new Constant("Fabricscope two-shot kernel, one GPU, local GB/s",
            268435456 / (452.93 - 5.60) / 1000, "GB/s", ONE_GPU + ": 256 MiB in 452.93 us");

    /** SGLang custom all-reduce, 512 B, H100, TP 2 / 4 / 8 (no graph). */
    public static final double[] SGLANG_CA_512B = {3.7, 4.8, 5.9};
    /** vLLM custom all-reduce in the same PR, 512 B, TP 2 / 4 / 8. */
    public static final double[] VLLM_CA_512B = {9.5, 9.1, 10.1};
    public static final String CA_SRC = "sgl-project/sglang#2904 (H100, 512 B, TP 2/4/8: SGLang 3.7/4.8/5.9 us, vLLM 9.5/9.1/10.1 us)";

    public static final Constant SYMM_MEM_MULTIMEM = new Constant("PyTorch symm-mem multimem all-reduce, 8 KB bf16, 8 GPUs",
            11.4, "us", "yifuwang/symm-mem-recipes#3");
    public static final Constant SYMM_MEM_ONESHOT = new Constant("PyTorch symm-mem one-shot, 8 KB bf16, 8 GPUs", 16.4, "us",
            "yifuwang/symm-mem-recipes#3");
    public static final Constant SYMM_MEM_TWOSHOT = new Constant("PyTorch symm-mem two-shot, 8 KB bf16, 8 GPUs", 15.3, "us",
            "yifuwang/symm-mem-recipes#3");

    /** Every constant above, for the documentation and {@code predict --json}'s {@code constants}. */
    public static List<Constant> all() {
        return List.of(READ_EFFICIENCY, HOP_NVLINK, HOP_PCI, OURS_ONESHOT_FLOOR, OURS_ONESHOT_LOCAL, OURS_TWOSHOT_FLOOR,
                OURS_TWOSHOT_LOCAL, new Constant("SGLang custom all-reduce, 512 B, TP 2", SGLANG_CA_512B[0], "us", CA_SRC),
                new Constant("vLLM custom all-reduce, 512 B, TP 2", VLLM_CA_512B[0], "us", CA_SRC),
                SYMM_MEM_MULTIMEM, SYMM_MEM_ONESHOT, SYMM_MEM_TWOSHOT);
    }

    /** A TP 2/4/8 table read at {@code n} ranks: linear between its points, the end value beyond them. */
    static double atRanks(double[] tp248, int n) {
        if (n <= 2) return tp248[0];
        if (n <= 4) return tp248[0] + (tp248[1] - tp248[0]) * (n - 2) / 2.0;
        if (n <= 8) return tp248[1] + (tp248[2] - tp248[1]) * (n - 4) / 4.0;
        return tp248[2];
    }
}
