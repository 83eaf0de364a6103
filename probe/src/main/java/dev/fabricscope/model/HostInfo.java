package dev.fabricscope.model;

import java.util.List;

/**
 * The host the GPUs sit in.
 *
 * @param numaNodes NUMA nodes with their CPU lists, from {@code /sys/devices/system/node}
 */
public record HostInfo(Reading<String> hostname, Reading<String> os, Reading<String> kernel,
                       Reading<String> architecture, Reading<String> cpuModel, Reading<Integer> logicalCpus,
                       Reading<List<NumaNode>> numaNodes) {

    /** @param cpus CPU list as the kernel prints it, e.g. {@code 0-55,112-167} */
    public record NumaNode(int id, String cpus) {
    }

    /** Counts a kernel CPU list: {@code 0-3,8} → 5. */
    public static int countCpus(String list) {
        int n = 0;
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1).trim()) - Integer.parseInt(part.substring(0, dash).trim()) + 1;
        }
        return n;
    }
}
