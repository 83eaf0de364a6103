package dev.fabricscope.model;

import java.util.List;

/**
 * How a GPU joins its host CPU beyond PCIe (issue 27): NVLink-C2C on Grace Hopper / Grace Blackwell superchips, and
 * the GPU's memory as a NUMA node of the host. Each a reading of its own: a GPU without C2C answers NOT_SUPPORTED, a
 * driver without the call a missing symbol.
 *
 * @param c2cEnabled     {@code nvmlDeviceGetC2cModeInfoV}: {@code isC2cEnabled}
 * @param c2cLinkCount   {@code NVML_FI_DEV_C2C_LINK_COUNT}: C2C links present on the device
 * @param c2cLinks       per link ({@code nvmlDeviceGetFieldValues}, scope = link): status and speed; empty when the
 *                       count is 0 or unknown
 * @param memoryNumaNode {@code nvmlDeviceGetNumaNodeId}: the NUMA node of the GPU itself, which NVML gives "only on
 *                       platforms where the GPUs are NUMA nodes" (Grace: the CPU-less node holding its HBM)
 */
public record HostLink(Reading<Boolean> c2cEnabled, Reading<Integer> c2cLinkCount, List<C2cLink> c2cLinks,
                       Reading<Integer> memoryNumaNode) {

    public HostLink {
        c2cLinks = c2cLinks == null ? List.of() : List.copyOf(c2cLinks);
    }

    /**
     * @param active          {@code NVML_FI_DEV_C2C_LINK_GET_STATUS}: 1 ACTIVE, 0 INACTIVE
     * @param maxBandwidthMBps {@code NVML_FI_DEV_C2C_LINK_GET_MAX_BW}: MB/s, for active links
     */
    public record C2cLink(int index, Reading<Boolean> active, Reading<Long> maxBandwidthMBps) {
    }

    /** The GPU reaches its CPU over NVLink-C2C: the driver says C2C is enabled, or a C2C link is active. */
    public boolean c2c() {
        return Boolean.TRUE.equals(c2cEnabled.value()) || c2cLinks.stream().anyMatch(l -> Boolean.TRUE.equals(l.active().value()));
    }

    /** Whether any C2C reading was taken (false for snapshots and traces from before issue 27). */
    public boolean read() {
        return !NOT_READ.equals(c2cEnabled.missing());
    }

    public List<C2cLink> activeLinks() {
        return c2cLinks.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
    }

    private static final Missing NOT_READ = Missing.notApplicable("host link not read");

    /** Every reading missing for one reason (NVML unavailable, the GPU not visible to NVML). */
    public static HostLink unknown(Missing why) {
        return new HostLink(Reading.missing(why), Reading.missing(why), List.of(), Reading.missing(why));
    }

    /** The placeholder of a snapshot made before these readings were taken. */
    public static HostLink notRead() {
        return unknown(NOT_READ);
    }
}
