package dev.fabricscope.nativeapi.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the host seam answers the probe's narrow questions, so a recording holds the service processes, the
 * ports checked and the cpuinfo fields used, never the process list, the TCP tables or the whole /proc/cpuinfo; and a
 * trace recorded before (whole files) answers the same questions the same way.
 */
class HostQueriesTest {

    /** /proc/net/tcp as the kernel writes it (shape from the captured H200 VM): 6666 and 22 listening, one connection. */
    private static final String TCP = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000:1A0A 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000 100 0 0 10 0
               1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0000 100 0 0 10 0
               2: 0A000002:0016 0A000001:D2F0 01 00000000:00000000 02:000A2F3B 00000000     0        0 3 4 0000 20 4 30 10 -1
            """;

    @TempDir
    Path root;

    private void write(String rel, String content) throws Exception {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private FileHost fakeMachine() throws Exception {
        write("proc/net/tcp", TCP);
        write("proc/net/tcp6", "  sl  local_address                         remote_address                        st\n");
        write("proc/1/comm", "systemd\n");
        write("proc/812/comm", "nv-fabricmanage\n");
        write("proc/900/comm", "sshd\n");
        write("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor\n"
                + "flags\t\t: fpu vme\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Processor\n");
        return new FileHost(root, Map.of(), n -> false, n -> false);
    }

    @Test
    void recordsOnlyTheAnswersNotTheFiles() throws Exception {
        TraceRecorder rec = new TraceRecorder();
        HostCalls host = rec.wrap(HostCalls.class, "host", fakeMachine());
        assertEquals(Map.of("nv-fabricmanage", List.of(812), "nvidia-imex", List.of()),
                host.processesNamed(List.of("nv-fabricmanage", "nvidia-imex")).value());
        assertEquals(Map.of(6666, true, 50000, false), host.tcpListening(List.of(6666, 50000)).value());
        assertEquals(Map.of("model name", "Intel(R) Xeon(R) Processor"),
                host.fileFields("/proc/cpuinfo", List.of("model name", "CPU part")).value());
        String written = TraceIO.write(new NativeTrace(NativeTrace.FORMAT, 1, null, null, null, null, null, rec.calls(), null));
        assertEquals(3, rec.calls().size(), written);
        for (String absent : List.of("sshd", "systemd", "0A000002", "0016", "GenuineIntel", "fpu vme", "900")) {
            assertFalse(written.contains(absent), absent + " recorded: " + written);
        }
    }

    @Test
    void anUnreadableTableIsItsErrnoUnlessTcp6ShowsAListeningPort() throws Exception {
        FileHost host = new FileHost(root, Map.of(), n -> false, n -> false);
        NativeAnswer<Map<Integer, Boolean>> none = host.tcpListening(List.of(6666));
        assertEquals(HostCalls.ENOENT, none.rc());
        assertEquals(HostCalls.ENOENT, host.processesNamed(List.of("x")).rc(), "no /proc: its errno");
        write("proc/net/tcp6", "  sl  local_address  remote_address st\n   0: 00000000000000000000000000000000:C350 "
                + "00000000000000000000000000000000:0000 0A 0\n");
        assertEquals(Map.of(6666, false, 50000, true), host.tcpListening(List.of(6666, 50000)).value());
    }

    @Test
    void aTraceOfWholeFilesAnswersTheNarrowQuestionsAlike() throws Exception {
        FileHost machine = fakeMachine();
        TraceRecorder rec = new TraceRecorder();
        HostCalls old = rec.wrap(HostCalls.class, "host", machine);
        // what a recording made before issue 25 holds: the files themselves
        old.listDirectory("/proc", "[0-9]*");
        for (String pid : List.of("1", "812", "900")) {
            old.readLines("/proc/" + pid + "/comm");
        }
        old.readLines("/proc/net/tcp");
        old.readLines("/proc/net/tcp6");
        old.readLines("/proc/cpuinfo");
        List<TraceCall> calls = rec.calls();
        HostCalls replay = new TraceReplayer(new NativeTrace(NativeTrace.FORMAT, 1, null, null, null, null, null, calls, null))
                .proxy(HostCalls.class, "host");
        List<String> names = List.of("nv-fabricmanage", "nvidia-imex");
        assertEquals(machine.processesNamed(names), replay.processesNamed(names));
        assertEquals(machine.tcpListening(List.of(6666, 50000)), replay.tcpListening(List.of(6666, 50000)));
        List<String> keys = List.of("model name", "CPU implementer", "CPU part");
        assertEquals(machine.fileFields("/proc/cpuinfo", keys), replay.fileFields("/proc/cpuinfo", keys));
        NativeAnswer<Map<String, String>> notThere = replay.fileFields("/proc/meminfo", keys);
        assertEquals(NativeAnswer.Fault.NOT_RECORDED, notThere.fault(), "a file the trace lacks is not invented");
        assertTrue(replay.processesNamed(names).succeeded());
    }
}
