package dev.fabricscope.render.fabric;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.render.NodeText;
import dev.fabricscope.render.SignalText;
import dev.fabricscope.render.Units;
import dev.fabricscope.topology.FabricVerdict;
import dev.fabricscope.topology.NvLinkCounters;
import dev.fabricscope.topology.PcieTopology;
import dev.fabricscope.render.fabric.FabricGraph.Detail;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The details-pane rows of issue 19 for a GPU: NVLink error counters (a value starting with {@code !} is past a threshold
 * DCGM's health check sets, {@link NvLinkCounters}, and shown highlighted; corrected counts are listed plain), health, and the RDMA NICs nearest to it; for an RDMA NIC: adapter, place, and each port's link
 * state and rate (a port that is not up starts with {@code !}). Nothing for snapshots made before these were read.
 */
public final class NodeDetails {

    /** Values starting with this are past a threshold (a must-not-rise counter, a port down): the views highlight them. */
    public static final String NON_ZERO = "!";

    private NodeDetails() {
    }

    public static List<Detail> gpu(MachineSnapshot s, Gpu g) {
        List<Detail> d = new ArrayList<>();
        boolean countersRead = g.activeLinks().stream().anyMatch(l -> !NodeText.notRead(l.errors().replay()));
        if (countersRead) {
            // highlighted only past a cited threshold (NvLinkCounters); the raw counts stay, plain, one row per link
            boolean past = NvLinkCounters.of(g).verdict() == NvLinkCounters.Verdict.PAST_THRESHOLD;
            d.add(new Detail("NVLink errors", (past ? NON_ZERO + " " : "") + NodeText.gpuErrorSummary(g)));
            for (NvLink l : g.activeLinks()) {
                List<String> nz = l.errors().nonZero();
                if (!nz.isEmpty()) {
                    d.add(new Detail("Link " + l.index() + " errors", (mustNotRise(l) ? NON_ZERO + " " : "") + String.join(", ", nz)));
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

    /** The fabric verdict of one GPU and each NVLink signal (none for snapshots made before they were read). */
    static List<Detail> signals(MachineSnapshot s, Gpu g) {
        List<Detail> d = new ArrayList<>();
        int i = s.indexOf(g.pci());
        if (i >= 0) {
            FabricVerdict v = FabricVerdict.of(s).get(i);
            if (v.state() != FabricVerdict.State.NOT_APPLICABLE) {
                d.add(new Detail("Fabric verdict", (v.state() == FabricVerdict.State.NOT_UP ? NON_ZERO + " " : "")
                        + v.state().name() + ": " + v.summary()));
                d.add(new Detail("Verdict read", String.join("; ", v.evidence())));
            }
        }
        NvLinkSignals sig = g.signals();
        if (NodeText.notRead(sig.bwMode())) {
            return d;
        }
        String system = SignalText.cell(sig.systemBwMode(), String::valueOf);
        d.add(new Detail("NVLink BW (system)", (sig.systemBwMode().isPresent() && !NvLinkSignals.SYSTEM_BW_FULL.equals(system)
                ? NON_ZERO + " " : "") + system));
        String bw = SignalText.bwMode(sig.bwMode());
        d.add(new Detail("NVLink BW mode", (bw.contains("REDUCED") ? NON_ZERO + " " : "") + bw
                + ", supported " + SignalText.list(sig.supportedBwModes())));
        d.add(new Detail("NVLE", SignalText.nvle(sig.nvle())));
        d.add(new Detail("NVLink firmware", SignalText.list(sig.firmware())));
        String gfm = SignalText.cell(sig.gfmState(), String::valueOf);
        d.add(new Detail("GFM", (NvLinkSignals.GFM_DISCONNECTED.equals(gfm) ? NON_ZERO + " " : "") + gfm));
        d.add(new Detail("Fabric cliques (v4)", SignalText.list(sig.fabricCliques())));
        d.add(new Detail("Link states", SignalText.linkStates(sig)));
        d.add(new Detail("Effective BER", SignalText.ber(sig, false)));
        d.add(new Detail("Symbol BER", SignalText.ber(sig, true)));
        return d;
    }

    /** Whether a link has a count DCGM fails on any rise (replay, recovery; ECC data on NVLink 5). */
    private static boolean mustNotRise(NvLink l) {
        var counters = l.errors().counters();
        for (int c = 0; c < counters.size(); c++) {
            if (NvLinkCounters.classOf(c, l.generation().value()) == NvLinkCounters.CounterClass.MUST_NOT_RISE
                    && counters.get(c).value().orElse(0L) > 0) {
                return true;
            }
        }
        return false;
    }

    /** The details of an RDMA NIC box: adapter, place in the PCIe tree, each port's state and rate, the GPUs' letters. */
    public static List<Detail> nic(MachineSnapshot s, Nic n, java.util.Map<String, String> labels) {
        List<Detail> d = new ArrayList<>();
        d.add(new Detail("NIC", n.name() + (n.netDevices().isEmpty() ? "" : " (" + String.join(", ", n.netDevices()) + ")")));
        d.add(new Detail("Adapter", n.model().display()));
        d.add(new Detail("PCI address", n.address().display()));
        d.add(new Detail("NUMA node", n.numaNode().display()));
        d.add(new Detail("Firmware", n.firmware().display()));
        d.add(new Detail("PCIe path", n.pciePath().isPresent() ? String.join(" → ", n.pciePath().value()) : n.pciePath().display()));
        if (n.ports().isEmpty()) {
            d.add(new Detail("Ports", NON_ZERO + " none listed"));
        }
        for (Nic.Port p : n.ports()) {
            d.add(new Detail("Port " + p.port(), port(p)));
        }
        List<String> letters = new ArrayList<>();
        for (Gpu g : s.gpus()) {
            letters.add(labels.getOrDefault(g.pci().toString(), g.pci().toString()) + " " + PcieTopology.gpuToNic(s, g, n).orElse("?"));
        }
        if (!letters.isEmpty()) {
            d.add(new Detail("GPUs (topo -m)", String.join(", ", letters)));
        }
        return d;
    }

    /** {@code ACTIVE (LinkUp), 400 Gb/sec (4X NDR), InfiniBand}; starts with {@code !} when the link is not up. */
    static String port(Nic.Port p) {
        String state = p.state().display() + (p.physState().isPresent() ? " (" + p.physState().value() + ")" : "");
        return (p.up() ? "" : NON_ZERO + " ") + state + ", " + p.rate().display() + ", " + p.linkLayer().display();
    }

    /** Every port's link in one line: {@code port 1: ACTIVE (LinkUp), 400 Gb/sec (4X NDR), InfiniBand}. */
    public static String nicLinks(Nic n) {
        if (n.ports().isEmpty()) {
            return "no port listed";
        }
        return n.ports().stream().map(p -> "port " + p.port() + ": " + port(p).replace(NON_ZERO + " ", ""))
                .collect(java.util.stream.Collectors.joining("; "));
    }

    private static final java.util.regex.Pattern RATE = java.util.regex.Pattern.compile("([0-9.]+)\\s*([GM])b/s(ec)?");

    /** The fastest port's rate and link layer, short enough for the box: {@code 400 Gb/s IB}, {@code 25 Gb/s Eth}. */
    public static String nicRateShort(Nic n) {
        double best = -1;
        String layer = "";
        for (Nic.Port p : n.ports()) {
            java.util.regex.Matcher m = RATE.matcher(p.rate().orElse(""));
            if (m.find()) {
                double gbps = Double.parseDouble(m.group(1)) / (m.group(2).equals("M") ? 1000 : 1);
                if (gbps > best) {
                    best = gbps;
                    String l = p.linkLayer().orElse("");
                    layer = l.equals("InfiniBand") ? " IB" : l.equals("Ethernet") ? " Eth" : "";
                }
            }
        }
        return best < 0 ? "rate ?" : Units.gbps(best) + " Gb/s" + layer;
    }
}
