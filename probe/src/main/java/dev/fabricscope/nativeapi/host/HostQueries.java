package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The narrow host questions ({@link HostCalls#processesNamed}, {@link HostCalls#tcpListening},
 * {@link HostCalls#fileFields}) answered from raw file reads: on this machine from its files ({@link FileHost}), and
 * for a trace recorded before the seam asked them, from the whole files that trace holds. One implementation, so an
 * old trace replays exactly as the probe then read it.
 */
public final class HostQueries {

    /** At most this many of /proc's entries are looked at (the probe's bound before the seam asked narrowly). */
    public static final int MAX_PROCESSES = 4096;
    private static final String TCP = "/proc/net/tcp";
    private static final String TCP6 = "/proc/net/tcp6";

    /** The raw reads a question is answered from. */
    public interface Raw {
        NativeAnswer<List<String>> readLines(String path);

        NativeAnswer<List<String>> listDirectory(String path, String glob);
    }

    private HostQueries() {
    }

    public static NativeAnswer<Map<String, List<Integer>>> processesNamed(Raw raw, List<String> names) {
        NativeAnswer<List<String>> pids = raw.listDirectory("/proc", "[0-9]*");
        if (pids == null || !pids.succeeded() || pids.value() == null) {
            return pids == null ? NativeAnswer.failed(NativeAnswer.Fault.THREW, "no answer") : carry(pids);
        }
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(n, new ArrayList<>());
        }
        for (String pid : pids.value().stream().limit(MAX_PROCESSES).toList()) {
            if (pid == null || !pid.matches("\\d{1,9}")) {
                continue;
            }
            NativeAnswer<List<String>> comm = raw.readLines("/proc/" + pid + "/comm");
            if (comm != null && comm.succeeded() && comm.value() != null && !comm.value().isEmpty() && comm.value().get(0) != null) {
                List<Integer> hit = out.get(comm.value().get(0).strip());
                if (hit != null) {
                    hit.add(Integer.parseInt(pid));
                }
            }
        }
        return NativeAnswer.ok(out);
    }

    public static NativeAnswer<Map<Integer, Boolean>> tcpListening(Raw raw, List<Integer> ports) {
        Set<String> listening = new HashSet<>();
        NativeAnswer<List<String>> tcp = raw.readLines(TCP);
        addListening(tcp, listening);
        addListening(raw.readLines(TCP6), listening);
        if ((tcp == null || !tcp.succeeded() || tcp.value() == null) && listening.isEmpty()) {
            return tcp == null ? NativeAnswer.failed(NativeAnswer.Fault.THREW, "no answer") : carry(tcp);
        }
        Map<Integer, Boolean> out = new LinkedHashMap<>();
        for (Integer p : ports) {
            out.put(p, p != null && listening.contains(String.format(Locale.ROOT, ":%04X", p)));
        }
        return NativeAnswer.ok(out);
    }

    /** The local ports ({@code :1A0A}, upper case) of the table's sockets in LISTEN state (0A). */
    private static void addListening(NativeAnswer<List<String>> table, Set<String> into) {
        if (table == null || !table.succeeded() || table.value() == null) {
            return;
        }
        for (String line : table.value()) {
            String[] c = line == null ? new String[0] : line.trim().split("\\s+");
            if (c.length > 3 && c[3].equals("0A") && c[1].contains(":")) {
                into.add(c[1].substring(c[1].lastIndexOf(':')).toUpperCase(Locale.ROOT));
            }
        }
    }

    public static NativeAnswer<Map<String, String>> fileFields(Raw raw, String path, List<String> keys) {
        NativeAnswer<List<String>> lines = raw.readLines(path);
        if (lines == null || !lines.succeeded() || lines.value() == null) {
            return lines == null ? NativeAnswer.failed(NativeAnswer.Fault.THREW, "no answer") : carry(lines);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : lines.value()) {
            if (line == null) {
                continue;
            }
            for (String k : keys) {
                if (k != null && !out.containsKey(k) && line.startsWith(k)) {
                    out.put(k, line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return NativeAnswer.ok(out);
    }

    /** A failed (or empty) raw answer as the question's answer: the same code, fault and words. */
    private static <T> NativeAnswer<T> carry(NativeAnswer<?> a) {
        return new NativeAnswer<>(a.rc(), null, a.fault(), a.detail());
    }
}
