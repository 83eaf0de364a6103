package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything Fabricscope knows about one machine at one moment. Immutable; JSON round-trips exactly.
 *
 * @param schemaVersion {@link #SCHEMA_VERSION} when written by this build
 * @param environment   the environment variables that steer NCCL / CUDA / PyTorch / NVSHMEM / vLLM / SGLang
 * @param gpus          sorted by PCI address
 * @param pairs         one entry per unordered GPU pair
 * @param findings      warnings and notes derived from the readings, worst first
 * @param node          NICs, the GPUs' PCIe places and the NVIDIA services; absent in snapshots made before they were read
 * @param pythonStack   the Python environments and framework packages; null in snapshots made before it was read
 */
public record MachineSnapshot(int schemaVersion, ProbeInfo probe, HostInfo host, DriverInfo driver,
                              @com.fasterxml.jackson.annotation.JsonProperty(required = true) List<Gpu> gpus,
                              List<NvSwitch> nvSwitches, List<GpuPair> pairs, Map<String, String> environment,
                              List<Finding> findings, NodeInfo node, PythonStack pythonStack) {

    public static final int SCHEMA_VERSION = 1;

    public MachineSnapshot {
        gpus = gpus instanceof Indexed.Gpus ? gpus : new Indexed.Gpus(gpus == null ? List.of() : List.copyOf(gpus));
        nvSwitches = nvSwitches == null ? List.of() : List.copyOf(nvSwitches);
        pairs = pairs instanceof Indexed.Pairs ? pairs : new Indexed.Pairs(pairs == null ? List.of() : List.copyOf(pairs));
        environment = environment == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        findings = findings == null ? List.of() : List.copyOf(findings);
        if (node == null) {
            node = new NodeInfo(Reading.missing(Missing.notApplicable("NICs not read")), List.of(), List.of());
        }
    }

    public MachineSnapshot(int schemaVersion, ProbeInfo probe, HostInfo host, DriverInfo driver, List<Gpu> gpus,
                           List<NvSwitch> nvSwitches, List<GpuPair> pairs, Map<String, String> environment,
                           List<Finding> findings) {
        this(schemaVersion, probe, host, driver, gpus, nvSwitches, pairs, environment, findings, null, null);
    }

    /** Without a Python stack reading (snapshots from before it, synthetic machines). */
    public MachineSnapshot(int schemaVersion, ProbeInfo probe, HostInfo host, DriverInfo driver, List<Gpu> gpus,
                           List<NvSwitch> nvSwitches, List<GpuPair> pairs, Map<String, String> environment,
                           List<Finding> findings, NodeInfo node) {
        this(schemaVersion, probe, host, driver, gpus, nvSwitches, pairs, environment, findings, node, null);
    }

    /** Same snapshot with another Python stack reading. */
    public MachineSnapshot withPythonStack(PythonStack stack) {
        return new MachineSnapshot(schemaVersion, probe, host, driver, gpus, nvSwitches, pairs, environment, findings, node, stack);
    }

    /** Same snapshot with other provenance. */
    public MachineSnapshot withProbe(ProbeInfo info) {
        return new MachineSnapshot(schemaVersion, info, host, driver, gpus, nvSwitches, pairs, environment, findings, node, pythonStack);
    }

    /** Same snapshot with another node part. */
    public MachineSnapshot withNode(NodeInfo newNode) {
        return new MachineSnapshot(schemaVersion, probe, host, driver, gpus, nvSwitches, pairs, environment, findings, newNode, pythonStack);
    }

    /** Same snapshot with other GPUs (switches re-derived by the caller where needed). */
    public MachineSnapshot withGpus(List<Gpu> newGpus) {
        return new MachineSnapshot(schemaVersion, probe, host, driver, newGpus, nvSwitches, pairs, environment, findings, node, pythonStack);
    }

    public Optional<Gpu> gpu(PciAddress pci) {
        int i = ((Indexed.Gpus) gpus).indexOf(pci);
        return i < 0 ? Optional.empty() : Optional.of(gpus.get(i));
    }

    /** The index of the GPU on {@code pci}'s device in {@link #gpus()}, or -1; O(1). */
    public int indexOf(PciAddress pci) {
        return ((Indexed.Gpus) gpus).indexOf(pci);
    }

    public Optional<GpuPair> pair(PciAddress x, PciAddress y) {
        return Optional.ofNullable(((Indexed.Pairs) pairs).find(x, y));
    }

    /** Display label of a GPU: {@code GPU<n>} in PCI order, as nvidia-smi numbers GPUs in the default PCI_BUS_ID order. */
    public String label(PciAddress pci) {
        int i = ((Indexed.Gpus) gpus).indexOf(pci);
        return i >= 0 ? "GPU" + i : String.valueOf(pci);
    }

    @JsonIgnore
    public boolean isLive() {
        return probe != null && probe.origin() == ProbeInfo.Origin.LIVE;
    }

    /** Same snapshot with other findings. */
    public MachineSnapshot withFindings(List<Finding> newFindings) {
        return new MachineSnapshot(schemaVersion, probe, host, driver, gpus, nvSwitches, pairs, environment, newFindings, node, pythonStack);
    }
}
