package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.Knobs;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.SeamInterceptor;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: one allow-list ({@link EnvironmentFilter}) holds every environment variable the code reads, and the host
 * seam answers no other.
 */
class EnvironmentAllowListTest {

    /** Read by Fabricscope for itself, never a fact of the machine and never through the host seam. */
    private static final Map<String, String> OWN_SETTINGS = Map.of(
            "FABRICSCOPE_TRACE", "start-up timings on stderr (dev.fabricscope.Trace)",
            "FABRICSCOPE_TRACE_T0", "the exact origin of those timings (dev.fabricscope.Trace)",
            "FABRICSCOPE_SRUN", "the srun cluster collect runs (ClusterCommand)",
            "FABRICSCOPE_PDSH", "the pdsh cluster collect runs (ClusterCommand)",
            "XDG_CACHE_HOME", "the desktop app's cache folder (app UserDirs)");

    /** {@code getenv("X")}, {@code env("X")}, {@code env.get("X")}, {@code environment().getOrDefault("X"…}, … */
    private static final Pattern READ = Pattern.compile(
            "\\b(?:getenv\\(|env\\(|(?:env|environment|getenv\\(\\)|environment\\(\\))\\.(?:get|getOrDefault|containsKey)\\()\\s*\"([A-Z][A-Z0-9_]*)\"");

    @Test
    void everyVariableTheCodeReadsIsOnTheList() throws IOException {
        Set<String> read = new TreeSet<>();
        for (Path dir : List.of(Path.of("src/main/java"), Path.of("../app/src/main/java"))) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = READ.matcher(Files.readString(f));
                    while (m.find()) {
                        read.add(m.group(1));
                    }
                }
            }
        }
        assertTrue(read.containsAll(Set.of("CUDA_VISIBLE_DEVICES", "NCCL_NVLS_ENABLE", "HOME", "LD_LIBRARY_PATH")),
                "the scan finds the reads it is for: " + read);
        List<String> missing = new ArrayList<>();
        for (String name : read) {
            if (!EnvironmentFilter.allowed(name) && !OWN_SETTINGS.containsKey(name)) {
                missing.add(name);
            }
        }
        assertEquals(List.of(), missing, "read by the code but not on EnvironmentFilter's allow-list");
    }

    @Test
    void everyEnvironmentKnobOfTheAdvisorIsRecorded() {
        List<String> missing = Knobs.envNames().stream().filter(n -> !EnvironmentFilter.recorded(n)).toList();
        assertEquals(List.of(), missing, "the advisor's --env knobs the snapshot would not hold");
        assertFalse(Knobs.envNames().isEmpty());
    }

    @Test
    void theSeamAnswersOnlyAllowListedNamesAndTheProbeAsksNoOther(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("proc/sys/kernel"));
        Files.writeString(root.resolve("proc/sys/kernel/hostname"), "node7\n");
        Map<String, String> env = Map.of("PATH", "/usr/bin", "HOME", "/home/alice", "NCCL_SOCKET_IFNAME", "ib0",
                "USER", "alice", "NCCL_NVLS_ENABLE", "0", "SSH_CONNECTION", "10.1.2.3 22 10.1.2.4 22");
        FileHost host = new FileHost(root, env, EnvironmentFilter::allowed, EnvironmentFilter::recorded);
        assertEquals(Map.of("NCCL_NVLS_ENABLE", "0"), host.environment().value());
        assertEquals(HostCalls.EACCES, host.getenv("USER").rc(), "not on the list: not read");
        assertEquals("/home/alice", host.getenv("HOME").value());

        List<String> asked = new ArrayList<>();
        HostCalls watched = SeamInterceptor.wrap(HostCalls.class, host, (call, args, answer, nanos) -> {
            if (call.equals("getenv")) {
                asked.add(String.valueOf(args[0]));
            }
            return answer;
        });
        HostProbe probe = new HostProbe(watched);
        probe.probe();
        probe.pythonStack(List.of());
        probe.node(List.of());
        assertFalse(asked.isEmpty(), "the Python stack looks variables up");
        asked.forEach(n -> assertTrue(EnvironmentFilter.allowed(n), n + " asked but not allowed"));
        Map<String, String> snapshotEnv = probe.environment();
        assertEquals(Map.of("NCCL_NVLS_ENABLE", "0"), snapshotEnv);
        NativeAnswer<String> user = watched.getenv("SSH_CONNECTION");
        assertEquals(HostCalls.EACCES, user.rc());
    }
}
