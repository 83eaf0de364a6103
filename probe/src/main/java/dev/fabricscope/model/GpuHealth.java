package dev.fabricscope.model;

import java.util.List;

/**
 * A GPU's health as {@code nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER,PERFORMANCE,POWER} shows it, from NVML.
 *
 * @param eccEnabled              {@code nvmlDeviceGetEccMode} current
 * @param eccPendingEnabled       pending (after the next reset)
 * @param eccVolatileCorrected    {@code nvmlDeviceGetTotalEccErrors(CORRECTED, VOLATILE)} (since the driver loaded)
 * @param eccVolatileUncorrected  uncorrected, volatile
 * @param eccAggregateCorrected   corrected, aggregate (lifetime)
 * @param eccAggregateUncorrected uncorrected, aggregate
 * @param remappedRows            {@code nvmlDeviceGetRemappedRows}
 * @param retiredPagesSingleBit   {@code nvmlDeviceGetRetiredPages_v2(MULTIPLE_SINGLE_BIT_ECC_ERRORS)} count (pre-Ampere)
 * @param retiredPagesDoubleBit   {@code nvmlDeviceGetRetiredPages_v2(DOUBLE_BIT_ECC_ERROR)} count
 * @param clocksEventReasons      active {@code nvmlDeviceGetCurrentClocksEventReasons} bits by name (empty = none)
 * @param powerLimitWatts         {@code nvmlDeviceGetPowerManagementLimit}
 * @param enforcedPowerLimitWatts {@code nvmlDeviceGetEnforcedPowerLimit}
 * @param pcieLinkCurrent         {@code Gen5 x16} from the current PCIe generation and width
 * @param pcieLinkMax             the maximum the GPU and slot allow
 * @param recoveryAction          {@code NVML_FI_DEV_GET_GPU_RECOVERY_ACTION} (field 230): NONE, GPU_RESET, NODE_REBOOT,
 *                                DRAIN_P2P, DRAIN_AND_RESET
 */
public record GpuHealth(Reading<Boolean> eccEnabled, Reading<Boolean> eccPendingEnabled, Reading<Long> eccVolatileCorrected,
                        Reading<Long> eccVolatileUncorrected, Reading<Long> eccAggregateCorrected,
                        Reading<Long> eccAggregateUncorrected, Reading<RemappedRows> remappedRows,
                        Reading<Integer> retiredPagesSingleBit, Reading<Integer> retiredPagesDoubleBit,
                        Reading<List<String>> clocksEventReasons, Reading<Double> powerLimitWatts,
                        Reading<Double> enforcedPowerLimitWatts, Reading<String> pcieLinkCurrent, Reading<String> pcieLinkMax,
                        Reading<String> recoveryAction) {

    /** @param pending a remap waits for the next GPU reset; @param failureOccurred a remap failed (RMA criterion) */
    public record RemappedRows(int correctable, int uncorrectable, boolean pending, boolean failureOccurred) {
    }

    /** Every reading missing for the same reason (NVML unavailable, or a snapshot made before these were read). */
    public static GpuHealth unknown(Missing why) {
        Reading<Boolean> b = Reading.missing(why);
        Reading<Long> l = Reading.missing(why);
        Reading<Integer> i = Reading.missing(why);
        Reading<Double> d = Reading.missing(why);
        Reading<String> s = Reading.missing(why);
        return new GpuHealth(b, b, l, l, l, l, Reading.missing(why), i, i, Reading.missing(why), d, d, s, s, s);
    }
}
