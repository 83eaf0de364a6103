package dev.fabricscope.topology;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.Finding.Severity;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** Derives the warnings a user should read first from a snapshot's readings. Pure. */
public final class SnapshotAnalyzer {

    private SnapshotAnalyzer() {
    }

    /**
     * The driver's findings: none loaded, one of NVML / CUDA missing, or loaded with no GPU. Also what {@code cluster
     * show} judges of each node from its summary.
     */
    public static List<Finding> driverFindings(DriverInfo d, int gpuCount) {
        List<Finding> out = new ArrayList<>();
        if (d != null && !d.driverPresent()) {
            out.add(new Finding(Severity.ERROR, "no-driver", d.message(), "driver"));
        } else if (d != null && d.status() == DriverInfo.Status.PARTIAL) {
            out.add(new Finding(Severity.WARNING, "partial-driver", d.message(), "driver"));
        }
        if (d != null && d.driverPresent() && gpuCount == 0) {
            out.add(new Finding(Severity.ERROR, "no-gpu", "The driver is loaded but reports no GPU.", "driver"));
        }
        return out;
    }

    /** One GPU's fabric findings (state, registration status, health); also judged by {@code cluster show} per node. */
    public static List<Finding> fabricFindings(FabricInfo f, String who) {
        List<Finding> out = new ArrayList<>();
        String state = f.state().value();
        if (state != null && !"NOT_SUPPORTED".equals(state) && !"COMPLETED".equals(state)) {
            out.add(new Finding(Severity.WARNING, "fabric-not-ready", "GPU fabric state is " + state
                    + ": the Fabric Manager / NVLink fabric has not finished registering this GPU; multicast and NVLS will fail until it does.", who));
        }
        if ("COMPLETED".equals(state) && f.status().isPresent() && !"NVML_SUCCESS".equals(f.status().value())) {
            out.add(new Finding(Severity.ERROR, "fabric-failed", "GPU fabric registration completed with status "
                    + f.status().value() + ".", who));
        }
        if (f.healthSummary().isPresent() && !"HEALTHY".equals(f.healthSummary().value())
                && !"NOT_SUPPORTED".equals(f.healthSummary().value())) {
            out.add(new Finding(Severity.WARNING, "fabric-unhealthy", "GPU fabric health is " + f.healthSummary().value() + ".", who));
        }
        return out;
    }

    public static List<Finding> findings(MachineSnapshot s) {
        List<Finding> out = new ArrayList<>();
        DriverInfo d = s.driver();
        out.addAll(driverFindings(d, s.gpus().size()));
        long models = s.gpus().stream().map(g -> g.name().orElse("?") + "/" + g.computeCapability().orElse("?")).distinct().count();
        if (models > 1) {
            out.add(new Finding(Severity.WARNING, "mixed-gpus", "GPUs of different models or compute capabilities: "
                    + s.gpus().stream().map(g -> g.shortName() + " (SM " + g.computeCapability().orElse("?") + ")").distinct()
                    .collect(Collectors.joining(", ")) + ". Frameworks read the capability of the current device only.", null));
        }
        for (Gpu g : s.gpus()) {
            String who = s.label(g.pci()) + " (" + g.pci() + ")";
            boolean passThrough = "Pass-Through".equals(g.virtualizationMode().value());
            boolean allLinksUnsupported = !g.nvLinks().isEmpty() && g.nvLinks().stream()
                    .allMatch(l -> !l.active().isPresent() && l.active().missing().kind() == Missing.Kind.UNSUPPORTED);
            boolean archHasNvLink = NvLinkSpecs.generation(g.computeCapabilityNumber()) > 0;
            if (allLinksUnsupported && archHasNvLink) {
                out.add(new Finding(Severity.WARNING, "nvlink-hidden",
                        "NVLink state not exposed" + (passThrough ? ": GPU is in a pass-through VM" : "")
                                + " (" + g.nvLinks().get(0).active().missing().describe() + "); NVLink and NVSwitch connectivity cannot be read.", who));
            }
            long active = g.activeLinks().size();
            long inactive = g.nvLinks().stream().filter(l -> Boolean.FALSE.equals(l.active().value())).count();
            if (active > 0 && inactive > 0) {
                out.add(new Finding(Severity.WARNING, "nvlink-down", inactive + " of " + (active + inactive)
                        + " NVLinks are inactive: bandwidth is reduced and NCCL may route around the GPU.", who));
            }
            NvLinkCounters.finding(g).ifPresent(m -> out.add(new Finding(Severity.WARNING, "nvlink-errors", m, who)));
            if (g.migMode().isPresent() && g.migMode().value().startsWith("Enabled")) {
                out.add(new Finding(Severity.WARNING, "mig-enabled", "MIG is enabled: NVLink P2P, custom all-reduce and NVLS are unavailable to MIG instances.", who));
            }
            if (Boolean.FALSE.equals(g.cuda().multicast().value())) {
                out.add(new Finding(Severity.INFO, "no-multicast", "CUDA multicast not supported (attribute 132 = 0): NCCL NVLS, FlashInfer mnnvl and SGLang's fusion preflight (cuMulticastGetGranularity) will not work.", who));
            }
            out.addAll(fabricFindings(g.fabric(), who));
            if (g.fabric().inMnnvlDomain() && Boolean.TRUE.equals(g.cuda().fabricHandles().value())
                    && d != null && d.imexChannels().isPresent() && d.imexChannels().value().isEmpty()) {
                out.add(new Finding(Severity.WARNING, "no-imex-channel", "GPU is in an MNNVL domain but no IMEX channel exists under /dev/nvidia-caps-imex-channels: exporting fabric handles fails with CUDA_ERROR_NOT_PERMITTED.", who));
            }
        }
        long hiddenLinks = Topology.hiddenSwitchLinks(s.gpus());
        if (hiddenLinks > 0) {
            List<String> who = s.gpus().stream().filter(g -> g.activeLinks().stream().anyMatch(Topology::endsAtHiddenSwitch))
                    .map(g -> s.label(g.pci())).toList();
            String raw = s.gpus().stream().flatMap(g -> g.activeLinks().stream()).filter(Topology::endsAtHiddenSwitch)
                    .map(l -> l.remotePci().missing().raw().split(" ")[0]).findFirst().orElse("?");
            out.add(new Finding(Severity.INFO, "nvswitch-hidden", hiddenLinks + " NVLinks of " + String.join(", ", who)
                    + " end at NVSwitches " + Topology.hiddenSwitchWhere(s) + " (far-end PCI address " + raw + "): the GPUs share the "
                    + "switch fabric, but how many switches there are cannot be read here.", null));
        }
        List<String> notMnnvl = s.gpus().stream().filter(g -> FabricInfo.COMPLETED.equals(g.fabric().state().value())
                && FabricInfo.ZERO_UUID.equals(g.fabric().clusterUuid().value())).map(g -> s.label(g.pci())).toList();
        if (!notMnnvl.isEmpty()) {
            out.add(new Finding(Severity.INFO, "fabric-not-mnnvl", "GPU fabric COMPLETED with a zero cluster UUID on "
                    + String.join(", ", notMnnvl) + ": " + fabricManagerWhere(s) + " registered the GPUs, but this is not a "
                    + "multi-node NVLink (MNNVL) domain; backends that span nodes over NVLink (NCCL MNNVL, FlashInfer mnnvl across "
                    + "nodes) need a non-zero cluster UUID.", null));
        }
        out.addAll(verdictFindings(s));
        for (GpuPair p : s.pairs()) {
            Reading<Boolean> peer = p.cudaCanAccessPeer();
            if (Boolean.FALSE.equals(peer.value())) {
                out.add(new Finding(Severity.WARNING, "no-p2p", s.label(p.a()) + " and " + s.label(p.b())
                        + " cannot access each other (cuDeviceCanAccessPeer = 0): custom all-reduce and P2P transports fall back to host memory.", null));
            }
        }
        if (d != null && d.driverPresent() && !d.nccl().path().isPresent()) {
            out.add(new Finding(Severity.INFO, "no-nccl", "libnccl.so.2 not found on this host: " + d.nccl().path().missing().describe(), "nccl"));
        }
        String cvd = s.environment().get("CUDA_VISIBLE_DEVICES");
        if (cvd != null) {
            out.add(new Finding(Severity.INFO, "cuda-visible-devices", "CUDA_VISIBLE_DEVICES=" + cvd + " hides GPUs from CUDA (NVML still sees all).", null));
        }
        if ("0".equals(s.environment().get("NCCL_NVLS_ENABLE"))) {
            out.add(new Finding(Severity.INFO, "nvls-off", "NCCL_NVLS_ENABLE=0: NCCL NVLink SHARP is off.", null));
        }
        out.sort(Comparator.comparing(Finding::severity));
        return List.copyOf(out);
    }


