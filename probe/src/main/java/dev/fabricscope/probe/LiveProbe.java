package dev.fabricscope.probe;

import dev.fabricscope.topology.NvLinkSpecs;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.topology.Topology;
import dev.fabricscope.Version;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.NvLink;
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
import dev.fabricscope.nativeapi.nvml.FabricDecoder;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.Nvml.NvmlDevice;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
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
                () -> NvmlReading.done(readNvml(nvmlOpener.get())), nvml -> cudaOpener.get(), hostProbe,
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

    /**
     * Everything the probe reads from NVML, read in one go and NVML shut down after. {@code nvmlInit} waits for the
     * whole of a running {@code cuInit} (docs/benchmarks.md, start-up round 2), so NVML is opened first and
     * {@code cuInit} started once it is open; the reads then run beside {@code cuInit}.
     */
    record NvmlRead(Opened<Nvml> open, List<NvmlGpuRef> devices, Map<PciAddress, NvmlGpu> gpus,
                    Map<List<PciAddress>, NvmlPair> pairs, Reading<String> driverVersion, Reading<String> nvmlVersion,
                    Reading<String> cudaDriverVersion) {
    }

    /** NVML's read under way: {@code opened} completes when {@code nvmlInit} has returned, {@code read} when all is read. */
    record NvmlReading(CompletableFuture<Void> opened, CompletableFuture<NvmlRead> read) {
        static NvmlReading done(NvmlRead r) {
            return new NvmlReading(CompletableFuture.completedFuture(null), CompletableFuture.completedFuture(r));
        }
    }

    static NvmlRead readNvml(Opened<Nvml> open) {
        Nvml nvml = open.value();
        if (nvml == null) {
            return new NvmlRead(open, List.of(), Map.of(), Map.of(), null, null, null);
        }
        try {
            List<NvmlGpuRef> devices = nvmlDevices(nvml);
            Map<PciAddress, NvmlGpu> gpus = new HashMap<>();
            for (NvmlGpuRef d : devices) {
                gpus.put(d.pci, readNvmlGpu(nvml, d));
            }
            Map<List<PciAddress>, NvmlPair> pairs = readNvmlPairs(nvml, devices);
            return new NvmlRead(open, devices, gpus, pairs, nvml.driverVersion(), nvml.nvmlVersion(), nvml.cudaDriverVersion());
        } finally {
            nvml.close();
        }
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
            gpus.add(gpu(d.pci, nvmlGpus.get(d.pci), cuda, cudaDevice(cudaDevices, d.pci), nvmlOpen, cudaOpen));
        }
        for (Map.Entry<PciAddress, CudaDevice> e : cudaDevices.entrySet()) {
            if (nvmlDevices.stream().noneMatch(d -> d.pci.sameDevice(e.getKey()))) {
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

    record NvmlGpuRef(int index, NvmlDevice handle, PciAddress pci) {
    }

    private record CudaDevice(int ordinal) {
    }

    /** What NVML says about one GPU. */
    record NvmlGpu(int index, Reading<String> uuid, Reading<String> name, Reading<String> serial,
                           Reading<String> architecture, Reading<String> computeCapability, Reading<Long> memory,
                           Reading<Integer> numa, Reading<String> cpuAffinity, Reading<String> mig, Reading<String> virt,
                           Reading<Boolean> persistence, LinkScan links, FabricInfo fabric, GpuHealth health,
                           dev.fabricscope.model.NvLinkSignals signals, dev.fabricscope.model.HostLink hostLink) {
    }

    /** What NVML says about one GPU pair. */
    record NvmlPair(Reading<String> pcie, Reading<String> read, Reading<String> write, Reading<String> nvlink,
                            Reading<String> atomics, Reading<String> prop) {
    }

    private static List<NvmlGpuRef> nvmlDevices(Nvml nvml) {
        List<NvmlGpuRef> out = new ArrayList<>();
        int n = nvml.deviceCount().orElse(0);
        for (int i = 0; i < n; i++) {
            Reading<NvmlDevice> h = nvml.handle(i);
            if (!h.isPresent()) {
                continue;
            }
            Reading<PciAddress> pci = nvml.pci(h.value());
            // Two devices answering one address would be one GPU twice: the first is kept.
            if (pci.isPresent() && out.stream().noneMatch(o -> o.pci.sameDevice(pci.value()))) {
                out.add(new NvmlGpuRef(i, h.value(), pci.value()));
            }
        }
        return out;
    }

    private static NvmlGpu readNvmlGpu(Nvml nvml, NvmlGpuRef d) {
        NvmlDevice h = d.handle;
        Reading<String> cc = nvml.computeCapability(h);
        // The host NUMA node nearest the GPU (nvidia-smi's "NUMA Affinity"). nvmlDeviceGetNumaNodeId names the GPU's
        // own memory node on Grace systems: kept as such (the host link), and only the fallback for the host node.
        Reading<Integer> numa = nvml.memoryAffinityNode(h);
        Reading<Integer> own = nvml.numaNodeId(h);
        if (!numa.isPresent() && own.isPresent()) {
            numa = own;
        }
        double ccNum = cc.isPresent() ? Double.parseDouble(cc.value()) : Double.NaN;
        LinkScan links = scanLinks(nvml, h, ccNum);
        FabricInfo fabric = FabricDecoder.decode(nvml.fabricInfo(h));
        return new NvmlGpu(d.index, nvml.uuid(h), nvml.name(h), nvml.serial(h), nvml.architecture(h), cc,
                nvml.memoryTotal(h), numa, nvml.cpuAffinity(h), nvml.migMode(h), nvml.virtualizationMode(h),
                nvml.persistenceMode(h), links, fabric, health(nvml, h), SignalProbe.read(nvml, h, links.links, fabric),
                HostLinkProbe.read(nvml, h, own));
    }

    /** ECC, remapped rows, retired pages, clocks events, power limits, PCIe link and recovery action: each on its own. */
    static GpuHealth health(Nvml nvml, NvmlDevice h) {
        Reading<boolean[]> ecc = nvml.eccMode(h);
        return new GpuHealth(ecc.map(v -> v[0]), ecc.map(v -> v[1]),
                nvml.totalEccErrors(h, false, false), nvml.totalEccErrors(h, true, false),
                nvml.totalEccErrors(h, false, true), nvml.totalEccErrors(h, true, true),
                nvml.remappedRows(h), nvml.retiredPages(h, 0), nvml.retiredPages(h, 1), nvml.clocksEventReasons(h),
                nvml.powerLimitWatts(h), nvml.enforcedPowerLimitWatts(h), nvml.pcieLink(h, false), nvml.pcieLink(h, true),
                nvml.recoveryAction(h));
    }

    private static Map<List<PciAddress>, NvmlPair> readNvmlPairs(Nvml nvml, List<NvmlGpuRef> devices) {
        Map<List<PciAddress>, NvmlPair> out = new HashMap<>();
        for (int i = 0; i < devices.size(); i++) {
            for (int j = i + 1; j < devices.size(); j++) {
                NvmlDevice a = devices.get(i).handle;
                NvmlDevice b = devices.get(j).handle;
                out.put(pairKey(devices.get(i).pci, devices.get(j).pci), new NvmlPair(nvml.commonAncestor(a, b),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_READ), nvml.p2pStatus(a, b, NvmlCodes.P2P_WRITE),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_NVLINK), nvml.p2pStatus(a, b, NvmlCodes.P2P_ATOMICS),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_PROP)));
            }
        }
        return out;
    }

    private static List<PciAddress> pairKey(PciAddress a, PciAddress b) {
        return a.compareTo(b) <= 0 ? List.of(a, b) : List.of(b, a);
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
        LinkScan links = n != null ? n.links : new LinkScan(Reading.unavailable("NVML unavailable"), List.of());
        FabricInfo fabric = n != null ? n.fabric : unavailableFabric(nvmlOpen);
        return new Gpu(pci,
                fromNvml(n, nvmlOpen, NvmlGpu::uuid),
                n != null ? Reading.of(n.index) : Reading.unavailable("device not visible to NVML"),
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
                cudaAttributes(cuda, c, cudaOpen), links.count, links.links, fabric,
                n != null ? n.health : GpuHealth.unknown(Missing.unavailable(nvmlOpen.value() == null
                        ? "NVML unavailable: " + nvmlOpen.failure() : "device not visible to NVML")),
                n != null ? n.signals : dev.fabricscope.model.NvLinkSignals.unknown(Missing.unavailable(nvmlOpen.value() == null
                        ? "NVML unavailable: " + nvmlOpen.failure() : "device not visible to NVML")),
                n != null ? n.hostLink : dev.fabricscope.model.HostLink.unknown(Missing.unavailable(nvmlOpen.value() == null
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

    private record LinkScan(Reading<Integer> count, List<NvLink> links) {
    }

    /**
     * Link count from {@code NVML_FI_DEV_NVLINK_LINK_COUNT} when the driver answers, else NCCL's per-architecture
     * maximum; an index past the device's links ({@code NVML_ERROR_INVALID_ARGUMENT}) ends the scan.
     */
    static LinkScan scanLinks(Nvml nvml, NvmlDevice h, double cc) {
        Reading<Long> fieldCount = nvml.fieldValues(h, new int[][] {{NvmlCodes.FI_NVLINK_LINK_COUNT, 0}}).get(0);
        if (fieldCount.isPresent() && (fieldCount.value() < 0 || fieldCount.value() > Nvml.MAX_LINKS)) {
            fieldCount = Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(NVML_FI_DEV_NVLINK_LINK_COUNT)",
                    String.valueOf(fieldCount.value()), "link count outside 0.." + Nvml.MAX_LINKS));
        }
        int limit = fieldCount.isPresent() ? fieldCount.value().intValue() : Math.min(Nvml.MAX_LINKS, NvLinkSpecs.maxLinks(cc));
        int generation = NvLinkSpecs.generation(cc);
        double gbps = NvLinkSpecs.gbpsPerLinkPerDirection(cc);
        List<NvLink> links = new ArrayList<>();
        for (int l = 0; l < limit; l++) {
            Reading<Boolean> active = nvml.nvLinkActive(h, l);
            if (!active.isPresent() && Integer.valueOf(NvmlCodes.ERROR_INVALID_ARGUMENT).equals(active.missing().codeValue())) {
                break;
            }
            Reading<Integer> gen = generation > 0 ? Reading.of(generation)
                    : Reading.missing(Missing.notApplicable("no NVLink generation known for compute capability " + cc));
            Reading<Double> bw = gbps > 0 ? Reading.of(gbps) : Reading.missing(Missing.notApplicable("no nominal bandwidth"));
            if (Boolean.TRUE.equals(active.value())) {
                links.add(new NvLink(l, active, nvml.nvLinkVersion(h, l), gen, nvml.nvLinkRemoteType(h, l),
                        nvml.nvLinkRemotePci(h, l), bw, null));
            } else {
                Missing why = active.isPresent() ? Missing.notApplicable("link inactive") : active.missing();
                links.add(new NvLink(l, active, Reading.missing(why), gen, Reading.missing(why), Reading.missing(why), bw));
            }
        }
        links = withErrors(nvml, h, withSpeeds(nvml, h, links));
        Reading<Integer> count;
        if (fieldCount.isPresent()) {
            count = Reading.of(fieldCount.value().intValue());
        } else if (links.stream().anyMatch(x -> x.active().isPresent())) {
            count = Reading.of((int) links.stream().filter(x -> x.active().isPresent()).count());
        } else {
            count = Reading.missing(fieldCount.missing());
        }
        return new LinkScan(count, links);
    }

    /** Every active link's speed in one {@code nvmlDeviceGetFieldValues} call (field 164, scope = link), as nvidia-smi reads it. */
    private static List<NvLink> withSpeeds(Nvml nvml, NvmlDevice h, List<NvLink> links) {
        List<NvLink> active = links.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
        if (active.isEmpty()) {
            return links;
        }
        int[][] fields = active.stream().map(l -> new int[] {NvmlCodes.FI_NVLINK_GET_SPEED, l.index()}).toArray(int[][]::new);
        List<Reading<Long>> speeds = nvml.fieldValues(h, fields);
        List<NvLink> out = new ArrayList<>();
        int k = 0;
        for (NvLink l : links) {
            if (Boolean.TRUE.equals(l.active().value())) {
                Reading<Long> v = speeds.get(k++);
                if (v.isPresent() && (v.value() <= 0 || v.value() > 10_000_000L)) {
                    v = Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(NVML_FI_DEV_NVLINK_GET_SPEED)", String.valueOf(v.value()),
                            "link speed outside 1..10,000,000 MB/s"));
                }
                out.add(new NvLink(l.index(), l.active(), l.versionCode(), l.generation(), l.remoteType(), l.remotePci(),
                        l.gbpsPerDirection(), v));
            } else {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * Each active link's error counters (0-4, as {@code nvidia-smi nvlink -e} and DCGM read them) and its data
     * throughput counters (fields 138/139, scope = link) in one field-values call.
     */
    private static List<NvLink> withErrors(Nvml nvml, NvmlDevice h, List<NvLink> links) {
        List<NvLink> active = links.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
        if (active.isEmpty()) {
            return links;
        }
        int[][] fields = new int[active.size() * 2][];
        for (int k = 0; k < active.size(); k++) {
            fields[2 * k] = new int[] {NvmlCodes.FI_NVLINK_THROUGHPUT_DATA_TX, active.get(k).index()};
            fields[2 * k + 1] = new int[] {NvmlCodes.FI_NVLINK_THROUGHPUT_DATA_RX, active.get(k).index()};
        }
        List<Reading<Long>> throughput = nvml.fieldValues(h, fields);
        List<NvLink> out = new ArrayList<>();
        int k = 0;
        for (NvLink l : links) {
            if (!Boolean.TRUE.equals(l.active().value())) {
                out.add(l);
                continue;
            }
            int i = l.index();
            Reading<Long> tx = nonNegative(throughput.get(2 * k), "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX");
            Reading<Long> rx = nonNegative(throughput.get(2 * k + 1), "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX");
            k++;
            out.add(l.withErrors(new NvLinkErrors(nvml.nvLinkErrorCounter(h, i, 0), nvml.nvLinkErrorCounter(h, i, 1),
                    nvml.nvLinkErrorCounter(h, i, 2), nvml.nvLinkErrorCounter(h, i, 3), nvml.nvLinkErrorCounter(h, i, 4), tx, rx)));
        }
        return out;
    }

    private static Reading<Long> nonNegative(Reading<Long> v, String field) {
        return v.isPresent() && v.value() < 0
                ? Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(" + field + ")", Long.toUnsignedString(v.value()), "counter beyond 2^63"))
                : v;
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
                NvmlPair n = nvmlPairs.getOrDefault(pairKey(a.pci(), b.pci()), none);
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
