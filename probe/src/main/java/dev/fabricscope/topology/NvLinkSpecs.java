package dev.fabricscope.topology;

/**
 * NVLink generation and nominal per-link data bandwidth, derived from the compute capability as NCCL does
 * (NVML's version code is an enum code, not the generation). Figures: per link, per direction, GB/s:
 * NVLink1 (P100) 20, NVLink2 (V100) 25, NVLink3 (A100) 25, NVLink3 bridges on SM 8.6 14.0625,
 * NVLink4 (H100/H200) 25, NVLink5 (B200/GB200/GB300) 50.
 */
public final class NvLinkSpecs {
    private NvLinkSpecs() {
    }

    /** NVLink generation for a compute capability, or 0 when the architecture has no NVLink. */
    public static int generation(double cc) {
        if (Double.isNaN(cc)) return 0;
        if (cc >= 12.0) return 0;          // SM 12.x (RTX PRO 6000 Blackwell, RTX 50xx): PCIe only
        if (cc >= 11.0) return 0;          // SM 11.x (Thor): no NVLink to peers
        if (cc >= 10.0) return 5;
        if (cc >= 9.0) return 4;
        if (cc >= 8.9) return 0;           // Ada (L40S, RTX 6000 Ada): no NVLink
        if (cc >= 8.0) return 3;
        if (cc >= 7.0) return 2;
        if (cc >= 6.0) return 1;
        return 0;
    }

    /** Nominal data bandwidth per link per direction in GB/s. */
    public static double gbpsPerLinkPerDirection(double cc) {
        int gen = generation(cc);
        if (gen == 3 && cc >= 8.6 && cc < 8.9) return 14.0625;
        return switch (gen) {
            case 1 -> 20.0;
            case 2, 3, 4 -> 25.0;
            case 5 -> 50.0;
            default -> 0.0;
        };
    }

    /** The highest link index NCCL probes for a compute capability (its {@code maxNvLinks}). */
    public static int maxLinks(double cc) {
        if (Double.isNaN(cc)) return 18;
        int sm = (int) Math.round(cc * 10);
        return sm < 60 ? 0 : sm < 70 ? 4 : sm < 80 ? 6 : sm < 90 ? 12 : 18;
    }
}
