package dev.fabricscope.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fabricscope.io.RecordValidator;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.io.SnapshotIO.ReadException;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
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

    public static Report parse(String text, String where) throws ReadException {
        return parse(text.getBytes(StandardCharsets.UTF_8), where);
    }

    /** The report fields other than the snapshot (bound separately, by {@link SnapshotIO}). */
    private record Envelope(String format, Integer reportVersion, String toolVersion, String createdAt,
                            List<String> commandLine, ReportAdvice advice, ReportChecks checks, Redaction redaction) {
    }

    /** Reads a report or snapshot from untrusted bytes; every failure is a one-line {@link ReadException}. */
    public static Report parse(byte[] json, String where) throws ReadException {
        if (json.length > SnapshotIO.MAX_BYTES) {
            throw new ReadException(where + ": " + json.length + " bytes, over the " + SnapshotIO.MAX_BYTES + "-byte limit");
        }
        SnapshotIO.checkUtf8(json, where);
        MachineSnapshot s = SnapshotIO.parse(json, where); // JSON syntax, nesting, snapshot version and content
        Object[] envelope = scanEnvelope(json, where);
        if (envelope == null) {
            return Reports.fromSnapshot(s);
        }
        Object format = envelope[0];
        Object version = envelope[1];
        if (format != null && !Report.FORMAT.equals(format)) {
            throw new ReadException(where + ": at $.format: not \"" + Report.FORMAT + "\"; not a Fabricscope report");
        }
        if (!(version instanceof Integer v)) {
            throw new ReadException(where + ": at $.reportVersion: missing or not an integer");
        }
        if (v > Report.REPORT_VERSION) {
            throw new ReadException(where + ": reportVersion " + v + " is newer than this Fabricscope reads ("
                    + Report.REPORT_VERSION + "); update Fabricscope");
        }
        if (v < 1) {
            throw new ReadException(where + ": at $.reportVersion: " + v + " is not a known version");
        }
        Envelope e;
        try {
            e = Json.mapper().readValue(json, Envelope.class);
        } catch (IOException | RuntimeException x) {
            throw new ReadException(where + ": " + SnapshotIO.oneLine(x));
        }
        Report r = new Report(Report.FORMAT, v, e.toolVersion(), e.createdAt(), e.commandLine(), s, e.advice(), e.checks(),
                e.redaction());
        try {
            RecordValidator.validate(r.commandLine(), "$.commandLine");
            RecordValidator.validate(r.advice(), "$.advice");
            RecordValidator.validate(r.checks(), "$.checks");
            RecordValidator.validate(r.redaction(), "$.redaction");
        } catch (RecordValidator.Invalid x) {
            throw new ReadException(where + ": " + x.getMessage());
        }
        return r;
    }

    /**
     * The top-level {@code format} and {@code reportVersion} (as String / Integer, or another type's name), or null
     * for a bare snapshot (a file with neither and no {@code snapshot} member).
     */
    private static Object[] scanEnvelope(byte[] json, String where) throws ReadException {
        Object format = null;
        Object version = null;
        boolean report = false;
        try (JsonParser p = Json.mapper().getFactory().createParser(json)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "format" -> {
                        report = true;
                        format = t == JsonToken.VALUE_STRING ? p.getText() : t.name();
                    }
                    case "reportVersion" -> {
                        report = true;
                        version = t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT ? p.getIntValue() : t.name();
                    }
                    case "snapshot" -> report = true;
                    default -> { }
                }
                p.skipChildren();
            }
        } catch (IOException x) {
            throw new ReadException(where + ": not valid JSON: " + SnapshotIO.oneLine(x));
        }
        return report ? new Object[] {format, version} : null;
    }

    /** The canonical JSON text, with a trailing newline. */
    public static String toJson(Report r) {
        return Escape.jsonSafe(Json.write(r));
    }

    /** Writes {@code content} (any format) atomically: a failed write never leaves a partial file or harms an old one. */
    public static void write(Path file, String content) throws IOException {
        SnapshotIO.writeAtomically(file, content);
    }
}
