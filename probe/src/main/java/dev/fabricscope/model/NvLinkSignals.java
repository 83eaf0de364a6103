package dev.fabricscope.model;

import java.util.List;

/**
 * The NVLink signals NVML added after R570 that tell "links up, fabric not up" (issue 24), each a reading of its own:
 * a driver without the call gives a missing-symbol reading, a device without the feature a NOT_SUPPORTED one.
 *
 * @param systemBwMode     {@code nvmlSystemGetNvlinkBwMode}: the machine-wide mode, {@code FULL (0)} (Hopper and newer)
 * @param bwMode           {@code nvmlDeviceGetNvlinkBwMode}: the reduced-bandwidth mode in force and whether it is the best
 * @param supportedBwModes {@code nvmlDeviceGetNvlinkSupportedBwModes}: the modes the device offers
 * @param nvle             {@code nvmlDeviceGetNvLinkInfo}: NVLink encryption (NVLE) enabled
 * @param firmware         {@code nvmlDeviceGetNvLinkInfo} v2: NVLink firmware versions, {@code MSE 14.4.0}
 * @param gfmState         the fabric health mask's Global Fabric Manager field: CONNECTED, DISCONNECTED, NOT_SUPPORTED
 * @param fabricCliques    {@code nvmlDeviceGetGpuFabricInfo_v4}: the (type, id) cliques, {@code type 0: 0x7ffe}
 * @param links            per link: state and BER ({@code nvmlDeviceGetFieldValues}, scope = link)
 */
public record NvLinkSignals(Reading<String> systemBwMode, Reading<BwMode> bwMode, Reading<List<Integer>> supportedBwModes, Reading<Boolean> nvle,
                            Reading<List<String>> firmware, Reading<String> gfmState, Reading<List<String>> fabricCliques,
                            List<LinkSignal> links) {

    public static final String GFM_CONNECTED = "CONNECTED";
    public static final String GFM_DISCONNECTED = "DISCONNECTED";
    public static final String LINK_ACTIVE = "ACTIVE";
    /** {@link #systemBwMode}'s full-bandwidth value. */
    public static final String SYSTEM_BW_FULL = "FULL (0)";

    public NvLinkSignals {
        links = links == null ? List.of() : List.copyOf(links);
    }

    /** @param mode {@code bwMode}; @param best {@code bIsBest}: the mode is the device's best (full bandwidth) */
    public record BwMode(int mode, boolean best) {
    }

    /**
     * One link's signals.
     *
     * @param state        {@code NVML_FI_DEV_NVLINK_GET_STATE}: ACTIVE, INACTIVE, SLEEP
     * @param effectiveBer {@code NVML_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER}
     * @param symbolBer    {@code NVML_FI_DEV_NVLINK_COUNT_SYMBOL_BER}
     */
    public record LinkSignal(int index, Reading<String> state, Reading<Ber> effectiveBer, Reading<Ber> symbolBer) {
    }

    /** A BER field as NVML packs it: exponent in bits 0-7, mantissa in bits 8-11 ({@code NVML_NVLINK_ERROR_COUNTER_BER_GET}). */
    public record Ber(int mantissa, int exponent) {
        /** {@code mantissa 1, exponent 15}: the two fields as NVML gives them, not a computed rate. */
        public String text() {
            return "mantissa " + mantissa + ", exponent " + exponent;
        }
    }

    /** Every reading missing for one reason (NVML unavailable; snapshots made before these were read). */
    public static NvLinkSignals unknown(Missing why) {
        return new NvLinkSignals(Reading.missing(why), Reading.missing(why), Reading.missing(why), Reading.missing(why), Reading.missing(why),
                Reading.missing(why), Reading.missing(why), List.of());
    }

    /** The placeholder of a snapshot made before these signals were read. */
    public static NvLinkSignals notRead() {
        return unknown(Missing.notApplicable("NVLink signals not read"));
    }

    /** The link's signals, or null. */
    public LinkSignal link(int index) {
        return links.stream().filter(l -> l.index() == index).findFirst().orElse(null);
    }
}
