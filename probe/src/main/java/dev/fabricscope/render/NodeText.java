package dev.fabricscope.render;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.FabricVerdict;
import dev.fabricscope.topology.NicPlacement;
import dev.fabricscope.topology.NvLinkCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The node-check parts of the text view: NICs, NVLink error counters, GPU health, services. Empty for old snapshots. */
public final class NodeText {

    private NodeText() {
    }

    public static String render(MachineSnapshot s) {
        return render(s, false);
    }

    /** As {@link #render(MachineSnapshot)}; {@code wide} adds each link's non-zero counters. */
    public static String render(MachineSnapshot s, boolean wide) {
        s = dev.fabricscope.text.LongValues.cut(s);
        StringBuilder sb = new StringBuilder();
        String nics = nics(s);
        if (!nics.isEmpty()) {
            sb.append('\n').append(nics);
        }
        String errors = linkErrors(s, wide);
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

    /** The counters, one line per GPU (see {@link #linkErrors(MachineSnapshot, boolean)}). */
    public static String linkErrors(MachineSnapshot s) {
        return linkErrors(s, false);
    }

    /**
     * The NVLink error counters as DCGM's health check classes them ({@link NvLinkCounters}): one line per GPU with its
     * verdict, link ranges and the counts; with {@code wide}, each link's non-zero counts follow.
     */
    public static String linkErrors(MachineSnapshot s, boolean wide) {
        boolean any = s.gpus().stream().flatMap(g -> g.activeLinks().stream()).anyMatch(l -> !notRead(l.errors().replay()));
        if (!any) {
            return "";
        }
        StringBuilder sb = new StringBuilder("NVLink error counters (since the driver loaded; classed as DCGM's health check "
                + "classes them):\n");
        boolean corrected = false;
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            NvLinkCounters.GpuCounters c = NvLinkCounters.of(g);
            corrected |= c.verdict() == NvLinkCounters.Verdict.CORRECTED_ONLY;
            sb.append("  GPU").append(i).append(": ").append(gpuErrorSummary(g)).append('\n');
            if (wide) {
                for (NvLink l : g.activeLinks()) {
                    List<String> nz = l.errors().nonZero();
                    if (!nz.isEmpty()) {
                        sb.append("    link ").append(l.index()).append(": ").append(String.join(", ", nz)).append('\n');
                    }
                }
            }
        }
        if (corrected) {
            sb.append("  corrected: errors the link fixed itself, no finding below DCGM's CRC fail rate (")
                    .append(String.format(Locale.ROOT, "%.0f", NvLinkCounters.DCGM_CRC_FAIL_PER_SECOND))
                    .append("/s); nvidia-smi nvlink -e shows\n    replay, recovery and CRC flit (its \"CRC Errors\") only")
                    .append(wide ? "" : "; each link's counts: --wide, --json").append('\n');
        }
        return sb.toString();
    }

    /**
     * A GPU's counters in one line, verdict first: {@code ok — links 0–17: replay 0, recovery 0, CRC flit 0; corrected:
     * CRC data 111 on links 0–3, 5–17, ECC data 164 on links 0–3, 5–17}; {@code check — replay 4 on link 3 (…)} past a
     * threshold.
     */
    public static String gpuErrorSummary(Gpu g) {
        NvLinkCounters.GpuCounters c = NvLinkCounters.of(g);
        if (c.activeLinks().isEmpty()) {
            return "no active links";
        }
        List<String> judged = new ArrayList<>();
        List<NvLinkCounters.Total> fixed = new ArrayList<>();
        for (NvLinkCounters.Total t : c.totals()) {
            String name = t.rule().name();
            boolean judgedClass = t.counterClass() == NvLinkCounters.CounterClass.MUST_NOT_RISE || t.rule().name().equals("CRC flit");
            if (t.unread() == c.activeLinks().size()) {
                judged.add(name + " " + (t.why() != null && t.why().kind() == Missing.Kind.UNSUPPORTED ? "N/S" : "?"));
            } else if (t.sum() != 0 && !judgedClass) {
                fixed.add(t);
            } else {
                judged.add(name + " " + t.sum() + (t.sum() == 0 || t.links().equals(c.activeLinks()) ? ""
                        : " on " + NvLinkCounters.linkRanges(t.links())));
            }
        }
        boolean sameLinks = fixed.stream().map(NvLinkCounters.Total::links).distinct().count() == 1;
        List<String> fixedText = new ArrayList<>();
        for (NvLinkCounters.Total t : fixed) {
            boolean everywhere = t.links().equals(c.activeLinks());
            fixedText.add(t.rule().name() + " " + t.sum() + (sameLinks || everywhere ? "" : " on " + NvLinkCounters.linkRanges(t.links())));
        }
        if (sameLinks && !fixed.get(0).links().equals(c.activeLinks())) {
            fixedText.set(fixedText.size() - 1, fixedText.get(fixedText.size() - 1) + " (" + NvLinkCounters.linkRanges(fixed.get(0).links()) + ")");
        }
        String verdict = switch (c.verdict()) {
            case CLEAN, CORRECTED_ONLY -> "ok";
            case PAST_THRESHOLD -> "check";
            case NOT_READ -> "not read";
        };
        String line = verdict + " — " + NvLinkCounters.linkRanges(c.activeLinks()) + ": " + String.join(", ", judged)
                + (fixed.isEmpty() ? "" : "; corrected: " + String.join(", ", fixedText));
        return c.reasons().isEmpty() ? line : line + " — " + String.join("; ", c.reasons());
    }

