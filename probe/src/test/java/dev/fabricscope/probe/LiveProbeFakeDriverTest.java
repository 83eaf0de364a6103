package dev.fabricscope.probe;

import dev.fabricscope.nativeapi.cuda.CudaReadings;
import dev.fabricscope.nativeapi.Opened;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.nativeapi.cuda.CudaReader;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives the real probe logic over fake NVML and CUDA libraries (synthetic machines, shaped like HGX boards). */
class LiveProbeFakeDriverTest {

    private static final String[] SWITCHES = {"0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"};
    private static final String[] GPUS = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0", "0000:5d:00.0"};

    @TempDir
    Path root;

    private MachineSnapshot probe(FakeNvml nvml, FakeCuda cuda) {
        CompletableFuture<Opened<CudaReadings>> cudaResult = CompletableFuture.completedFuture(
                new Opened<CudaReadings>(cuda, true, null, 0));
        return new LiveProbe(List.of("fabricscope", "probe"), "/nonexistent/libnccl.so.2", Map.of("NCCL_NVLS_ENABLE", "0", "HOME", "/x"),
                () -> Nvml.initialise(nvml), () -> cudaResult, new HostProbe(root)).probe();
    }

    private static FakeNvml hgx(Set<String> missing) {
        FakeNvml nvml = new FakeNvml(missing);
        int[] split = {5, 4, 4, 5};
        for (String g : GPUS) {
            FakeNvml.Dev d = new FakeNvml.Dev(g);
            for (int s = 0; s < 4; s++) {
                for (int k = 0; k < split[s]; k++) {
                    d.links.add(new FakeNvml.Link(true, 2, SWITCHES[s]));
                }
            }
            nvml.devices.add(d);
        }
        return nvml;
    }

    private static FakeCuda reversedCuda() {
        return new FakeCuda(List.of(GPUS[3], GPUS[2], GPUS[1], GPUS[0]), Map.of(75, 9, 76, 0, 102, 1, 103, 1, 128, 1, 132, 1, 116, 1, 41, 1, 134, 0));
    }

    @Test
    void joinsNvmlAndCudaDevicesByPciAddressNotIndex() {
        MachineSnapshot s = probe(hgx(Set.of()), reversedCuda());
        assertEquals(DriverInfo.Status.OK, s.driver().status());
        assertEquals(4, s.gpus().size());
        for (int i = 0; i < 4; i++) {
            Gpu g = s.gpu(PciAddress.parse(GPUS[i])).orElseThrow();
            assertEquals(i, g.nvmlIndex().value());
            assertEquals(3 - i, g.cudaOrdinal().value(), "CUDA enumerates in the reverse order here");
            assertEquals(100 + (3 - i), g.smCount().value(), "attributes come from the CUDA device with the same PCI address");
        }
    }

    @Test
    void nvSwitchBoardGivesFourSwitchesAndNv18() {
        MachineSnapshot s = probe(hgx(Set.of()), reversedCuda());
        assertEquals(4, s.nvSwitches().size());
        assertEquals(6, s.pairs().size());
        s.pairs().forEach(p -> assertEquals("NV18", p.topology().value()));
        assertEquals("NODE", s.pairs().get(0).pcieLevel().value());
        assertEquals(18, s.gpus().get(0).activeLinks().size());
        assertEquals(25.0, s.gpus().get(0).activeLinks().get(0).gbpsPerDirection().value());
        assertEquals(7, s.gpus().get(0).activeLinks().get(0).versionCode().value(), "raw NVML version code is kept");
        assertEquals(4, s.gpus().get(0).activeLinks().get(0).generation().value(), "generation from SM 9.0");
    }

    @Test
    void linkScanStopsAtInvalidArgumentWhenTheCountFieldIsUnsupported() {
        FakeNvml nvml = hgx(Set.of());
        for (FakeNvml.Dev d : nvml.devices) {
            d.linkCountField = false;
            d.links.subList(12, 18).clear();
        }
        MachineSnapshot s = probe(nvml, reversedCuda());
        Gpu g = s.gpus().get(0);
        assertEquals(12, g.nvLinks().size(), "index 12 answered INVALID_ARGUMENT: end of links, not an error");
        assertEquals(12, g.nvLinkCount().value());
    }

