package dev.fabricscope.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Reads and writes snapshots. Reading treats the file as untrusted: bounded size and nesting, strict UTF-8,
 * known schema versions only, and every failure is one line that names the problem and where it is. A report
 * file (a snapshot wrapped with verdicts) is accepted too: its {@code snapshot} member is read.
 */
public final class SnapshotIO {

    /** Largest file read: far above any real report (a 72-GPU rack is under 2 MB). */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private SnapshotIO() {
    }

    /** One-line, user-facing read failure. */
    public static final class ReadException extends Exception {
        public ReadException(String message) {
            super(oneLineSafe(message));
        }
    }

    /** Longest error message: a hostile file's names and values are quoted in errors, never in full. */
    static final int MAX_MESSAGE = 600;

    /** Control characters shown as escapes, the whole cut to {@link #MAX_MESSAGE}: an error is always one short line. */
    public static String oneLineSafe(String message) {
        String m = message == null ? "unknown error" : message;
        StringBuilder sb = new StringBuilder(Math.min(m.length(), MAX_MESSAGE + 16));
        for (int i = 0; i < m.length() && sb.length() < MAX_MESSAGE; i++) {
            char c = m.charAt(i);
            int type = Character.getType(c);
            if (c < 0x20 || c == 0x7f || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || (c >= 0x80 && c < 0xa0)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= MAX_MESSAGE && m.length() > MAX_MESSAGE) {
            sb.append("…");
        }
        return sb.toString();
    }

    public static MachineSnapshot read(Path file) throws ReadException {
        String text = readText(file);
        return parse(text, file.toString());
    }

    public static String readText(Path file) throws ReadException {
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ReadException(file + ": file is " + size + " bytes, over the " + MAX_BYTES + "-byte limit");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                throw new ReadException(file + ": file grew past the " + MAX_BYTES + "-byte limit while reading");
            }
        } catch (NoSuchFileException e) {
            throw new ReadException(file + ": no such file");
        } catch (IOException e) {
            throw new ReadException(file + ": cannot read: " + e.getMessage());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ReadException(file + ": not UTF-8 text (" + e.getMessage() + ")");
        }
    }

    public static MachineSnapshot parse(String text, String where) throws ReadException {
        JsonNode root = readTree(text, where);
        boolean wrapped = root.has("snapshot") && root.get("snapshot").isObject();
        return snapshot(wrapped ? root.get("snapshot") : root, where, wrapped ? "$.snapshot" : "$");
    }

    /** The JSON document, which must be an object. */
    public static JsonNode readTree(String text, String where) throws ReadException {
        JsonNode root;
        try {
            root = Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReadException(where + ": not valid JSON: " + oneLine(e));
        } catch (RuntimeException e) {
            throw new ReadException(where + ": not valid JSON: " + e.getClass().getSimpleName());
        }
        if (root == null || !root.isObject()) {
            throw new ReadException(where + ": expected a JSON object at the top level");
        }
        return root;
    }

    /** The snapshot object at {@code path} in the file, version-checked, bound and validated. */
    public static MachineSnapshot snapshot(JsonNode snapshot, String where, String path) throws ReadException {
        JsonNode version = snapshot.get("schemaVersion");
        if (version == null || !version.isInt()) {
            throw new ReadException(where + ": no integer schemaVersion: not a Fabricscope snapshot or report");
        }
        if (version.asInt() > MachineSnapshot.SCHEMA_VERSION) {
            throw new ReadException(where + ": schemaVersion " + version.asInt() + " is newer than this Fabricscope reads ("
                    + MachineSnapshot.SCHEMA_VERSION + "); update Fabricscope");
        }
        if (version.asInt() < 1) {
            throw new ReadException(where + ": schemaVersion " + version.asInt() + " is not a known version");
        }
        MachineSnapshot s;
        try {
            s = Json.mapper().treeToValue(snapshot, MachineSnapshot.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ReadException(where + ": " + oneLine(e, path));
        }
        try {
            RecordValidator.validate(s, path);
        } catch (RecordValidator.Invalid e) {
            throw new ReadException(where + ": " + e.getMessage());
        }
        return s;
    }

    /** Jackson's message reduced to the problem and its JSON path. */
    public static String oneLine(Exception e) {
        return oneLine(e, "$");
    }

    /** As {@link #oneLine(Exception)}, paths starting at {@code root} (the bound node's place in the file). */
    public static String oneLine(Exception e, String root) {
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException mie && !mie.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder(root);
            for (var ref : mie.getPath()) {
                if (ref.getFieldName() != null) {
                    path.append('.').append(pathKey(ref.getFieldName()));
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            String msg = mie.getOriginalMessage();
            Throwable cause = mie.getCause();
            if (cause != null && cause.getMessage() != null && !(mie instanceof MismatchedInputException)) {
                msg = cause.getMessage(); // a record constructor's own words (e.g. "a reading holds exactly one…")
            }
            return "at " + path + ": " + (msg == null ? "wrong type" : msg.lines().findFirst().orElse(""));
        }
        if (e instanceof JsonProcessingException jpe) {
            String msg = jpe.getOriginalMessage();
            var loc = jpe.getLocation();
            String at = loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
            Throwable cause = jpe.getCause();
            if (cause instanceof IllegalArgumentException iae && iae.getMessage() != null) {
                msg = iae.getMessage();
            }
            return (msg == null ? "malformed" : msg.lines().findFirst().orElse("")) + at;
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse("");
    }

    /** A map key or field name as it appears in an error path: plain names as they are, others quoted and cut. */
    public static String pathKey(String key) {
        if (key.matches("[A-Za-z0-9_:.\\-]{1,64}")) {
            return key;
        }
        String k = key.length() > 40 ? key.substring(0, 40) + "…" : key;
        return "[\"" + oneLineSafe(k).replace("\"", "\\\"") + "\"]";
    }

    /** Writes atomically: a temporary file in the same folder, then a rename; a failure leaves the old file intact. */
    public static void writeAtomically(Path target, String content) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        try {
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
