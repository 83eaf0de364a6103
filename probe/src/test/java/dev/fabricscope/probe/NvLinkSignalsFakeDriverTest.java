package dev.fabricscope.probe;

import dev.fabricscope.nativeapi.cuda.CudaReadings;
import dev.fabricscope.nativeapi.Opened;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.nativeapi.cuda.CudaReader;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.topology.FabricVerdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVLink signals of issue 24 read through the real probe over a fake libnvidia-ml whose answers follow the struct
 * layouts of nvml.h 13.3.29 (NVIDIA/go-nvml 8b8585b: nvmlNvlinkSupportedBwModes_v1_t 28 bytes, nvmlNvlinkGetBwMode_v1_t
 * 12, nvmlNvLinkInfo_v2_t 1612, version word sizeof | ver << 24) and, for nvmlGpuFabricInfo_v4_t, the NVML 615 docs
 * page (548 bytes); the GFM field is bits 15:14 of the health mask (open-gpu-kernel-modules nvlink_inband_msg.h).
 */
class NvLinkSignalsFakeDriverTest {

    private static final String[] SWITCHES = {"0000:05:00.0", "0000:06:00.0"};
    private static final String[] GPUS = {"0000:18:00.0", "0000:2a:00.0"};

    @TempDir
    Path root;

    private MachineSnapshot probe(FakeNvml nvml) {
        FakeCuda cuda = new FakeCuda(List.of(GPUS[0], GPUS[1]), Map.of(75, 10, 76, 0, 102, 1, 103, 1, 128, 1, 132, 1, 116, 1, 41, 1, 134, 0));
        CompletableFuture<Opened<CudaReadings>> c = CompletableFuture.completedFuture(new Opened<CudaReadings>(cuda, true, null, 0));
        return new LiveProbe(List.of("fabricscope", "probe"), "/nonexistent/libnccl.so.2", Map.of("HOME", "/x"),
                () -> Nvml.initialise(nvml), () -> c, new HostProbe(root)).probe();
    }

    /** Two Blackwell GPUs (SM 10.0), 18 links each to two NVSwitches, every new call answering. */
    private static FakeNvml blackwell(Set<String> missing) {
        FakeNvml nvml = new FakeNvml(missing);
        for (String g : GPUS) {
            FakeNvml.Dev d = new FakeNvml.Dev(g);
            d.ccMajor = 10;
            d.arch = 10;
            d.name = "NVIDIA B200";
            for (int k = 0; k < 18; k++) {
                d.links.add(new FakeNvml.Link(true, 2, SWITCHES[k % 2]));
                d.linkStates.put(k, 1);
                d.effectiveBer.put(k, 1 << 8 | 15);
            }
            d.bwMode = 0;
            d.supportedBwModes = new int[] {0, 1, 2, 3, 4};
            d.nvle = 0;
            d.firmware = new int[][] {{1, 14, 4, 0}, {2, 36, 2014, 1862}};
            d.cliques = new int[][] {{0, 0x7ffe}, {1, 0x7ffe}};
            d.healthMask = 0x2 | 0x2 << 2 | 0x1 << 14; // bandwidth not degraded, no route recovery, GFM connected
            nvml.devices.add(d);
        }
        return nvml;
    }

    @Test
    void everySignalReadsFromItsDocumentedStruct() {
        MachineSnapshot s = probe(blackwell(Set.of()));
        NvLinkSignals sig = s.gpus().get(0).signals();
        assertEquals(new NvLinkSignals.BwMode(0, true), sig.bwMode().value());
        assertEquals(List.of(0, 1, 2, 3, 4), sig.supportedBwModes().value());
        assertEquals(false, sig.nvle().value());
        assertEquals(List.of("MSE 14.4.0", "NETIR 36.2014.1862"), sig.firmware().value());
        assertEquals("CONNECTED", sig.gfmState().value());
        assertEquals(List.of("type 0: 0x7ffe", "type 1: 0x7ffe"), sig.fabricCliques().value());
        assertEquals(18, sig.links().size());
        assertEquals("ACTIVE", sig.link(3).state().value());
        assertEquals(new NvLinkSignals.Ber(1, 15), sig.link(3).effectiveBer().value());
        assertEquals(Missing.Kind.UNSUPPORTED, sig.link(3).symbolBer().missing().kind(), "field 222 not answered: NOT_SUPPORTED");
        String text = SnapshotText.render(s);
        assertTrue(text.contains("MSE 14.4.0, NETIR 36.2014.1862"), text);
        assertTrue(text.contains("18 ACTIVE"), text);
        text.lines().forEach(l -> assertTrue(l.length() <= 120, "fits 120 columns: " + l));
    }

