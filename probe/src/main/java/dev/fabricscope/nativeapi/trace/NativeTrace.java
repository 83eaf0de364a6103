package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Every native call one probe made, with its answers: a field engineer attaches it to a bug ticket, and
 * {@code fabricscope probe --replay} runs the unchanged probe from it on any machine.
 *
 * @param format      always {@link #FORMAT}
 * @param traceVersion {@link #VERSION} when written by this build
 * @param toolVersion the Fabricscope version that recorded it
 * @param recordedAt  ISO-8601 instant the probe started
 * @param commandLine the command line that recorded it
 * @param durationMs  wall time of the recorded probe
 * @param source      how the trace was made: recorded live, or converted from other captured readings
 * @param calls       the calls in the order they completed
 * @param snapshot    the snapshot the probe produced when recording (null in converted traces)
 * @param redaction   what {@code fabricscope redact} (or {@code probe --record --redact}) replaced, as a report's
 *                    {@code redaction} section; null when the trace is not redacted
 * @param check       for a recorded live check ({@code check NAME --record}): {@code name}, the {@code request} it
 *                    ran with and the {@code result} it gave; null for a probe's trace
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NativeTrace(String format, int traceVersion, String toolVersion, String recordedAt, List<String> commandLine,
                          Long durationMs, String source, List<TraceCall> calls, JsonNode snapshot, JsonNode redaction,
                          JsonNode check) {

    public static final String FORMAT = "fabricscope-native-trace";
    public static final int VERSION = 1;

    public NativeTrace {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
        calls = calls == null ? List.of() : List.copyOf(calls);
    }

    /** A probe's trace. */
    public NativeTrace(String format, int traceVersion, String toolVersion, String recordedAt, List<String> commandLine,
                       Long durationMs, String source, List<TraceCall> calls, JsonNode snapshot, JsonNode redaction) {
        this(format, traceVersion, toolVersion, recordedAt, commandLine, durationMs, source, calls, snapshot, redaction, null);
    }

    /** An unredacted trace. */
    public NativeTrace(String format, int traceVersion, String toolVersion, String recordedAt, List<String> commandLine,
                       Long durationMs, String source, List<TraceCall> calls, JsonNode snapshot) {
        this(format, traceVersion, toolVersion, recordedAt, commandLine, durationMs, source, calls, snapshot, null);
    }

    public NativeTrace withSnapshot(JsonNode s) {
        return new NativeTrace(format, traceVersion, toolVersion, recordedAt, commandLine, durationMs, source, calls, s, redaction,
                check);
    }

    /** Whether {@code fabricscope redact} replaced its identifiers. */
    public boolean redacted() {
        return redaction != null && redaction.path("applied").asBoolean(false);
    }
}
