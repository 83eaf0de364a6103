package dev.fabricscope.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.RecordValidator;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.io.SnapshotIO.ReadException;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads and writes reports. Reading treats the file as untrusted, as {@link SnapshotIO} does (size, nesting, UTF-8,
 * versions, types, required fields), and accepts a bare snapshot too: it becomes a report with no verdicts or checks,
 * so {@code diff} and the GUI open either.
 */
public final class ReportIO {

    private ReportIO() {
    }

    public static Report read(Path file) throws ReadException {
        return parse(SnapshotIO.readText(file), file.toString());
    }

    public static Report parse(String text, String where) throws ReadException {
        JsonNode root = SnapshotIO.readTree(text, where);
        if (!root.has("snapshot") && !root.has("format") && !root.has("reportVersion")) {
            MachineSnapshot s = SnapshotIO.snapshot(root, where, "$");
            return Reports.fromSnapshot(s);
        }
        JsonNode format = root.get("format");
        if (format != null && !(format.isTextual() && Report.FORMAT.equals(format.asText()))) {
            throw new ReadException(where + ": at $.format: expected \"" + Report.FORMAT + "\"; not a Fabricscope report");
        }
        JsonNode version = root.get("reportVersion");
        if (version == null || !version.isInt()) {
            throw new ReadException(where + ": at $.reportVersion: missing or not an integer; not a Fabricscope report");
        }
        if (version.asInt() > Report.REPORT_VERSION) {
            throw new ReadException(where + ": reportVersion " + version.asInt() + " is newer than this Fabricscope reads ("
                    + Report.REPORT_VERSION + "); update Fabricscope");
        }
        if (version.asInt() < 1) {
            throw new ReadException(where + ": at $.reportVersion: " + version.asInt() + " is not a known version");
        }
        JsonNode snap = root.get("snapshot");
        if (snap == null || !snap.isObject()) {
            throw new ReadException(where + ": at $.snapshot: missing or not an object");
        }
        MachineSnapshot s = SnapshotIO.snapshot(snap, where, "$.snapshot");
        ObjectNode rest = Json.mapper().createObjectNode();
        root.fields().forEachRemaining(e -> {
            if (!e.getKey().equals("snapshot")) {
                rest.set(e.getKey(), e.getValue());
            }
        });
        Report r;
        try {
            r = Json.mapper().treeToValue(rest, Report.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ReadException(where + ": " + SnapshotIO.oneLine(e));
        }
        r = new Report(Report.FORMAT, r.reportVersion(), r.toolVersion(), r.createdAt(), r.commandLine(), s, r.advice(),
                r.checks(), r.redaction());
        try {
            RecordValidator.validate(r, "$");
        } catch (RecordValidator.Invalid e) {
            throw new ReadException(where + ": " + e.getMessage());
        }
        return r;
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
