package dev.fabricscope.probe;

import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.HostLink.C2cLink;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.Nvml.NvmlDevice;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one GPU's link to its host CPU (issue 27): the C2C mode, the C2C links' count, status and speed, and the
 * GPU's own NUMA node. Every call stands alone and only reads: an x86 GPU answers NOT_SUPPORTED, a driver without
 * {@code nvmlDeviceGetC2cModeInfoV} a missing symbol, and the other readings still read.
 */
final class HostLinkProbe {

    /** Most C2C links believed (GH200 shows 10; nvml.h sets no bound): a larger count is an invalid reading. */
    static final int MAX_C2C_LINKS = 64;

    private HostLinkProbe() {
    }

    /** @param numaNodeId the GPU's {@code nvmlDeviceGetNumaNodeId}, already read for the host NUMA fallback */
    static HostLink read(Nvml nvml, NvmlDevice h, Reading<Integer> numaNodeId) {
        Reading<Long> count = nvml.fieldValues(h, new int[][] {{NvmlCodes.FI_C2C_LINK_COUNT, 0}}).get(0);
        Reading<Integer> links;
        if (!count.isPresent()) {
            links = Reading.missing(named(count.missing(), "NVML_FI_DEV_C2C_LINK_COUNT"));
        } else if (count.value() < 0 || count.value() > MAX_C2C_LINKS) {
            links = Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(NVML_FI_DEV_C2C_LINK_COUNT)",
                    String.valueOf(count.value()), "C2C link count outside 0.." + MAX_C2C_LINKS));
        } else {
            links = Reading.of(count.value().intValue());
        }
        return new HostLink(nvml.c2cMode(h), links, perLink(nvml, h, links.orElse(0)), numaNodeId);
    }

    /** Status and speed of each of {@code n} links, in one field-values call. */
    private static List<C2cLink> perLink(Nvml nvml, NvmlDevice h, int n) {
        if (n <= 0) {
            return List.of();
        }
        int[][] fields = new int[2 * n][];
        for (int i = 0; i < n; i++) {
            fields[2 * i] = new int[] {NvmlCodes.FI_C2C_LINK_GET_STATUS, i};
            fields[2 * i + 1] = new int[] {NvmlCodes.FI_C2C_LINK_GET_MAX_BW, i};
        }
        List<Reading<Long>> v = nvml.fieldValues(h, fields);
        List<C2cLink> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new C2cLink(i, status(v.get(2 * i), i), bandwidth(v.get(2 * i + 1), i)));
        }
        return out;
    }

    private static Reading<Boolean> status(Reading<Long> raw, int link) {
        if (!raw.isPresent()) {
            return Reading.missing(named(raw.missing(), "NVML_FI_DEV_C2C_LINK_GET_STATUS, link " + link));
        }
        long v = raw.value();
        return v == 0 || v == 1 ? Reading.of(v == 1) : Reading.missing(Missing.invalid(
                "nvmlDeviceGetFieldValues(NVML_FI_DEV_C2C_LINK_GET_STATUS, link " + link + ")", String.valueOf(v),
                "not a C2C link status of nvml.h (0 INACTIVE, 1 ACTIVE)"));
    }

    private static Reading<Long> bandwidth(Reading<Long> raw, int link) {
        if (!raw.isPresent()) {
            return Reading.missing(named(raw.missing(), "NVML_FI_DEV_C2C_LINK_GET_MAX_BW, link " + link));
        }
        long v = raw.value();
        // 10 TB/s per link is beyond any C2C generation: a larger value is not MB/s
        return v >= 0 && v <= 10_000_000 ? Reading.of(v) : Reading.missing(Missing.invalid(
                "nvmlDeviceGetFieldValues(NVML_FI_DEV_C2C_LINK_GET_MAX_BW, link " + link + ")", String.valueOf(v),
                "not a link speed in MB/s"));
    }

    /** The field call named by its nvml.h name instead of its number, the code and words kept. */
    private static Missing named(Missing m, String field) {
        if (m.call() == null || !m.call().startsWith("nvmlDeviceGetFieldValues(field ")) {
            return m;
        }
        return new Missing(m.kind(), "nvmlDeviceGetFieldValues(" + field + ")", m.code(), m.codeValue(), m.detail(), m.raw());
    }
}