    @Test
    void r580LacksV4AndTheOtherSignalsStillRead() {
        MachineSnapshot s = probe(blackwell(Set.of("nvmlDeviceGetGpuFabricInfo_v4")));
        NvLinkSignals sig = s.gpus().get(0).signals();
        assertEquals(Missing.Kind.SYMBOL_MISSING, sig.fabricCliques().missing().kind());
        assertEquals("nvmlDeviceGetGpuFabricInfo_v4", sig.fabricCliques().missing().call());
        assertTrue(sig.bwMode().isPresent() && sig.nvle().isPresent() && sig.firmware().isPresent(), "one missing call hides no other");
        assertTrue(SnapshotText.render(s).contains("no call"));
    }

    @Test
    void functionNotFoundAndNotSupportedBecomeReadingsNotErrors() {
        FakeNvml nvml = blackwell(Set.of());
        nvml.devices.forEach(d -> {
            d.nvLinkInfoRc = 13;   // NVML_ERROR_FUNCTION_NOT_FOUND
            d.bwMode = null;       // NOT_SUPPORTED
        });
        MachineSnapshot s = probe(nvml);
        NvLinkSignals sig = s.gpus().get(0).signals();
        assertEquals(Missing.Kind.SYMBOL_MISSING, sig.nvle().missing().kind());
        assertEquals("NVML_ERROR_FUNCTION_NOT_FOUND", sig.nvle().missing().code());
        assertEquals(Missing.Kind.UNSUPPORTED, sig.bwMode().missing().kind());
        assertEquals("NVML_ERROR_NOT_SUPPORTED", sig.bwMode().missing().code());
        assertEquals(FabricVerdict.State.UP, FabricVerdict.of(s).get(0).state(),
                "an unsupported mode call is no cause: links ACTIVE by the state field, fabric COMPLETED, GFM connected");
    }

    @Test
    void nvLinkInfoFallsBackToV1WhenTheDriverRefusesV2() {
        FakeNvml nvml = blackwell(Set.of());
        nvml.devices.forEach(d -> {
            d.firmware = null;
            d.nvle = 1;
        });
        NvLinkSignals sig = probe(nvml).gpus().get(0).signals();
        assertEquals(true, sig.nvle().value(), "v1 answers NVLE");
        assertEquals(Missing.Kind.NOT_APPLICABLE, sig.firmware().missing().kind(), "v1 carries no firmware");
    }

    @Test
    void verdictNamesReducedBandwidthSleepingLinksAndGfmDisconnected() {
        FakeNvml nvml = blackwell(Set.of());
        FakeNvml.Dev d = nvml.devices.get(0);
        d.bwBest = false;
        d.bwMode = 2;
        d.linkStates.put(4, 2);
        d.linkStates.put(5, 2);
        d.healthMask = 0x2 | 0x2 << 14;
        nvml.devices.get(1).linkStates.put(7, 3); // a value outside nvml.h 13.3.29's list
        MachineSnapshot s = probe(nvml);
        FabricVerdict v0 = FabricVerdict.of(s).get(0);
        assertEquals(FabricVerdict.State.NOT_UP, v0.state());
        assertTrue(v0.causes().contains("reduced-bandwidth mode 2 (not the best mode)"), v0.causes().toString());
        assertTrue(v0.causes().contains("links 4-5 in SLEEP"), v0.causes().toString());
        assertTrue(v0.causes().stream().anyMatch(c -> c.startsWith("GFM disconnected")), v0.causes().toString());
        FabricVerdict v1 = FabricVerdict.of(s).get(1);
        assertEquals(FabricVerdict.State.UNKNOWN, v1.state(), "an unknown state value is not called healthy");
        assertTrue(v1.unread().get(0).contains("7=3"), v1.unread().toString());
        assertTrue(s.findings().stream().anyMatch(f -> f.code().equals("nvlink-fabric-not-up") && f.message().contains("SLEEP")));
        assertTrue(SnapshotText.render(s).contains("2 (REDUCED)"));
    }

