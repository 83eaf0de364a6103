package dev.fabricscope.probe;

import dev.fabricscope.nativeapi.cuda.CudaReadings;
import dev.fabricscope.nativeapi.Opened;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.nativeapi.backends.NativeBackends;
import dev.fabricscope.nativeapi.cuda.CudaReader;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import dev.fabricscope.nativeapi.nvml.JnaNvml;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host link of issue 27 read through the real probe over a fake libnvidia-ml and a fake /sys. Layouts and ids of
 * nvml.h 12.6.77 and 13.3.29 (NVIDIA/go-nvml 7ec3ff8, 8b8585b): nvmlC2cModeInfo_v1_t is one unsigned int,
 * NVML_FI_DEV_C2C_LINK_COUNT 170, _GET_STATUS 171, _GET_MAX_BW 172 (MB/s); nvmlDeviceGetNumaNodeId "only applies to
 * platforms where the GPUs are NUMA nodes". The Grace side follows a GB200 superchip (GB200 NVL72 datasheet: one
 * Grace, 72 Neoverse V2 cores, two B200 over NVLink-C2C at 900 GB/s): 10 links of 45,000 MB/s per GPU make those
 * 900 GB/s both ways; the link count, the node ids (0 the Grace, 1-8 and 9-16 each GPU's nodes, the first holding its
 * HBM) and the sizes are illustrative: no public source gives NVML's or the kernel's answers for them.
 */
class HostLinkFakeDriverTest {

    private static final String[] GPUS = {"0008:01:00.0", "0009:01:00.0"};

    @TempDir
    Path root;

