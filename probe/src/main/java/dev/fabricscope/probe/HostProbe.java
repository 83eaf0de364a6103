package dev.fabricscope.probe;

import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Host facts from /proc and /sys through the host seam (no DNS look-ups: they can stall on a node without network). */
public final class HostProbe {

    private final HostCalls host;

    public HostProbe() {
        this(Paths.get("/"));
    }

    /** @param root filesystem root, so tests can point at a fake /proc and /sys */
    public HostProbe(Path root) {
        this(new FileHost(root, System.getenv(), EnvironmentFilter::allowed, EnvironmentFilter::recorded));
    }

    public HostProbe(HostCalls host) {
        this.host = host;
    }

    public HostInfo probe() {
        Reading<String> arch = HostRead.HOST.read("os.arch", host.systemProperty("os.arch"), NativeReads::text);
        return new HostInfo(hostname(), os(), firstLine("/proc/sys/kernel/osrelease"), arch, cpuModel(), logicalCpus(),
                numaNodes(), nodeMask("has_cpu"), nodeMask("has_memory"), nodeMask("has_normal_memory"));
    }

    /** The environment variables worth recording (already filtered by the seam). */
    public Map<String, String> environment() {
        NativeAnswer<Map<String, String>> a = host.environment();
        return a.succeeded() && a.value() != null ? EnvironmentFilter.filter(a.value()) : Map.of();
    }

    private Reading<List<String>> lines(String path) {
        return HostRead.HOST.read("read " + path, host.readLines(path), v -> v);
    }

    private Reading<String> hostname() {
        Reading<String> r = firstLine("/proc/sys/kernel/hostname");
        return r.isPresent() ? r : firstLine("/etc/hostname");
    }

    private Reading<String> os() {
        Reading<List<String>> r = lines("/etc/os-release");
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        for (String line : r.value()) {
            if (line != null && line.startsWith("PRETTY_NAME=")) {
                return Reading.of(line.substring(12).replace("\"", "").trim());
            }
        }
        return Reading.missing(Missing.notApplicable("no PRETTY_NAME in /etc/os-release"));
    }

    /** The /proc/cpuinfo lines the CPU's name comes from (x86: model name; Arm, Grace: implementer and part). */
    static final List<String> CPUINFO_FIELDS = List.of("model name", "CPU implementer", "CPU part");

    private Reading<String> cpuModel() {
        Reading<Map<String, String>> r = HostRead.HOST.read("read /proc/cpuinfo", host.fileFields("/proc/cpuinfo", CPUINFO_FIELDS),
                v -> { // a hostile trace may answer null keys or values: those are no fields
                    Map<String, String> kept = new java.util.HashMap<>();
                    v.forEach((k, x) -> {
                        if (k != null && x != null) {
                            kept.put(k, x);
                        }
                    });
                    return kept;
                });
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        if (r.value().get("model name") != null) {
            return Reading.of(r.value().get("model name"));
        }
        String implementer = r.value().get("CPU implementer");
        String part = r.value().get("CPU part");
        if (implementer != null && part != null) {
            return Reading.of(armCpuName(implementer, part));
        }
        return Reading.missing(Missing.notApplicable("/proc/cpuinfo names no CPU model"));
    }

    /** Arm cores by MIDR implementer/part (Arm's TRM numbers); Grace is Neoverse-V2. */
    static String armCpuName(String implementer, String part) {
        String name = switch (implementer.toLowerCase() + "/" + part.toLowerCase()) {
            case "0x41/0xd4f" -> "Arm Neoverse-V2 (NVIDIA Grace)";
            case "0x41/0xd40" -> "Arm Neoverse-V1";
            case "0x41/0xd0c" -> "Arm Neoverse-N1";
            case "0x41/0xd49" -> "Arm Neoverse-N2";
            case "0x41/0xd8e" -> "Arm Neoverse-N3";
            case "0x41/0xd84" -> "Arm Neoverse-V3";
            default -> null;
        };
        return name != null ? name : "Arm CPU (implementer " + implementer + ", part " + part + ")";
    }

    private Reading<Integer> logicalCpus() {
        Reading<String> online = firstLine("/sys/devices/system/cpu/online");
        if (online.isPresent()) {
            try {
                int n = HostInfo.countCpus(online.value());
                if (n > 0 && n <= 1 << 20) {
                    return Reading.of(n);
                }
            } catch (RuntimeException e) {
                // fall through to the JVM's count
            }
        }
        return HostRead.HOST.read("availableProcessors", host.availableProcessors(), n -> n != null && n > 0 ? n : null);
    }