    /** What the GPU health table's short headers stand for. */
    static final String HEALTH_LEGEND = "(Vol, Agg c/u: ECC errors corrected/uncorrected since the driver loaded, in the GPU's life;"
            + " Retired s/d: pages\n retired after single/double-bit errors; Power: the power limit; Persist: persistence mode)\n";

    public static String health(MachineSnapshot s) {
        if (s.gpus().stream().allMatch(g -> notRead(g.health().eccEnabled()))) {
            return "";
        }
        TextTable t = new TextTable("GPU", "ECC", "Vol c/u", "Agg c/u", "Remapped rows", "Retired s/d", "Clocks events", "Power",
                "PCIe", "Recovery", "Persist");
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
                    h.recoveryAction().shortDisplay(), Units.yn(g.persistenceMode()));
        }
        return "GPU health:\n" + t.render() + HEALTH_LEGEND;
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
        for (String[] row : serviceRows(s)) {
            sb.append("  ").append(row[0]).append(": ").append(row[1]).append("\n");
        }
        return sb.toString();
    }

    /**
     * Each service shown, as {name, what is said of it}: its state and how it was told, where it runs when not here,
     * the fabric manager's version where read; NVLSM only where NVLink5 GPUs need it or it is there (the JSON keeps
     * it always). What {@code show}'s Services lines and the app's Services card say.
     */
    public static List<String[]> serviceRows(MachineSnapshot s) {
        List<String[]> rows = new ArrayList<>();
        for (NodeInfo.ServiceState v : s.node().services()) {
            if (NodeInfo.NVLSM.equals(v.name()) && !nvlsmMatters(s, v)) {
                continue;
            }
            String version = FabricVerdict.FABRIC_MANAGER.equals(v.name()) && s.node().fabricManagerVersion().isPresent()
                    ? ", version " + s.node().fabricManagerVersion().value() : "";
            rows.add(new String[] {v.name(), v.state() + " (" + v.evidence() + ")" + version + whereItRuns(s, v) + nvlsmNote(s, v)});
        }
        return rows;
    }

    /** NVLSM is worth a line where a GPU is NVLink5 with NVSwitches, or where it is installed or runs. */
    static boolean nvlsmMatters(MachineSnapshot s, NodeInfo.ServiceState v) {
        return "running".equals(v.state()) || Boolean.TRUE.equals(s.node().nvlsmInstalled().value())
                || s.gpus().stream().anyMatch(g -> FabricVerdict.nvLink5(g) && g.activeLinks().stream()
                .anyMatch(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value())));
    }

    private static String nvlsmNote(MachineSnapshot s, NodeInfo.ServiceState v) {
        if (!NodeInfo.NVLSM.equals(v.name())) {
            return "";
        }
        Boolean installed = s.node().nvlsmInstalled().value();
        String inst = installed == null ? ", installed: " + s.node().nvlsmInstalled().shortDisplay()
                : installed ? ", installed" : ", not installed";
        if ("running".equals(v.state()) || s.gpus().isEmpty()) {
            return inst;
        }
        if (s.gpus().stream().noneMatch(FabricVerdict::nvLink5)) {
            return inst + " — not needed: no NVLink5 GPU here";
        }
        if (s.gpus().stream().allMatch(g -> g.fabric().inMnnvlDomain())) {
            return inst + " — an MNNVL domain: NVLSM runs in NVOS on the NVLink switch trays";
        }
        if (s.gpus().stream().allMatch(g -> "Pass-Through".equals(g.virtualizationMode().value()))) {
            return inst + " — GPUs passed through to a VM: NVLSM runs with the fabric manager on the host";
        }
        return inst + (s.gpus().stream().anyMatch(g -> FabricInfo.COMPLETED.equals(g.fabric().state().value()))
                ? " — fabric COMPLETED: it ran where this probe cannot see its process"
                : " — NVLink5 fabric managers need it (siderolabs/extensions#717)");
    }
}
