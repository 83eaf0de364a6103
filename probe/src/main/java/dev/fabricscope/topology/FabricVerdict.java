package dev.fabricscope.topology;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * "Links up, fabric not up" (issue 24): one verdict per GPU from its link states, fabric state and health mask, the
 * NVLink signals, the fabric manager's place and version, and, where a report holds a P2P check, the measured
 * bandwidth against the links' rated speed. The most reported fabric failure of 2026 is all links Active at full
 * speed while GPU-to-GPU traffic is dead or 10–100× slower with no error (Dstack-TEE/dstack#1167, NVIDIA/nccl#2329,
 * NVIDIA/gpu-operator#2511; reference/anchors-2026.md §2 #1): no single reading shows it, so the verdict names every
 * cause it can see and says {@code unknown} where a reading that could rule one out was not taken.
 *
 * @param gpu     index in the snapshot ({@code GPU<n>})
 * @param state   the verdict
 * @param summary one line, its point first
 * @param causes  named causes (empty unless {@link State#NOT_UP})
 * @param unread  readings that would have settled it but are missing (why the verdict is {@link State#UNKNOWN})
 * @param evidence what was read, shortest first
 */
public record FabricVerdict(int gpu, State state, String summary, List<String> causes, List<String> unread, List<String> evidence) {

    public enum State {
        /** Links active, fabric up where it applies, traffic state or a P2P measurement confirm it. */
        UP,
        /** A named cause stops traffic or slows it. */
        NOT_UP,
        /** Links active, nothing wrong read, but a reading that could show a cause is missing. */
        UNKNOWN,
        /** No NVLink to judge: none on the GPU, or hidden from this OS. */
        NOT_APPLICABLE
    }

    /**
     * A measured P2P copy from this GPU (the best of its pairs) and the pair it was measured on.
     *
     * @param uniGBps one-direction copy, GB/s
     * @param pair    {@code GPU0 → GPU1}
     */
    public record Measured(double uniGBps, String pair) {
    }

    /**
     * A measured rate under this share of the links' rated speed is "traffic dead or crawling": the 10–100× slowdown
     * of the reports above (a healthy NVLink4 copy reaches about 80% of it: 394.5 of 478.1 GB/s on the project's
     * 2×H200 capture, probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01-checks/p2p.json).
     */
    public static final double CRAWLING_SHARE = 0.1;

    public static final String FABRIC_MANAGER = "nvidia-fabricmanager";

    public FabricVerdict {
        causes = List.copyOf(causes);
        unread = List.copyOf(unread);
        evidence = List.copyOf(evidence);
    }

    /** Every GPU's verdict, without measurements. */
    public static List<FabricVerdict> of(MachineSnapshot s) {
        return of(s, Map.of());
    }

    /** @param measured per GPU index, its best measured P2P copy (from a report's P2P check) */
    public static List<FabricVerdict> of(MachineSnapshot s, Map<Integer, Measured> measured) {
        List<FabricVerdict> out = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            out.add(judge(s, i, measured.get(i)));
        }
        return out;
    }

    static FabricVerdict judge(MachineSnapshot s, int index, Measured measured) {
        Gpu g = s.gpus().get(index);
        List<String> causes = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        List<String> evidence = new ArrayList<>();
        List<NvLink> active = g.activeLinks();
        boolean hidden = !g.nvLinks().isEmpty() && g.nvLinks().stream()
                .allMatch(l -> !l.active().isPresent() && l.active().missing().kind() == Missing.Kind.UNSUPPORTED);
        if (active.isEmpty()) {
            String why = hidden ? "NVLink hidden from this OS (" + g.nvLinks().get(0).active().missing().describe() + ")"
                    : g.nvLinks().isEmpty() ? "no NVLink on this GPU (link count " + g.nvLinkCount().shortDisplay() + ")"
                    : "no active NVLink (" + g.nvLinks().size() + " links, none active)";
            State st = hidden || g.nvLinks().isEmpty() ? State.NOT_APPLICABLE : State.NOT_UP;
            if (st == State.NOT_UP) {
                causes.add("every link inactive");
            }
            evidence.add("fabric state " + g.fabric().state().shortDisplay());
            return new FabricVerdict(index, st, (st == State.NOT_UP ? "links down: " : "not applicable: ") + why, causes, unread, evidence);
        }
        NvLinkSignals sig = g.signals();
        boolean switched = active.stream().anyMatch(l -> NvLink.REMOTE_SWITCH.equals(l.remoteType().value()));
        evidence.add(active.size() + "/" + g.nvLinks().size() + " links active" + (switched ? " to NVSwitches" : " to GPUs"));
        linkStates(active, sig, causes, unread, evidence);
        bandwidthMode(sig, causes, evidence);
        if (NvLinkSignals.GFM_DISCONNECTED.equals(sig.gfmState().value())) {
            causes.add("GFM disconnected (fabric health mask: the Global Fabric Manager is not connected)");
        } else if (sig.gfmState().isPresent()) {
            evidence.add("GFM " + sig.gfmState().value());
        }
        if (switched) {
            fabric(g.fabric(), causes, unread, evidence);
            fabricManager(s, g, causes, evidence);
            nvlsm(s, g, causes, unread, evidence);
        } else {
            evidence.add("direct GPU links: no fabric manager needed (fabric state " + g.fabric().state().shortDisplay() + ")");
        }
        boolean trafficConfirmed = measured(g, active, measured, causes, evidence);
        if (trafficConfirmed) {
            unread.removeIf(u -> u.startsWith("link state"));
        }
        State st = !causes.isEmpty() ? State.NOT_UP : !unread.isEmpty() ? State.UNKNOWN : State.UP;
        String head = switch (st) {
            case UP -> "links up, fabric up";
            case NOT_UP -> "links up, fabric NOT up: " + String.join("; ", causes);
            case UNKNOWN -> "links up, fabric unknown: not read: " + String.join("; ", unread);
            case NOT_APPLICABLE -> "not applicable";
        };
        return new FabricVerdict(index, st, head, causes, unread, evidence);
    }

    /** Per-link state ({@code NVML_FI_DEV_NVLINK_GET_STATE}): SLEEP and unknown values are named, missing ones unread. */
    private static void linkStates(List<NvLink> active, NvLinkSignals sig, List<String> causes, List<String> unread, List<String> evidence) {
        List<Integer> sleeping = new ArrayList<>();
        List<Integer> inactive = new ArrayList<>();
        List<String> strange = new ArrayList<>();
        Missing why = null;
        int ok = 0;
        for (NvLink l : active) {
            NvLinkSignals.LinkSignal ls = sig.link(l.index());
            Reading<String> state = ls == null ? null : ls.state();
            if (state == null || !state.isPresent()) {
                if (state != null && state.missing().kind() == Missing.Kind.INVALID) {
                    strange.add(l.index() + "=" + state.missing().raw());
                } else if (why == null) {
                    why = state == null ? Missing.notApplicable("link state not read") : state.missing();
                }
                continue;
            }
            switch (state.value()) {
                case NvLinkSignals.LINK_ACTIVE -> ok++;
                case "SLEEP" -> sleeping.add(l.index());
                default -> inactive.add(l.index());
            }
        }
        if (!sleeping.isEmpty()) {
            causes.add("links " + ranges(sleeping) + " in SLEEP");
        }
        if (!inactive.isEmpty()) {
            causes.add("links " + ranges(inactive) + " INACTIVE by the state field though nvmlDeviceGetNvLinkState says active");
        }
        if (!strange.isEmpty()) {
            unread.add("link state values " + String.join(", ", strange) + " not in nvml.h 13.3.29 (NVML 615's"
                    + " ACTIVE_TRAFFIC_DISABLED has no value in any public header: raw value kept, traffic state unknown)");
        }
        if (ok == active.size()) {
            evidence.add("link state field ACTIVE on all " + ok + " (traffic not disabled)");
        } else if (why != null) {
            unread.add("link state field (" + shortWhy(why) + ")");
        }
    }

    private static void bandwidthMode(NvLinkSignals sig, List<String> causes, List<String> evidence) {
        Reading<String> system = sig.systemBwMode();
        if (system.isPresent() && !NvLinkSignals.SYSTEM_BW_FULL.equals(system.value())) {
            causes.add("machine-wide NVLink bandwidth mode " + system.value() + " (not FULL)");
        } else if (system.isPresent()) {
            evidence.add("machine-wide bandwidth mode " + system.value());
        }
        Reading<NvLinkSignals.BwMode> m = sig.bwMode();
        if (m.isPresent() && !m.value().best()) {
            causes.add("reduced-bandwidth mode " + m.value().mode() + " (not the best mode)");
        } else if (m.isPresent()) {
            evidence.add("bandwidth mode " + m.value().mode() + " (best)");
        } else {
            evidence.add("bandwidth mode: " + shortWhy(m.missing()));
        }
    }

    private static void fabric(FabricInfo f, List<String> causes, List<String> unread, List<String> evidence) {
        if (!f.state().isPresent()) {
            unread.add("fabric state (" + shortWhy(f.state().missing()) + ")");
            return;
        }
        String state = f.state().value();
        if (!FabricInfo.COMPLETED.equals(state)) {
            causes.add("fabric state " + state + " (the fabric manager has not finished registering this GPU)");
        } else if (f.status().isPresent() && !"NVML_SUCCESS".equals(f.status().value())) {
            causes.add("fabric COMPLETED with status " + f.status().value());
        } else {
            evidence.add("fabric COMPLETED (" + f.status().shortDisplay() + ")");
        }
        if (f.healthSummary().isPresent() && ("UNHEALTHY".equals(f.healthSummary().value())
                || "LIMITED_CAPACITY".equals(f.healthSummary().value()))) {
            causes.add("fabric health " + f.healthSummary().value());
        }
        if (f.healthMask().isPresent()) {
            long mask = f.healthMask().value();
            // nvml.h 13.3.29 NVML_GPU_FABRIC_HEALTH_MASK_*: 2-bit fields, 1 = TRUE; incorrect configuration 4 bits, 1 = none
            if ((mask & 0x3) == 1) {
                causes.add("health mask: bandwidth degraded");
            }
            if ((mask >>> 4 & 0x3) == 1) {
                causes.add("health mask: route unhealthy");
            }
            long config = mask >>> 8 & 0xf;
            if (config >= 2) {
                causes.add("health mask: incorrect configuration " + config);
            }
        }
    }

    /** Where the fabric manager runs, whether it runs, and whether its version matches the driver's. */
    private static void fabricManager(MachineSnapshot s, Gpu g, List<String> causes, List<String> evidence) {
        String virt = g.virtualizationMode().orElse(null);
        Optional<NodeInfo.ServiceState> fm = s.node().services().stream().filter(v -> FABRIC_MANAGER.equals(v.name())).findFirst();
        if (g.fabric().inMnnvlDomain()) {
            evidence.add("multi-node NVLink domain (cluster " + g.fabric().clusterUuid().value() + "): the fabric manager runs"
                    + " off this node, on the NVLink switch trays");
        } else if (virt != null && !"None".equals(virt)) {
            evidence.add(inVm(virt));
        } else if (virt == null) {
            evidence.add("fabric manager: where it runs is unknown (virtualization mode " + g.virtualizationMode().shortDisplay() + ")");
        } else if (fm.isPresent() && "not running".equals(fm.get().state())) {
            if (FabricInfo.COMPLETED.equals(g.fabric().state().value())) {
                // the fabric manager registered this GPU and has stopped since: the fabric is up until the next reset
                evidence.add("fabric manager not running now (" + fm.get().evidence() + "), but the fabric COMPLETED: it "
                        + "registered this GPU and stopped since; start it again before the next GPU reset or error");
            } else {
                causes.add("fabric manager not running on this bare-metal host (" + fm.get().evidence() + ")");
            }
        } else if (fm.isPresent()) {
            evidence.add("fabric manager " + fm.get().state() + " (" + fm.get().evidence() + ")");
        }
        Reading<String> fmVersion = s.node().fabricManagerVersion();
        Reading<String> driver = s.driver() == null ? null : s.driver().driverVersion();
        if (fmVersion.isPresent() && driver != null && driver.isPresent()) {
            if (!fmVersion.value().equals(driver.value())) {
                causes.add("driver " + driver.value() + " ≠ fabric manager " + fmVersion.value()
                        + " (they must match; NVIDIA/gpu-driver-container#735)");
            } else {
                evidence.add("fabric manager " + fmVersion.value() + " = driver");
            }
        } else {
            evidence.add("fabric manager version: " + (fmVersion.isPresent() ? fmVersion.value() : shortWhy(fmVersion.missing())));
        }
    }

    /** NVLink5 GPUs: compute capability 10.x (B200, B300, GB200, GB300), whose NVSwitch fabric needs NVLSM. */
    public static boolean nvLink5(Gpu g) {
        return g.computeCapability().isPresent() && g.computeCapability().value().startsWith("10.");
    }

    /**
     * NVLSM on an NVLink5 NVSwitch board. Without it the fabric manager fails with NV_WARN_NOTHING_TO_DO, the switches
     * stay unprogrammed and the GPUs' fabric state stays In Progress (siderolabs/extensions#717, quoting the fabric
     * manager user guide). So it is a cause only while the fabric is not COMPLETED on bare metal; a COMPLETED fabric
     * shows it did its work, even where this probe cannot see its process. In an MNNVL domain it runs in NVOS on the
     * NVLink switch trays (NVOS user manual, "Cluster Management"), in a VM on the host.
     */
    private static void nvlsm(MachineSnapshot s, Gpu g, List<String> causes, List<String> unread, List<String> evidence) {
        if (!nvLink5(g)) {
            return;
        }
        String virt = g.virtualizationMode().orElse(null);
        if (g.fabric().inMnnvlDomain()) {
            evidence.add("NVLSM runs in NVOS on the NVLink switch trays (multi-node NVLink domain)");
            return;
        }
        if (virt == null || !"None".equals(virt)) {
            evidence.add(virt == null ? "NVLSM: where it runs is unknown (virtualization mode " + g.virtualizationMode().shortDisplay() + ")"
                    : "NVLSM runs beside the fabric manager on the host of this VM");
            return;
        }
        boolean completed = FabricInfo.COMPLETED.equals(g.fabric().state().value());
        NodeInfo.ServiceState v = s.node().service(NodeInfo.NVLSM);
        Reading<Boolean> installed = s.node().nvlsmInstalled();
        String state = v == null ? "unknown" : v.state();
        String version = "NVLSM version not read: it is an OpenSM build with no documented --version, and running it starts a"
                + " subnet manager; its releases are dated (2025.06.5), not the driver's";
        if ("running".equals(state)) {
            evidence.add("NVLSM running (" + v.evidence() + "); " + version);
        } else if (completed) {
            evidence.add("NVLSM " + (v == null ? "not read" : "not seen (" + v.evidence() + ")") + ", but the fabric is COMPLETED: it"
                    + " ran where this probe cannot see its process");
        } else if ("not running".equals(state)) {
            boolean absent = Boolean.FALSE.equals(installed.value());
            causes.add("NVLSM " + (absent ? "not installed (no " + NodeInfo.NVLSM_BINARY + ")" : "not running (" + v.evidence() + ")")
                    + ": NVLink5 fabric managers need the NVLink subnet manager (siderolabs/extensions#717)");
        } else {
            unread.add("NVLSM (" + (v == null ? shortWhy(installed.missing()) : v.evidence()) + ")");
        }
    }

    /** What to say about the fabric manager inside a VM guest: it runs on the host, out of sight. */
    public static String inVm(String virtualizationMode) {
        return "in a VM (virtualization " + virtualizationMode + ") the fabric manager runs on the host: this guest cannot see it";
    }

    /** Measured P2P against the links' rated speed; true when the measurement shows traffic flowing. */
    private static boolean measured(Gpu g, List<NvLink> active, Measured m, List<String> causes, List<String> evidence) {
        if (m == null) {
            return false;
        }
        double rated = 0;
        boolean allSpeeds = true;
        for (NvLink l : active) {
            if (l.speedMbps().isPresent()) {
                rated += l.speedMbps().value() / 1000.0;
            } else {
                allSpeeds = false;
                rated += l.gbpsPerDirection().orElse(0.0);
            }
        }
        if (rated <= 0) {
            evidence.add(String.format(Locale.ROOT, "P2P %s %.1f GB/s (no rated speed to compare)", m.pair(), m.uniGBps()));
            return m.uniGBps() > 0;
        }
        double share = m.uniGBps() / rated;
        String line = String.format(Locale.ROOT, "P2P %s %.1f GB/s = %.0f%% of %.1f GB/s rated (%d links × %s)", m.pair(), m.uniGBps(),
                100 * share, rated, active.size(), allSpeeds ? "their speed" : "nominal");
        if (share < CRAWLING_SHARE) {
            causes.add("traffic crawling: " + line);
            return false;
        }
        evidence.add(line);
        return true;
    }

    private static String shortWhy(Missing m) {
        if (m == null) {
            return "not read";
        }
        String d = m.describe();
        return d.length() > 90 ? d.substring(0, 89) + "…" : d;
    }

    /** {@code [0,1,2,5]} → {@code 0-2,5} (sorted first). */
    public static String ranges(List<Integer> unsorted) {
        List<Integer> xs = unsorted.stream().sorted().toList();
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < xs.size()) {
            int a = xs.get(i);
            int b = a;
            while (i + 1 < xs.size() && xs.get(i + 1) == b + 1) {
                b = xs.get(++i);
            }
            sb.append(sb.length() > 0 ? "," : "").append(a).append(a == b ? "" : "-" + b);
            i++;
        }
        return sb.toString();
    }
}
