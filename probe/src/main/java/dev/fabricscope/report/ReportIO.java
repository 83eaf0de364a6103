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
        Envelope env = scanEnvelope(json, where);
        if (!env.report()) {
            return Reports.fromSnapshot(SnapshotIO.parse(json, where)); // a bare snapshot: its own checks
        }
        if (env.format() != null && !Report.FORMAT.equals(env.format())) {
            throw new ReadException(where + ": at $.format: not \"" + Report.FORMAT + "\"; not a Fabricscope report");
        }
        if (!(env.reportVersion() instanceof Integer v)) {
            throw new ReadException(where + ": at $.reportVersion: missing or not an integer; not a Fabricscope report");
        }
        if (v > Report.REPORT_VERSION) {
            throw new ReadException(where + ": reportVersion " + v + " is newer than this Fabricscope reads ("
                    + Report.REPORT_VERSION + "); update Fabricscope");
        }
        if (v < 1) {
            throw new ReadException(where + ": at $.reportVersion: " + v + " is not a known version");
        }
        if (!env.snapshotObject()) {
            throw new ReadException(where + ": at $.snapshot: missing or not an object");
        }
        Integer sv = env.schemaVersion();
        if (sv == null) {
            throw new ReadException(where + ": at $.snapshot.schemaVersion: missing or not an integer");
        }
        if (sv > MachineSnapshot.SCHEMA_VERSION) {
            throw new ReadException(where + ": schemaVersion " + sv + " is newer than this Fabricscope reads ("
                    + MachineSnapshot.SCHEMA_VERSION + "); update Fabricscope");
        }
        if (sv < 1) {
            throw new ReadException(where + ": schemaVersion " + sv + " is not a known version");
        }
        Bound b;
        try {
            b = Json.mapper().readValue(json, Bound.class);
        } catch (IOException | RuntimeException x) {
            throw new ReadException(where + ": " + SnapshotIO.oneLine(x));
        }
        try {
            RecordValidator.validate(b, "$");
        } catch (RecordValidator.Invalid x) {
            throw new ReadException(where + ": " + x.getMessage());
        }
        return new Report(Report.FORMAT, v, b.toolVersion(), b.createdAt(), b.commandLine(), b.snapshot(), b.advice(),
                b.checks(), b.redaction());
    }

    /** What a streaming pass over the top level finds. */
    private record Envelope(boolean report, Object format, Object reportVersion, boolean snapshotObject, Integer schemaVersion) {
    }

    /**
     * The top-level {@code format} and {@code reportVersion} (as String / Integer, or another token's name) and the
     * snapshot's {@code schemaVersion}; {@code report} false for a bare snapshot (none of format, reportVersion,
     * snapshot). Also rejects trailing content and anything that is not one JSON object.
     */
    private static Envelope scanEnvelope(byte[] json, String where) throws ReadException {
        Object format = null;
        Object version = null;
        boolean report = false;
        boolean snapshotObject = false;
        Integer schemaVersion = null;
        try (JsonParser p = Json.mapper().getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ReadException(where + ": expected a JSON object at the top level");
            }
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
                    case "snapshot" -> {
                        report = true;
                        if (t == JsonToken.START_OBJECT) {
                            snapshotObject = true;
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String inner = p.currentName();
                                JsonToken it = p.nextToken();
                                if (inner.equals("schemaVersion") && it == JsonToken.VALUE_NUMBER_INT
                                        && p.getNumberType() == JsonParser.NumberType.INT) {
                                    schemaVersion = p.getIntValue();
                                } else {
                                    p.skipChildren();
                                }
                            }
                        }
                    }
                    default -> { }
                }
                p.skipChildren();
            }
            if (p.nextToken() != null) {
                throw new ReadException(where + ": not valid JSON: trailing content after the top-level object");
            }
        } catch (IOException x) {
            throw new ReadException(where + ": not valid JSON: " + SnapshotIO.oneLine(x));
        }
        return new Envelope(report, format, version, snapshotObject, schemaVersion);
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
