package dev.fabricscope.render;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.NicPlacement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The node-check parts of the text view: NICs, NVLink error counters, GPU health, services. Empty for old snapshots. */
public final class NodeText {

    private NodeText() {
    }

    public static String render(MachineSnapshot s) {
        StringBuilder sb = new StringBuilder();
        String nics = nics(s);
        if (!nics.isEmpty()) {
            sb.append('\n').append(nics);
        }
        String errors = linkErrors(s);
        if (!errors.isEmpty()) {
            sb.append('\n').append(errors);
        }
        String health = health(s);
        if (!health.isEmpty()) {
            sb.append('\n').append(health);
        }
        String services = services(s);
        if (!services.isEmpty()) {
            sb.append('\n').append(services);
        }
        return sb.toString();
    }

    /** Whether a reading is the placeholder of a snapshot made before it was read. */
    public static boolean notRead(Reading<?> r) {
        Missing m = r.missing();
        return m != null && m.kind() == Missing.Kind.NOT_APPLICABLE && m.call() == null && m.detail() != null
                && m.detail().endsWith("not read");
    }

    public static String nics(MachineSnapshot s) {
        NodeInfo n = s.node();
        if (notRead(n.nics())) {
            return "";
        }
        if (!n.nics().isPresent()) {
            return "NICs: unknown — " + n.nics().missing().describe() + "\n";
        }
        List<Nic> all = n.nics().value();
        if (all.isEmpty()) {
            return "NICs: none (no RDMA adapter under /sys/class/infiniband, no PCI network interface)\n";
        }
        TextTable t = new TextTable("NIC", "Name", "RDMA", "Adapter", "PCI", "NUMA", "Ports (state, rate)", "Nearest GPU");
        List<Nic> rdma = n.rdmaNics();
        for (Nic nic : all) {
            int k = rdma.indexOf(nic);
            t.row(k >= 0 ? "NIC" + k : "-", nic.name(), nic.rdma() ? "yes" : "no", nic.model().shortDisplay(), nic.address().shortDisplay(),
                    nic.numaNode().shortDisplay(), NicPlacement.ports(nic), NicPlacement.nearestGpu(s, nic));
        }
        return "NICs (" + rdma.size() + " RDMA):\n" + t.render();
    }

