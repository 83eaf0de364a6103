package dev.fabricscope.usecase;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceMinimizer;
import dev.fabricscope.report.Redaction;
import dev.fabricscope.report.Redactor;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Path;

/**
 * Identifiers replaced with stable pseudonyms ({@link Redactor}, the pass {@code report --redact} uses) in a file a
 * user attaches to a ticket: a native-call trace, a report or a bare snapshot, each written back in its own format.
 * A trace is first reduced to the least data ({@link TraceMinimizer}: an old recording's process list and TCP tables
 * go) and still replays to the same fabric. Redacting a redacted file changes nothing.
 */
public final class Redact {

    /** The terminal width the one-line notice fits, with the {@code fabricscope: } the CLI puts before it. */
    static final int NOTICE_WIDTH = 120;

    /** What a file held. */
    public enum Kind { TRACE, REPORT, SNAPSHOT }

    /** @param text the redacted file, in the input's format; @param redaction what was replaced (counts per kind) */
    public record Result(Kind kind, String text, Redaction redaction) {
    }

    /** A redacted trace, and what was replaced. */
    public record RedactedTrace(NativeTrace trace, Redaction redaction) {
    }

    private Redact() {
    }

    /** {@code file} redacted; every failure to read it is one line. */
    public static Result file(Path file) throws UseCaseException {
        try {
            byte[] bytes = SnapshotIO.readBytes(file);
            SnapshotIO.checkUtf8(bytes, file.toString());
            if (TraceIO.looksLikeTrace(bytes)) {
                RedactedTrace t = trace(TraceIO.read(bytes, file.toString()));
                return new Result(Kind.TRACE, TraceIO.write(t.trace()), t.redaction());
            }
            boolean report = SnapshotIO.checkEnvelope(bytes, file.toString());
            Report red = Redactor.redact(ReportIO.parse(bytes, file.toString()));
            return report ? new Result(Kind.REPORT, ReportIO.toJson(red), red.redaction())
                    : new Result(Kind.SNAPSHOT, RecordJson.write(red.snapshot()), red.redaction());
        } catch (SnapshotIO.ReadException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        } catch (TraceIO.TraceFormatException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }

    /** Whether {@code file} is a native-call trace (false when it cannot be read). */
    public static boolean isTrace(Path file) {
        try {
            return TraceIO.looksLikeTrace(SnapshotIO.readBytes(file));
        } catch (SnapshotIO.ReadException e) {
            return false;
        }
    }

    /** @param text the trace, reduced to the least data; @param notice {@link #unredactedNotice} of it */
    public record Unredacted(String text, String notice) {
    }

    /** A trace file as it is exported without redaction: reduced to the least data, with the line saying what it holds. */
    public static Unredacted unredactedTrace(Path file) throws UseCaseException {
        try {
            byte[] bytes = SnapshotIO.readBytes(file);
            SnapshotIO.checkUtf8(bytes, file.toString());
            return unredacted(TraceIO.read(bytes, file.toString()));
        } catch (SnapshotIO.ReadException | TraceIO.TraceFormatException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }

    /** A trace held in memory (e.g. the GUI's live probe recorded it), as {@link #unredactedTrace(Path)} exports it. */
    public static Unredacted unredactedTrace(String traceJson, String where) throws UseCaseException {
        return unredacted(readTrace(traceJson, where));
    }

    /** A trace held in memory, reduced to the least data and redacted, as {@link #file} does for a trace file. */
    public static Result trace(String traceJson, String where) throws UseCaseException {
        RedactedTrace t = trace(readTrace(traceJson, where));
        return new Result(Kind.TRACE, TraceIO.write(t.trace()), t.redaction());
    }

    private static NativeTrace readTrace(String traceJson, String where) throws UseCaseException {
        try {
            return TraceIO.read(traceJson.getBytes(java.nio.charset.StandardCharsets.UTF_8), where);
        } catch (TraceIO.TraceFormatException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }

    private static Unredacted unredacted(NativeTrace read) {
        NativeTrace t = TraceMinimizer.minimize(read);
        return new Unredacted(TraceIO.write(t), t.redacted() ? "trace redacted" : unredactedNotice(t));
    }

    /** A trace reduced to the least data and redacted. */
    public static RedactedTrace trace(NativeTrace trace) {
        JsonNode tree = Json.mapper().valueToTree(TraceMinimizer.minimize(trace));
        Redactor.RedactedTrace red = Redactor.redactTrace(tree);
        try {
            return new RedactedTrace(TraceIO.read(Json.mapper().writeValueAsBytes(red.trace()), "the redacted trace"), red.redaction());
        } catch (TraceIO.TraceFormatException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("redaction broke the trace: " + e.getMessage(), e);
        }
    }

    /**
     * One line for whoever writes a trace unredacted: the kinds of identifier it holds ({@code trace not redacted:
     * host names (1), GPU and MIG UUIDs (2)…}) and how to replace them.
     */
    public static String unredactedNotice(NativeTrace trace) {
        Redaction found = trace(trace).redaction();
        String head = "trace not redacted: ";
        String tail = "; see 'fabricscope redact'";
        String what = found.kinds().isEmpty() ? "no identifiers this build recognises"
                : found.kindList(NOTICE_WIDTH - "fabricscope: ".length() - head.length() - tail.length());
        return head + what + tail;
    }
}