    @Test
    void bareMetalWithoutFabricManagerAndVersionSkewAreNamed() throws Exception {
        FakeNvml nvml = blackwell(Set.of());
        Path bin = Files.createDirectories(root.resolve("usr/bin"));
        Path fm = bin.resolve("nv-fabricmanager");
        Files.writeString(fm, "#!/bin/sh\necho \"Fabric Manager version is : 570.86.15\"\n");
        Files.setPosixFilePermissions(fm, PosixFilePermissions.fromString("rwxr-xr-x"));
        MachineSnapshot s = probe(nvml);
        assertEquals("570.86.15", s.node().fabricManagerVersion().value());
        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertTrue(v.causes().stream().anyMatch(c -> c.startsWith("driver 580.159.04 ≠ fabric manager 570.86.15")), v.causes().toString());
        assertTrue(v.evidence().stream().anyMatch(e -> e.startsWith("NVLSM not seen") && e.contains("COMPLETED")),
                "NVLink5 with a COMPLETED fabric: NVLSM did its work, though no process is seen: " + v.evidence());
    }

    /** One story: a COMPLETED fabric is up; a fabric manager that stopped since is said, not named as its cause. */
    @Test
    void aStoppedFabricManagerIsACauseOnlyWhileTheFabricIsNotCompleted() throws Exception {
        process(100, "bash"); // the process list is read, and holds no fabric manager
        FabricVerdict up = FabricVerdict.of(probe(blackwell(Set.of()))).get(0);
        assertTrue(up.causes().stream().noneMatch(c -> c.startsWith("fabric manager not running")), up.causes().toString());
        assertTrue(up.evidence().stream().anyMatch(e -> e.startsWith("fabric manager not running now") && e.contains("COMPLETED")),
                up.evidence().toString());
        FabricVerdict training = FabricVerdict.of(probe(inProgress(blackwell(Set.of())))).get(0);
        assertEquals(FabricVerdict.State.NOT_UP, training.state());
        assertTrue(training.causes().stream().anyMatch(c -> c.startsWith("fabric manager not running on this bare-metal host")),
                training.causes().toString());
    }

    // --- NVLSM (issue 24 item 4). Synthetic: the files the nvlsm package and the fabric manager's start script leave, as
    // siderolabs/extensions 26822f5 nvidia-fabricmanager-wrapper/main.go:31-33 and NVIDIA/gpu-driver-container 06a208c
    // ubuntu22.04/nvidia-driver:713-719 name them (binary /opt/nvidia/nvlsm/sbin/nvlsm, process comm "nvlsm").

    private void nvlsmInstalled() throws Exception {
        Path sbin = Files.createDirectories(root.resolve("opt/nvidia/nvlsm/sbin"));
        Files.writeString(sbin.resolve("nvlsm"), "");
    }

    private void process(int pid, String comm) throws Exception {
        Files.writeString(Files.createDirectories(root.resolve("proc/" + pid)).resolve("comm"), comm + "\n");
    }

    private static FakeNvml inProgress(FakeNvml nvml) {
        nvml.devices.forEach(d -> d.fabricState = 2); // NVML_GPU_FABRIC_STATE_IN_PROGRESS
        return nvml;
    }

    @Test
    void nvLink5FabricInProgressWithoutNvlsmNamesItNotInstalled() throws Exception {
        process(100, "nv-fabricmanage");
        MachineSnapshot s = probe(inProgress(blackwell(Set.of())));
        assertEquals(false, s.node().nvlsmInstalled().value());
        assertEquals(List.of(), s.node().service("nvlsm").processes().value());
        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertEquals(FabricVerdict.State.NOT_UP, v.state());
        assertTrue(v.causes().stream().anyMatch(c -> c.startsWith("NVLSM not installed (no /opt/nvidia/nvlsm/sbin/nvlsm)")), v.causes().toString());
        String services = dev.fabricscope.render.NodeText.services(s);
        assertTrue(services.contains("nvlsm: not running (no unit of its own, no process), not installed"), services);
    }

