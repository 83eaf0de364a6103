package dev.fabricscope.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * An NVSwitch seen from the GPU side: a distinct far-end address of switch-type links.
 *
 * @param id        stable label ({@code NVS0}, …) in PCI-address order
 * @param pci       its PCI address; missing when the switch is not PCI-visible (e.g. inside a VM)
 * @param gpuLinks  GPU PCI address (text) → number of links from that GPU to this switch
 */
public record NvSwitch(String id, Reading<PciAddress> pci, Map<String, Integer> gpuLinks) {
    public NvSwitch {
        gpuLinks = gpuLinks == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(gpuLinks));
    }

    public int totalLinks() {
        return gpuLinks.values().stream().mapToInt(Integer::intValue).sum();
    }
}