    private void write(String rel, String content) throws Exception {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private void graceSysfs() throws Exception {
        write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n");
        write("sys/devices/system/cpu/online", "0-71\n");
        write("sys/devices/system/node/has_cpu", "0\n");
        write("sys/devices/system/node/has_memory", "0-1,9\n");
        write("sys/devices/system/node/has_normal_memory", "0\n");
        for (int n = 0; n <= 16; n++) {
            long kb = n == 0 ? 491_520_000L : n == 1 || n == 9 ? 188_743_680L : 0;
            write("sys/devices/system/node/node" + n + "/cpulist", n == 0 ? "0-71\n" : "\n");
            write("sys/devices/system/node/node" + n + "/meminfo", "Node " + n + " MemTotal:       " + kb + " kB\n"
                    + "Node " + n + " MemFree:        " + kb / 2 + " kB\n");
        }
    }

    private static FakeNvml graceBlackwell(Set<String> missing) {
        FakeNvml nvml = new FakeNvml(missing);
        int[] ownNode = {1, 9};
        for (int i = 0; i < GPUS.length; i++) {
            FakeNvml.Dev d = new FakeNvml.Dev(GPUS[i]);
            d.ccMajor = 10;
            d.arch = 10;
            d.name = "NVIDIA GB200";
            d.c2cEnabled = 1;
            d.c2cLinks = 10;
            d.c2cMaxBwMBps = 45_000;
            d.ownNumaNode = ownNode[i];
            nvml.devices.add(d);
        }
        return nvml;
    }

    private MachineSnapshot probe(NvmlCalls nvml, HostCalls host) {
        FakeCuda cuda = new FakeCuda(List.of(GPUS[0], GPUS[1]), Map.of(75, 10, 76, 0, 134, 0));
        CompletableFuture<Opened<CudaReadings>> c = CompletableFuture.completedFuture(new Opened<CudaReadings>(cuda, true, null, 0));
        return new LiveProbe(List.of("fabricscope", "probe"), "/nonexistent/libnccl.so.2", Map.of("HOME", "/x"),
                () -> Nvml.open(nvml), () -> c, new HostProbe(host)).probe();
    }

    private FileHost files() {
        return new FileHost(root, Map.of(), n -> false, n -> false);
    }

    @Test
    void graceBlackwellReadsC2cAndTiesEachGpuToItsMemoryNode() throws Exception {
        graceSysfs();
        FakeNvml fake = graceBlackwell(Set.of());
        MachineSnapshot s = probe(new JnaNvml(fake), files());
        HostLink l = s.gpus().get(0).hostLink();
        assertEquals(true, l.c2cEnabled().value());
        assertEquals(10, l.c2cLinkCount().value());
        assertEquals(10, l.activeLinks().size());
        assertEquals(45_000L, l.c2cLinks().get(9).maxBandwidthMBps().value());
        assertEquals(1, l.memoryNumaNode().value());
        assertEquals(9, s.gpus().get(1).hostLink().memoryNumaNode().value());
        assertTrue(l.c2c());
        assertTrue(fake.devices.get(0).c2cBufferSize >= 4, "the buffer holds the 4-byte struct");
        assertEquals(List.of(1, 9), s.host().cpuLessMemoryNodes().stream().map(HostInfo.NumaNode::id).toList());
        // the host NUMA node stays the memory-affinity node, not the GPU's own
        assertEquals(0, s.gpus().get(0).numaNode().value());
    }

    @Test
    void theTextShowsTheMemoryNodesTheirGpusAndC2c() throws Exception {
        graceSysfs();
        String text = dev.fabricscope.render.SnapshotText.render(probe(new JnaNvml(graceBlackwell(Set.of())), files()));
        assertTrue(text.contains("NUMA:    CPUs on node 0 · no CPUs on nodes 1–16 · memory without CPUs: node 1 (GPU0, 180 GiB),"
                + " node 9 (GPU1, 180 GiB)\n"), text);
        assertTrue(text.contains("GPU0  enabled     10 (10 active)  45.0 GB/s        1\n"), text);
        assertTrue(text.contains("GPU1  enabled     10 (10 active)  45.0 GB/s        9\n"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
    }

    @Test
    void anX86HostShowsNoNumaLineAndTheC2cCallsAsNotSupported() throws Exception {
        write("sys/devices/system/node/node0/cpulist", "0-15\n");
        FakeNvml x86 = graceBlackwell(Set.of());
        x86.devices.forEach(d -> {
            d.c2cEnabled = null;
            d.c2cLinks = null;
            d.ownNumaNode = null;
        });
        String text = dev.fabricscope.render.SnapshotText.render(probe(new JnaNvml(x86), files()));
        assertFalse(text.contains("NUMA:"), text);
        assertTrue(text.contains("GPU0–1  N/S         N/S        —                N/S"), text);
    }

    @Test
    void anX86GpuAnswersNotSupportedAndAnOldDriverAMissingSymbol() throws Exception {
        FakeNvml x86 = graceBlackwell(Set.of());
        x86.devices.forEach(d -> {
            d.c2cEnabled = null;
            d.c2cLinks = null;
            d.ownNumaNode = null;
        });
        HostLink l = probe(new JnaNvml(x86), files()).gpus().get(0).hostLink();
        assertEquals(Missing.Kind.UNSUPPORTED, l.c2cEnabled().missing().kind());
        assertEquals("unknown (nvmlDeviceGetC2cModeInfoV → NVML_ERROR_NOT_SUPPORTED (3))", l.c2cEnabled().display());
        assertEquals(Missing.Kind.UNSUPPORTED, l.c2cLinkCount().missing().kind());
        assertEquals("nvmlDeviceGetFieldValues(NVML_FI_DEV_C2C_LINK_COUNT)", l.c2cLinkCount().missing().call());
        assertEquals(List.of(), l.c2cLinks());
        assertEquals(Missing.Kind.UNSUPPORTED, l.memoryNumaNode().missing().kind());
        assertFalse(l.c2c());

        FakeNvml old = graceBlackwell(Set.of("nvmlDeviceGetC2cModeInfoV"));
        HostLink o = probe(new JnaNvml(old), files()).gpus().get(0).hostLink();
        assertEquals(Missing.Kind.SYMBOL_MISSING, o.c2cEnabled().missing().kind());
        assertEquals(10, o.c2cLinkCount().value(), "one missing call hides no other reading");
        assertTrue(o.c2c(), "active C2C links say C2C without the mode call");
    }

    @Test
    void aBadLinkStatusOrCountIsInvalidWithTheRawValue() throws Exception {
        FakeNvml fake = graceBlackwell(Set.of());
        fake.devices.get(0).c2cStatus = 7;
        fake.devices.get(1).c2cLinks = 100_000;
        MachineSnapshot s = probe(new JnaNvml(fake), files());
        assertEquals(Missing.Kind.INVALID, s.gpus().get(0).hostLink().c2cLinks().get(0).active().missing().kind());
        assertEquals("7", s.gpus().get(0).hostLink().c2cLinks().get(0).active().missing().raw());
        assertEquals(Missing.Kind.INVALID, s.gpus().get(1).hostLink().c2cLinkCount().missing().kind());
        assertEquals(List.of(), s.gpus().get(1).hostLink().c2cLinks());
    }

    @Test
    void aRecordedTraceReplaysTheHostLinkAndNumaFactsAlike() throws Exception {
        graceSysfs();
        TraceRecorder rec = new TraceRecorder();
        MachineSnapshot live = probe(rec.wrap(NvmlCalls.class, NativeBackends.NVML, new JnaNvml(graceBlackwell(Set.of()))),
                rec.wrap(HostCalls.class, NativeBackends.HOST, files()));
        NativeTrace trace = TraceIO.read(TraceIO.write(new NativeTrace(NativeTrace.FORMAT, NativeTrace.VERSION, null, null,
                List.of("fabricscope", "probe"), null, null, rec.calls(), null)).getBytes(java.nio.charset.StandardCharsets.UTF_8), "trace");
        TraceReplayer r = new TraceReplayer(trace);
        MachineSnapshot replayed = probe(r.proxy(NvmlCalls.class, NativeBackends.NVML), r.proxy(HostCalls.class, NativeBackends.HOST));
        for (int i = 0; i < GPUS.length; i++) {
            assertEquals(live.gpus().get(i).hostLink(), replayed.gpus().get(i).hostLink());
        }
        assertEquals(live.host(), replayed.host());
        String text = TraceIO.write(trace);
        assertTrue(text.contains("nvmlDeviceGetC2cModeInfoV"), "the C2C call is in the trace");
        assertFalse(text.contains("MemFree"), "only the MemTotal line of a node's meminfo is recorded");
    }
}
