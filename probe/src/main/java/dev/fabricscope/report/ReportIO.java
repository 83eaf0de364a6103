package dev.fabricscope.report;

import dev.fabricscope.io.RecordValidator;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.io.SnapshotIO.ReadException;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.text.Escape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads and writes reports. Reading treats the file as untrusted, as {@link SnapshotIO} does (size, nesting, UTF-8,
 * versions, types, required fields) and with the same one-line errors, and accepts a bare snapshot too: it becomes a
 * report with no verdicts or checks, so {@code diff} and the GUI open either.
 */
public final class ReportIO {

    private ReportIO() {
    }

    public static Report read(Path file) throws ReadException {
        return parse(SnapshotIO.readBytes(file), file.toString());
    }

    /**
     * A report or snapshot file, or a file of one of {@code others} (a trace: {@code usecase.OpenSnapshot.TRACES}),
     * which becomes a report of the snapshot it stands for, as a bare snapshot does.
     */
    public static Report read(Path file, SnapshotIO.OtherFormats others) throws ReadException {
        byte[] bytes = SnapshotIO.readBytes(file);
        if (others.claims(bytes)) {
            SnapshotIO.checkUtf8(bytes, file.toString());
            return Reports.fromSnapshot(others.read(bytes, file, new ReadException(file + ": not a Fabricscope report or snapshot")));
        }
        try {
            return parse(bytes, file.toString());
        } catch (ReadException notAReport) {
            return Reports.fromSnapshot(others.read(bytes, file, notAReport));
        }
    }

    public static Report parse(String text, String where) throws ReadException {
        return parse(text.getBytes(StandardCharsets.UTF_8), where);
    }

    /** A report as bound in one pass; checked, then made a {@link Report}. */
    private record Bound(String format, Integer reportVersion, String toolVersion, String createdAt, List<String> commandLine,
                         MachineSnapshot snapshot, ReportAdvice advice, ReportChecks checks, Redaction redaction) {
    }

    /** Reads a report or snapshot from untrusted bytes; every failure is a one-line {@link ReadException}. */
    public static Report parse(byte[] json, String where) throws ReadException {
        if (json.length > SnapshotIO.MAX_BYTES) {
            throw new ReadException(where + ": " + json.length + " bytes, over the " + SnapshotIO.MAX_BYTES + "-byte limit");
        }
        SnapshotIO.checkUtf8(json, where);
        if (!SnapshotIO.checkEnvelope(json, where)) {
            return Reports.fromSnapshot(SnapshotIO.parse(json, where)); // a bare snapshot: its own checks
        }
        Bound b;
        try {
            b = Json.mapper().readValue(json, Bound.class);
        } catch (IOException | RuntimeException x) {
            throw SnapshotIO.bindingFailure(where, x);
        }
        try {
            RecordValidator.validate(b, "$");
        } catch (RecordValidator.Invalid x) {
            throw new ReadException(where + ": " + x.getMessage());
        }
        return new Report(Report.FORMAT, b.reportVersion(), b.toolVersion(), b.createdAt(), b.commandLine(), b.snapshot(), b.advice(),
                b.checks(), b.redaction());
    }

    /** The canonical JSON text, with a trailing newline. */
    public static String toJson(Report r) {
        String pretty = Escape.jsonSafe(Json.write(r));
        if (pretty.length() <= SnapshotIO.MAX_BYTES / 4 || utf8Length(pretty) <= SnapshotIO.MAX_BYTES) {
            return pretty;
        }
        // indentation alone can push a large report past the size every reader accepts: what report writes, show reads
        try {
            return Escape.jsonSafe(Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(r)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }

    /** Writes {@code content} (any format) atomically: a failed write never leaves a partial file or harms an old one. */
    public static void write(Path file, String content) throws IOException {
        OutputFile.write(file, content);
    }
}