    /**
     * Who registered the GPUs in the fabric: in a VM guest the host's fabric manager (out of sight here), on bare
     * metal this host's.
     */
    static String fabricManagerWhere(MachineSnapshot s) {
        boolean vm = !s.gpus().isEmpty() && s.gpus().stream().allMatch(g -> g.virtualizationMode().isPresent()
                && !"None".equals(g.virtualizationMode().value()));
        return vm ? "the fabric manager on the VM's host (this guest runs none)" : "the NVSwitch fabric manager";
    }

    /**
     * One finding per distinct "links up, fabric …" verdict (GPUs with the same verdict share it): NOT_UP as an error,
     * UP as information, UNKNOWN only where a link answered a state value no header read names (possibly NVML 615's
     * ACTIVE_TRAFFIC_DISABLED), not where the signals were simply not read (older snapshots, samples); the text, GUI and
     * reports show every verdict.
     */
    static List<Finding> verdictFindings(MachineSnapshot s) {
        java.util.Map<String, List<FabricVerdict>> bySummary = new java.util.LinkedHashMap<>();
        for (FabricVerdict v : FabricVerdict.of(s)) {
            boolean strangeState = v.unread().stream().anyMatch(u -> u.startsWith("link state values"));
            if (v.state() == FabricVerdict.State.UP || v.state() == FabricVerdict.State.NOT_UP || strangeState) {
                bySummary.computeIfAbsent(v.summary(), k -> new ArrayList<>()).add(v);
            }
        }
        List<Finding> out = new ArrayList<>();
        for (java.util.Map.Entry<String, List<FabricVerdict>> e : bySummary.entrySet()) {
            FabricVerdict first = e.getValue().get(0);
            String who = e.getValue().stream().map(v -> "GPU" + v.gpu()).collect(Collectors.joining(", "));
            Severity sev = first.state() == FabricVerdict.State.NOT_UP ? Severity.ERROR
                    : first.state() == FabricVerdict.State.UNKNOWN ? Severity.WARNING : Severity.INFO;
            String code = switch (first.state()) {
                case UP -> "nvlink-fabric-up";
                case NOT_UP -> "nvlink-fabric-not-up";
                default -> "nvlink-fabric-unknown";
            };
            out.add(new Finding(sev, code, who + ": " + e.getKey() + ".", e.getValue().size() == 1 ? s.label(s.gpus().get(first.gpu()).pci())
                    + " (" + s.gpus().get(first.gpu()).pci() + ")" : null));
        }
        return out;
    }
}
