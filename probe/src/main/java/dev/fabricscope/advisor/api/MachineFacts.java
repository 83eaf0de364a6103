package dev.fabricscope.advisor.api;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.Topology;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The machine facts the backend rules read, for one node of the machine: derived from a snapshot, then overridden
 * by {@code --assume}. Every fact says where it came from; unknown facts carry the value the advisor works with
 * and the reason, never a silent guess.
 *
 * @param gpuLabel the snapshot's GPUs as the text names them ({@code GPU 0–7}), or null without a snapshot
 * @param gpuName  the GPU model from the snapshot ({@code NVIDIA H100 80GB HBM3}), or null
 * @param origin   where the snapshot came from (live probe, sample, file), or {@code --assume only}
 */
public record MachineFacts(Fact<String> platform, Fact<String> sm, Fact<Integer> gpusPerNode, Fact<Integer> nodes,
                           Fact<Boolean> multicast, Fact<Boolean> fabricHandles, Fact<Boolean> mnnvlFabric,
                           Fact<Boolean> nvswitch, Fact<Boolean> allNvlink, Fact<Boolean> nvlinkBridge, Fact<Boolean> p2p, Fact<String> torchCuda,
                           Fact<Boolean> confidentialCompute, Fact<String> hostArch, Fact<Boolean> flashinfer,
                           Fact<String> ncclVersion, Fact<Boolean> fabricReady, Fact<Boolean> imexChannel, String gpuLabel, String gpuName,
                           String origin, GroupLinks groupLinks) {

    /** How an unknown fact's detail starts when MIG mode is why (verdicts name it: {@link Fact#note}). */
    public static final String MIG_CAUSE = "MIG mode is enabled on ";

    /** Where MIG's lack of peer access is written down. */
    public static final String MIG_SOURCE = "RAPIDS deployment guide, Multi-Instance GPU: no CUDA IPC, \"NVLink and NVSwitch"
            + " are thus completely unavailable\"; NVIDIA vGPU P2P notes: MIG-backed vGPUs are not supported";

    /** Facts of {@code snapshot} (null: none) with {@code assume} (keys as {@link FactKey#key}) applied on top. */
    public static MachineFacts derive(MachineSnapshot snapshot, Map<String, String> assume) throws AdvisorInputException {
        Map<FactKey, String> a = parseAssumptions(assume);
        Probed p = snapshot == null ? Probed.none() : Probed.cached(snapshot);
        Map<FactKey, Fact<?>> f = new EnumMap<>(FactKey.class);
        p.facts.forEach(f::put);
        a.forEach((k, v) -> f.put(k, Fact.assumed(typed(k, v), k)));
        fillUnknowns(f);
        return new MachineFacts(cast(f.get(FactKey.PLATFORM)), cast(f.get(FactKey.SM)), cast(f.get(FactKey.GPUS_PER_NODE)),
                cast(f.get(FactKey.NODES)), cast(f.get(FactKey.MULTICAST)), cast(f.get(FactKey.FABRIC_HANDLES)),
                cast(f.get(FactKey.MNNVL_FABRIC)), cast(f.get(FactKey.NVSWITCH)), cast(f.get(FactKey.ALL_NVLINK)),
                cast(f.get(FactKey.NVLINK_BRIDGE)), cast(f.get(FactKey.P2P)), cast(f.get(FactKey.TORCH_CUDA)), cast(f.get(FactKey.CONFIDENTIAL_COMPUTE)),
                cast(f.get(FactKey.HOST_ARCH)), cast(f.get(FactKey.FLASHINFER)), cast(f.get(FactKey.NCCL_VERSION)),
                cast(f.get(FactKey.FABRIC_READY)), cast(f.get(FactKey.IMEX_CHANNEL)), p.gpuLabel, p.gpuName,
                snapshot == null ? "--assume only" : p.origin, p.groupLinks);
    }

    /** Validated, normalised {@code --assume} values. */
    static Map<FactKey, String> parseAssumptions(Map<String, String> assume) throws AdvisorInputException {
        Map<FactKey, String> out = new EnumMap<>(FactKey.class);
        if (assume == null) {
            return out;
        }
        for (Map.Entry<String, String> e : assume.entrySet()) {
            FactKey k = FactKey.of(e.getKey()).orElse(null);
            if (k == null) {
                throw new AdvisorInputException("unknown --assume key '" + e.getKey() + "'; valid: " + String.join(", ", FactKey.keys()));
            }
            out.put(k, k.parse(e.getValue()));
        }
        return out;
    }

    private static Object typed(FactKey k, String v) {
        return switch (k.type) {
            case BOOL -> Boolean.parseBoolean(v);
            case COUNT -> Integer.parseInt(v);
            default -> v;
        };
    }

    @SuppressWarnings("unchecked")
    private static <T> Fact<T> cast(Fact<?> f) {
        return (Fact<T>) f;
    }

    /** Gives every fact the rules read a working value, saying why when it was not known. */
    private static void fillUnknowns(Map<FactKey, Fact<?>> f) {
        Fact<?> sm = f.get(FactKey.SM);
        if (f.get(FactKey.PLATFORM) == null || f.get(FactKey.PLATFORM).value() == null) {
            Fact<?> old = f.get(FactKey.PLATFORM);
            f.put(FactKey.PLATFORM, sm != null && sm.origin() == Fact.Origin.ASSUMED
                    ? Fact.derived("cuda", "implied by --assume sm")
                    : Fact.unknown(null, old != null ? old.detail() : "no snapshot and no --assume platform"));
        }
        if (sm == null) {
            f.put(FactKey.SM, Fact.unknown(null, "no GPU compute capability in the snapshot; give --assume sm=X.Y"));
        }
        boolean cuda = "cuda".equals(f.get(FactKey.PLATFORM).value());
        String smValue = (String) f.get(FactKey.SM).value();
        boolean hopperOrNewer = cuda && smValue != null && Values.compareVersions(smValue, "9.0") >= 0;
        f.putIfAbsent(FactKey.GPUS_PER_NODE, Fact.unknown(null, "no snapshot; taken from the deployment (TP ÷ nodes)"));
        f.putIfAbsent(FactKey.NODES, Fact.unknown(1, "not given; taken as 1"));

        Fact<?> nvs = f.get(FactKey.NVSWITCH);
        Fact<?> mc = f.get(FactKey.MULTICAST);
        if (mc == null || mc.value() == null) {
            String why = mc != null ? mc.detail() : "not read";
            if (nvs != null && nvs.value() != null) {
                boolean v = Boolean.TRUE.equals(nvs.value()) && hopperOrNewer;
                f.put(FactKey.MULTICAST, Fact.unknown(v, why + "; taken as " + v + (v ? " (NVSwitch on SM ≥ 9.0)"
                        : Boolean.TRUE.equals(nvs.value()) ? " (NVSwitch, but not SM ≥ 9.0)" : " (no NVSwitch)")));
            } else {
                f.put(FactKey.MULTICAST, Fact.unknown(false, why + "; taken as false"));
            }
        }
        if (nvs == null || nvs.value() == null) {
            String why = nvs != null ? nvs.detail() : "not read";
            boolean v = Boolean.TRUE.equals(f.get(FactKey.MULTICAST).value()) && f.get(FactKey.MULTICAST).origin() != Fact.Origin.UNKNOWN;
            f.put(FactKey.NVSWITCH, Fact.unknown(v, why + "; taken as " + v + (v ? " (multicast is supported)" : "")));
        }
        Fact<?> nvl = f.get(FactKey.ALL_NVLINK);
        if (nvl == null || nvl.value() == null) {
            boolean v = Boolean.TRUE.equals(f.get(FactKey.NVSWITCH).value());
            f.put(FactKey.ALL_NVLINK, Fact.unknown(v, (nvl != null ? nvl.detail() : "not read") + "; taken as " + v
                    + (v ? " (NVSwitch connects every pair)" : " (no NVSwitch known)")));
        }
        Fact<?> bridge = f.get(FactKey.NVLINK_BRIDGE);
        if (bridge == null || bridge.value() == null) {
            boolean v = !Boolean.TRUE.equals(f.get(FactKey.NVSWITCH).value()) && Boolean.TRUE.equals(f.get(FactKey.ALL_NVLINK).value());
            f.put(FactKey.NVLINK_BRIDGE, Fact.unknown(v, (bridge != null ? bridge.detail() : "not read") + "; taken as " + v
                    + (v ? " (NVLink between GPUs without NVSwitch)" : "")));
        }
        Fact<?> p2p = f.get(FactKey.P2P);
        if (p2p == null || p2p.value() == null) {
            f.put(FactKey.P2P, Fact.unknown(true, (p2p != null ? p2p.detail() : "not read") + "; taken as true"));
        }
        Fact<?> fh = f.get(FactKey.FABRIC_HANDLES);
        if (fh == null || fh.value() == null) {
            f.put(FactKey.FABRIC_HANDLES, Fact.unknown(false, (fh != null ? fh.detail() : "not read") + "; taken as false"));
        }
        Fact<?> mn = f.get(FactKey.MNNVL_FABRIC);
        if (mn == null || mn.value() == null) {
            Fact<?> handles = f.get(FactKey.FABRIC_HANDLES);
            boolean v = handles.origin() == Fact.Origin.ASSUMED && Boolean.TRUE.equals(handles.value());
            f.put(FactKey.MNNVL_FABRIC, Fact.unknown(v, (mn != null ? mn.detail() : "not read") + "; taken as " + v
                    + (v ? " (follows --assume fabric-handles=true)" : "")));
        }
        f.putIfAbsent(FactKey.TORCH_CUDA, Fact.unknown(null,
                "not visible to a probe; taken as new enough (≥ 12.3 for SM90, ≥ 12.8 for SM10x/SM12x)"));
        f.putIfAbsent(FactKey.CONFIDENTIAL_COMPUTE, Fact.unknown(false, "not read; taken as off"));
        Fact<?> arch = f.get(FactKey.HOST_ARCH);
        if (arch == null || arch.value() == null) {
            f.put(FactKey.HOST_ARCH, Fact.unknown("x86_64", (arch != null ? arch.detail() : "not read") + "; taken as x86_64"));
        }
        f.putIfAbsent(FactKey.FLASHINFER, Fact.unknown(true, "not visible to a probe; taken as installed with its comm module"));
        Fact<?> nccl = f.get(FactKey.NCCL_VERSION);
        if (nccl == null || nccl.value() == null) {
            f.put(FactKey.NCCL_VERSION, Fact.unknown(null, (nccl != null ? nccl.detail() : "not read") + "; taken as a current NCCL"));
        }
        Fact<?> ready = f.get(FactKey.FABRIC_READY);
        if (ready == null || ready.value() == null) {
            f.put(FactKey.FABRIC_READY, Fact.unknown(true, (ready != null ? ready.detail() : "not read") + "; taken as ready"));
        }
        // no working value: a rule that needs the IMEX state says unknown
        f.putIfAbsent(FactKey.IMEX_CHANNEL, Fact.unknown(null, "IMEX channels not read"));
    }

    /** Why the rules cannot run (no platform, or CUDA without a compute capability), or null. */
    public String insufficient() {
        if (platform.value() == null) {
            return "platform unknown (" + platform.detail() + ")";
        }
        if ("cuda".equals(platform.value()) && sm.value() == null) {
            return "GPU compute capability unknown (" + sm.detail() + ")";
        }
        return null;
    }

    public MachineFacts withGpusPerNode(Fact<Integer> g) {
        return new MachineFacts(platform, sm, g, nodes, multicast, fabricHandles, mnnvlFabric, nvswitch, allNvlink, nvlinkBridge, p2p,
                torchCuda, confidentialCompute, hostArch, flashinfer, ncclVersion, fabricReady, imexChannel, gpuLabel, gpuName, origin,
                groupLinks);
    }

    /** {@link #allNvlink} for a TP group of the node's first {@code k} GPUs ({@link GroupLinks}). */
    public Fact<Boolean> allNvlinkAmong(int k) {
        return GroupLinks.among(groupLinks.nvlink(), k, allNvlink);
    }

    /** {@link #p2p} for a TP group of the node's first {@code k} GPUs. */
    public Fact<Boolean> p2pAmong(int k) {
        return GroupLinks.among(groupLinks.p2p(), k, p2p);
    }

    /** The fact for a key. */
    public Fact<?> get(FactKey k) {
        return switch (k) {
            case SM -> sm;
            case PLATFORM -> platform;
            case NODES -> nodes;
            case GPUS_PER_NODE -> gpusPerNode;
            case MULTICAST -> multicast;
            case FABRIC_HANDLES -> fabricHandles;
            case MNNVL_FABRIC -> mnnvlFabric;
            case NVSWITCH -> nvswitch;
            case ALL_NVLINK -> allNvlink;
            case NVLINK_BRIDGE -> nvlinkBridge;
            case P2P -> p2p;
            case TORCH_CUDA -> torchCuda;
            case CONFIDENTIAL_COMPUTE -> confidentialCompute;
            case HOST_ARCH -> hostArch;
            case FLASHINFER -> flashinfer;
            case NCCL_VERSION -> ncclVersion;
            case FABRIC_READY -> fabricReady;
            case IMEX_CHANNEL -> imexChannel;
        };
    }

    /** Effective values keyed as {@code --assume} spells them (unknown values without a working value are left out). */
    public Map<String, Object> values() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (FactKey k : FactKey.values()) {
            m.put(k.key, get(k).value());
        }
        return m;
    }

    /** Where each fact came from, keyed as {@code --assume} spells them. */
    public Map<String, String> provenance() {
        Map<String, String> m = new LinkedHashMap<>();
        for (FactKey k : FactKey.values()) {
            m.put(k.key, get(k).provenance());
        }
        return m;
    }

    /** {@code GPU 0–7 are SM 9.0 (Hopper)} for probed GPUs, {@code the GPUs are SM 10.0 (…)} otherwise. */
    public String smPhrase() {
        if (sm.value() == null) {
            return "rocm".equals(platform.value()) ? "the machine has AMD (ROCm) GPUs"
                    : "cpu".equals(platform.value()) ? "the machine has no GPUs" : "the GPUs' compute capability is unknown";
        }
        String s = "SM " + sm.value() + " (" + architecture(sm.value()) + ")";
        if (sm.probed() && gpuLabel != null) {
            boolean one = !gpuLabel.contains("–");
            return gpuLabel + (one ? " is " : " are ") + s;
        }
        return "the GPUs are " + s;
    }

    /** Architecture name of a compute capability, as NVIDIA's CUDA GPU table groups them. */
    public static String architecture(String sm) {
        if (sm == null) {
            return "unknown";
        }
        return switch (sm) {
            case "7.0", "7.2" -> "Volta";
            case "7.5" -> "Turing";
            case "8.0", "8.6", "8.7", "8.8" -> "Ampere";
            case "8.9" -> "Ada Lovelace";
            case "9.0" -> "Hopper";
            case "10.0" -> "Blackwell, B200/GB200 class";
            case "10.3" -> "Blackwell Ultra, B300/GB300 class";
            case "11.0" -> "Blackwell, Jetson Thor";
            case "12.0" -> "Blackwell, RTX PRO 6000 / RTX 50xx class";
            case "12.1" -> "Blackwell, GB10 / DGX Spark";
            default -> {
                int major = Integer.parseInt(sm.split("\\.")[0]);
                yield major >= 10 ? "Blackwell-family or newer" : "pre-Hopper";
            }
        };
    }

    /**
     * torch's CUDA, FlashInfer and the NCCL the frameworks load, read from the frameworks' Python environment (the
     * snapshot's stack): probed facts replace the assumptions where the environment was read.
     */
    static void stackFacts(MachineSnapshot s, Map<FactKey, Fact<?>> f) {
        dev.fabricscope.model.PythonStack stack = s.pythonStack();
        if (stack == null) {
            return;
        }
        java.util.Optional<dev.fabricscope.model.PythonEnvironment> fw = stack.frameworkEnvironment();
        if (fw.isEmpty()) {
            String where = stack.environments().isEmpty() ? "no Python environment found on the machine"
                    : "no Python environment on the machine has torch";
            f.put(FactKey.TORCH_CUDA, Fact.unknown(null, where + "; taken as new enough (≥ 12.3 for SM90, ≥ 12.8 for SM10x/SM12x)"));
            f.put(FactKey.FLASHINFER, Fact.unknown(true, where + "; taken as installed with its comm module"));
            return;
        }
        dev.fabricscope.model.PythonEnvironment e = fw.get();
        String in = " in " + visible(e.prefix());
        if (e.torchCuda().isPresent()) {
            f.put(FactKey.TORCH_CUDA, Fact.probed(e.torchCuda().get(), "torch/version.py of torch " + e.torch().value().version() + in));
        } else if (e.pkg("torch").isPresent()) {
            String why = e.torch().isPresent() ? e.torch().value().cuda().missing().describe() : e.torch().missing().describe();
            f.put(FactKey.TORCH_CUDA, Fact.unknown(null, "torch/version.py" + in + ": " + why
                    + "; taken as new enough (≥ 12.3 for SM90, ≥ 12.8 for SM10x/SM12x)"));
        }
        java.util.Optional<String> fi = e.version("flashinfer-python");
        f.put(FactKey.FLASHINFER, fi.isPresent() ? Fact.probed(true, "flashinfer-python " + fi.get() + in)
                : Fact.probed(false, "no flashinfer-python" + in));
        java.util.Optional<dev.fabricscope.model.PythonStack.LoadedNccl> nccl = dev.fabricscope.model.PythonStack.loadedNccl(e,
                s.environment(), s.driver() == null ? null : s.driver().nccl());
        if (nccl.isPresent() && nccl.get().version() != null && READABLE_VERSION.matcher(nccl.get().version()).matches()) {
            f.put(FactKey.NCCL_VERSION, Fact.probed(nccl.get().version(), visible(nccl.get().how()) + "," + in));
        }
    }

    private static String visible(String s) {
        return dev.fabricscope.text.Escape.visible(dev.fabricscope.text.Escape.cut(s, 200), false);
    }

    /** What a snapshot says, before assumptions. */
    private record Probed(Map<FactKey, Fact<?>> facts, String gpuLabel, String gpuName, String origin, GroupLinks groupLinks) {

        static Probed none() {
            return new Probed(Map.of(), null, null, null, GroupLinks.NONE);
        }

        /** The last snapshot read and what was read of it (one advice derives its facts again for every plan it checks). */
        private record Last(MachineSnapshot snapshot, Probed probed) {
        }

        private static volatile Last last;

        /** {@link #of}, read once for the same snapshot instance (snapshots are immutable). */
        static Probed cached(MachineSnapshot s) {
            Last l = last;
            if (l != null && l.snapshot() == s) {
                return l.probed();
            }
            Probed p = of(s);
            last = new Last(s, p);
            return p;
        }

        static Probed of(MachineSnapshot s) {
            Map<FactKey, Fact<?>> f = new EnumMap<>(FactKey.class);
            String origin = s.probe() == null ? "snapshot" : switch (s.probe().origin()) {
                case LIVE -> "live probe";
                case CAPTURED -> "captured snapshot";
                case SYNTHETIC -> "synthetic snapshot";
                case REPLAYED -> "replayed trace";
            };
            boolean driver = s.driver() != null && s.driver().driverPresent();
            List<Gpu> gpus = s.gpus();
            f.put(FactKey.HOST_ARCH, s.host() != null && s.host().architecture().isPresent()
                    ? Fact.probed(normaliseArch(s.host().architecture().value()), "host architecture " + s.host().architecture().value())
                    : Fact.unknown(null, "host architecture not read"));
            if (s.driver() != null && s.driver().nccl() != null && s.driver().nccl().version().isPresent()) {
                String raw = s.driver().nccl().version().value();
                f.put(FactKey.NCCL_VERSION, raw != null && READABLE_VERSION.matcher(raw).matches()
                        ? Fact.probed(raw, "ncclGetVersion of " + dev.fabricscope.text.Escape.visible(
                                dev.fabricscope.text.Escape.cut(s.driver().nccl().path().orElse("libnccl.so.2"), 200), false))
                        : Fact.unknown(null, unreadableNccl(raw)));
            } else {
                f.put(FactKey.NCCL_VERSION, Fact.unknown(null, "no NCCL library found on the host"));
            }
            stackFacts(s, f);
            f.put(FactKey.IMEX_CHANNEL, imexChannel(s));
            if (!driver || gpus.isEmpty()) {
                String why = !driver ? "no NVIDIA driver in the snapshot" + (s.driver() != null && s.driver().message() != null ? " (" + s.driver().message() + ")" : "")
                        : "the driver reports no GPU";
                f.put(FactKey.PLATFORM, Fact.unknown(null, why));
                return new Probed(f, null, null, origin, GroupLinks.NONE);
            }
            String label = gpus.size() == 1 ? "GPU 0" : "GPU 0–" + (gpus.size() - 1);
            String name = gpus.stream().map(g -> g.name().orElse("?")).distinct().collect(Collectors.joining(" / "));
            f.put(FactKey.PLATFORM, Fact.probed("cuda", "NVIDIA driver " + s.driver().driverVersion().orElse("?") + " with " + gpus.size() + " GPU(s)"));
            f.put(FactKey.GPUS_PER_NODE, Fact.probed(gpus.size(), gpus.size() + " GPU(s) in the snapshot"));
            f.put(FactKey.NODES, Fact.probed(1, "a snapshot shows one node"));
            smFact(f, gpus, label);
            f.put(FactKey.MULTICAST, allGpus(gpus, label, g -> g.cuda().multicast(), "CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED"));
            f.put(FactKey.FABRIC_HANDLES, allGpus(gpus, label, g -> g.cuda().fabricHandles(), "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED"));
            f.put(FactKey.MNNVL_FABRIC, mnnvl(gpus, label));
            f.put(FactKey.FABRIC_READY, fabricReady(gpus, label));
            f.put(FactKey.NVSWITCH, nvswitch(s, gpus));
            f.put(FactKey.NVLINK_BRIDGE, bridges(s, gpus));
            f.put(FactKey.ALL_NVLINK, pairs(s, gpus, MachineFacts::nvlinkConnected, "NVLink-connected"));
            f.put(FactKey.P2P, pairs(s, gpus, p -> p.cudaCanAccessPeer().value(), "peer-accessible (cuDeviceCanAccessPeer)"));
            String mig = migEnabled(gpus);
            if (mig != null) {
                // the links and attributes read are the whole GPUs'; a rank runs in a MIG instance, which has none of them
                String why = MIG_CAUSE + mig + ": between MIG instances there is no CUDA IPC and no peer"
                        + " access, so no NVLink and no multicast for a framework's ranks (" + MIG_SOURCE + "); the"
                        + " advisor does not model MIG instances";
                for (FactKey k : List.of(FactKey.P2P, FactKey.ALL_NVLINK, FactKey.NVLINK_BRIDGE, FactKey.MULTICAST, FactKey.FABRIC_HANDLES)) {
                    f.put(k, Fact.unknown(false, why + "; taken as false"));
                }
                return new Probed(f, label, name, origin, GroupLinks.NONE);
            }
            return new Probed(f, label, name, origin, groupLinks(s, gpus));
        }

        /** {@code GPU 0, 3} whose MIG mode reads Enabled (current), or null when none does. */
        private static String migEnabled(List<Gpu> gpus) {
            List<String> on = new java.util.ArrayList<>();
            for (int i = 0; i < gpus.size(); i++) {
                Reading<String> m = gpus.get(i).migMode();
                if (m != null && m.isPresent() && m.value().startsWith("Enabled")) {
                    on.add(Integer.toString(i));
                }
            }
            return on.isEmpty() ? null : "GPU " + String.join(", ", on);
        }

        /** NVLink and P2P among the first k GPUs, k = 2 .. all but the last (the whole node is the machine-wide fact). */
        private static GroupLinks groupLinks(MachineSnapshot s, List<Gpu> gpus) {
            return new GroupLinks(prefixPairs(s, gpus, MachineFacts::nvlinkConnected, "NVLink-connected"),
                    prefixPairs(s, gpus, p -> p.cudaCanAccessPeer().value(), "peer-accessible (cuDeviceCanAccessPeer)"));
        }

        /**
         * {@link #pairs} over the first k GPUs for k = 2 .. n − 1, each pair read once: the group of k + 1 adds only the
         * pairs with GPU k, and the first failing (then the first unread) pair in pairs' scan order (i, then j) is kept,
         * so every fact says what pairs would say of that group, in O(n²) reads rather than O(n³).
         */
        private static List<Fact<Boolean>> prefixPairs(MachineSnapshot s, List<Gpu> gpus, Function<GpuPair, Boolean> test, String what) {
            List<Fact<Boolean>> out = new java.util.ArrayList<>();
            int[] firstFalse = null;
            int[] firstUnknown = null;
            for (int j = 1; j < gpus.size() - 1; j++) {
                for (int i = 0; i < j; i++) {
                    GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                    Boolean ok = p == null ? null : test.apply(p);
                    if (Boolean.FALSE.equals(ok) && (firstFalse == null || i < firstFalse[0])) {
                        firstFalse = new int[] {i, j};
                    } else if (ok == null && (firstUnknown == null || i < firstUnknown[0])) {
                        firstUnknown = new int[] {i, j};
                    }
                }
                out.add(firstFalse != null ? Fact.probed(false, "GPU " + firstFalse[0] + " and GPU " + firstFalse[1] + " are not " + what)
                        : firstUnknown != null ? Fact.unknown(null, "GPU " + firstUnknown[0] + "–" + firstUnknown[1] + " not read")
                        : Fact.probed(true, "every GPU pair is " + what));
            }
            return out;
        }

        /** The channel devices HostProbe listed under /dev/nvidia-caps-imex-channels; unread stays unknown. */
        private static Fact<Boolean> imexChannel(MachineSnapshot s) {
            if (s.driver() == null || s.driver().imexChannels() == null || !s.driver().imexChannels().isPresent()) {
                String why = s.driver() == null || s.driver().imexChannels() == null ? "not in the snapshot"
                        : s.driver().imexChannels().missing().describe();
                return Fact.unknown(null, "IMEX channels under " + IMEX_DIR + " not read (" + why + ")");
            }
            List<String> channels = s.driver().imexChannels().value();
            return channels.isEmpty() ? Fact.probed(false, "no channel device under " + IMEX_DIR)
                    : Fact.probed(true, channels.size() + " channel device(s) under " + IMEX_DIR + " ("
                    + visible(String.join(", ", channels.stream().map(c -> c.substring(c.lastIndexOf('/') + 1)).toList())) + ")");
        }

        private static void smFact(Map<FactKey, Fact<?>> f, List<Gpu> gpus, String label) {
            if (gpus.stream().anyMatch(g -> !g.computeCapability().isPresent())) {
                Gpu g = gpus.stream().filter(x -> !x.computeCapability().isPresent()).findFirst().orElseThrow();
                f.put(FactKey.SM, Fact.unknown(null, "compute capability not read (" + g.computeCapability().missing().describe() + "); give --assume sm=X.Y"));
                return;
            }
            List<String> caps = gpus.stream().map(g -> g.computeCapability().value()).distinct().toList();
            if (caps.size() == 1) {
                f.put(FactKey.SM, Fact.probed(caps.get(0), label + " report compute capability " + caps.get(0)));
            } else {
                f.put(FactKey.SM, Fact.probed(gpus.get(0).computeCapability().value(), "GPUs differ (" + String.join(", ", caps)
                        + "); frameworks read the current device, so GPU 0's is used"));
            }
        }

        private static Fact<Boolean> allGpus(List<Gpu> gpus, String label, Function<Gpu, Reading<Boolean>> attr, String name) {
            for (int i = 0; i < gpus.size(); i++) {
                Reading<Boolean> r = attr.apply(gpus.get(i));
                if (!r.isPresent()) {
                    return Fact.unknown(null, name + " not read on GPU " + i + " (" + r.missing().describe() + ")");
                }
            }
            for (int i = 0; i < gpus.size(); i++) {
                if (!attr.apply(gpus.get(i)).value()) {
                    return Fact.probed(false, "GPU " + i + " reports " + name + " = 0");
                }
            }
            return Fact.probed(true, label + " report " + name + " = 1");
        }

        private static Fact<Boolean> mnnvl(List<Gpu> gpus, String label) {
            for (int i = 0; i < gpus.size(); i++) {
                FabricInfo fi = gpus.get(i).fabric();
                if (fi == null || !fi.state().isPresent()) {
                    return Fact.unknown(null, "GPU fabric state not read on GPU " + i
                            + (fi == null ? "" : " (" + fi.state().missing().describe() + ")"));
                }
            }
            for (int i = 0; i < gpus.size(); i++) {
                FabricInfo fi = gpus.get(i).fabric();
                if (!fi.inMnnvlDomain()) {
                    return Fact.probed(false, "GPU " + i + " fabric state " + fi.state().value() + ", cluster UUID "
                            + fi.clusterUuid().orElse("unknown") + ": not in an MNNVL domain");
                }
            }
            return Fact.probed(true, label + " fabric state COMPLETED with cluster UUID " + gpus.get(0).fabric().clusterUuid().value());
        }

        private static Fact<Boolean> fabricReady(List<Gpu> gpus, String label) {
            for (int i = 0; i < gpus.size(); i++) {
                FabricInfo fi = gpus.get(i).fabric();
                String st = fi == null ? null : fi.state().value();
                if ("NOT_STARTED".equals(st) || "IN_PROGRESS".equals(st)) {
                    return Fact.probed(false, "GPU " + i + " fabric state " + st + " (Fabric Manager has not finished)");
                }
                if (FabricInfo.COMPLETED.equals(st) && fi.status().isPresent() && !"NVML_SUCCESS".equals(fi.status().value())) {
                    return Fact.probed(false, "GPU " + i + " fabric registration completed with " + fi.status().value());
                }
                if (st == null) {
                    return Fact.unknown(null, "GPU fabric state not read on GPU " + i);
                }
            }
            return Fact.probed(true, label + " fabric state not pending");
        }

        private static Fact<Boolean> nvswitch(MachineSnapshot s, List<Gpu> gpus) {
            if (!s.nvSwitches().isEmpty()) {
                return Fact.probed(true, s.nvSwitches().size() + " NVSwitch(es) at the far end of NVLinks");
            }
            for (int i = 0; i < gpus.size(); i++) {
                if (!Topology.linksKnown(gpus.get(i))) {
                    Gpu g = gpus.get(i);
                    String why = g.nvLinks().isEmpty() ? g.nvLinkCount().display()
                            : g.nvLinks().get(0).active().isPresent() ? "unknown" : g.nvLinks().get(0).active().missing().describe();
                    return Fact.unknown(null, "NVLink state not readable on GPU " + i + " (" + why + ")");
                }
            }
            return Fact.probed(false, "no active NVLink ends at an NVSwitch");
        }

        private static Fact<Boolean> bridges(MachineSnapshot s, List<Gpu> gpus) {
            if (gpus.stream().anyMatch(g -> !Topology.linksKnown(g))) {
                return Fact.unknown(null, "NVLink state not readable");
            }
            for (int i = 0; i < gpus.size(); i++) {
                for (var l : gpus.get(i).activeLinks()) {
                    if (dev.fabricscope.model.NvLink.REMOTE_GPU.equals(l.remoteType().value())) {
                        return Fact.probed(s.nvSwitches().isEmpty(), "GPU " + i + " has direct GPU-to-GPU NVLinks"
                                + (s.nvSwitches().isEmpty() ? " and no NVSwitch is seen" : " besides NVSwitches"));
                    }
                }
            }
            return Fact.probed(false, "no direct GPU-to-GPU NVLink");
        }

        private static Fact<Boolean> pairs(MachineSnapshot s, List<Gpu> gpus, Function<GpuPair, Boolean> test, String what) {
            if (gpus.size() < 2) {
                return Fact.unknown(null, "the snapshot has one GPU, so no pair to read");
            }
            String unknown = null;
            for (int i = 0; i < gpus.size(); i++) {
                for (int j = i + 1; j < gpus.size(); j++) {
                    GpuPair p = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                    Boolean ok = p == null ? null : test.apply(p);
                    if (Boolean.FALSE.equals(ok)) {
                        return Fact.probed(false, "GPU " + i + " and GPU " + j + " are not " + what);
                    }
                    if (ok == null && unknown == null) {
                        unknown = "GPU " + i + "–" + j + " not read";
                    }
                }
            }
            return unknown != null ? Fact.unknown(null, unknown) : Fact.probed(true, "every GPU pair is " + what);
        }
    }

    /** NVML P2P NVLINK status OK, or NVLinks counted between the two; null when neither was read. */
    private static Boolean nvlinkConnected(GpuPair p) {
        if (p.p2pNvlink().isPresent()) {
            return "OK".equals(p.p2pNvlink().value()) || (p.nvLinks().isPresent() && p.nvLinks().value() > 0);
        }
        return p.nvLinks().isPresent() ? p.nvLinks().value() > 0 : null;
    }

    private static String normaliseArch(String a) {
        String x = a.toLowerCase(Locale.ROOT);
        return switch (x) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> x;
        };
    }

    /** A version the rules can compare: dot-separated numbers of at most 9 digits, up to four parts. */
    static final java.util.regex.Pattern READABLE_VERSION = java.util.regex.Pattern.compile("\\d{1,9}(\\.\\d{1,9}){0,3}");
    static final String IMEX_DIR = "/dev/nvidia-caps-imex-channels";
    public static final String NCCL_UNREADABLE = "NCCL version unreadable";

    /** {@code NCCL version unreadable ('2.x')}, the raw value cut and with control characters shown as escapes. */
    static String unreadableNccl(String raw) {
        String shown = raw == null ? "null" : "'" + dev.fabricscope.text.Escape.visible(dev.fabricscope.text.Escape.cut(raw, 60), false) + "'";
        return NCCL_UNREADABLE + " (" + shown + ")";
    }
}
