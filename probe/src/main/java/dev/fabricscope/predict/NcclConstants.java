package dev.fabricscope.predict;

/**
 * NCCL's own cost-model constants, as its tuner holds them: NVIDIA/nccl@5067397c (2026-06-11, tags to v2.30.7-1),
 * {@code src/graph/tuning.cc} and {@code src/graph/topo.h}. Indices follow NCCL: protocol 0 LL, 1 LL128, 2 Simple;
 * compute-capability index 0 Volta, 1 Ampere, 2 Hopper, 3 Blackwell; node index 0 one node, 1 two, 2 more.
 */
public final class NcclConstants {
    private NcclConstants() {
    }

    public static final String REPO = "NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027";
    public static final String TUNING = REPO + " src/graph/tuning.cc";

    public static final String[] PROTOCOLS = {"LL", "LL128", "Simple"};

    /** baseLatencies, µs: Tree and Ring (l.151). */
    public static final double[] BASE_LAT_TREE = {6.8, 14.0, 8.4};
    public static final double[] BASE_LAT_RING = {6.6, 14.0, 8.4};
    public static final String BASE_LAT_SRC = TUNING + ":151";

    /** hwLatencies, µs per step: NVLink (l.159), PCI (l.165), NET (l.171); NVLS Simple over NVLink 25 (l.161). */
    public static final double[] HW_LAT_NVLINK_TREE = {0.6, 1.25, 4.0};
    public static final double[] HW_LAT_NVLINK_RING = {0.6, 1.9, 3.4};
    public static final double[] HW_LAT_PCI_TREE = {1.0, 1.9, 4.0};
    public static final double[] HW_LAT_PCI_RING = {1.0, 2.5, 5.7};
    public static final double[] HW_LAT_NET_TREE = {5.0, 8.5, 14.0};
    public static final double[] HW_LAT_NET_RING = {2.7, 4.0, 14.0};
    public static final double HW_LAT_NVLS_SIMPLE = 25.0;
    public static final String HW_LAT_NVLINK_SRC = TUNING + ":159";
    public static final String HW_LAT_PCI_SRC = TUNING + ":165";
    public static final String HW_LAT_NET_SRC = TUNING + ":171";
    public static final String HW_LAT_NVLS_SRC = TUNING + ":161";

    /** llMaxBws GB/s [ccIndex (one node) or CPU row][node index] (l.179-182). */
    public static final double[][] LL_MAX_BW = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
    /** perChMaxRingLL128Bws (l.186-189), perChMaxTreeLL128Bws (l.193-196), perChMaxTreeBws (l.200-203), GB/s. */
    public static final double[][] PER_CH_MAX_RING_LL128 = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}};
    public static final double[][] PER_CH_MAX_TREE_LL128 = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
    public static final double[][] PER_CH_MAX_TREE = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
    public static final String BW_CAPS_SRC = TUNING + ":179-203";

    /** nvlsEfficiency by ccIndex (l.139-144). */
    public static final double[] NVLS_EFFICIENCY = {0.0, 0.0, 0.85, 0.74};
    public static final String NVLS_EFFICIENCY_SRC = TUNING + ":139";

    /** treeCorrectionFactor [protocol][log2(bytes/64)] for 64 B .. 256 MiB (l.623-627). */
    public static final double[][] TREE_CORRECTION = {
            {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
            {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
            {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
    public static final String TREE_CORRECTION_SRC = TUNING + ":623";

    /** Per-link NVLink bandwidth NCCL's topology gives a link, GB/s (topo.h l.20-24). */
    public static double nvlinkBw(int smTimes10) {
        return smTimes10 >= 100 ? 40.1 : smTimes10 >= 90 ? 20.6 : smTimes10 == 86 ? 12.0 : smTimes10 >= 80 ? 20.0
                : smTimes10 >= 70 ? 20.0 : 18.0;
    }

    public static final String NVLINK_BW_SRC = REPO + " src/graph/topo.h:19-24 (SMxx_NVLINK_BW)";

    /** Modelled time: {@code lat × 1 + bytes / (1000 × bw)} µs, bw in GB/s (ncclTopoGetAlgoTime, l.653). */
    public static final String TIME_SRC = TUNING + ":653";
    /** Ring/Tree latency composition (l.393-417), bandwidth refinements and bus → algorithm conversion (l.327-382). */
    public static final String COMPOSITION_SRC = TUNING + ":324-417";
    /** NVLS: latency = intraLat (l.424-426), bw = bwIntra × nvlsEfficiency × (nCh-1)/nCh × 2 for all-reduce (l.307-323). */
    public static final String NVLS_SRC = TUNING + ":307-323,424-426";
    /** The graph search stops when nChannels × bw reaches the GPU's total link bandwidth (search.cc l.1198). */
    public static final String SEARCH_SRC = REPO + " src/graph/search.cc:1198";
    /** NVLS graphs have at most min(32, GPUs) channels (search.cc l.1127, device.h l.213). */
    public static final String NVLS_CHANNELS_SRC = REPO + " src/graph/search.cc:1127, src/include/device.h:213";
    /** LL128 only where the intra path is at most NVB (tuning.cc l.531): off over PCIe. */
    public static final String LL128_SRC = TUNING + ":531";

    /** NCCL's compute-capability index of SM {@code sm} × 10: 0 Volta, 1 Ampere, 2 Hopper, 3 Blackwell. */
    static int ccIndex(int sm) {
        return sm >= 100 ? 3 : sm >= 90 ? 2 : sm >= 80 ? 1 : 0;
    }
}
