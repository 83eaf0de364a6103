package dev.fabricscope.io;

import com.fasterxml.jackson.core.JsonProcessingException;
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

    /** Jackson's location text ({@code [Source: REDACTED (…); line: 1, column: 30]}) says nothing to a user. */
    private static final java.util.regex.Pattern JACKSON_SOURCE =
            java.util.regex.Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

    /** Control characters shown as escapes, the whole cut to {@link #MAX_MESSAGE}: an error is always one short line. */
    public static String oneLineSafe(String message) {
        String m = message == null ? "unknown error" : JACKSON_SOURCE.matcher(message).replaceAll("line $1, column $2");
        StringBuilder sb = new StringBuilder(Math.min(m.length(), MAX_MESSAGE + 16));
        for (int i = 0; i < m.length() && sb.length() < MAX_MESSAGE; i++) {
            char c = m.charAt(i);
            int type = Character.getType(c);
            if (c < 0x20 || c == 0x7f || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE || (c >= 0x80 && c < 0xa0)) {
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
        byte[] bytes = readBytes(file);
        checkUtf8(bytes, file.toString());
        if (dev.fabricscope.nativeapi.trace.TraceIO.looksLikeTrace(bytes)) {
            return replayTrace(bytes, file);
        }
        return parse(bytes, file.toString());
    }

    /** A native-call trace ({@code probe --record}) reads as the snapshot its replay produces. */
    private static MachineSnapshot replayTrace(byte[] bytes, Path file) throws ReadException {
        try {
            var trace = dev.fabricscope.nativeapi.trace.TraceIO.read(bytes, file.toString());
            return dev.fabricscope.probe.TraceReplay.replay(trace, file.getFileName() == null ? file.toString()
                    : file.getFileName().toString());
        } catch (dev.fabricscope.nativeapi.trace.TraceIO.TraceFormatException e) {
            throw new ReadException(e.getMessage());
        }
    }

    /** A report file: the snapshot is its {@code snapshot} member; the rest is skipped while binding. */
    private record Wrapped(MachineSnapshot snapshot) {
    }

    /**
     * Binds straight from the bytes (no intermediate tree: twice as fast for cluster folders of thousands of
     * reports), after a streaming pass that finds the schema version and whether this is a report.
     */
    public static MachineSnapshot parse(byte[] json, String where) throws ReadException {
        boolean wrapped = scanEnvelope(json, where);
        MachineSnapshot s;
        try {
            s = wrapped ? Json.mapper().readValue(json, Wrapped.class).snapshot()
                    : Json.mapper().readValue(json, MachineSnapshot.class);
        } catch (IOException | IllegalArgumentException e) {
            // Databind wraps syntax errors (truncation, nesting limit) met while binding: report them as syntax.
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof com.fasterxml.jackson.core.exc.StreamReadException
                        || c instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException) {
                    throw syntax(where, (JsonProcessingException) c);
                }
            }
            throw new ReadException(where + ": " + oneLine(e));
        }
        if (s == null) {
            throw new ReadException(where + ": at $.snapshot: missing");
        }
        try {
            RecordValidator.validate(s, wrapped ? "$.snapshot" : "$");
        } catch (RecordValidator.Invalid e) {
            throw new ReadException(where + ": " + e.getMessage());
        }
        return s;
    }

    /** Returns true for a report (snapshot nested under {@code snapshot}); checks the schema version either way. */
    private static boolean scanEnvelope(byte[] json, String where) throws ReadException {
        // Stops at the schema version (the first member of every snapshot Fabricscope writes): the binding pass
        // that follows tokenises the whole document anyway, and reports syntax errors as this pass would.
        Integer version = null;
        boolean wrapped = false;
        try (com.fasterxml.jackson.core.JsonParser p = Json.mapper().getFactory().createParser(json)) {
            com.fasterxml.jackson.core.JsonToken first = p.nextToken();
            if (first == null) {
                throw new ReadException(where + ": empty file (no JSON in it)");
            }
            if (first != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                throw new ReadException(where + ": expected a JSON object at the top level");
            }
            scan:
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                com.fasterxml.jackson.core.JsonToken t = p.nextToken();
                if (name.equals("snapshot") && t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    wrapped = true;
                    while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        com.fasterxml.jackson.core.JsonToken it = p.nextToken();
                        if (inner.equals("schemaVersion") && it == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT) {
                            version = p.getIntValue();
                            break scan;
                        }
                        p.skipChildren();
                    }
                    break;
                } else if (name.equals("schemaVersion") && t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT) {
                    version = p.getIntValue();
                    break;
                } else {
                    p.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            throw syntax(where, e);
        } catch (IOException e) {
            throw new ReadException(where + ": cannot read: " + e.getMessage());
        }
        if (version == null) {
            throw new ReadException(where + ": no integer schemaVersion: not a Fabricscope snapshot or report");
        }
        if (version > MachineSnapshot.SCHEMA_VERSION) {
            throw new ReadException(where + ": schemaVersion " + version + " is newer than this Fabricscope reads ("
                    + MachineSnapshot.SCHEMA_VERSION + "); update Fabricscope");
        }
        if (version < 1) {
            throw new ReadException(where + ": schemaVersion " + version + " is not a known version");
        }
        return wrapped;
    }

    private static ReadException syntax(String where, JsonProcessingException e) {
        String m = oneLine(e);
        boolean utf8 = m.contains("UTF-8") || m.contains("UTF8");
        return new ReadException(where + (utf8 ? ": not UTF-8 text (" + m + ")" : ": not valid JSON: " + m));
    }

    /** Reads a file of at most {@link #MAX_BYTES}, with one-line errors. */
    public static byte[] readBytes(Path file) throws ReadException {
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ReadException(file + ": file is " + size + " bytes, over the " + MAX_BYTES + "-byte limit");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                throw new ReadException(file + ": file grew past the " + MAX_BYTES + "-byte limit while reading");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new ReadException(file + ": no such file");
        } catch (IOException e) {
            throw new ReadException(file + ": cannot read: " + e.getMessage());
        }
    }

    public static void checkUtf8(byte[] bytes, String where) throws ReadException {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new ReadException(where + ": not UTF-8 text (" + e.getMessage() + ")");
        }
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
        return parse(text.getBytes(StandardCharsets.UTF_8), where);
    }

    /** Jackson's message reduced to the problem and its JSON path. */
    public static String oneLine(Exception e) {
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException mie && !mie.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder("$");
            for (var ref : mie.getPath()) {
                if (ref.getFieldName() != null) {
                    path.append('.').append(pathKey(ref.getFieldName()));
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            String msg = mie.getOriginalMessage();
            Throwable cause = mie.getCause();
            if (!(mie instanceof MismatchedInputException) && cause != null && cause.getMessage() != null) {
                msg = cause.getMessage(); // a record constructor's own words, e.g. "a reading holds exactly one of value or missing"
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
            keepOrDefaultPermissions(abs, tmp);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A temporary file is owner-only; the result gets the replaced file's permissions, or rw-r--r-- when new. */
    private static void keepOrDefaultPermissions(Path target, Path tmp) {
        try {
            java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.exists(target)
                    ? Files.getPosixFilePermissions(target)
                    : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
            Files.setPosixFilePermissions(tmp, perms);
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system (Windows): the default ACLs apply
        }
    }
}
