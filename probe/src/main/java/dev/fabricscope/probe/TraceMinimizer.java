package dev.fabricscope.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.backends.NativeBackends;
import dev.fabricscope.nativeapi.host.HostCalls;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A trace recorded before the host seam asked narrow questions, reduced to what this probe reads: the process list
 * becomes the service processes ({@link HostCalls#processesNamed}), the TCP tables the ports checked
 * ({@link HostCalls#tcpListening}), /proc/cpuinfo the fields used ({@link HostCalls#fileFields}), and the environment
 * (the calls and the snapshot's copy) the allow-list ({@link EnvironmentFilter}). The narrow answers come from the
 * whole files by the code that answers them on a machine, so the reduced trace replays exactly as the old one did.
 * A trace already in the narrow form comes back unchanged.
 */
public final class TraceMinimizer {

    private static final String HOST = NativeBackends.HOST;
    private static final Pattern COMM = Pattern.compile("/proc/\\d{1,9}/comm");

    private TraceMinimizer() {
    }

    public static NativeTrace minimize(NativeTrace trace) {
        HostCalls replay = new TraceReplayer(trace).proxy(HostCalls.class, HOST);
        List<TraceCall> out = new ArrayList<>();
        boolean processes = false;
        boolean tcp = false;
        boolean cpuinfo = false;
        boolean changed = false;
        for (TraceCall c : trace.calls()) {
            String superseded = superseded(c);
            if (superseded != null) {
                changed = true;
                switch (superseded) {
                    case "processes" -> processes = add(out, processes, "processesNamed",
                            new Object[] {NodeProbe.SERVICE_PROCESSES}, () -> replay.processesNamed(NodeProbe.SERVICE_PROCESSES));
                    case "tcp" -> tcp = add(out, tcp, "tcpListening",
                            new Object[] {NodeProbe.SERVICE_PORTS}, () -> replay.tcpListening(NodeProbe.SERVICE_PORTS));
                    default -> cpuinfo = add(out, cpuinfo, "fileFields", new Object[] {"/proc/cpuinfo", HostProbe.CPUINFO_FIELDS},
                            () -> replay.fileFields("/proc/cpuinfo", HostProbe.CPUINFO_FIELDS));
                }
                continue;
            }
            if (isHost(c, "getenv") && c.args() != null && !EnvironmentFilter.allowed(c.args().path(0).asText(null))) {
                changed = true;
                continue;
            }
            if (isHost(c, "environment") && c.value() != null && c.value().isObject()) {
                ObjectNode kept = allowListed(c.value());
                if (!kept.equals(c.value())) {
                    changed = true;
                    c = new TraceCall(c.seq(), c.lib(), c.call(), c.args(), c.rc(), kept, c.fault(), c.detail(), c.us());
                }
            }
            out.add(c);
        }
        JsonNode snapshot = trace.snapshot();
        if (snapshot != null && snapshot.path("environment").isObject()) {
            ObjectNode kept = allowListed(snapshot.get("environment"));
            if (!kept.equals(snapshot.get("environment"))) {
                changed = true;
                snapshot = snapshot.deepCopy();
                ((ObjectNode) snapshot).set("environment", kept);
            }
        }
        if (!changed) {
            return trace;
        }
        List<TraceCall> numbered = new ArrayList<>(out.size());
        for (TraceCall c : out) {
            numbered.add(new TraceCall(numbered.size(), c.lib(), c.call(), c.args(), c.rc(), c.value(), c.fault(), c.detail(), c.us(),
                    c.times()));
        }
        return new NativeTrace(trace.format(), trace.traceVersion(), trace.toolVersion(), trace.recordedAt(), trace.commandLine(),
                trace.durationMs(), trace.source(), numbered, snapshot, trace.redaction(), trace.check());
    }

    /** Which narrow question a raw host call's file answers, or null when it is not one of those files. */
    private static String superseded(TraceCall c) {
        if (c == null || !HOST.equals(c.lib()) || c.args() == null) {
            return null;
        }
        String path = c.args().path(0).asText("");
        if (c.call().equals("listDirectory") && path.equals("/proc") && c.args().path(1).asText("").equals("[0-9]*")) {
            return "processes";
        }
        if (!c.call().equals("readLines")) {
            return null;
        }
        if (COMM.matcher(path).matches()) {
            return "processes";
        }
        if (path.equals("/proc/net/tcp") || path.equals("/proc/net/tcp6")) {
            return "tcp";
        }
        return path.equals("/proc/cpuinfo") ? "cpuinfo" : null;
    }

    /** Adds the narrow call in place of the first raw call it supersedes; later ones add nothing. */
    private static boolean add(List<TraceCall> out, boolean added, String call, Object[] args, Supplier<NativeAnswer<?>> answer) {
        if (!added) {
            out.add(TraceRecorder.call(0, HOST, call, args, answer.get(), null));
        }
        return true;
    }

    private static boolean isHost(TraceCall c, String call) {
        return c != null && HOST.equals(c.lib()) && call.equals(c.call());
    }

    private static ObjectNode allowListed(JsonNode env) {
        ObjectNode kept = Json.mapper().createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (EnvironmentFilter.recorded(e.getKey())) {
                kept.set(e.getKey(), e.getValue());
            }
        }
        return kept;
    }
}
