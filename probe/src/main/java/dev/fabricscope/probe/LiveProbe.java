package dev.fabricscope.probe;

import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.topology.Topology;
import dev.fabricscope.Version;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.backends.NativeBackends;
import dev.fabricscope.nativeapi.cuda.CudaReadings;
import dev.fabricscope.nativeapi.cuda.CudaAttribute;
import dev.fabricscope.nativeapi.cuda.CudaReader;
import dev.fabricscope.nativeapi.nccl.JnaNccl;
import dev.fabricscope.nativeapi.nccl.NcclCalls;
import dev.fabricscope.nativeapi.nccl.NcclLocator;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.probe.NvmlRead.LinkScan;
import dev.fabricscope.probe.NvmlRead.NvmlGpu;
import dev.fabricscope.probe.NvmlRead.NvmlGpuRef;
import dev.fabricscope.probe.NvmlRead.NvmlPair;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Reads the machine through NVML and the CUDA driver (both JNA) into an immutable snapshot. CUDA
 * initialisation, the NCCL look-up and the NVML walk run concurrently; no failed call stops the others.
 */
public final class LiveProbe {

    private final List<String> commandLine;
    private final String ncclPath;
    private final Supplier<Map<String, String>> env;
    private final Supplier<NvmlReading> nvmlReader;
    private final java.util.function.Function<NvmlReading, CompletableFuture<Opened<CudaReadings>>> cudaOpener;
    private final HostProbe hostProbe;
    private final NcclCalls nccl;

    /** This machine, with NVML and libcuda opened and read early by {@link NativePrefetch} when it ran. */
    public LiveProbe(List<String> commandLine, String ncclPath) {
        this(commandLine, ncclPath, () -> EnvironmentFilter.filter(System.getenv()), NativePrefetch::takeNvml,
                NativePrefetch::cuda, new HostProbe(), new JnaNccl(System.getenv()));
    }

    /** Through the given seams: recording, replaying a trace, or the driver. */
    public LiveProbe(List<String> commandLine, String ncclPath, NativeBackends backends) {
        this(commandLine, ncclPath, new HostProbe(backends.host()), backends);
    }

    private LiveProbe(List<String> commandLine, String ncclPath, HostProbe host, NativeBackends backends) {
        // as on the machine (NativePrefetch): NVML read on a thread of its own, cuInit once NVML is open
        this(commandLine, ncclPath, host::environment, () -> NativePrefetch.readNvml(() -> Nvml.open(backends.nvml())),
                nvml -> NativePrefetch.onThread("fabricscope-cuda-init",
                        () -> CudaReader.open(backends.cuda(), () -> NativePrefetch.awaitQuietly(nvml.opened()))),
                host, backends.nccl());
    }

    /** With injected native back-ends (tests drive the probe with fake NVML and CUDA libraries). */
    public LiveProbe(List<String> commandLine, String ncclPath, Map<String, String> env, Supplier<Opened<Nvml>> nvmlOpener,
                     Supplier<CompletableFuture<Opened<CudaReadings>>> cudaOpener, HostProbe hostProbe) {
        this(commandLine, ncclPath, () -> EnvironmentFilter.filter(env),
                () -> NvmlReading.done(NvmlRead.of(nvmlOpener.get())), nvml -> cudaOpener.get(), hostProbe,
                new JnaNccl(env));
    }

    private LiveProbe(List<String> commandLine, String ncclPath, Supplier<Map<String, String>> env,
                      Supplier<NvmlReading> nvmlReader,
                      java.util.function.Function<NvmlReading, CompletableFuture<Opened<CudaReadings>>> cudaOpener,
                      HostProbe hostProbe, NcclCalls nccl) {
        this.commandLine = commandLine;
        this.ncclPath = ncclPath;
        this.env = env;
        this.nvmlReader = nvmlReader;
        this.cudaOpener = cudaOpener;
        this.hostProbe = hostProbe;
        this.nccl = nccl;
    }

