package dev.fabricscope.cluster;

import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.model.Reading;
import java.util.List;
import java.util.Map;

/**
 * What the cluster view compares of one node: a few kilobytes where the full snapshot is a hundred (its per-link
 * readings, GPU pairs and findings are left out). Read from a file by {@link SummaryReader} without building the
 * rest, or made from a snapshot in memory by {@link #of}; both give equal summaries for the same node.
 *
 * @param nvSwitches      how many NVSwitches the node's snapshot lists
 * @param pythonStack     the Python stack in one line ({@link PythonStack#summary}), or null when not read
 */
public record NodeSummary(HostInfo host, DriverInfo driver, List<GpuSummary> gpus, int nvSwitches,
                          Map<String, String> environment, String pythonStack) {

    public NodeSummary {
        gpus = List.copyOf(gpus);
        environment = Map.copyOf(environment);
    }

    /**
     * One GPU as the cluster view compares it.
     *
     * @param activeLinks       links whose state reads active
     * @param linkStateReadable false when the GPU has links and none of their states could be read
     */
    public record GpuSummary(Reading<String> name, Reading<String> computeCapability, Reading<String> migMode,
                             Reading<String> virtualizationMode, CudaAttributes cuda, FabricInfo fabric,
                             int activeLinks, boolean linkStateReadable) {

        static GpuSummary of(Gpu g) {
            boolean readable = g.nvLinks().isEmpty() || g.nvLinks().stream().anyMatch(l -> l.active().isPresent());
            return new GpuSummary(g.name(), g.computeCapability(), g.migMode(), g.virtualizationMode(), g.cuda(),
                    g.fabric(), g.activeLinks().size(), readable);
        }
    }

    public static NodeSummary of(MachineSnapshot s) {
        return new NodeSummary(s.host(), s.driver(), s.gpus().stream().map(GpuSummary::of).toList(),
                s.nvSwitches().size(), s.environment(), pythonStackLine(s.pythonStack(), s.environment(), s.driver()));
    }

    /** The Python stack in one line, as both ways of making a summary give it. */
    public static String pythonStackLine(PythonStack stack, Map<String, String> environment, DriverInfo driver) {
        return stack == null ? null : stack.summary(environment, driver.nccl());
    }

    /** The node's own host name, or null when its snapshot could not read it. */
    public String hostname() {
        return host != null && host.hostname().isPresent() ? host.hostname().value() : null;
    }
}
