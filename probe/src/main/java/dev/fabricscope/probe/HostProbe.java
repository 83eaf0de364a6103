package dev.fabricscope.probe;

import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** Host facts from /proc and /sys (no DNS look-ups: they can stall on a node without network). */
public final class HostProbe {

    private final Path root;

    public HostProbe() {
        this(Paths.get("/"));
    }

    /** @param root filesystem root, so tests can point at a fake /proc and /sys */
    public HostProbe(Path root) {
        this.root = root;
    }

    public HostInfo probe() {
        return new HostInfo(hostname(), os(), firstLine("proc/sys/kernel/osrelease"),
                Reading.of(System.getProperty("os.arch")), cpuModel(), logicalCpus(), numaNodes());
    }

    private Reading<String> hostname() {
        Reading<String> r = firstLine("proc/sys/kernel/hostname");
        return r.isPresent() ? r : firstLine("etc/hostname");
    }

    private Reading<String> os() {
        Path p = root.resolve("etc/os-release");
        try {
            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return Reading.of(line.substring(12).replace("\"", "").trim());
                }
            }
            return Reading.missing(Missing.notApplicable("no PRETTY_NAME in /etc/os-release"));
        } catch (IOException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, "read /etc/os-release", null, null, e.toString()));
        }
    }

    private Reading<String> cpuModel() {
        Path p = root.resolve("proc/cpuinfo");
        try {
            String implementer = null;
            String part = null;
            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                // x86: "model name"; Arm (Grace): no model name, but "CPU implementer" and "CPU part"
                if (line.startsWith("model name")) {
                    return Reading.of(line.substring(line.indexOf(':') + 1).trim());
                }
                if (line.startsWith("CPU implementer") && implementer == null) {
                    implementer = line.substring(line.indexOf(':') + 1).trim();
                }
                if (line.startsWith("CPU part") && part == null) {
                    part = line.substring(line.indexOf(':') + 1).trim();
                }
            }
            if (implementer != null && part != null) {
                return Reading.of(armCpuName(implementer, part));
            }
            return Reading.missing(Missing.notApplicable("/proc/cpuinfo names no CPU model"));
        } catch (IOException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, "read /proc/cpuinfo", null, null, e.toString()));
        }
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
        Reading<String> online = firstLine("sys/devices/system/cpu/online");
        if (online.isPresent()) {
            return Reading.of(countCpus(online.value()));
        }
        return Reading.of(Runtime.getRuntime().availableProcessors());
    }

    /** Counts a kernel CPU list: {@code 0-3,8} → 5. */
    public static int countCpus(String list) {
        int n = 0;
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            n += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1).trim()) - Integer.parseInt(part.substring(0, dash).trim()) + 1;
        }
        return n;
    }

    private Reading<List<HostInfo.NumaNode>> numaNodes() {
        Path dir = root.resolve("sys/devices/system/node");
        if (!Files.isDirectory(dir)) {
            return Reading.missing(Missing.notApplicable("/sys/devices/system/node absent (no NUMA support)"));
        }
        List<HostInfo.NumaNode> nodes = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "node[0-9]*")) {
            for (Path n : ds) {
                int id = Integer.parseInt(n.getFileName().toString().substring(4));
                String cpus = Files.readString(n.resolve("cpulist"), StandardCharsets.UTF_8).trim();
                nodes.add(new HostInfo.NumaNode(id, cpus));
            }
        } catch (IOException | RuntimeException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, "read /sys/devices/system/node", null, null, e.toString()));
        }
        nodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return Reading.of(List.copyOf(nodes));
    }

    private Reading<String> firstLine(String relative) {
        Path p = root.resolve(relative);
        try {
            List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            return lines.isEmpty() ? Reading.missing(Missing.notApplicable("/" + relative + " is empty"))
                    : Reading.of(lines.get(0).trim());
        } catch (IOException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, "read /" + relative, null, null, e.getClass().getSimpleName()));
        }
    }

    /** IMEX channel device nodes (needed to export fabric handles across nodes). */
    public Reading<List<String>> imexChannels() {
        Path dir = root.resolve("dev/nvidia-caps-imex-channels");
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return Reading.of(List.of());
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                out.add(p.toString());
            }
        } catch (IOException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, "list /dev/nvidia-caps-imex-channels", null, null, e.toString()));
        }
        out.sort(null);
        return Reading.of(List.copyOf(out));
    }
}