    public static String linkErrors(MachineSnapshot s) {
        boolean any = s.gpus().stream().flatMap(g -> g.activeLinks().stream()).anyMatch(l -> !notRead(l.errors().replay()));
        if (!any) {
            return "";
        }
        StringBuilder sb = new StringBuilder("NVLink error counters (replay, recovery, CRC flit, CRC data, ECC data; ! = non-zero):\n");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            sb.append("  GPU").append(i).append(": ").append(gpuErrorSummary(g)).append('\n');
            for (NvLink l : g.activeLinks()) {
                List<String> nz = l.errors().nonZero();
                if (!nz.isEmpty()) {
                    sb.append("    ! link ").append(l.index()).append(": ").append(String.join(", ", nz)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** {@code 18 links: replay 0, recovery 0, CRC flit 0, CRC data 95 on 15 links, ECC data 150 on 16 links}. */
    public static String gpuErrorSummary(Gpu g) {
        List<NvLink> active = g.activeLinks();
        if (active.isEmpty()) {
            return "no active links";
        }
        List<String> parts = new ArrayList<>();
        for (int c = 0; c < 5; c++) {
            String name = null;
            long sum = 0;
            int links = 0;
            int unread = 0;
            Missing why = null;
            for (NvLink l : active) {
                NvLinkErrors.Counter counter = l.errors().counters().get(c);
                name = counter.name();
                if (counter.value().isPresent()) {
                    sum += counter.value().value();
                    links += counter.value().value() != 0 ? 1 : 0;
                } else {
                    unread++;
                    why = counter.value().missing();
                }
            }
            if (unread == active.size()) {
                parts.add(name + " " + (why.kind() == Missing.Kind.UNSUPPORTED ? "N/S" : "?"));
            } else {
                parts.add(sum == 0 ? name + " 0" : "!" + name + " " + sum + " on " + links + " link" + (links == 1 ? "" : "s"));
            }
        }
        return active.size() + " links: " + String.join(", ", parts);
    }

    public static String health(MachineSnapshot s) {
        if (s.gpus().stream().allMatch(g -> notRead(g.health().eccEnabled()))) {
            return "";
        }
        TextTable t = new TextTable("GPU", "ECC", "Volatile corr/unc", "Aggregate corr/unc", "Remapped rows", "Retired pages",
                "Clocks events", "Power limit", "PCIe", "Recovery", "Persistence");
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            GpuHealth h = g.health();
            t.row("GPU" + i, h.eccEnabled().isPresent() ? (h.eccEnabled().value() ? "on" : "off") : h.eccEnabled().shortDisplay(),
                    h.eccVolatileCorrected().shortDisplay() + "/" + h.eccVolatileUncorrected().shortDisplay(),
                    h.eccAggregateCorrected().shortDisplay() + "/" + h.eccAggregateUncorrected().shortDisplay(),
                    remapped(h.remappedRows()),
                    h.retiredPagesSingleBit().shortDisplay() + "/" + h.retiredPagesDoubleBit().shortDisplay(),
                    h.clocksEventReasons().isPresent() ? (h.clocksEventReasons().value().isEmpty() ? "none"
                            : String.join(", ", h.clocksEventReasons().value())) : h.clocksEventReasons().shortDisplay(),
                    h.powerLimitWatts().isPresent() ? String.format(Locale.ROOT, "%.0f W", h.powerLimitWatts().value())
                            : h.powerLimitWatts().shortDisplay(),
                    h.pcieLinkCurrent().shortDisplay() + (h.pcieLinkMax().isPresent() && !h.pcieLinkMax().value().equals(h.pcieLinkCurrent().value())
                            ? " (max " + h.pcieLinkMax().value() + ")" : ""),
                    h.recoveryAction().shortDisplay(), SnapshotText.yn(g.persistenceMode()));
        }
        return "GPU health:\n" + t.render();
    }

    public static String remapped(Reading<GpuHealth.RemappedRows> r) {
        if (!r.isPresent()) {
            return r.shortDisplay();
        }
        GpuHealth.RemappedRows v = r.value();
        return v.correctable() + " corr, " + v.uncorrectable() + " unc" + (v.pending() ? ", pending" : "")
                + (v.failureOccurred() ? ", FAILED" : "");
    }

    /**
     * Where a fabric manager not seen here runs: in an MNNVL domain on the switch trays; with the GPUs passed through to a
     * VM on the host, out of the VM's sight (a fabric state COMPLETED says it has registered these GPUs). Empty otherwise.
     */
    static String whereItRuns(MachineSnapshot s, NodeInfo.ServiceState v) {
        if (!"nvidia-fabricmanager".equals(v.name()) || "running".equals(v.state()) || s.gpus().isEmpty()) {
            return "";
        }
        if (s.gpus().stream().allMatch(g -> g.fabric().inMnnvlDomain())) {
            // MNNVL User Guide 1.1, §1.1.6.1: the NMX-Controller on the NVLink switch trays manages the fabric
            return " — an MNNVL domain: its fabric is managed on the NVLink switch trays (NMX-Controller), not on this node";
        }
        boolean passThrough = s.gpus().stream().allMatch(g -> "Pass-Through".equals(g.virtualizationMode().value()));
        if (!passThrough) {
            return "";
        }
        boolean registered = s.gpus().stream().anyMatch(g -> FabricInfo.COMPLETED.equals(g.fabric().state().value()));
        return " — GPUs passed through to a VM: the fabric manager runs on the host"
                + (registered ? ", and it has registered them (fabric state COMPLETED)" : "");
    }

    public static String services(MachineSnapshot s) {
        List<NodeInfo.ServiceState> list = s.node().services();
        if (list.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Services:\n");
        for (NodeInfo.ServiceState v : list) {
            sb.append("  ").append(v.name()).append(": ").append(v.state()).append(" (").append(v.evidence()).append(")")
                    .append(whereItRuns(s, v)).append("\n");
        }
        return sb.toString();
    }
}
