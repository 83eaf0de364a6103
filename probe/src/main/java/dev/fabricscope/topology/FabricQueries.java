package dev.fabricscope.topology;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What hangs off what in a snapshot, as the fabric drawing needs it: GPUs that share a PCIe switch, each RDMA NIC's
 * GPU under the same switch, direct GPU-to-GPU and GPU-to-NVSwitch NVLinks, and whether a GPU reaches its CPU over
 * NVLink-C2C. Pure queries over the snapshot.
 */
public final class FabricQueries {

    private FabricQueries() {
    }

    /**
     * The GPU reaches its CPU over NVLink-C2C: as its C2C readings say where the driver answered them (enabled, or an
     * active C2C link), else — snapshots from before they were read — as a Grace host implies.
     */
    public static boolean c2cToHost(MachineSnapshot s, Gpu g) {
        return c2cRead(g) ? g.hostLink().c2c() : graceHost(s);
    }

    /** The driver answered the C2C mode or the link count (a value, or NOT_SUPPORTED: no C2C). */
    public static boolean c2cRead(Gpu g) {
        HostLink l = g.hostLink();
        return l.c2cEnabled().isPresent() || l.c2cLinkCount().isPresent() || unsupported(l.c2cEnabled()) && unsupported(l.c2cLinkCount());
    }

    private static boolean unsupported(Reading<?> r) {
        return r.missing() != null && r.missing().kind() == Missing.Kind.UNSUPPORTED;
    }

    /** A Grace CPU host (or Grace superchip GPUs: GH200, GB200, GB300): the GPUs hang off NVLink-C2C, not PCIe. */
    public static boolean graceHost(MachineSnapshot s) {
        return (s.host() != null && s.host().cpuModel().orElse("").contains("Grace"))
                || (!s.gpus().isEmpty() && s.gpus().stream().allMatch(g -> g.name().orElse("").matches(".*\\bG[BH]\\d{3}\\b.*")));
    }

    /** Each RDMA NIC's GPU under the same PCIe switch (PIX first, then PXB, as {@code nvidia-smi topo -m} says). */
    public static Map<Nic, Gpu> nicSwitchPeers(MachineSnapshot s, List<Nic> nics) {
        Map<Nic, Gpu> out = new LinkedHashMap<>();
        for (String wanted : List.of("PIX", "PXB")) {
            for (Nic n : nics) {
                if (out.containsKey(n)) {
                    continue;
                }
                s.gpus().stream().filter(g -> wanted.equals(PcieTopology.gpuToNic(s, g, n).value())).findFirst()
                        .ifPresent(g -> out.put(n, g));
            }
        }
        return out;
    }

    /** GPUs that share a PCIe switch (PIX or PXB between them), as connected groups of two or more. */
    public static List<List<Gpu>> pcieSwitchGroups(MachineSnapshot s) {
        List<Gpu> gpus = s.gpus();
        int[] parent = new int[gpus.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (GpuPair p : s.pairs()) {
            String level = p.pcieLevel().value();
            if ("PIX".equals(level) || "PXB".equals(level)) {
                int a = indexOfPci(gpus, p.a());
                int b = indexOfPci(gpus, p.b());
                if (a >= 0 && b >= 0) {
                    parent[find(parent, a)] = find(parent, b);
                }
            }
        }
        Map<Integer, List<Gpu>> groups = new TreeMap<>();
        for (int i = 0; i < gpus.size(); i++) {
            groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(gpus.get(i));
        }
        return groups.values().stream().filter(g -> g.size() > 1)
                .sorted(Comparator.comparing(g -> g.get(0).pci())).toList();
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    /** The NVLinks between two GPUs: how many, their nominal GB/s per direction in all (0 when unknown), the links. */
    public record DirectLink(int count, double gbps, List<NvLink> links) {
    }

    /** Direct GPU-to-GPU NVLinks, keyed by the lower PCI address then the higher. */
    public static Map<String, Map<String, DirectLink>> directLinks(MachineSnapshot s) {
        Map<String, Map<String, DirectLink>> out = new TreeMap<>();
        List<Gpu> gpus = s.gpus();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                Gpu a = gpus.get(i);
                Gpu b = gpus.get(j);
                List<NvLink> ab = linksTo(a, b.pci());
                List<NvLink> ba = linksTo(b, a.pci());
                List<NvLink> links = ab.size() >= ba.size() ? ab : ba;
                if (!links.isEmpty()) {
                    double gbps = links.stream().mapToDouble(l -> l.gbpsPerDirection().orElse(0.0)).sum();
                    out.computeIfAbsent(a.pci().toString(), k -> new TreeMap<>())
                            .put(b.pci().toString(), new DirectLink(links.size(), gbps, links));
                }
            }
        }
        return out;
    }

    private static List<NvLink> linksTo(Gpu g, PciAddress peer) {
        return g.activeLinks().stream().filter(l -> NvLink.REMOTE_GPU.equals(l.remoteType().value())
                && l.remotePci().isPresent() && l.remotePci().value().sameDevice(peer)).toList();
    }

    /** A GPU's active NVLinks to one NVSwitch (to the pooled switch when it has no PCI address). */
    public static List<NvLink> switchLinks(Gpu g, NvSwitch sw) {
        return g.activeLinks().stream().filter(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value()))
                .filter(l -> sw.pci().isPresent()
                        ? l.remotePci().isPresent() && l.remotePci().value().sameDevice(sw.pci().value())
                        : !l.remotePci().isPresent())
                .toList();
    }

    private static int indexOfPci(List<Gpu> gpus, PciAddress pci) {
        for (int i = 0; i < gpus.size(); i++) {
            if (gpus.get(i).pci().sameDevice(pci)) {
                return i;
            }
        }
        return -1;
    }
}
