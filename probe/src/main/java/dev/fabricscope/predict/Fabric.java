package dev.fabricscope.predict;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.topology.NvLinkSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cost model reads of a machine for one deployment. A figure the snapshot does not hold is null, with the
 * reason in {@code unknowns}; the model then gives no time for what needs it.
 *
 * @param worldSize       ranks of the all-reduce (TP)
 * @param nodes           nodes it spans
 * @param smTimes10       compute capability × 10 (90 for 9.0), or 0 when unknown
 * @param nvlinks         active NVLinks per GPU (the fewest of any GPU), or null when not readable
 * @param linkGBps        data bandwidth per link per direction, GB/s (NVLink4 25), or null
 * @param nvswitch        the GPUs meet at NVSwitches (else direct NVLink or PCIe)
 * @param pcieGBps        PCIe data bandwidth per direction of the slowest GPU's link (its maximum), or null
 * @param pcieLink        that link as read, e.g. {@code Gen5 x16}, or null
 * @param multicast       every GPU has CUDA multicast (NVLS, multimem)
 * @param unknowns        why a figure is missing, one line each
 */
public record Fabric(int worldSize, int nodes, int smTimes10, Integer nvlinks, Double linkGBps, boolean nvswitch,
                     Double pcieGBps, String pcieLink, boolean multicast, List<String> unknowns) {

    public Fabric {
        unknowns = List.copyOf(unknowns);
    }

    /** PCIe data rate per lane per direction, GB/s, after line encoding (PCI-SIG base specs 3.0–6.0). */
    static final double[] PCIE_LANE_GBPS = {0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
    static final String PCIE_SRC = "PCI-SIG PCIe base specifications: 8/16/32/64 GT/s per lane (Gen3-6), 128b/130b (Gen3-5), "
            + "FLIT 242/256 (Gen6)";
    private static final Pattern PCIE = Pattern.compile("Gen\\s*(\\d)\\s*x\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

    /** Whether the GPUs of a node talk over NVLink. */
    public boolean nvlink() {
        return nvlinks != null && nvlinks > 0 && linkGBps != null && linkGBps > 0;
    }

    /** NVLink data bandwidth per GPU per direction (links × rate), GB/s, or null. */
    public Double nvlinkGBps() {
        return nvlink() ? nvlinks * linkGBps : null;
    }

    /** GPUs per node. */
    public int perNode() {
        return Math.max(1, worldSize / Math.max(1, nodes));
    }

    /**
     * Reads {@code s} for a deployment of {@code worldSize} ranks over {@code nodes} nodes; {@code nvswitch} and
     * {@code multicast} are the advisor's facts for the machine (what it derived, or was told to assume).
     */
    public static Fabric of(MachineSnapshot s, int worldSize, int nodes, boolean nvswitch, boolean multicast) {
        return of(s, worldSize, nodes, nvswitch, multicast, true);
    }

    /**
     * As {@link #of(MachineSnapshot, int, int, boolean, boolean)}; where {@code allNvlink} is false (some GPU pairs
     * meet only over PCIe, e.g. NVLink bridges joining pairs) an all-reduce over more than two GPUs is priced over PCIe.
     */
    public static Fabric of(MachineSnapshot s, int worldSize, int nodes, boolean nvswitch, boolean multicast, boolean allNvlink) {
        List<String> unknowns = new ArrayList<>();
        int sm = 0;
        Integer links = null;
        Double rate = null;
        Double pcie = null;
        String pcieText = null;
        List<Gpu> gpus = s == null ? List.of() : s.gpus();
        for (Gpu g : gpus) {
            double cc = g.computeCapabilityNumber();
            if (!Double.isNaN(cc)) {
                sm = sm == 0 ? (int) Math.round(cc * 10) : Math.min(sm, (int) Math.round(cc * 10));
            }
            long readable = g.nvLinks().stream().filter(l -> l.active().isPresent()).count();
            int active = (int) g.nvLinks().stream().filter(l -> Boolean.TRUE.equals(l.active().value())).count();
            if (!g.nvLinks().isEmpty() && readable == 0) {
                unknowns.add("NVLink state of " + g.shortName() + " not readable ("
                        + g.nvLinks().get(0).active().display() + ")");
                links = null;
                rate = null;
                break;
            }
            links = links == null ? active : Math.min(links, active);
            for (NvLink l : g.activeLinks()) {
                double r = l.gbpsPerDirection().isPresent() ? l.gbpsPerDirection().value()
                        : NvLinkSpecs.gbpsPerLinkPerDirection(cc);
                rate = rate == null ? r : Math.min(rate, r);
            }
            String max = g.health().pcieLinkMax().isPresent() ? g.health().pcieLinkMax().value() : null;
            Matcher m = max == null ? null : PCIE.matcher(max);
            if (m != null && m.find()) {
                int gen = Integer.parseInt(m.group(1));
                int width = Integer.parseInt(m.group(2));
                if (gen > 0 && gen < PCIE_LANE_GBPS.length) {
                    double bw = PCIE_LANE_GBPS[gen] * width;
                    if (pcie == null || bw < pcie) {
                        pcie = bw;
                        pcieText = "Gen" + gen + " x" + width;
                    }
                }
            }
        }
        if (gpus.isEmpty()) {
            unknowns.add("the snapshot holds no GPU");
        }
        if (links != null && links == 0) {
            links = null;
        }
        if (links != null && !allNvlink && worldSize > 2) {
            unknowns.add("not every GPU pair is NVLink-connected: " + worldSize + " ranks priced over PCIe");
            links = null;
        }
        if (pcie == null && !gpus.isEmpty()) {
            unknowns.add("PCIe link generation and width not read");
        }
        if (sm == 0 && !gpus.isEmpty()) {
            unknowns.add("compute capability not read");
        }
        return new Fabric(worldSize, Math.max(1, nodes), sm, links, links == null ? null : rate, nvswitch, pcie, pcieText,
                multicast, unknowns);
    }

    /** One line of what was read: {@code 2 ranks on 1 node · 18 NVLinks × 25 GB/s via NVSwitch · PCIe Gen5 x16}. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(worldSize).append(worldSize == 1 ? " rank" : " ranks").append(" on ").append(nodes)
                .append(nodes == 1 ? " node" : " nodes");
        if (nvlink()) {
            sb.append(String.format(Locale.ROOT, " · %d NVLinks × %s GB/s %s", nvlinks, trim(linkGBps),
                    nvswitch ? "via NVSwitch" : "direct"));
        } else {
            sb.append(" · no NVLink read");
        }
        sb.append(pcieLink == null ? " · PCIe not read" : " · PCIe " + pcieLink);
        sb.append(multicast ? " · multicast" : " · no multicast");
        return sb.toString();
    }

    static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
