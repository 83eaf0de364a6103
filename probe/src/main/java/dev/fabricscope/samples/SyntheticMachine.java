package dev.fabricscope.samples;

import dev.fabricscope.Version;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.NvLinkSpecs;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a complete, internally consistent synthetic {@link MachineSnapshot} from a machine's public specifications.
 * NVSwitches, pair NVLink counts, topology letters and findings are derived with the same pure helpers the live
 * probe uses ({@link Topology}, {@link NvLinkSpecs}, {@link SnapshotAnalyzer}), and NVML's answers are written as the
 * probe records them ({@link FabricInfo}'s shapes, nvml.h's names), so a sample reads like a real probe. Facts a
 * public specification does not state are recorded as {@link #NOT_IN_SPEC} readings, never invented.
 *
 * <p>Identifiers are fake on purpose: GPU UUIDs are {@code GPU-00000000-0000-4000-8000-0000TTTTIIII} (TTTT the
 * sample's tag, IIII the GPU's index, both hex) and serials {@code SYN} followed by ten digits.
 *
 * <p>Not thread-safe; build once and discard.
 */
public final class SyntheticMachine {

    /** Why a synthetic reading has no value. */
    public static final String NOT_IN_SPEC = "not in public spec";

    private static final String FABRIC_API = "nvmlDeviceGetGpuFabricInfoV v3";
    /** nvml.h's nvmlReturn_t names and values for the answers a synthetic GPU gives. */
    private static final String NVML_SUCCESS = "NVML_SUCCESS";
    private static final String NVML_ERROR_NOT_SUPPORTED = "NVML_ERROR_NOT_SUPPORTED";
    private static final int NVML_ERROR_NOT_SUPPORTED_VALUE = 3;

    private final int tag;
    private String description;
    private HostInfo host;
    private String driverVersion;
    private String cudaVersion;
    private NcclInfo nccl;
    private List<String> imexChannels = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private GpuModel model;
    private final List<Slot> slots = new ArrayList<>();
    private List<PciAddress> switchPcis;
    private HostLink hostLink;
    private int[] switchOfLink;
    private int hiddenSwitchLinks;
    private final List<int[]> bridges = new ArrayList<>();
    private boolean pcieUnknown;
    private FabricKind fabricKind;
    private String clusterUuid;
    private long cliqueId;
    private Long healthMask;
    private String healthSummary;
    /** NICs and the PCIe places of GPUs, when the sample states them (issue 19). */
    private final List<dev.fabricscope.model.Nic> nics = new ArrayList<>();
    private final List<dev.fabricscope.model.NodeInfo.PcieEndpoint> gpuPlaces = new ArrayList<>();
    private final List<dev.fabricscope.model.NodeInfo.ServiceState> services = new ArrayList<>();

    private enum FabricKind { CALL_UNSUPPORTED, STATE_NOT_SUPPORTED, COMPLETED }

    private SyntheticMachine(int tag) {
        if (tag < 0 || tag > 0xffff) {
            throw new IllegalArgumentException("tag must fit four hex digits");
        }
        this.tag = tag;
    }

    /** @param tag distinguishes this sample's fake UUIDs (four hex digits) */
    public static SyntheticMachine tagged(int tag) {
        return new SyntheticMachine(tag);
    }

    /**
     * A fact that applies to the machine but that no public source states: unknown ({@code UNAVAILABLE}, shown
     * as "?"), not "not applicable" (shown as "N/A").
     */
    public static <T> Reading<T> notInSpec() {
        return Reading.missing(Missing.unavailable(NOT_IN_SPEC));
    }

    // ------------------------------------------------------------------ GPU model and placement

    /**
     * One GPU model as NVML and CUDA describe it.
     *
     * @param multicast       CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: needs an NVSwitch fabric
     * @param nvLinkVersionCode raw {@code nvmlDeviceGetNvLinkVersion} code where a public source shows it
     */
    public record GpuModel(String name, String architecture, String computeCapability, Reading<Integer> smCount,
                           long memoryBytes, boolean migCapable, Reading<Boolean> fabricHandles, boolean multicast,
                           Reading<Boolean> gpuDirectRdma, Reading<Integer> nvLinkVersionCode) {

        public GpuModel {
            Objects.requireNonNull(name);
            if (!computeCapability.matches("\\d+\\.\\d")) {
                throw new IllegalArgumentException("compute capability is major.minor: " + computeCapability);
            }
        }

        public static GpuModel of(String name, String architecture, String computeCapability) {
            return new GpuModel(name, architecture, computeCapability, notInSpec(), 0, false, notInSpec(), false,
                    notInSpec(), notInSpec());
        }

        public GpuModel sms(int n) {
            return new GpuModel(name, architecture, computeCapability, Reading.of(n), memoryBytes, migCapable,
                    fabricHandles, multicast, gpuDirectRdma, nvLinkVersionCode);
        }

        public GpuModel memoryMiB(long mib) {
            return new GpuModel(name, architecture, computeCapability, smCount, mib * 1024 * 1024, migCapable,
                    fabricHandles, multicast, gpuDirectRdma, nvLinkVersionCode);
        }

        public GpuModel mig(boolean capable) {
            return new GpuModel(name, architecture, computeCapability, smCount, memoryBytes, capable,
                    fabricHandles, multicast, gpuDirectRdma, nvLinkVersionCode);
        }

        public GpuModel fabricHandles(boolean supported) {
            return new GpuModel(name, architecture, computeCapability, smCount, memoryBytes, migCapable,
                    Reading.of(supported), multicast, gpuDirectRdma, nvLinkVersionCode);
        }

        public GpuModel multicast(boolean supported) {
            return new GpuModel(name, architecture, computeCapability, smCount, memoryBytes, migCapable,
                    fabricHandles, supported, gpuDirectRdma, nvLinkVersionCode);
        }

        public GpuModel gpuDirectRdma(boolean supported) {
            return new GpuModel(name, architecture, computeCapability, smCount, memoryBytes, migCapable,
                    fabricHandles, multicast, Reading.of(supported), nvLinkVersionCode);
        }

        public GpuModel nvLinkVersionCode(int code) {
            return new GpuModel(name, architecture, computeCapability, smCount, memoryBytes, migCapable,
                    fabricHandles, multicast, gpuDirectRdma, Reading.of(code));
        }

        double cc() {
            return Double.parseDouble(computeCapability);
        }
    }

    /**
     * Where one GPU sits.
     *
     * @param hostNumaNode nearest host NUMA node (CUDA HOST_NUMA_ID, NVML memory affinity)
     * @param pcieSwitch   GPUs sharing a PCIe switch tree name the same one (PXB between them); null for none
     */
    private record Slot(PciAddress pci, int hostNumaNode, String cpuAffinity, String pcieSwitch) {
    }

    // ------------------------------------------------------------------ fluent setters

    /** One line, starting {@code SYNTHETIC:}, naming the public specifications followed. */
    public SyntheticMachine describedAs(String oneLine) {
        if (!oneLine.startsWith("SYNTHETIC:") || oneLine.contains("\n")) {
            throw new IllegalArgumentException("a synthetic description is one line starting with 'SYNTHETIC:'");
        }
        this.description = oneLine;
        return this;
    }

    /**
     * @param architecture as Java's {@code os.arch} reports it ({@code amd64}, {@code aarch64})
     * @param cpuModel     the {@code /proc/cpuinfo} model name; null where it has none (Arm), as the probe records it
     * @param numaCpuLists CPU list per NUMA node, by id; "" for a memory-only node
     */
    public SyntheticMachine host(String hostname, String os, String kernel, String architecture, String cpuModel,
                                 List<String> numaCpuLists) {
        List<HostInfo.NumaNode> nodes = new ArrayList<>();
        int cpus = 0;
        for (int i = 0; i < numaCpuLists.size(); i++) {
            nodes.add(new HostInfo.NumaNode(i, numaCpuLists.get(i)));
            cpus += HostInfo.countCpus(numaCpuLists.get(i));
        }
        this.host = new HostInfo(Reading.of(hostname), Reading.of(os), Reading.of(kernel), Reading.of(architecture),
                cpuModel != null ? Reading.of(cpuModel) : Reading.missing(Missing.notApplicable("/proc/cpuinfo names no CPU model")),
                Reading.of(cpus), Reading.of(List.copyOf(nodes)));
        return this;
    }

    /**
     * The kernel's node masks and every node's size ({@code has_cpu}, {@code has_memory}, {@code has_normal_memory},
     * {@code nodeN/meminfo}), for hosts whose NUMA layout is part of what the sample shows (Grace).
     */
    public SyntheticMachine nodeFacts(Reading<String> hasCpu, Reading<String> hasMemory, Reading<String> hasNormalMemory,
                                      Reading<Long> nodeSize) {
        require(host != null, "host(...) before nodeFacts(...)");
        List<HostInfo.NumaNode> nodes = host.numaNodes().value().stream()
                .map(n -> new HostInfo.NumaNode(n.id(), n.cpus(), nodeSize)).toList();
        host = new HostInfo(host.hostname(), host.os(), host.kernel(), host.architecture(), host.cpuModel(), host.logicalCpus(),
                Reading.of(nodes), hasCpu, hasMemory, hasNormalMemory);
        return this;
    }

    /**
     * Every GPU reaches its CPU over NVLink-C2C (Grace superchips: the datasheets say so); the C2C link count and
     * each GPU's own NUMA node as given (a spec rarely states them: {@link #notInSpec()}).
     */
    public SyntheticMachine c2c(Reading<Integer> linkCount, Reading<Integer> ownNumaNode) {
        this.hostLink = new HostLink(Reading.of(true), linkCount, List.of(), ownNumaNode);
        return this;
    }

    /** @param cudaVersion the CUDA version the driver reports, e.g. {@code 13.0} */
    public SyntheticMachine driver(String driverVersion, String cudaVersion) {
        this.driverVersion = driverVersion;
        this.cudaVersion = cudaVersion;
        return this;
    }

    /** NCCL installed system-wide, found as the probe's search finds it ({@code /lib} then {@code /usr/lib}). */
    public SyntheticMachine systemNccl(String version) {
        String triplet = "aarch64".equals(host == null ? null : host.architecture().value()) ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
        String lib = "/lib/" + triplet + "/libnccl.so.2";
        this.nccl = new NcclInfo(Reading.of(lib), Reading.of(version), List.of(lib, "/usr/lib/" + triplet + "/libnccl.so.2"));
        return this;
    }

    public SyntheticMachine imexChannels(String... paths) {
        this.imexChannels = List.of(paths);
        return this;
    }

    public SyntheticMachine env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public SyntheticMachine gpuModel(GpuModel m) {
        this.model = m;
        return this;
    }

    /**
     * Adds a GPU; add them in PCI order, as NVML enumerates.
     *
     * @param hostNumaNode the host NUMA node nearest the GPU (the model's {@code numaNode})
     * @param cpuAffinity  that node's CPU list
     */
    public SyntheticMachine gpu(String pci, int hostNumaNode, String cpuAffinity) {
        return addSlot(new Slot(PciAddress.parse(pci), hostNumaNode, cpuAffinity, null));
    }

    /** A GPU under a PCIe switch tree it shares with others of the same {@code pcieSwitch} name. */
    public SyntheticMachine gpuBehindSwitch(String pci, int hostNumaNode, String cpuAffinity, String pcieSwitch) {
        return addSlot(new Slot(PciAddress.parse(pci), hostNumaNode, cpuAffinity, pcieSwitch));
    }

    private SyntheticMachine addSlot(Slot s) {
        if (!slots.isEmpty() && slots.get(slots.size() - 1).pci().compareTo(s.pci()) >= 0) {
            throw new IllegalArgumentException("add GPUs in ascending PCI order: " + s.pci());
        }
        slots.add(s);
        return this;
    }

    /**
     * Every GPU's links go to PCI-visible NVSwitches.
     *
     * @param switchOfLink for link index {@code l}, the index into {@code switches} it ends at
     */
    public SyntheticMachine nvSwitches(List<String> switches, int... switchOfLink) {
        this.switchPcis = switches.stream().map(PciAddress::parse).toList();
        for (int s : switchOfLink) {
            if (s < 0 || s >= switches.size()) {
                throw new IllegalArgumentException("link maps to switch " + s + " of " + switches.size());
            }
        }
        this.switchOfLink = switchOfLink.clone();
        return this;
    }

    /** Every GPU has {@code links} links to NVSwitches this OS cannot see on PCI (NVLink switch trays). */
    public SyntheticMachine hiddenNvSwitches(int links) {
        this.hiddenSwitchLinks = links;
        return this;
    }

    /** GPUs {@code a} and {@code b} (indices in PCI order) joined directly by {@code links} links (an NVLink bridge). */
    public SyntheticMachine nvLinkBridge(int a, int b, int links) {
        bridges.add(new int[] {a, b, links});
        return this;
    }

    /** The PCIe common ancestor of GPU pairs is not stated by any public source. */
    public SyntheticMachine pcieTopologyUnknown() {
        this.pcieUnknown = true;
        return this;
    }

    /** Pre-Hopper: NVML documents the fabric call for Hopper and newer; older GPUs answer NOT_SUPPORTED. */
    public SyntheticMachine fabricCallUnsupported() {
        this.fabricKind = FabricKind.CALL_UNSUPPORTED;
        return this;
    }

    /** Hopper or newer outside an NVSwitch fabric: the call answers with state NOT_SUPPORTED. */
    public SyntheticMachine fabricNotSupported() {
        this.fabricKind = FabricKind.STATE_NOT_SUPPORTED;
        return this;
    }

    /**
     * Fabric registration COMPLETED with {@code NVML_SUCCESS}.
     *
     * @param healthMask    raw v2+ mask, or null when no public source states it
     * @param healthSummary {@code nvmlGpuFabricHealthSummary} name (HEALTHY, UNHEALTHY, LIMITED_CAPACITY), or null when
     *                      no public source states it
     */
    public SyntheticMachine fabricCompleted(String clusterUuid, long cliqueId, Long healthMask, String healthSummary) {
        this.fabricKind = FabricKind.COMPLETED;
        this.clusterUuid = clusterUuid;
        this.cliqueId = cliqueId;
        this.healthMask = healthMask;
        this.healthSummary = healthSummary;
        return this;
    }

    /**
     * One RDMA adapter per GPU, each pair under its own PCIe switch (root port, switch upstream port, two downstream
     * ports): {@code nvidia-smi topo -m} shows PIX for the pair, NODE to the other pairs of the socket, SYS across.
     * The bridges' addresses are illustrative (derived from the NIC's bus), the NIC's bus is the caller's.
     *
     * @param adapter    {@code ConnectX-7 (MT4129)}
     * @param rate       the port rate as sysfs prints it, {@code 400 Gb/sec (4X NDR)}
     * @param nicPcis    one per GPU, in GPU order
     */
    public SyntheticMachine rdmaNicPerGpuUnderSwitch(String adapter, String rate, String... nicPcis) {
        require(nicPcis.length == slots.size(), "one NIC per GPU");
        for (int i = 0; i < nicPcis.length; i++) {
            PciAddress nic = PciAddress.parse(nicPcis[i]);
            Slot gpu = slots.get(i);
            int root = nic.bus() - 3;
            String hostBridge = String.format(Locale.ROOT, "pci%04x:%02x", nic.domain(), root);
            String rootPort = String.format(Locale.ROOT, "%04x:%02x:01.0", nic.domain(), root);
            String upstream = String.format(Locale.ROOT, "%04x:%02x:00.0", nic.domain(), root + 1);
            String downNic = String.format(Locale.ROOT, "%04x:%02x:00.0", nic.domain(), root + 2);
            String downGpu = String.format(Locale.ROOT, "%04x:%02x:01.0", nic.domain(), root + 2);
            gpuPlaces.add(new dev.fabricscope.model.NodeInfo.PcieEndpoint(gpu.pci().toString(),
                    Reading.of(List.of(hostBridge, rootPort, upstream, downGpu)), Reading.of(gpu.hostNumaNode())));
            addNic(nic, adapter, rate, gpu.hostNumaNode(), List.of(hostBridge, rootPort, upstream, downNic));
        }
        return this;
    }

    /**
     * RDMA adapters on host bridges of their own (Grace: every PCIe device its own root complex), each GPU likewise:
     * NODE to the adapters of the same NUMA node, SYS across.
     */
    public SyntheticMachine rdmaNicsOnOwnHostBridges(String adapter, String rate, int[] numaNodes, String... nicPcis) {
        for (Slot gpu : slots) {
            String hb = String.format(Locale.ROOT, "pci%04x:00", gpu.pci().domain());
            gpuPlaces.add(new dev.fabricscope.model.NodeInfo.PcieEndpoint(gpu.pci().toString(),
                    Reading.of(List.of(hb, String.format(Locale.ROOT, "%04x:00:00.0", gpu.pci().domain()))), Reading.of(gpu.hostNumaNode())));
        }
        for (int k = 0; k < nicPcis.length; k++) {
            PciAddress nic = PciAddress.parse(nicPcis[k]);
            String hb = String.format(Locale.ROOT, "pci%04x:00", nic.domain());
            addNic(nic, adapter, rate, numaNodes[k], List.of(hb, String.format(Locale.ROOT, "%04x:00:00.0", nic.domain())));
        }
        return this;
    }

    private void addNic(PciAddress pci, String adapter, String rate, int numa, List<String> path) {
        String name = "mlx5_" + nics.size();
        String netdev = pci.domain() == 0 ? "ibp" + pci.bus() + "s0" : "ibP" + pci.domain() + "p" + pci.bus() + "s0";
        nics.add(new dev.fabricscope.model.Nic(name, true, Reading.of(pci.toString()), Reading.of(adapter), notInSpec(),
                Reading.of(numa), Reading.of(path), List.of(new dev.fabricscope.model.Nic.Port(1, Reading.of("InfiniBand"),
                Reading.of("ACTIVE"), Reading.of("LinkUp"), Reading.of(rate))), List.of(netdev)));
    }

    /** The services' systemd states: {@code active}, {@code inactive} or {@code not installed}. */
    public SyntheticMachine services(String fabricManager, String imex) {
        Reading<List<Integer>> notScanned = Reading.missing(Missing.notApplicable("systemd answers; processes not scanned"));
        services.add(new dev.fabricscope.model.NodeInfo.ServiceState("nvidia-fabricmanager", Reading.of(fabricManager), notScanned,
                Reading.of("active".equals(fabricManager))));
        services.add(new dev.fabricscope.model.NodeInfo.ServiceState("nvidia-imex", Reading.of(imex), notScanned,
                Reading.of("active".equals(imex))));
        return this;
    }

    // ------------------------------------------------------------------ build

    public MachineSnapshot build() {
        check();
        List<List<NvLink>> links = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) {
            links.add(new ArrayList<>());
        }
        for (int i = 0; i < slots.size(); i++) {
            if (switchPcis != null) {
                for (int s : switchOfLink) {
                    addLink(links.get(i), NvLink.REMOTE_SWITCH, Reading.of(switchPcis.get(s)));
                }
            }
            for (int l = 0; l < hiddenSwitchLinks; l++) {
                addLink(links.get(i), NvLink.REMOTE_SWITCH, Reading.missing(new Missing(Missing.Kind.NOT_APPLICABLE,
                        "nvmlDeviceGetNvLinkRemotePciInfo_v2", null, null, "far end has no PCI address (switch not visible to this OS)")));
            }
        }
        for (int[] b : bridges) {
            for (int l = 0; l < b[2]; l++) {
                addLink(links.get(b[0]), NvLink.REMOTE_GPU, Reading.of(slots.get(b[1]).pci()));
                addLink(links.get(b[1]), NvLink.REMOTE_GPU, Reading.of(slots.get(b[0]).pci()));
            }
        }
        FabricInfo fabric = fabric();
        List<Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) {
            gpus.add(gpu(i, links.get(i), fabric));
        }
        List<GpuPair> pairs = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                pairs.add(pair(gpus.get(i), gpus.get(j), slots.get(i), slots.get(j)));
            }
        }
        DriverInfo driver = new DriverInfo(DriverInfo.Status.OK, null, Reading.of(driverVersion), Reading.of(cudaVersion),
                Reading.of(cudaVersion.substring(0, cudaVersion.indexOf('.')) + "." + driverVersion), nccl,
                Reading.of(imexChannels), Reading.of(gpus.size()));
        ProbeInfo info = new ProbeInfo(Version.get(), null, List.of(), null, ProbeInfo.Origin.SYNTHETIC, description);
        dev.fabricscope.model.NodeInfo node = nics.isEmpty() && services.isEmpty() ? null
                : new dev.fabricscope.model.NodeInfo(Reading.of(List.copyOf(nics)), gpuPlaces, services);
        MachineSnapshot s = new MachineSnapshot(MachineSnapshot.SCHEMA_VERSION, info, host, driver, gpus,
                Topology.switches(gpus), pairs, environment, List.of(), node);
        return s.withFindings(SnapshotAnalyzer.findings(s));
    }

    private void check() {
        require(description != null, "describedAs(...) not set");
        require(host != null, "host(...) not set");
        require(driverVersion != null, "driver(...) not set");
        require(nccl != null, "systemNccl(...) not set");
        require(model != null, "gpuModel(...) not set");
        require(!slots.isEmpty(), "no GPU added");
        require(fabricKind != null, "fabric state not set");
        boolean anyLinks = switchPcis != null || hiddenSwitchLinks > 0 || !bridges.isEmpty();
        require(!anyLinks || NvLinkSpecs.generation(model.cc()) > 0,
                model.name() + " (SM " + model.computeCapability() + ") has no NVLink");
        require(switchPcis == null || hiddenSwitchLinks == 0, "switches are either PCI-visible or hidden, not both");
        boolean switched = switchPcis != null || hiddenSwitchLinks > 0;
        require(!model.multicast() || switched, "CUDA multicast needs an NVSwitch fabric");
        require(fabricKind != FabricKind.COMPLETED || switched, "fabric registration needs NVSwitches");
        for (int[] b : bridges) {
            require(b[0] >= 0 && b[1] < slots.size() && b[0] < b[1], "bridge between GPUs " + b[0] + " and " + b[1]);
        }
        List<HostInfo.NumaNode> nodes = host.numaNodes().value();
        for (Slot s : slots) {
            require(s.hostNumaNode() < nodes.size() && nodes.get(s.hostNumaNode()).cpus().equals(s.cpuAffinity()),
                    s.pci() + ": CPU affinity must be its NUMA node's CPU list");
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("inconsistent synthetic machine: " + what);
        }
    }

    private void addLink(List<NvLink> to, String remoteType, Reading<PciAddress> remote) {
        double cc = model.cc();
        to.add(new NvLink(to.size(), Reading.of(true), model.nvLinkVersionCode(), Reading.of(NvLinkSpecs.generation(cc)),
                Reading.of(remoteType), remote, Reading.of(NvLinkSpecs.gbpsPerLinkPerDirection(cc))));
    }

    private Gpu gpu(int index, List<NvLink> links, FabricInfo fabric) {
        Slot s = slots.get(index);
        CudaAttributes cuda = new CudaAttributes(Reading.of(true), Reading.of(true), model.fabricHandles(),
                Reading.of(model.multicast()), model.gpuDirectRdma(), Reading.of(true), Reading.of(s.hostNumaNode()));
        Reading<String> mig = model.migCapable() ? Reading.of("Disabled")
                : Reading.missing(nvmlNotSupported("nvmlDeviceGetMigMode"));
        String uuid = String.format(Locale.ROOT, "GPU-00000000-0000-4000-8000-0000%04x%04x", tag, index);
        String serial = String.format(Locale.ROOT, "SYN%010d", tag * 1000 + index);
        return new Gpu(s.pci(), Reading.of(uuid), Reading.of(index), Reading.of(index), Reading.of(model.name()),
                Reading.of(serial), Reading.of(model.architecture()), Reading.of(model.computeCapability()),
                model.smCount(), model.memoryBytes() > 0 ? Reading.of(model.memoryBytes()) : notInSpec(),
                Reading.of(s.hostNumaNode()), Reading.of(s.cpuAffinity()), mig, Reading.of("None"), Reading.of(true), cuda,
                Reading.of(links.size()), links, fabric, null, null, hostLink);
    }

    private FabricInfo fabric() {
        return switch (fabricKind) {
            case CALL_UNSUPPORTED -> FabricInfo.unanswered(nvmlNotSupported("nvmlDeviceGetGpuFabricInfoV"));
            case STATE_NOT_SUPPORTED -> FabricInfo.outsideFabric(FABRIC_API, NVML_SUCCESS);
            case COMPLETED -> new FabricInfo(Reading.of(FABRIC_API), Reading.of(FabricInfo.COMPLETED), Reading.of(NVML_SUCCESS),
                    Reading.of(cliqueId), Reading.of(canonicalUuid(clusterUuid)),
                    healthMask == null ? notInSpec() : Reading.of(healthMask),
                    healthSummary == null ? notInSpec() : Reading.of(healthSummary));
        };
    }

    /** What NVML's {@code NVML_ERROR_NOT_SUPPORTED} answer to {@code call} reads as in a snapshot. */
    static Missing nvmlNotSupported(String call) {
        return Missing.unsupported(call, NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_NOT_SUPPORTED_VALUE);
    }

    /** NVML's cluster UUID as the probe records it: 32 hex digits (4 dashes anywhere) written 8-4-4-4-12. */
    static String canonicalUuid(String uuid) {
        String hex = uuid.replace("-", "");
        if (!hex.matches("[0-9a-f]{32}") || uuid.length() != 36) {
            throw new IllegalArgumentException("not a canonical UUID: " + uuid);
        }
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20)
                + "-" + hex.substring(20);
    }

    /**
     * The NVML PCIe ancestor: PXB under a shared PCIe switch tree, NODE within one NUMA node, SYS across nodes;
     * P2P over NVLink is fully OK; over PCIe within a NUMA node read/write work but NVLink and atomics do not;
     * across NUMA nodes PCIe P2P depends on the platform, so it stays unknown.
     */
    private GpuPair pair(Gpu a, Gpu b, Slot sa, Slot sb) {
        Reading<String> pcie;
        if (pcieUnknown) {
            pcie = notInSpec();
        } else if (sa.pcieSwitch() != null && sa.pcieSwitch().equals(sb.pcieSwitch())) {
            pcie = Reading.of("PXB");
        } else {
            pcie = Reading.of(sa.hostNumaNode() == sb.hostNumaNode() ? "NODE" : "SYS");
        }
        Reading<Integer> nvLinks = Topology.nvLinksBetween(a, b);
        Reading<String> letter = Topology.letter(nvLinks, pcie);
        if (nvLinks.value() > 0) {
            Reading<String> ok = Reading.of("OK");
            return new GpuPair(a.pci(), b.pci(), letter, pcie, nvLinks, ok, ok, ok, ok, ok, Reading.of(true),
                    notInSpec(), Reading.of(true));
        }
        if (sa.hostNumaNode() == sb.hostNumaNode()) {
            Reading<String> ok = Reading.of("OK");
            Reading<String> ns = Reading.of("NS");
            return new GpuPair(a.pci(), b.pci(), letter, pcie, nvLinks, ok, ok, ns, ns, ok, Reading.of(true),
                    notInSpec(), Reading.of(false));
        }
        return new GpuPair(a.pci(), b.pci(), letter, pcie, nvLinks, notInSpec(), notInSpec(), Reading.of("NS"),
                notInSpec(), notInSpec(), notInSpec(), notInSpec(), Reading.of(false));
    }
}
