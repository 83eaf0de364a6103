package dev.fabricscope.model;

/**
 * One NVLink of one GPU.
 *
 * @param index               link index (0-based)
 * @param active              link state: true = active
 * @param versionCode         raw {@code nvmlDeviceGetNvLinkVersion} code (an enum code, not the generation)
 * @param generation          NVLink generation derived from the compute capability, as NCCL does
 * @param remoteType          GPU, SWITCH, IBMNPU or UNKNOWN
 * @param remotePci           PCI address of the far end (NVSwitch addresses may be unknown inside VMs)
 * @param gbpsPerDirection    nominal data bandwidth per direction of this link, GB/s
 * @param speedMbps           the link's speed as NVML reports it ({@code NVML_FI_DEV_NVLINK_GET_SPEED}, MB/s; what
 *                            {@code nvidia-smi nvlink -s} prints), absent in snapshots made before it was read
 * @param errors              error and throughput counters; absent in snapshots made before they were read
 */
public record NvLink(int index, Reading<Boolean> active, Reading<Integer> versionCode, Reading<Integer> generation,
                     Reading<String> remoteType, Reading<PciAddress> remotePci, Reading<Double> gbpsPerDirection,
                     Reading<Long> speedMbps, NvLinkErrors errors) {

    public static final String REMOTE_GPU = "GPU";
    public static final String REMOTE_SWITCH = "SWITCH";

    public NvLink {
        if (speedMbps == null) {
            speedMbps = Reading.missing(Missing.notApplicable("link speed not read"));
        }
        if (errors == null) {
            Reading<Long> none = Reading.missing(Missing.notApplicable("counters not read"));
            errors = new NvLinkErrors(none, none, none, none, none, none, none);
        }
    }

    public NvLink(int index, Reading<Boolean> active, Reading<Integer> versionCode, Reading<Integer> generation,
                  Reading<String> remoteType, Reading<PciAddress> remotePci, Reading<Double> gbpsPerDirection,
                  Reading<Long> speedMbps) {
        this(index, active, versionCode, generation, remoteType, remotePci, gbpsPerDirection, speedMbps, null);
    }

    /** The same link with other counters. */
    public NvLink withErrors(NvLinkErrors e) {
        return new NvLink(index, active, versionCode, generation, remoteType, remotePci, gbpsPerDirection, speedMbps, e);
    }

    /** The same link, inactive (a link down). */
    public NvLink down() {
        Missing why = Missing.notApplicable("link inactive");
        return new NvLink(index, Reading.of(false), Reading.missing(why), generation, Reading.missing(why), Reading.missing(why),
                gbpsPerDirection, Reading.missing(why), null);
    }

    public NvLink(int index, Reading<Boolean> active, Reading<Integer> versionCode, Reading<Integer> generation,
                  Reading<String> remoteType, Reading<PciAddress> remotePci, Reading<Double> gbpsPerDirection) {
        this(index, active, versionCode, generation, remoteType, remotePci, gbpsPerDirection, null, null);
    }

    /** {@code nvmlNvlinkVersion_t} as a name: 6 → {@code 4.0}; null for codes outside the enum. */
    public static String versionName(int code) {
        return switch (code) {
            case 1 -> "1.0";
            case 2 -> "2.0";
            case 3 -> "2.2";
            case 4 -> "3.0";
            case 5 -> "3.1";
            case 6 -> "4.0";
            case 7 -> "5.0";
            case 8 -> "6.0";
            default -> null;
        };
    }
}
