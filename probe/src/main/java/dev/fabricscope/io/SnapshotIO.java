package dev.fabricscope.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.fabricscope.json.Json;
import dev.fabricscope.json.JsonTree;
import dev.fabricscope.json.RecordReader;
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
import java.util.Map;

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
            super(ErrorText.oneLineSafe(message));
        }
    }

    /**
     * What a file that is neither a snapshot nor a report may still be read as, decided above this layer: a native-call
     * trace reads as the snapshot its replay produces ({@code usecase.OpenSnapshot.TRACES}). {@link #NONE}: nothing.
     */
    @FunctionalInterface
    public interface OtherFormats {
        OtherFormats NONE = (bytes, file, notASnapshot) -> {
            throw notASnapshot;
        };

        /**
         * The snapshot {@code bytes} (the UTF-8 contents of {@code file}) stand for; {@code notASnapshot} (why they
         * are no snapshot or report) thrown when they are of no other format either.
         */
        MachineSnapshot read(byte[] bytes, Path file, ReadException notASnapshot) throws ReadException;

        /**
         * Whether {@code bytes} are plainly of this format, seen cheaply (a trace's first members): such a file is read
         * as it at once, not first scanned whole as a snapshot it cannot be.
         */
        default boolean claims(byte[] bytes) {
            return false;
        }
    }

    /** A snapshot or report file. */
    public static MachineSnapshot read(Path file) throws ReadException {
        return read(file, OtherFormats.NONE);
    }

    /** A snapshot or report file, or a file of one of {@code others}. */
    public static MachineSnapshot read(Path file, OtherFormats others) throws ReadException {
        byte[] bytes = readBytes(file);
        checkUtf8(bytes, file.toString());
        if (others.claims(bytes)) {
            return others.read(bytes, file, new ReadException(file + ": not a Fabricscope snapshot or report"));
        }
        try {
            return parse(bytes, file.toString());
        } catch (ReadException e) {
            return others.read(bytes, file, e);
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
        WithoutJackson fast = withoutJackson(json);
        boolean wrapped = fast != null ? fast.wrapped() : scanEnvelope(json, where);
        MachineSnapshot s;
        try {
            s = fast != null ? fast.snapshot() : wrapped ? Json.mapper().readValue(json, Wrapped.class).snapshot()
                    : Json.mapper().readValue(json, MachineSnapshot.class);
        } catch (IOException | IllegalArgumentException e) {
            throw bindingFailure(where, e);
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

    /** A snapshot read without Jackson, and whether it came wrapped in a report. */
    private record WithoutJackson(MachineSnapshot snapshot, boolean wrapped) {
    }

    /**
     * The snapshot of a file that is plainly well formed, read by {@link JsonTree} and {@link RecordReader} (no
     * Jackson: its start costs more than a sample's whole reading), or null where {@link #checkEnvelope} and the mapper
     * must read it, to accept it as they do or to say what is wrong: anything either gives up on, an envelope other
     * than a bare snapshot that starts with its {@code schemaVersion} or a report with {@code format},
     * {@code reportVersion} and {@code snapshot}, a version outside this build's.
     */
    private static WithoutJackson withoutJackson(byte[] json) {
        if (!startsAsSnapshotOrReport(json)) {
            return null; // a trace or another file: not parsed twice
        }
        try {
            if (!(JsonTree.parse(json) instanceof Map<?, ?> top) || top.isEmpty()) {
                return null;
            }
            if (knownVersion(top.get("schemaVersion"), MachineSnapshot.SCHEMA_VERSION)
                    && "schemaVersion".equals(top.keySet().iterator().next())) {
                return new WithoutJackson(RecordReader.read(top, MachineSnapshot.class), false);
            }
            if (REPORT_FORMAT.equals(top.get("format")) && knownVersion(top.get("reportVersion"), REPORT_VERSION)
                    && !top.containsKey("schemaVersion") && top.get("snapshot") instanceof Map<?, ?> inner
                    && knownVersion(inner.get("schemaVersion"), MachineSnapshot.SCHEMA_VERSION)) {
                return new WithoutJackson(RecordReader.read(inner, MachineSnapshot.class), true);
            }
            return null;
        } catch (RuntimeException e) { // JsonTree.GIVE_UP, or anything a constructor throws: the mapper says it
            return null;
        }
    }

    /** Whether the file opens as Fabricscope writes a snapshot ({@code {"schemaVersion"}) or a report ({@code {"format": "fabricscope-report"}). */
    private static boolean startsAsSnapshotOrReport(byte[] json) {
        int n = json.length;
        int p = JsonByteChecker.ws(json, n, 0);
        if (p >= n || json[p] != '{') {
            return false;
        }
        p = JsonByteChecker.ws(json, n, p + 1);
        if (at(json, p, SCHEMA_VERSION_MEMBER)) {
            return true;
        }
        if (!at(json, p, FORMAT_MEMBER)) {
            return false;
        }
        p = JsonByteChecker.ws(json, n, p + FORMAT_MEMBER.length);
        return p < n && json[p] == ':' && at(json, JsonByteChecker.ws(json, n, p + 1), REPORT_FORMAT_TEXT);
    }

    private static boolean at(byte[] b, int p, byte[] word) {
        return p + word.length <= b.length && java.util.Arrays.equals(b, p, p + word.length, word, 0, word.length);
    }

    private static boolean knownVersion(Object v, int newest) {
        return v instanceof Long n && n >= 1 && n <= newest;
    }

    /** Report format name, as {@code dev.fabricscope.report.Report.FORMAT}. */
    public static final String REPORT_FORMAT = "fabricscope-report";
    /** The report version this build reads, as {@code dev.fabricscope.report.Report.REPORT_VERSION}. */
    public static final int REPORT_VERSION = 1;

    private static final byte[] SCHEMA_VERSION_MEMBER = "\"schemaVersion\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FORMAT_MEMBER = "\"format\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REPORT_FORMAT_TEXT = ('"' + REPORT_FORMAT + '"').getBytes(StandardCharsets.US_ASCII);

    /** Reads the envelope with {@link #checkEnvelope}; true for a report (the snapshot under {@code snapshot}). */
    private static boolean scanEnvelope(byte[] json, String where) throws ReadException {
        return checkEnvelope(json, where);
    }

    /**
     * One streaming pass over the top level that every reader runs (show, advise, cluster, report --from, diff), so
     * all accept and refuse the same files (docs/report-schema.md): one JSON object, no trailing content, no
     * duplicate keys; a report ({@code format}, {@code reportVersion} or {@code snapshot} present) has the known
     * format, an integer {@code reportVersion} not newer than this build's, and an object {@code snapshot}; the
     * snapshot's integer {@code schemaVersion} is between 1 and this build's. Returns true for a report.
     */
    public static boolean checkEnvelope(byte[] json, String where) throws ReadException {
        Object format = null;
        Object reportVersion = null;
        boolean report = false;
        boolean snapshotObject = false;
        Object schemaVersion = null;
        try (com.fasterxml.jackson.core.JsonParser p = Json.mapper().getFactory().createParser(json)) {
            com.fasterxml.jackson.core.JsonToken firstToken = p.nextToken();
            if (firstToken == null) {
                throw new ReadException(where + ": empty file (no JSON in it)");
            }
            if (firstToken != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                throw new ReadException(where + ": expected a JSON object at the top level");
            }
            boolean first = true;
            scan:
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                com.fasterxml.jackson.core.JsonToken t = p.nextToken();
                switch (name) {
                    case "format" -> {
                        report = true;
                        format = t == com.fasterxml.jackson.core.JsonToken.VALUE_STRING ? p.getText() : t.name();
                    }
                    case "reportVersion" -> {
                        report = true;
                        reportVersion = integer(p, t);
                    }
                    case "schemaVersion" -> {
                        schemaVersion = schemaVersion == null ? integer(p, t) : schemaVersion;
                        if (first) {
                            break scan; // a bare snapshot as Fabricscope writes it: the binding pass reads the rest
                        }
                    }
                    case "snapshot" -> {
                        report = true;
                        if (t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                            snapshotObject = true;
                            schemaVersion = null; // the nested one counts
                            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                                String inner = p.currentName();
                                com.fasterxml.jackson.core.JsonToken it = p.nextToken();
                                if (inner.equals("schemaVersion")) {
                                    schemaVersion = integer(p, it);
                                    if (format != null && reportVersion != null) {
                                        break scan; // a report as Fabricscope writes it: envelope first, then the snapshot
                                    }
                                }
                                p.skipChildren();
                            }
                        }
                    }
                    default -> { }
                }
                first = false;
                p.skipChildren();
            }
                } catch (JsonProcessingException e) {
            throw syntax(where, e);
        } catch (IOException e) {
            throw new ReadException(where + ": cannot read: " + e.getMessage());
        }
        if (report) {
            if (format != null && !REPORT_FORMAT.equals(format)) {
                throw new ReadException(where + ": at $.format: not \"" + REPORT_FORMAT + "\"; not a Fabricscope report");
            }
            if (!(reportVersion instanceof Integer v)) {
                throw new ReadException(where + ": at $.reportVersion: missing or not an integer; not a Fabricscope report");
            }
            if (v > REPORT_VERSION) {
                throw new ReadException(where + ": reportVersion " + v + " is newer than this Fabricscope reads ("
                        + REPORT_VERSION + "); update Fabricscope");
            }
            if (v < 1) {
                throw new ReadException(where + ": at $.reportVersion: " + v + " is not a known version");
            }
            if (!snapshotObject) {
                throw new ReadException(where + ": at $.snapshot: missing or not an object");
            }
        }
        if (!(schemaVersion instanceof Integer version)) {
            throw new ReadException(where + (report ? ": at $.snapshot.schemaVersion: missing or not an integer"
                    : ": no integer schemaVersion: not a Fabricscope snapshot or report"));
        }
        if (version > MachineSnapshot.SCHEMA_VERSION) {
            throw new ReadException(where + ": schemaVersion " + version + " is newer than this Fabricscope reads ("
                    + MachineSnapshot.SCHEMA_VERSION + "); update Fabricscope");
        }
        if (version < 1) {
            throw new ReadException(where + ": schemaVersion " + version + " is not a known version");
        }
        return report;
    }

    /** An int token as Integer, anything else as its token name (so a check can say what it was). */
    private static Object integer(com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.core.JsonToken t) throws IOException {
        return t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT
                && p.getNumberType() == com.fasterxml.jackson.core.JsonParser.NumberType.INT ? p.getIntValue() : t.name();
    }

    /** A failure while binding, in one line: syntax errors (truncation, nesting, trailing content) said as such. */
    public static ReadException bindingFailure(String where, Exception e) {
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mie
                && String.valueOf(mie.getOriginalMessage()).startsWith("Trailing token")) {
            return new ReadException(where + ": not valid JSON: trailing content after the top-level object");
        }
        // Databind wraps syntax errors (truncation, nesting limit) met while binding: report them as syntax.
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException sce) {
                return new ReadException(where + at(e) + ": " + overLimit(sce));
            }
            if (c instanceof com.fasterxml.jackson.core.exc.StreamReadException) {
                return syntax(where, (JsonProcessingException) c);
            }
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mie && mie.getTargetType() != null) {
            Object found = mie instanceof com.fasterxml.jackson.databind.exc.InvalidFormatException ife ? ife.getValue() : null;
            String got = found == null ? (String.valueOf(mie.getOriginalMessage()).startsWith("Cannot map `null`") ? ": found null"
                    : "") : ": found " + (found instanceof String str ? "\"" + str + "\"" : found);
            return new ReadException(where + at(e) + ": not " + kindOf(mie.getTargetType()) + got);
        }
        return new ReadException(where + ": " + oneLine(e));
    }

    /** Jackson's {@code StreamReadConstraints} message said as the limit it is (the numbers in the message kept). */
    private static final java.util.regex.Pattern OVER_LIMIT =
            java.util.regex.Pattern.compile("(String value length|Number value length|nesting depth) \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)");

    private static String overLimit(com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
        java.util.regex.Matcher m = OVER_LIMIT.matcher(String.valueOf(e.getOriginalMessage()));
        if (!m.find()) {
            return "over a size limit of the JSON reader";
        }
        String n = String.format("%,d", Long.parseLong(m.group(2)));
        String max = String.format("%,d", Long.parseLong(m.group(3)));
        return switch (m.group(1)) {
            case "String value length" -> "a text value of " + n + " characters, over the " + max + "-character limit";
            case "Number value length" -> "a number of " + n + " digits, over the " + max + "-digit limit";
            default -> "nesting depth " + n + ", over the limit of " + max;
        };
    }

    /** {@code ": at $.calls[1].seq"}, or nothing where Jackson gives no path. */
    private static String at(Exception e) {
        if (!(e instanceof com.fasterxml.jackson.databind.JsonMappingException jme) || jme.getPath().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("$");
        for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : jme.getPath()) {
            if (r.getFieldName() != null) {
                sb.append('.').append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return ": at " + sb;
    }

    /** What a user calls the Java type a value had to bind to. */
    private static String kindOf(Class<?> type) {
        if (type == int.class || type == long.class || type == short.class || Number.class.isAssignableFrom(type)
                || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class || type.isEnum()) {
            return "a text value";
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "an object";
    }

    private static ReadException syntax(String where, JsonProcessingException e) {
        String m = oneLine(e);
        boolean utf8 = m.contains("UTF-8") || m.contains("UTF8");
        return new ReadException(where + (utf8 ? ": not UTF-8 text (" + m + ")" : ": not valid JSON: " + m));
    }

    /** Reads a file of at most {@link #MAX_BYTES}, with one-line errors. */
    public static byte[] readBytes(Path file) throws ReadException {
        try {
            java.nio.file.attribute.BasicFileAttributes a =
                    Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            if (a.isDirectory()) {
                throw new ReadException(file + ": is a folder, not a snapshot or report file");
            }
            if (!a.isRegularFile()) {
                // a FIFO with no writer would block forever, a device may never end: only regular files are read
                throw new ReadException(file + ": not a regular file (a device, FIFO or socket)");
            }
            long size = a.size();
            if (size > MAX_BYTES) {
                throw new ReadException(file + ": file is " + size + " bytes, over the " + MAX_BYTES + "-byte limit");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                // the size it has now in one array, no copies; a file that changes meanwhile is read in chunks
                byte[] sized = new byte[(int) size];
                int got = in.readNBytes(sized, 0, sized.length);
                if (got == sized.length && in.read() < 0) {
                    bytes = sized;
                } else {
                    byte[] rest = in.readNBytes((int) MAX_BYTES + 1 - got);
                    bytes = java.util.Arrays.copyOf(sized, got + rest.length);
                    System.arraycopy(rest, 0, bytes, got, rest.length);
                }
            }
            if (bytes.length > MAX_BYTES) {
                throw new ReadException(file + ": file grew past the " + MAX_BYTES + "-byte limit while reading");
            }
            return bytes;
        } catch (IOException e) {
            throw new ReadException(file + ": " + describe(e));
        } catch (OutOfMemoryError e) {
            throw new ReadException(file + ": not enough memory to read it (" + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB heap); give Java more with -Xmx");
        }
    }

    /** An I/O failure in words: "no such file", "permission denied", or the file system's own reason. */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "cannot read: permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return "cannot read: " + fse.getReason();
        }
        return "cannot read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }

    /**
     * Strict UTF-8 or a one-line error; decodes through a small buffer, so checking costs no copy of the file. Plain
     * ASCII (every byte below 0x80, what the tool writes) is valid UTF-8 and is seen eight bytes at a time first.
     */
    public static void checkUtf8(byte[] bytes, String where) throws ReadException {
        if (isAscii(bytes)) {
            return;
        }
        java.nio.charset.CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(8192);
        try {
            for (java.nio.charset.CoderResult r = d.decode(in, out, true); ; r = d.decode(in, out, true)) {
                if (r.isError()) {
                    r.throwException();
                }
                if (!r.isOverflow()) {
                    break;
                }
                out.clear();
            }
            for (java.nio.charset.CoderResult r = d.flush(out); ; r = d.flush(out)) {
                if (r.isError()) {
                    r.throwException();
                }
                if (!r.isOverflow()) {
                    break;
                }
                out.clear();
            }
        } catch (CharacterCodingException e) {
            throw new ReadException(where + ": not UTF-8 text (" + e.getMessage() + ")");
        }
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
            java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Whether no byte has its high bit set. */
    static boolean isAscii(byte[] bytes) {
        int i = 0;
        for (int end = bytes.length - 7; i < end; i += 8) {
            if (((long) LONGS.get(bytes, i) & 0x8080808080808080L) != 0) {
                return false;
            }
        }
        for (; i < bytes.length; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
    }

    public static String readText(Path file) throws ReadException {
        byte[] bytes = readBytes(file);
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
                    path.append('.').append(ErrorText.pathKey(ref.getFieldName()));
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
            String msg = mie.getOriginalMessage();
            Throwable cause = mie.getCause();
            if (cause instanceof NullPointerException) {
                msg = "a required field is missing or null"; // a record constructor's null check, not the file's words
            } else if (!(mie instanceof MismatchedInputException) && cause != null && cause.getMessage() != null) {
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
            } else if (cause instanceof NullPointerException) {
                msg = "a required field is missing or null";
            }
            return (msg == null ? "malformed" : msg.lines().findFirst().orElse("")) + at;
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse("");
    }
}