    @Test
    void installedButNotRunningIsNamedAndRunningIsEvidence() throws Exception {
        nvlsmInstalled();
        process(100, "nv-fabricmanage");
        MachineSnapshot stopped = probe(inProgress(blackwell(Set.of())));
        FabricVerdict v = FabricVerdict.of(stopped).get(0);
        assertTrue(v.causes().stream().anyMatch(c -> c.startsWith("NVLSM not running (no unit of its own, no process)")), v.causes().toString());
        process(4242, "nvlsm");
        MachineSnapshot running = probe(inProgress(blackwell(Set.of())));
        assertEquals(List.of(4242), running.node().service("nvlsm").processes().value());
        FabricVerdict r = FabricVerdict.of(running).get(0);
        assertTrue(r.causes().stream().noneMatch(c -> c.contains("NVLSM")), r.causes().toString());
        assertTrue(r.causes().stream().anyMatch(c -> c.startsWith("fabric state IN_PROGRESS")), "the fabric is still named: " + r.causes());
        assertTrue(r.evidence().stream().anyMatch(e -> e.startsWith("NVLSM running (no unit of its own, process 4242)")
                && e.contains("version not read")), r.evidence().toString());
        assertTrue(dev.fabricscope.render.NodeText.services(running).contains("nvlsm: running (no unit of its own, process 4242), installed"));
    }

    @Test
    void hopperNeedsNoNvlsmAndSaysNothingOfIt() {
        FakeNvml nvml = inProgress(blackwell(Set.of()));
        nvml.devices.forEach(d -> d.ccMajor = 9);
        MachineSnapshot s = probe(nvml);
        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertTrue(v.causes().stream().noneMatch(c -> c.contains("NVLSM")) && v.evidence().stream().noneMatch(e -> e.contains("NVLSM")), v.toString());
        assertFalse(dev.fabricscope.render.NodeText.services(s).contains("nvlsm"), "no line for a service this machine does not need");
    }

    @Test
    void unreadableProcessTableLeavesNvlsmUnread() throws Exception {
        MachineSnapshot s = probe(inProgress(blackwell(Set.of())));
        dev.fabricscope.model.NodeInfo.ServiceState unread = new dev.fabricscope.model.NodeInfo.ServiceState("nvlsm",
                s.node().service("nvlsm").systemd(), dev.fabricscope.model.Reading.missing(Missing.error("list /proc", "EACCES", 13)),
                s.node().service("nvlsm").listening());
        List<dev.fabricscope.model.NodeInfo.ServiceState> services = new java.util.ArrayList<>(s.node().services());
        services.replaceAll(v -> v.name().equals("nvlsm") ? unread : v);
        MachineSnapshot t = s.withNode(new dev.fabricscope.model.NodeInfo(s.node().nics(), s.node().gpuPcie(), services,
                s.node().fabricManagerVersion(), dev.fabricscope.model.Reading.missing(Missing.error("list /opt/nvidia/nvlsm/sbin", "EACCES", 13))));
        FabricVerdict v = FabricVerdict.of(t).get(0);
        assertTrue(v.unread().stream().anyMatch(u -> u.startsWith("NVLSM (")), v.toString());
        assertTrue(v.causes().stream().noneMatch(c -> c.contains("NVLSM")), "unread is not missing: " + v.causes());
    }

    @Test
    void withoutTheBinaryTheVersionIsNotApplicableNotAnError() {
        MachineSnapshot s = probe(blackwell(Set.of()));
        assertEquals(Missing.Kind.NOT_APPLICABLE, s.node().fabricManagerVersion().missing().kind());
        assertFalse(s.node().fabricManagerVersion().isPresent());
        Gpu g = s.gpus().get(0);
        assertTrue(FabricVerdict.of(s).get(0).evidence().stream().anyMatch(e -> e.contains("fabric manager version")), g.toString());
    }
}
