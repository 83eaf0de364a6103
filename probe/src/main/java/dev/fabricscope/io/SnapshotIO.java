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
            super(message);
        }
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
        JsonNode root;
        try {
            root = Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReadException(where + ": not valid JSON: " + oneLine(e));
        }
        if (root == null || !root.isObject()) {
            throw new ReadException(where + ": expected a JSON object at the top level");
        }
        JsonNode snapshot = root.has("snapshot") && root.get("snapshot").isObject() ? root.get("snapshot") : root;
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
        try {
            return Json.mapper().treeToValue(snapshot, MachineSnapshot.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ReadException(where + ": " + oneLine(e));
        }
    }

    /** Jackson's message reduced to the problem and its JSON path. */
    static String oneLine(Exception e) {
        if (e instanceof MismatchedInputException mie && !mie.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder("$");
            for (var ref : mie.getPath()) {
                if (ref.getFieldName() != null) {
                    path.append('.').append(ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            String msg = mie.getOriginalMessage();
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
