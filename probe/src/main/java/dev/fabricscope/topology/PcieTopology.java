package dev.fabricscope.topology;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo.PcieEndpoint;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code nvidia-smi topo -m} letters between any two PCI devices, from their places in the PCIe tree (sysfs paths):
 * PIX (at most one PCIe switch between them), PXB (more bridges, no host bridge), PHB (through their host bridge),
 * NODE (between host bridges of one NUMA node), SYS (across NUMA nodes). Pure: no native calls.
 */
public final class PcieTopology {

    private PcieTopology() {
    }

    /** The letter between two endpoints; missing when either place is unknown. */
    public static Reading<String> letter(PcieEndpoint a, PcieEndpoint b) {
        if (a == null || b == null) {
            return Reading.missing(Missing.notApplicable("PCIe place not read"));
        }
        if (!a.path().isPresent() || !b.path().isPresent()) {
            return Reading.missing((a.path().isPresent() ? b : a).path().missing());
        }
        if (a.address().equalsIgnoreCase(b.address())) {
            return Reading.of("X");
        }
        List<String> pa = a.path().value();
        List<String> pb = b.path().value();
        if (pa.isEmpty() || pb.isEmpty()) {
            return Reading.missing(Missing.invalid("PCIe path", pa + " / " + pb, "no host bridge in the path"));
        }
        if (!pa.get(0).equalsIgnoreCase(pb.get(0))) {
            if (!a.numaNode().isPresent() || !b.numaNode().isPresent()) {
                return Reading.missing(Missing.notApplicable("NUMA node unknown: NODE or SYS cannot be told"));
            }
            return Reading.of(a.numaNode().value().equals(b.numaNode().value()) ? "NODE" : "SYS");
        }
        int common = 0;
        while (common + 1 < pa.size() && common + 1 < pb.size() && pa.get(common + 1).equalsIgnoreCase(pb.get(common + 1))) {
            common++;
        }
        if (common == 0) {
            return Reading.of("PHB");
        }
        int hops = (pa.size() - 1 - common) + (pb.size() - 1 - common);
        return Reading.of(hops <= 2 ? "PIX" : "PXB");
    }

    /** A GPU's place in the PCIe tree as the probe read it. */
    public static Optional<PcieEndpoint> gpuPlace(MachineSnapshot s, Gpu g) {
        return s.node().gpuPcie().stream().filter(e -> e.address().equalsIgnoreCase(g.pci().toString())).findFirst();
    }

    public static PcieEndpoint nicPlace(Nic n) {
        return new PcieEndpoint(n.address().orElse(n.name()), n.pciePath(), n.numaNode());
    }

    /** GPU to NIC, as {@code nvidia-smi topo -m}'s NIC columns. */
    public static Reading<String> gpuToNic(MachineSnapshot s, Gpu g, Nic n) {
        return letter(gpuPlace(s, g).orElse(null), nicPlace(n));
    }

    /**
     * The PCIe switches the GPUs and NICs hang under: the upstream port below the root port (the second bridge of the
     * path), each with the devices below it, in path order. Devices directly under a root port have no switch.
     */
    public static Map<String, List<String>> switches(MachineSnapshot s) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<PcieEndpoint> all = new ArrayList<>(s.node().gpuPcie());
        s.node().nics().orElse(List.of()).forEach(n -> all.add(nicPlace(n)));
        for (PcieEndpoint e : all) {
            String sw = switchOf(e);
            if (sw != null) {
                out.computeIfAbsent(sw, k -> new ArrayList<>()).add(e.address());
            }
        }
        return out;
    }

    /** The switch (its upstream port's address) a device is under, or null. */
    public static String switchOf(PcieEndpoint e) {
        List<String> p = e.path().orElse(List.of());
        return p.size() >= 3 ? p.get(2) : null;
    }
}
