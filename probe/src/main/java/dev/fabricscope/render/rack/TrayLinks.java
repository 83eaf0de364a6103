package dev.fabricscope.render.rack;

import dev.fabricscope.cluster.NodeSummary;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One GPU's NVLinks as the rack drawing bundles them: how many the GPU has, how many are up, how many of those reach a
 * switch, and the nominal rate of the links that are up.
 *
 * @param gpu          0-based index in the tray's PCI order
 * @param links        links the GPU reports, or -1 when only the cluster summary was read (no per-link readings)
 * @param up           links whose state reads active
 * @param toSwitch     active links whose far end is an NVSwitch, or -1 when not known
 * @param gbps         nominal GB/s per direction of the active links (one value), or null when unknown or mixed
 * @param rateNote     why {@code gbps} is null ("mixed: 25, 50"), or null
 * @param generation   NVLink generation of the active links, or 0 when unknown
 */
public record TrayLinks(int gpu, int links, int up, int toSwitch, Double gbps, String rateNote, int generation) {

    /** The links of every GPU of {@code s}. */
    public static List<TrayLinks> of(MachineSnapshot s) {
        List<TrayLinks> out = new java.util.ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            out.add(of(i, s.gpus().get(i)));
        }
        return out;
    }

    static TrayLinks of(int index, Gpu g) {
        int up = 0;
        int toSwitch = 0;
        Set<Double> rates = new TreeSet<>();
        Set<Integer> generations = new TreeSet<>();
        boolean rateUnknown = false;
        for (NvLink l : g.nvLinks()) {
            if (!Boolean.TRUE.equals(l.active().value())) {
                continue;
            }
            up++;
            if (NvLink.REMOTE_SWITCH.equals(l.remoteType().value())) {
                toSwitch++;
            }
            if (l.gbpsPerDirection().isPresent() && l.gbpsPerDirection().value() > 0) {
                rates.add(l.gbpsPerDirection().value());
            } else {
                rateUnknown = true;
            }
            if (l.generation().isPresent()) {
                generations.add(l.generation().value());
            }
        }
        return of(index, g.nvLinks().size(), up, toSwitch, rates, rateUnknown, generations);
    }

    /** One GPU's links from their counts, the distinct rates and generations of the active ones. */
    public static TrayLinks of(int index, int links, int up, int toSwitch, Set<Double> rates, boolean rateUnknown,
                               Set<Integer> generations) {
        Double gbps = rates.size() == 1 && !rateUnknown ? rates.iterator().next() : null;
        String note = up == 0 ? null : rates.size() > 1 ? "mixed rates " + rates : rateUnknown ? "rate not read" : null;
        return new TrayLinks(index, links, up, toSwitch, gbps, note, generations.size() == 1 ? generations.iterator().next() : 0);
    }

    /** What the cluster summary alone holds: active links per GPU, no link count or rate. */
    public static List<TrayLinks> ofSummary(NodeSummary s) {
        List<TrayLinks> out = new java.util.ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            out.add(new TrayLinks(i, -1, s.gpus().get(i).activeLinks(), -1, null, "per-link readings not read", 0));
        }
        return out;
    }

    /** Links that do not read active (0 when the link count is unknown). */
    public int down() {
        return links < 0 ? 0 : links - up;
    }
}
