package dev.fabricscope.model;

import java.util.List;

/**
 * One GPU, keyed by its PCI address (and UUID), never by an index: NVML and CUDA number devices differently.
 *
 * @param pci                PCI address (the key)
 * @param uuid               {@code GPU-…}
 * @param nvmlIndex          NVML's index (for cross-reference with nvidia-smi only)
 * @param cudaOrdinal        CUDA's ordinal under the current {@code CUDA_VISIBLE_DEVICES}
 * @param architecture       e.g. Hopper
 * @param computeCapability  e.g. {@code 9.0}
 * @param memoryTotalBytes   framebuffer size
 * @param numaNode           host NUMA node nearest the GPU
 * @param cpuAffinity        CPU list nearest the GPU, kernel list format
 * @param migMode            Enabled / Disabled
 * @param virtualizationMode None, Pass-Through, VGPU, Host VGPU, …
 * @param nvLinkCount        links present ({@code NVML_FI_DEV_NVLINK_LINK_COUNT}) or the probed count
 * @param nvLinks            the links that answered or failed (empty when the count is 0)
 * @param health             ECC, remapped rows, clocks events, power limit, PCIe link, recovery action; absent in
 *                           snapshots made before they were read
 * @param signals            NVLink bandwidth mode, encryption, firmware, GFM state, link states and BER (issue 24);
 *                           absent in snapshots made before they were read
 * @param hostLink           NVLink-C2C to the host CPU and the GPU's own NUMA node (issue 27); absent in snapshots made
 *                           before they were read
 */
public record Gpu(PciAddress pci, Reading<String> uuid, Reading<Integer> nvmlIndex, Reading<Integer> cudaOrdinal,
                  Reading<String> name, Reading<String> serial, Reading<String> architecture,
                  Reading<String> computeCapability, Reading<Integer> smCount, Reading<Long> memoryTotalBytes,
                  Reading<Integer> numaNode, Reading<String> cpuAffinity, Reading<String> migMode,
                  Reading<String> virtualizationMode, Reading<Boolean> persistenceMode, CudaAttributes cuda,
                  Reading<Integer> nvLinkCount, List<NvLink> nvLinks, FabricInfo fabric, GpuHealth health,
                  NvLinkSignals signals, HostLink hostLink) {

    public Gpu {
        nvLinks = nvLinks == null ? List.of() : List.copyOf(nvLinks);
        if (health == null) {
            health = GpuHealth.unknown(Missing.notApplicable("health not read"));
        }
        if (signals == null) {
            signals = NvLinkSignals.notRead();
        }
        if (hostLink == null) {
            hostLink = HostLink.notRead();
        }
    }

    public Gpu(PciAddress pci, Reading<String> uuid, Reading<Integer> nvmlIndex, Reading<Integer> cudaOrdinal,
               Reading<String> name, Reading<String> serial, Reading<String> architecture,
               Reading<String> computeCapability, Reading<Integer> smCount, Reading<Long> memoryTotalBytes,
               Reading<Integer> numaNode, Reading<String> cpuAffinity, Reading<String> migMode,
               Reading<String> virtualizationMode, Reading<Boolean> persistenceMode, CudaAttributes cuda,
               Reading<Integer> nvLinkCount, List<NvLink> nvLinks, FabricInfo fabric, GpuHealth health,
               NvLinkSignals signals) {
        this(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount, memoryTotalBytes,
                numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount, nvLinks, fabric, health,
                signals, null);
    }

    public Gpu(PciAddress pci, Reading<String> uuid, Reading<Integer> nvmlIndex, Reading<Integer> cudaOrdinal,
               Reading<String> name, Reading<String> serial, Reading<String> architecture,
               Reading<String> computeCapability, Reading<Integer> smCount, Reading<Long> memoryTotalBytes,
               Reading<Integer> numaNode, Reading<String> cpuAffinity, Reading<String> migMode,
               Reading<String> virtualizationMode, Reading<Boolean> persistenceMode, CudaAttributes cuda,
               Reading<Integer> nvLinkCount, List<NvLink> nvLinks, FabricInfo fabric, GpuHealth health) {
        this(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount, memoryTotalBytes,
                numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount, nvLinks, fabric, health, null, null);
    }

    public Gpu(PciAddress pci, Reading<String> uuid, Reading<Integer> nvmlIndex, Reading<Integer> cudaOrdinal,
               Reading<String> name, Reading<String> serial, Reading<String> architecture,
               Reading<String> computeCapability, Reading<Integer> smCount, Reading<Long> memoryTotalBytes,
               Reading<Integer> numaNode, Reading<String> cpuAffinity, Reading<String> migMode,
               Reading<String> virtualizationMode, Reading<Boolean> persistenceMode, CudaAttributes cuda,
               Reading<Integer> nvLinkCount, List<NvLink> nvLinks, FabricInfo fabric) {
        this(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount, memoryTotalBytes,
                numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount, nvLinks, fabric, null, null, null);
    }

    /** The same GPU with other links (tests and samples take a link down this way). */
    public Gpu withLinks(List<NvLink> links) {
        return new Gpu(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount,
                memoryTotalBytes, numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount,
                links, fabric, health, signals, hostLink);
    }

    /** The same GPU with other NVLink signals (tests and samples). */
    public Gpu withSignals(NvLinkSignals s) {
        return new Gpu(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount,
                memoryTotalBytes, numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount,
                nvLinks, fabric, health, s, hostLink);
    }

    /** The same GPU with another host link (tests and samples). */
    public Gpu withHostLink(HostLink h) {
        return new Gpu(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount,
                memoryTotalBytes, numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount,
                nvLinks, fabric, health, signals, h);
    }

    /** The same GPU with another UUID (cluster samples: one machine as many nodes). */
    public Gpu withUuid(Reading<String> u) {
        return new Gpu(pci, u, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount,
                memoryTotalBytes, numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount,
                nvLinks, fabric, health, signals, hostLink);
    }

    /** The same GPU with another fabric reading (cluster samples). */
    public Gpu withFabric(FabricInfo f) {
        return new Gpu(pci, uuid, nvmlIndex, cudaOrdinal, name, serial, architecture, computeCapability, smCount,
                memoryTotalBytes, numaNode, cpuAffinity, migMode, virtualizationMode, persistenceMode, cuda, nvLinkCount,
                nvLinks, f, health, signals, hostLink);
    }

    /** Active links only. */
    public List<NvLink> activeLinks() {
        return nvLinks.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
    }

    /** Major.minor as a number (9.0, 10.3), or NaN when unknown. */
    public double computeCapabilityNumber() {
        if (!computeCapability.isPresent()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(computeCapability.value());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Short label for tables: the name without the vendor prefix. */
    public String shortName() {
        String n = name.orElse("GPU");
        return n.startsWith("NVIDIA ") ? n.substring(7) : n;
    }
}
