package dev.fabricscope.probe;

import dev.fabricscope.topology.SnapshotAnalyzer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.Version;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.nativeapi.backends.NativeBackends;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Records a probe's native calls, and runs the unchanged probe again from such a trace. */
public final class TraceReplay {

    private TraceReplay() {
    }

    /** What a recorded probe produced. */
    public record Recorded(MachineSnapshot snapshot, NativeTrace trace) {
        /** The trace as its file holds it (as {@code probe --record} writes it, unredacted). */
        public String traceText() {
            return dev.fabricscope.nativeapi.trace.TraceIO.write(trace);
        }
    }

    /** Probes this machine through recording seams. */
    public static Recorded record(List<String> commandLine, String ncclPath) {
        TraceRecorder recorder = new TraceRecorder();
        NativeBackends live = NativeBackends.live(System.getenv(), EnvironmentFilter::allowed, EnvironmentFilter::recorded,
                dev.fabricscope.nativeapi.CallGuard.defaultTimeout()).recordedBy(recorder);
        MachineSnapshot s = new LiveProbe(commandLine, ncclPath, live).probe();
        JsonNode snapshotJson = Json.mapper().valueToTree(s);
        NativeTrace trace = new NativeTrace(NativeTrace.FORMAT, NativeTrace.VERSION, Version.get(), s.probe().probedAt(),
                commandLine, s.probe().durationMs(), "recorded live by fabricscope " + Version.get(), recorder.calls(), snapshotJson);
        return new Recorded(s, trace);
    }

    /**
     * The probe over the trace's answers. Provenance is the recording's (its time, command line and duration), marked
     * replayed; {@code where} names the trace in the description.
     */
    public static MachineSnapshot replay(NativeTrace trace, String where) {
        List<String> cmd = trace.commandLine().isEmpty() ? List.of("fabricscope", "probe") : trace.commandLine();
        MachineSnapshot s = new LiveProbe(cmd, null, NativeBackends.replay(trace)).probe();
        String recordedAt = trace.recordedAt() != null ? trace.recordedAt()
                : Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        String description = "replayed from " + where + ": " + trace.calls().size() + " native calls, "
                + (trace.source() != null ? trace.source() : "recorded by Fabricscope " + trace.toolVersion());
        ProbeInfo info = new ProbeInfo(Version.get(), recordedAt, cmd, trace.durationMs(), ProbeInfo.Origin.REPLAYED, description);
        MachineSnapshot replayed = s.withProbe(info).withFindings(List.of());
        return replayed.withFindings(SnapshotAnalyzer.findings(replayed));
    }
}