    public MachineSnapshot probe() {
        long t0 = System.nanoTime();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        NvmlReading nvmlRead = nvmlReader.get();
        CompletableFuture<Opened<CudaReadings>> cudaInit = cudaOpener.apply(nvmlRead);
        CompletableFuture<NcclInfo> ncclInfo = CompletableFuture.supplyAsync(() -> NcclLocator.locate(nccl, ncclPath));
        // -Dfabricscope.pythonStack=off leaves the stack unread (docs/benchmarks.md times the probe with and without it)
        CompletableFuture<PythonStack> pythonStack = "off".equals(System.getProperty("fabricscope.pythonStack"))
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> hostProbe.pythonStack(PythonStackProbe.pythonArgs(commandLine)));
        HostInfo host = hostProbe.probe();
        dev.fabricscope.Trace.mark("host read");
        NvmlRead nv = nvmlRead.read().join();
        Opened<Nvml> nvmlOpen = nv.open();
        List<NvmlGpuRef> nvmlDevices = nv.devices();
        Map<PciAddress, NvmlGpu> nvmlGpus = nv.gpus();
        dev.fabricscope.Trace.mark("nvml read");
        Opened<CudaReadings> cudaOpen = cudaInit.join();
        dev.fabricscope.Trace.mark("cuda init joined");
        CudaReadings cuda = cudaOpen.value();
        Map<PciAddress, CudaDevice> cudaDevices = cuda == null ? Map.of() : cudaDevices(cuda);
        DriverInfo driver = driverInfo(nv, cudaOpen, ncclInfo.join(), hostProbe);
        List<Gpu> gpus = new ArrayList<>();
        for (NvmlGpuRef d : nvmlDevices) {
            gpus.add(gpu(d.pci(), nvmlGpus.get(d.pci()), cuda, cudaDevice(cudaDevices, d.pci()), nvmlOpen, cudaOpen));
        }
        for (Map.Entry<PciAddress, CudaDevice> e : cudaDevices.entrySet()) {
            if (nvmlDevices.stream().noneMatch(d -> d.pci().sameDevice(e.getKey()))) {
                gpus.add(gpu(e.getKey(), null, cuda, e.getValue(), nvmlOpen, cudaOpen));
            }
        }
        gpus.sort(Comparator.comparing(Gpu::pci));
        List<GpuPair> pairs = pairs(nv.pairs(), cuda, cudaDevices, gpus);
        dev.fabricscope.Trace.mark("cuda read");
        PythonStack stack = pythonStack.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        ProbeInfo info = new ProbeInfo(Version.get(), now.toString(), commandLine, ms, ProbeInfo.Origin.LIVE, null);
        dev.fabricscope.model.NodeInfo node = hostProbe.node(gpus.stream().map(Gpu::pci).toList());
        MachineSnapshot s = new MachineSnapshot(MachineSnapshot.SCHEMA_VERSION, info, host, driver, gpus,
                Topology.switches(gpus), pairs, env.get(), List.of(), node, stack);
        return s.withFindings(SnapshotAnalyzer.findings(s));
    }

    private record CudaDevice(int ordinal) {
    }

    private static Map<PciAddress, CudaDevice> cudaDevices(CudaReadings cuda) {
        Map<PciAddress, CudaDevice> out = new HashMap<>();
        int n = cuda.deviceCount().orElse(0);
        for (int i = 0; i < n; i++) {
            Reading<PciAddress> pci = cuda.pciBusId(i);
            if (pci.isPresent() && out.keySet().stream().noneMatch(p -> p.sameDevice(pci.value()))) {
                out.put(pci.value(), new CudaDevice(i));
            }
        }
        return out;
    }

    private DriverInfo driverInfo(NvmlRead nv, Opened<CudaReadings> cudaOpen, NcclInfo nccl, HostProbe host) {
        Opened<Nvml> nvmlOpen = nv.open();
        Nvml nvml = nvmlOpen.value();
        CudaReadings cuda = cudaOpen.value();
        DriverInfo.Status status;
        String message = null;
        if (!nvmlOpen.libraryLoaded() && !cudaOpen.libraryLoaded()) {
            status = DriverInfo.Status.NOT_FOUND;
            message = "NVIDIA driver not found: " + nvmlOpen.failure();
        } else if (nvml == null && cuda == null) {
            status = DriverInfo.Status.INIT_FAILED;
            message = "NVIDIA driver present but not usable: " + nvmlOpen.failure() + "; " + cudaOpen.failure();
        } else if (nvml == null || cuda == null) {
            status = DriverInfo.Status.PARTIAL;
            message = nvml == null ? "NVML unavailable: " + nvmlOpen.failure() : "CUDA driver unavailable: " + cudaOpen.failure();
        } else {
            status = DriverInfo.Status.OK;
        }
        Reading<String> nvmlMissing = Reading.unavailable(String.valueOf(nvmlOpen.failure()));
        Reading<String> cudaMissing = Reading.unavailable(String.valueOf(cudaOpen.failure()));
        return new DriverInfo(status, message,
                nvml != null ? nv.driverVersion() : nvmlMissing,
                cuda != null ? cuda.driverVersion() : nvml != null ? nv.cudaDriverVersion() : cudaMissing,
                nvml != null ? nv.nvmlVersion() : nvmlMissing,
                nccl, host.imexChannels(),
                cuda != null ? cuda.deviceCount() : Reading.unavailable(String.valueOf(cudaOpen.failure())));
    }

    private static <T> Reading<T> fromNvml(NvmlGpu n, Opened<Nvml> open, java.util.function.Function<NvmlGpu, Reading<T>> f) {
        if (n == null) {
            return Reading.unavailable(open.value() == null ? "NVML unavailable: " + open.failure() : "device not visible to NVML");
        }
        return f.apply(n);
    }

    private Gpu gpu(PciAddress pci, NvmlGpu n, CudaReadings cuda, CudaDevice c, Opened<Nvml> nvmlOpen, Opened<CudaReadings> cudaOpen) {
        Reading<String> cc = fromNvml(n, nvmlOpen, NvmlGpu::computeCapability);
        if (!cc.isPresent() && c != null) {
            Reading<Integer> major = cuda.attribute(c.ordinal, CudaAttribute.COMPUTE_CAPABILITY_MAJOR);
            Reading<Integer> minor = cuda.attribute(c.ordinal, CudaAttribute.COMPUTE_CAPABILITY_MINOR);
            if (major.isPresent() && minor.isPresent()) {
                boolean valid = major.value() >= 1 && major.value() <= 99 && minor.value() >= 0 && minor.value() <= 99;
                cc = valid ? Reading.of(major.value() + "." + minor.value())
                        : Reading.missing(Missing.invalid("cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR/MINOR)",
                        major.value() + "." + minor.value(), "not a compute capability"));
            }
        }
        String noCuda = cuda == null ? "CUDA unavailable: " + cudaOpen.failure() : "device not visible to CUDA (CUDA_VISIBLE_DEVICES?)";
        Reading<Integer> sms = c != null ? atLeast(cuda.attribute(c.ordinal, CudaAttribute.MULTIPROCESSOR_COUNT), 1,
                "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)", "an SM count is at least 1") : Reading.unavailable(noCuda);
        LinkScan links = n != null ? n.links() : new LinkScan(Reading.unavailable("NVML unavailable"), List.of());
        FabricInfo fabric = n != null ? n.fabric() : unavailableFabric(nvmlOpen);
        return new Gpu(pci,
                fromNvml(n, nvmlOpen, NvmlGpu::uuid),
                n != null ? Reading.of(n.index()) : Reading.unavailable("device not visible to NVML"),
                c != null ? Reading.of(c.ordinal) : Reading.unavailable(noCuda),
                fromNvml(n, nvmlOpen, NvmlGpu::name),
                fromNvml(n, nvmlOpen, NvmlGpu::serial),
                fromNvml(n, nvmlOpen, NvmlGpu::architecture),
                cc, sms,
                fromNvml(n, nvmlOpen, NvmlGpu::memory),
                fromNvml(n, nvmlOpen, NvmlGpu::numa),
                fromNvml(n, nvmlOpen, NvmlGpu::cpuAffinity),
                fromNvml(n, nvmlOpen, NvmlGpu::mig),
                fromNvml(n, nvmlOpen, NvmlGpu::virt),
                fromNvml(n, nvmlOpen, NvmlGpu::persistence),
                cudaAttributes(cuda, c, cudaOpen), links.count(), links.links(), fabric,
                n != null ? n.health() : GpuHealth.unknown(Missing.unavailable(nvmlOpen.value() == null
                        ? "NVML unavailable: " + nvmlOpen.failure() : "device not visible to NVML")),
                n != null ? n.signals() : dev.fabricscope.model.NvLinkSignals.unknown(Missing.unavailable(nvmlOpen.value() == null
                        ? "NVML unavailable: " + nvmlOpen.failure() : "device not visible to NVML")),
                n != null ? n.hostLink() : dev.fabricscope.model.HostLink.unknown(Missing.unavailable(nvmlOpen.value() == null
                        ? "NVML unavailable: " + nvmlOpen.failure() : "device not visible to NVML")));
    }

    private static CudaAttributes cudaAttributes(CudaReadings cuda, CudaDevice c, Opened<CudaReadings> open) {
        if (c == null) {
            Reading<Boolean> none = Reading.unavailable(cuda == null ? "CUDA unavailable: " + open.failure() : "device not visible to CUDA");
            return new CudaAttributes(none, none, none, none, none, none, Reading.unavailable("CUDA unavailable"));
        }
        return new CudaAttributes(
                cuda.flag(c.ordinal, CudaAttribute.VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
                cuda.flag(c.ordinal, CudaAttribute.HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED),
                cuda.flag(c.ordinal, CudaAttribute.HANDLE_TYPE_FABRIC_SUPPORTED),
                cuda.flag(c.ordinal, CudaAttribute.MULTICAST_SUPPORTED),
                cuda.flag(c.ordinal, CudaAttribute.GPU_DIRECT_RDMA_SUPPORTED),
                cuda.flag(c.ordinal, CudaAttribute.UNIFIED_ADDRESSING),
                hostNumaId(cuda.attribute(c.ordinal, CudaAttribute.HOST_NUMA_ID)));
    }

    private static FabricInfo unavailableFabric(Opened<Nvml> open) {
        Reading<String> none = Reading.unavailable(open.value() == null ? "NVML unavailable: " + open.failure() : "not visible to NVML");
        Reading<Long> noneL = Reading.missing(none.missing());
        return new FabricInfo(none, none, none, noneL, none, noneL, none);
    }

    private static List<GpuPair> pairs(Map<List<PciAddress>, NvmlPair> nvmlPairs, CudaReadings cuda,
                                       Map<PciAddress, CudaDevice> cudaDevices, List<Gpu> gpus) {
        List<GpuPair> out = new ArrayList<>();
        Reading<String> noNvml = Reading.unavailable("NVML unavailable for this pair");
        NvmlPair none = new NvmlPair(noNvml, noNvml, noNvml, noNvml, noNvml, noNvml);
        CudaDevice[] byGpu = gpus.stream().map(g -> cudaDevice(cudaDevices, g.pci())).toArray(CudaDevice[]::new);
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                Gpu a = gpus.get(i);
                Gpu b = gpus.get(j);
                NvmlPair n = nvmlPairs.getOrDefault(NvmlRead.pairKey(a.pci(), b.pci()), none);
                CudaDevice ca = byGpu[i];
                CudaDevice cb = byGpu[j];
                boolean cu = cuda != null && ca != null && cb != null;
                Reading<Integer> nvLinks = Topology.nvLinksBetween(a, b);
                Reading<Boolean> noCuda = Reading.unavailable("CUDA unavailable for this pair");
                out.add(new GpuPair(a.pci(), b.pci(), Topology.letter(nvLinks, n.pcie()), n.pcie(), nvLinks,
                        n.read(), n.write(), n.nvlink(), n.atomics(), n.prop(),
                        cu ? cuda.canAccessPeer(ca.ordinal, cb.ordinal) : noCuda,
                        cu ? atLeast(cuda.p2pAttribute(ca.ordinal, cb.ordinal, CudaAttribute.P2P_PERFORMANCE_RANK), 0,
                                "cuDeviceGetP2PAttribute(PERFORMANCE_RANK)", "a rank is not negative") : Reading.missing(noCuda.missing()),
                        cu ? cuda.p2pAttribute(ca.ordinal, cb.ordinal, CudaAttribute.P2P_NATIVE_ATOMIC_SUPPORTED).map(v -> v != 0) : noCuda));
            }
        }
        return out;
    }

    private static CudaDevice cudaDevice(Map<PciAddress, CudaDevice> devices, PciAddress pci) {
        return devices.entrySet().stream().filter(e -> e.getKey().sameDevice(pci)).map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** A CUDA attribute below its range becomes an invalid reading that keeps the raw answer. */
    private static Reading<Integer> atLeast(Reading<Integer> r, int min, String call, String why) {
        return r.isPresent() && r.value() < min ? Reading.missing(Missing.invalid(call, String.valueOf(r.value()), why)) : r;
    }

    /** CUDA answers -1 when the GPU has no host NUMA node (not an error, not a node number). */
    private static Reading<Integer> hostNumaId(Reading<Integer> r) {
        if (r.isPresent() && r.value() == -1) {
            return Reading.missing(new Missing(Missing.Kind.NOT_APPLICABLE, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID)",
                    null, null, "no host NUMA node for this GPU", "-1"));
        }
        return atLeast(r, 0, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID)", "a NUMA node is not negative");
    }
}
