package dev.fabricscope.topology;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
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

/** Derives NVSwitches and GPU-to-GPU NVLink counts from the per-link readings. Pure: no native calls. */
public final class Topology {

    private Topology() {
    }

    static final String UNKNOWN_SWITCH = "unknown";

    /** Distinct far-end switch addresses; links to switches without a PCI address are pooled into one "unknown" switch. */
    public static List<NvSwitch> switches(List<Gpu> gpus) {
        Map<String, Map<String, Integer>> bySwitch = new TreeMap<>();
        Map<String, PciAddress> addresses = new LinkedHashMap<>();
        for (Gpu g : gpus) {
            for (NvLink l : g.activeLinks()) {
                if (!NvLink.REMOTE_SWITCH.equals(l.remoteType().value())) {
                    continue;
                }
                String key = l.remotePci().isPresent() ? l.remotePci().value().toString() : UNKNOWN_SWITCH;
                if (l.remotePci().isPresent()) {
                    addresses.put(key, l.remotePci().value());
                }
                bySwitch.computeIfAbsent(key, k -> new TreeMap<>()).merge(g.pci().toString(), 1, Integer::sum);
            }
        }
        List<String> keys = new ArrayList<>(bySwitch.keySet());
        keys.sort(Comparator.comparing((String k) -> k.equals(UNKNOWN_SWITCH)).thenComparing(k -> k));
        List<NvSwitch> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            Reading<PciAddress> pci = addresses.containsKey(k) ? Reading.of(addresses.get(k))
                    : Reading.missing(Missing.notApplicable("switch not PCI-visible from this OS; switch count unknown"));
            out.add(new NvSwitch("NVS" + i, pci, bySwitch.get(k)));
        }
        return out;
    }

    /** Where a switch without a readable address is: {@code not visible from this VM} when the GPUs are passed through. */
    public static String hiddenSwitchWhere(MachineSnapshot s) {
        boolean vm = s.gpus().stream().anyMatch(g -> "Pass-Through".equals(g.virtualizationMode().value())
                || "vGPU".equalsIgnoreCase(String.valueOf(g.virtualizationMode().value())));
        return vm ? "not visible from this VM" : "address not readable";
    }

    /** Active links of all GPUs that end at switches whose address NVML answered as all-ones (hidden by a VM). */
    public static long hiddenSwitchLinks(List<Gpu> gpus) {
        return gpus.stream().flatMap(g -> g.activeLinks().stream()).filter(Topology::endsAtHiddenSwitch).count();
    }

    /** A switch link whose far-end address was answered but not usable (the raw answer is kept in the reading). */
    public static boolean endsAtHiddenSwitch(NvLink l) {
        return NvLink.REMOTE_SWITCH.equals(l.remoteType().value()) && !l.remotePci().isPresent()
                && l.remotePci().missing().raw() != null;
    }

    /** Active links from {@code g} that end at a switch. */
    public static int switchLinks(Gpu g) {
        return (int) g.activeLinks().stream().filter(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value())).count();
    }

    /**
     * NVLinks between two GPUs as {@code nvidia-smi topo -m} counts them: direct links plus, when both reach
     * the NVSwitch fabric, the smaller of their switch link counts (all switches of a board are one fabric).
     * Missing when neither GPU's link state could be read.
     */
    public static Reading<Integer> nvLinksBetween(Gpu a, Gpu b) {
        if (!linksKnown(a) && !linksKnown(b)) {
            Missing why = firstMissing(a);
            return Reading.missing(why != null ? why : Missing.notApplicable("NVLink state unknown"));
        }
        int direct = 0;
        for (NvLink l : a.activeLinks()) {
            if (NvLink.REMOTE_GPU.equals(l.remoteType().value()) && l.remotePci().isPresent()
                    && l.remotePci().value().sameDevice(b.pci())) {
                direct++;
            }
        }
        return Reading.of(direct + Math.min(switchLinks(a), switchLinks(b)));
    }

    /** Whether any link state of the GPU answered (or it has no links at all). */
    public static boolean linksKnown(Gpu g) {
        if (g.nvLinks().isEmpty()) {
            return g.nvLinkCount().isPresent();
        }
        return g.nvLinks().stream().anyMatch(l -> l.active().isPresent());
    }

    private static Missing firstMissing(Gpu g) {
        if (!g.nvLinkCount().isPresent() && g.nvLinks().isEmpty()) {
            return g.nvLinkCount().missing();
        }
        return g.nvLinks().stream().filter(l -> !l.active().isPresent()).map(l -> l.active().missing()).findFirst().orElse(null);
    }

    /** The {@code nvidia-smi topo -m} cell: {@code NV#} when NVLink-connected, else the PCIe letter. */
    public static Reading<String> letter(Reading<Integer> nvLinks, Reading<String> pcieLevel) {
        if (nvLinks.isPresent() && nvLinks.value() > 0) {
            return Reading.of("NV" + nvLinks.value());
        }
        return pcieLevel;
    }
}