    @Test
    void oldDriverWithoutTheVersionedFabricCallUsesTheOldOneAndSaysWhatIsMissing() {
        FakeNvml nvml = hgx(Set.of("nvmlDeviceGetGpuFabricInfoV", "nvmlDeviceGetNumaNodeId"));
        nvml.driverVersion = "535.104.05";
        MachineSnapshot s = probe(nvml, reversedCuda());
        Gpu g = s.gpus().get(0);
        assertEquals("nvmlDeviceGetGpuFabricInfo", g.fabric().api().value());
        assertEquals("COMPLETED", g.fabric().state().value());
        assertFalse(g.fabric().healthMask().isPresent());
        assertTrue(g.fabric().healthMask().missing().describe().contains("v2+"));
        assertEquals(0, g.numaNode().value(), "NUMA node from the memory affinity when nvmlDeviceGetNumaNodeId is absent");
        assertEquals("Hopper", g.architecture().value(), "the other readings go on");
    }

    @Test
    void fabricV3VersionMismatchFallsBackToV2() {
        FakeNvml nvml = hgx(Set.of());
        nvml.devices.forEach(d -> {
            d.maxFabricVersion = 2;
            d.clusterUuid[0] = 0x7f;
            d.cliqueId = 32766;
        });
        MachineSnapshot s = probe(nvml, reversedCuda());
        Gpu g = s.gpus().get(0);
        assertEquals("nvmlDeviceGetGpuFabricInfoV v2", g.fabric().api().value());
        assertEquals(32766L, g.fabric().cliqueId().value());
        assertTrue(g.fabric().inMnnvlDomain());
        assertTrue(g.fabric().healthMask().isPresent());
        assertFalse(g.fabric().healthSummary().isPresent());
    }

    @Test
    void oneFailedReadingNeverHidesTheOthers() {
        FakeNvml nvml = hgx(Set.of());
        nvml.devices.get(0).serial = null;
        nvml.devices.forEach(d -> d.linksSupported = false);
        MachineSnapshot s = probe(nvml, reversedCuda());
        Gpu g = s.gpus().get(0);
        assertEquals(Missing.Kind.UNSUPPORTED, g.serial().missing().kind());
        assertEquals("nvmlDeviceGetSerial", g.serial().missing().call());
        assertEquals("GPU-00000000-0000-4000-8000-000000018000", g.uuid().value());
        assertEquals(18, g.nvLinks().size());
        assertTrue(g.nvLinks().stream().allMatch(l -> l.active().missing().kind() == Missing.Kind.UNSUPPORTED));
        assertEquals("NODE", s.pairs().get(0).topology().value(), "PCIe letter when NVLink cannot be read");
        assertTrue(s.findings().stream().anyMatch(f -> f.code().equals("nvlink-hidden")));
        assertEquals(Boolean.TRUE, g.cuda().multicast().value());
    }

    @Test
    void cudaUnavailableLeavesNvmlReadingsAndSaysWhy() {
        CompletableFuture<Opened<CudaReadings>> noCuda = CompletableFuture.completedFuture(
                new Opened<CudaReadings>(null, true, "cuInit → CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)", 803));
        MachineSnapshot s = new LiveProbe(List.of("x"), null, Map.of(), () -> Nvml.initialise(hgx(Set.of())), () -> noCuda,
                new HostProbe(root)).probe();
        assertEquals(DriverInfo.Status.PARTIAL, s.driver().status());
        Gpu g = s.gpus().get(0);
        assertEquals("NVIDIA H100 80GB HBM3", g.name().value());
        assertFalse(g.cuda().multicast().isPresent());
        assertTrue(g.cuda().multicast().missing().describe().contains("CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"));
        assertEquals("partial-driver", s.findings().get(0).code());
    }
}
