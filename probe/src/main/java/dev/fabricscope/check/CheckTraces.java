package dev.fabricscope.check;

import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.check.api.PreflightRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.Version;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckResults;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;

/**
 * Records a live check's native calls and host-clock readings into a trace, and runs the unchanged check again from
 * such a trace on any machine: the replayed check gets the recorded answers, pointers and times, so it gives the
 * recorded result. The trace holds the check's name, request and result ({@link NativeTrace#check}) and, for P2P,
 * the machine snapshot its nominal link figures came from. Device memory is not recorded, except what the check
 * reads back to verify (the answers of {@code cuMemcpyDtoH}).
 */
public final class CheckTraces {

    private CheckTraces() {
    }

    /** What a recorded check gave, and its trace. */
    public record Recorded(CheckResult result, NativeTrace trace) {
    }

    public static Recorded preflight(PreflightRequest req, CheckOptions options, List<String> commandLine) {
        return record(PreflightCheck.NAME, req, null, commandLine, b -> PreflightCheck.run(req, options, b));
    }

    public static Recorded p2p(P2pRequest req, MachineSnapshot snapshot, CheckOptions options, List<String> commandLine) {
        return record(P2pCheck.NAME, req, snapshot, commandLine, b -> P2pCheck.run(req, snapshot, options, b));
    }

    public static Recorded allReduce(AllReduceRequest req, CheckOptions options, List<String> commandLine) {
        return record(AllReduceCheck.NAME, req, null, commandLine, b -> AllReduceCheck.run(req, options, b));
    }

    /** This machine's check through recording seams. */
    static Recorded record(String check, Object request, MachineSnapshot snapshot, List<String> commandLine,
                           Function<CheckBackends, CheckResult> run) {
        return record(check, request, snapshot, commandLine, CheckBackends.live(System.getenv()), run);
    }

    /**
     * The check over {@code backends} (the driver; a simulated one in tests), each call recorded.
     *
     * @param run runs the check over the backends it is given (the recording ones)
     */
    public static Recorded record(String check, Object request, MachineSnapshot snapshot, List<String> commandLine,
                           CheckBackends backends, Function<CheckBackends, CheckResult> run) {
        TraceRecorder recorder = new TraceRecorder(true);
        String at = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        long t0 = System.nanoTime();
        CheckResult result = run.apply(backends.recordedBy(recorder));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        ObjectNode about = Json.mapper().createObjectNode();
        about.put("name", check);
        about.set("request", Json.mapper().valueToTree(request));
        about.set("result", Json.mapper().valueToTree(result));
        NativeTrace trace = new NativeTrace(NativeTrace.FORMAT, NativeTrace.VERSION, Version.get(), at, commandLine, ms,
                "recorded live by fabricscope " + Version.get() + " (check " + check + ")", recorder.calls(),
                snapshot == null ? null : Json.mapper().valueToTree(snapshot), null, about);
        return new Recorded(result, trace);
    }

    /** The check's name in a check trace. */
    public static String checkOf(NativeTrace trace, String where) throws TraceIO.TraceFormatException {
        JsonNode c = trace.check();
        if (c == null || !c.path("name").isTextual()) {
            throw new TraceIO.TraceFormatException(where + ": a probe's trace, not a check's (replay it with "
                    + "'fabricscope probe --replay')");
        }
        String name = c.path("name").textValue();
        if (CheckResults.typeOf(name) == null) {
            throw new TraceIO.TraceFormatException(where + ": unknown check '" + dev.fabricscope.io.ErrorText.oneLineSafe(name) + "'");
        }
        return name;
    }

    /** The recorded check again, over the trace's answers, with the request it was recorded with. */
    public static CheckResult replay(NativeTrace trace, CheckOptions options, String where) throws TraceIO.TraceFormatException {
        String name = checkOf(trace, where);
        CheckBackends replay = CheckBackends.replay(trace);
        JsonNode request = trace.check().path("request");
        try {
            return switch (name) {
                case PreflightCheck.NAME -> PreflightCheck.run(read(request, PreflightRequest.class), options, replay);
                case P2pCheck.NAME -> P2pCheck.run(read(request, P2pRequest.class), snapshot(trace), options, replay);
                case AllReduceCheck.NAME -> AllReduceCheck.run(read(request, AllReduceRequest.class), options, replay);
                default -> throw new TraceIO.TraceFormatException(where + ": no replay for check '" + name + "'");
            };
        } catch (IllegalArgumentException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new TraceIO.TraceFormatException(where + ": the recorded " + name + " request is not readable: "
                    + dev.fabricscope.io.ErrorText.oneLineSafe(why));
        }
    }

    /** The result the check gave where it was recorded. */
    public static CheckResult recordedResult(NativeTrace trace, String where) throws TraceIO.TraceFormatException {
        String name = checkOf(trace, where);
        try {
            return Json.mapper().treeToValue(trace.check().path("result"), CheckResults.typeOf(name));
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new TraceIO.TraceFormatException(where + ": the recorded " + name + " result is not readable");
        }
    }

    private static <T> T read(JsonNode n, Class<T> type) {
        try {
            return Json.mapper().treeToValue(n, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    private static MachineSnapshot snapshot(NativeTrace trace) {
        if (trace.snapshot() == null || trace.snapshot().isNull()) {
            return null;
        }
        try {
            return Json.mapper().treeToValue(trace.snapshot(), MachineSnapshot.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            return null; // the nominal link figures are then unknown, as without a snapshot when recorded
        }
    }
}