    private Reading<List<HostInfo.NumaNode>> numaNodes() {
        String dir = "/sys/devices/system/node";
        NativeAnswer<List<String>> names = host.listDirectory(dir, "node[0-9]*");
        if (HostRead.absent(names)) {
            return Reading.missing(Missing.notApplicable(dir + " absent (no NUMA support)"));
        }
        Reading<List<String>> listed = HostRead.HOST.read("list " + dir, names, v -> v);
        if (!listed.isPresent()) {
            return Reading.missing(listed.missing());
        }
        List<HostInfo.NumaNode> nodes = new ArrayList<>();
        for (String n : listed.value()) {
            int id;
            try {
                id = Integer.parseInt(n.substring(4));
            } catch (RuntimeException e) {
                continue;
            }
            Reading<String> cpus = cpuList(dir + "/" + n + "/cpulist");
            if (!cpus.isPresent()) {
                return Reading.missing(cpus.missing());
            }
            nodes.add(new HostInfo.NumaNode(id, cpus.value(), nodeSize(dir + "/" + n + "/meminfo", id)));
        }
        nodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return Reading.of(List.copyOf(nodes));
    }

    /** A node's CPU list: a CPU-less node's file holds one empty line (Grace's GPU memory nodes). */
    private Reading<String> cpuList(String path) {
        Reading<List<String>> r = lines(path);
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        return Reading.of(r.value().isEmpty() || r.value().get(0) == null ? "" : r.value().get(0).trim());
    }

    /** The one field of {@code nodeN/meminfo} used: {@code Node N MemTotal:  97280 kB}, in bytes. */
    static String memTotalField(int node) {
        return "Node " + node + " MemTotal";
    }

    private Reading<Long> nodeSize(String path, int node) {
        String key = memTotalField(node);
        Reading<Map<String, String>> r = HostRead.HOST.read("read " + path, host.fileFields(path, List.of(key)), v -> v);
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        String v = r.value().get(key);
        if (v == null) {
            return Reading.missing(Missing.notApplicable(path + " has no " + key + " line"));
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,15}) kB").matcher(v.trim());
        if (!m.matches()) {
            return Reading.missing(Missing.invalid("read " + path, v, "not '<number> kB'"));
        }
        return Reading.of(Long.parseLong(m.group(1)) * 1024);
    }

    /** A node mask of /sys/devices/system/node ({@code has_cpu}, {@code has_memory}, …), as the kernel lists it. */
    private Reading<String> nodeMask(String name) {
        String path = "/sys/devices/system/node/" + name;
        Reading<String> r = firstLine(path);
        if (!r.isPresent()) {
            return r;
        }
        try {
            HostInfo.members(r.value());
            return r;
        } catch (RuntimeException e) {
            return Reading.missing(Missing.invalid("read " + path, r.value(), "not a node list"));
        }
    }

    private Reading<String> firstLine(String path) {
        Reading<List<String>> r = lines(path);
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        return r.value().isEmpty() || r.value().get(0) == null ? Reading.missing(Missing.notApplicable(path + " is empty"))
                : Reading.of(r.value().get(0).trim());
    }

    /**
     * The Python environments and their framework packages ({@code explicit}: {@code --python} values), or null when
     * the seam answers none of the calls (a trace recorded before the stack was read).
     */
    public dev.fabricscope.model.PythonStack pythonStack(List<String> explicit) {
        try {
            return new PythonStackProbe(host, explicit).read();
        } catch (RuntimeException e) { // a reading the decoder did not foresee must not cost the rest of the probe
            return new dev.fabricscope.model.PythonStack(List.of(), List.of(),
                    List.of("the Python stack could not be read: " + e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }

    /** NICs, the GPUs' PCIe places and the NVIDIA services, through the same seam. */
    public dev.fabricscope.model.NodeInfo node(List<dev.fabricscope.model.PciAddress> gpus) {
        return new NodeProbe(host).probe(gpus);
    }

    /** IMEX channel device nodes (needed to export fabric handles across nodes). */
    public Reading<List<String>> imexChannels() {
        String dir = "/dev/nvidia-caps-imex-channels";
        NativeAnswer<List<String>> names = host.listDirectory(dir, "*");
        if (HostRead.absent(names)) {
            return Reading.of(List.of());
        }
        return HostRead.HOST.read("list " + dir, names, v -> v.stream().map(n -> dir + "/" + n).sorted().toList());
    }
}
