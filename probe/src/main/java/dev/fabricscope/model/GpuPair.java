package dev.fabricscope.model;

/**
 * What connects two GPUs ({@code a} &lt; {@code b} by PCI address).
 *
 * @param topology          the {@code nvidia-smi topo -m} letters: NV#, PIX, PXB, PHB, NODE, SYS
 * @param pcieLevel         NVML's PCIe common ancestor ({@code nvmlDeviceGetTopologyCommonAncestor}) as a letter
 * @param nvLinks           NVLinks between them, direct or through NVSwitches (as nvidia-smi counts NV#)
 * @param p2pRead           {@code nvmlDeviceGetP2PStatus} READ: OK, CNS, GNS, TNS, DISABLED_BY_REGKEY, NS, U
 * @param p2pWrite          WRITE
 * @param p2pNvlink         NVLINK
 * @param p2pAtomics        ATOMICS
 * @param p2pProp           PROP (PCI)
 * @param cudaCanAccessPeer {@code cuDeviceCanAccessPeer(a, b)}
 * @param cudaPerformanceRank {@code cuDeviceGetP2PAttribute(PERFORMANCE_RANK)}
 * @param cudaNativeAtomics {@code cuDeviceGetP2PAttribute(NATIVE_ATOMIC_SUPPORTED)}
 */
public record GpuPair(PciAddress a, PciAddress b, Reading<String> topology, Reading<String> pcieLevel,
                      Reading<Integer> nvLinks, Reading<String> p2pRead, Reading<String> p2pWrite,
                      Reading<String> p2pNvlink, Reading<String> p2pAtomics, Reading<String> p2pProp,
                      Reading<Boolean> cudaCanAccessPeer, Reading<Integer> cudaPerformanceRank,
                      Reading<Boolean> cudaNativeAtomics) {

    public boolean connects(PciAddress x, PciAddress y) {
        return (a.equals(x) && b.equals(y)) || (a.equals(y) && b.equals(x));
    }
}
