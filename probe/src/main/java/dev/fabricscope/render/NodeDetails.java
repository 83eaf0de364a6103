package dev.fabricscope.render;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.probe.PcieTopology;
import dev.fabricscope.render.FabricGraph.Detail;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The details-pane rows of issue 19 for a GPU: NVLink error counters (a value starting with {@code !} is non-zero and
 * shown highlighted), health, and the RDMA NICs nearest to it. Nothing for snapshots made before these were read.
 */
public final class NodeDetails {

    /** Values starting with this are non-zero counters: the views highlight them. */
    public static final String NON_ZERO = "!";

    private NodeDetails() {
    }

    public static List<Detail> gpu(MachineSnapshot s, Gpu g) {
        List<Detail> d = new ArrayList<>();
        boolean countersRead = g.activeLinks().stream().anyMatch(l -> !NodeText.notRead(l.errors().replay()));
        if (countersRead) {
            String summary = NodeText.gpuErrorSummary(g);
            d.add(new Detail("NVLink errors", (summary.contains("!") ? NON_ZERO + " " : "") + summary.replace("!", "")));
            for (NvLink l : g.activeLinks()) {
                List<String> nz = l.errors().nonZero();
                if (!nz.isEmpty()) {
                    d.add(new Detail("Link " + l.index() + " errors", NON_ZERO + " " + String.join(", ", nz)));
                }
            }
        }
        GpuHealth h = g.health();
        if (!NodeText.notRead(h.eccEnabled())) {
            long unc = h.eccVolatileUncorrected().orElse(0L);
            d.add(new Detail("ECC", (unc > 0 ? NON_ZERO + " " : "") + h.eccEnabled().map(b -> b ? "on" : "off").display()
                    + ", volatile corrected/uncorrected " + h.eccVolatileCorrected().shortDisplay() + "/" + h.eccVolatileUncorrected().shortDisplay()
                    + ", aggregate " + h.eccAggregateCorrected().shortDisplay() + "/" + h.eccAggregateUncorrected().shortDisplay()));
            d.add(new Detail("Remapped rows", NodeText.remapped(h.remappedRows())));
            d.add(new Detail("Clocks events", h.clocksEventReasons().isPresent() ? (h.clocksEventReasons().value().isEmpty() ? "none"
                    : String.join(", ", h.clocksEventReasons().value())) : h.clocksEventReasons().display()));
            d.add(new Detail("Power limit", h.powerLimitWatts().isPresent() ? String.format(Locale.ROOT, "%.0f W", h.powerLimitWatts().value())
                    : h.powerLimitWatts().display()));
            d.add(new Detail("PCIe link", h.pcieLinkCurrent().display()));
            d.add(new Detail("Recovery action", h.recoveryAction().display()));
        }
        List<String> near = new ArrayList<>();
        for (Nic n : s.node().rdmaNics()) {
            String letter = PcieTopology.gpuToNic(s, g, n).orElse("?");
            if (letter.equals("PIX") || letter.equals("PXB")) {
                near.add(n.name() + " (" + letter + ", " + n.model().shortDisplay() + ")");
            }
        }
        if (!near.isEmpty()) {
            d.add(new Detail("Nearest NICs", String.join(", ", near)));
        }
        return d;
    }
}
