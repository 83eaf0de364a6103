package dev.fabricscope.cluster.read;

import dev.fabricscope.io.JsonByteChecker;
import dev.fabricscope.io.SeenValues;
import dev.fabricscope.io.SnapshotIO;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

/**
 * The fast path of {@link SummaryReader}: one pass over a file's bytes that checks all of it as Jackson's parser with
 * {@code Json.mapper()}'s options would ({@link JsonByteChecker}; nothing after the top-level object) and the
 * envelope as {@link SnapshotIO#checkEnvelope} does, and copies out only the members the summary binds (about 1 % of a
 * node report), which {@link SummaryReader} binds as the whole file would be bound.
 *
 * <p>It is stricter than those checks, never looser: whatever it is not sure of (an escape in a member name, deep
 * nesting, a long string or number, an envelope not as Fabricscope writes it, any error) makes it answer null, and the
 * full read runs instead and says what is wrong. So a file it accepts is one the full read accepts, and every error
 * is the full read's own ({@code SummaryScanTest} holds the two to that).
 */
final class SummaryScan {

    /**
     * What the summary binds: one JSON object; when its {@code gpus} were a list of objects, that list is {@code []}
     * in it and the GPUs' own compact objects are {@code gpus[gpuEnds[k-1]..gpuEnds[k])}, else both null; when its
     * {@code host} was an object, {@code host} is that object apart (not in {@code json}), else null. A host name
     * that is plain text ({@code {"value": "…"}} without escapes) is {@code hostname}, and in {@code host} it reads
     * {@link #HOSTNAME_PLACEHOLDER}; else {@code hostname} is null.
     */
    record Kept(byte[] json, byte[] gpus, int[] gpuEnds, byte[] host, String hostname) {
    }

    /** Which members each kind of object keeps: the components of the records {@link SummaryReader} binds. */
    record Shape(Set<String> snapshot, Set<String> gpu, Set<String> link) {
    }

    /** A member name to look for, with the hash {@link JsonByteChecker#hash} computes. */
    private record Word(byte[] bytes, int hash) {
        static Word of(String s) {
            byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
            return new Word(bytes, JsonByteChecker.hash(bytes, 0, bytes.length));
        }
    }

    private static final Word SNAPSHOT = Word.of("snapshot");
    private static final Word FORMAT = Word.of("format");
    private static final Word REPORT_VERSION = Word.of("reportVersion");
    private static final Word SCHEMA_VERSION = Word.of("schemaVersion");
    private static final Word GPUS = Word.of("gpus");
    private static final Word NV_SWITCHES = Word.of("nvSwitches");
    private static final Word NV_LINKS = Word.of("nvLinks");
    private static final Word HOST_NAME = Word.of("host");
    private static final Word HOSTNAME = Word.of("hostname");
    private static final Word VALUE_NAME = Word.of("value");
    /** What a plain host name is kept as in the host's compact object, so that the nodes' hosts read alike. */
    static final byte[] HOSTNAME_PLACEHOLDER = "{\"value\":\"\"}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REPORT_FORMAT = SnapshotIO.REPORT_FORMAT.getBytes(StandardCharsets.US_ASCII);

    /** Kinds of object: which members are kept, and how. */
    private static final int TOP = 1;
    private static final int MACHINE = 2;
    private static final int GPU = 3;
    private static final int LINK = 4;
    private static final int HOST = 5;

    /** Thrown to give up: the full read then runs. */
    private static final JsonByteChecker.GiveUp GIVE_UP = JsonByteChecker.GIVE_UP;

    private final byte[] b;
    private final int n;
    private final Word[] snapshotKept;
    private final Word[] gpuKept;
    private final Word[] linkKept;
    /** The member name being read: its range in b and its hash. */
    private int nameStart;
    private int nameEnd;
    private int nameHash;
    private int i;
    private final JsonByteChecker check;

    // the envelope, as value ranges in b (start inclusive, end exclusive; -1 when absent)
    private int formatStart = -1;
    private int formatEnd;
    private int reportVersionStart = -1;
    private int reportVersionEnd;
    private int topSchemaStart = -1;
    private int topSchemaEnd;
    private int nestedSchemaStart = -1;
    private int nestedSchemaEnd;
    private boolean snapshotSeen;
    private Out nested;

    private SummaryScan(byte[] json, Shape shape, SeenValues seen) {
        this.check = new JsonByteChecker(json, seen);
        this.b = json;
        this.n = json.length;
        this.snapshotKept = asciiAll(shape.snapshot());
        this.gpuKept = asciiAll(shape.gpu());
        this.linkKept = asciiAll(shape.link());
    }

    /**
     * The summary's members of {@code json} (the snapshot's, for a report), or null when the file is not plainly
     * valid: then only the full read can say what it is. {@code seen}: values checked before, to compare with (or null).
     */
    static Kept compact(byte[] json, Shape shape, SeenValues seen) {
        try {
            return new SummaryScan(json, shape, seen).run();
        } catch (RuntimeException | StackOverflowError e) { // GiveUp, or an index past the end of a cut file
            return null;
        }
    }

    private Kept run() {
        ws();
        if (peek() != '{') {
            throw GIVE_UP;
        }
        Out top = new Out(Math.max(256, n / 8));
        object(1, TOP, top);
        ws();
        if (i != n) {
            throw GIVE_UP; // trailing content
        }
        return (envelope() ? nested : top).kept();
    }

    /** True for a report, false for a bare snapshot; gives up on anything {@code checkEnvelope} might refuse. */
    private boolean envelope() {
        boolean report = snapshotSeen || formatStart >= 0 || reportVersionStart >= 0;
        if (!report) {
            int v = smallInt(topSchemaStart, topSchemaEnd);
            if (v < 1 || v > dev.fabricscope.model.MachineSnapshot.SCHEMA_VERSION) {
                throw GIVE_UP;
            }
            return false;
        }
        if (formatStart < 0 || formatEnd - formatStart != REPORT_FORMAT.length + 2 || b[formatStart] != '"'
                || !Arrays.equals(b, formatStart + 1, formatEnd - 1, REPORT_FORMAT, 0, REPORT_FORMAT.length)) {
            throw GIVE_UP;
        }
        int rv = smallInt(reportVersionStart, reportVersionEnd);
        int sv = smallInt(nestedSchemaStart, nestedSchemaEnd);
        if (rv < 1 || rv > SnapshotIO.REPORT_VERSION || nested == null || topSchemaStart >= 0
                || sv < 1 || sv > dev.fabricscope.model.MachineSnapshot.SCHEMA_VERSION) {
            throw GIVE_UP;
        }
        return true;
    }

    /** A plain non-negative integer of at most 9 digits, else -1. */
    private int smallInt(int start, int end) {
        if (start < 0 || end - start < 1 || end - start > 9) {
            return -1;
        }
        int v = 0;
        for (int k = start; k < end; k++) {
            int d = b[k] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    // ---- the grammar

    private void ws() {
        i = JsonByteChecker.ws(b, n, i);
    }

    /** Any value at i, checked and skipped. */
    private void value(int depth) {
        i = check.skipValue(i, depth, nameHash);
    }

    private byte peek() {
        if (i >= n) {
            throw GIVE_UP;
        }
        return b[i];
    }

    /** An object at {@code depth} (the top one is 1), its members kept into {@code out} as {@code kind} says. */
    private void object(int depth, int kind, Out out) {
        if (depth > JsonByteChecker.MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++; // '{'
        check.beginObject(depth);
        out.add('{');
        ws();
        if (peek() == '}') {
            i++;
            out.close('}');
            return;
        }
        while (true) {
            if (peek() != '"') {
                throw GIVE_UP;
            }
            int start = i + 1;
            i = JsonByteChecker.nameEnd(b, n, i);
            int hash = JsonByteChecker.hash(b, start, i - 1 - start);
            check.addName(depth, start, i - 1, hash);
            nameStart = start;
            nameEnd = i - 1;
            nameHash = hash;
            ws();
            if (peek() != ':') {
                throw GIVE_UP;
            }
            i++;
            ws();
            member(depth + 1, kind, out);
            ws();
            byte c = peek();
            i++;
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
            ws();
        }
        out.close('}');
    }

    /** A member's value at {@code depth} in an object of {@code kind}: kept, filtered or skipped. */
    private void member(int depth, int kind, Out out) {
        switch (kind) {
            case TOP -> {
                if (is(SNAPSHOT)) {
                    snapshotSeen = true;
                    if (peek() == '{') {
                        nested = new Out(Math.max(256, n / 8));
                        object(depth, MACHINE, nested);
                    } else {
                        value(depth);
                    }
                } else if (is(FORMAT)) {
                    formatStart = i;
                    value(depth);
                    formatEnd = i;
                } else if (is(REPORT_VERSION)) {
                    reportVersionStart = i;
                    value(depth);
                    reportVersionEnd = i;
                } else {
                    machineMember(depth, out, true);
                }
            }
            case MACHINE -> machineMember(depth, out, false);
            case GPU -> {
                if (is(NV_LINKS)) {
                    list(depth, out, nameStart, nameEnd, LINK);
                } else if (kept(gpuKept)) {
                    copy(depth, out, nameStart, nameEnd);
                } else {
                    value(depth);
                }
            }
            case HOST -> {
                int text = is(HOSTNAME) ? plainText() : -1;
                if (text >= 0) {
                    int start = i + text;
                    value(depth);
                    int end = i;
                    while (b[end - 1] != '"') {
                        end--;
                    }
                    out.hostname = new String(b, start, end - 1 - start, StandardCharsets.UTF_8);
                    out.member(b, nameStart, nameEnd);
                    out.add(HOSTNAME_PLACEHOLDER, 0, HOSTNAME_PLACEHOLDER.length);
                    out.add(',');
                } else {
                    copy(depth, out, nameStart, nameEnd);
                }
            }
            default -> { // LINK
                if (kept(linkKept)) {
                    copy(depth, out, nameStart, nameEnd);
                } else {
                    value(depth);
                }
            }
        }
    }

    private void machineMember(int depth, Out out, boolean top) {
        if (is(HOST_NAME) && peek() == '{') {
            out.host = new Out(512);
            object(depth, HOST, out.host);
        } else if (is(GPUS)) {
            list(depth, out, nameStart, nameEnd, GPU);
        } else if (is(NV_SWITCHES)) {
            counted(depth, out, nameStart, nameEnd);
        } else if (kept(snapshotKept)) {
            int start = i;
            boolean schema = is(SCHEMA_VERSION); // before the value, whose own members are names too
            copy(depth, out, nameStart, nameEnd);
            if (schema) {
                if (top) {
                    topSchemaStart = start;
                    topSchemaEnd = i;
                } else {
                    nestedSchemaStart = start;
                    nestedSchemaEnd = i;
                }
            }
        } else {
            value(depth);
        }
    }

    /**
     * Whether the value at i is {@code {"value": "text"}} (white space aside) with no escape in the text: then the
     * offset of the text's first byte from i, else -1. The text itself is checked when the value is skipped.
     */
    private int plainText() {
        int p = JsonByteChecker.ws(b, n, i + 1);
        if (i >= n || b[i] != '{' || p >= n || b[p] != '"') {
            return -1;
        }
        int nameFrom = p + 1;
        int q = nameFrom;
        while (q < n && JsonByteChecker.plain(b[q])) {
            q++;
        }
        if (q >= n || b[q] != '"' || q - nameFrom != VALUE_NAME.bytes().length
                || !Arrays.equals(b, nameFrom, q, VALUE_NAME.bytes(), 0, VALUE_NAME.bytes().length)) {
            return -1;
        }
        p = JsonByteChecker.ws(b, n, q + 1);
        if (p >= n || b[p] != ':') {
            return -1;
        }
        p = JsonByteChecker.ws(b, n, p + 1);
        if (p >= n || b[p] != '"') {
            return -1;
        }
        int textFrom = p + 1;
        q = textFrom;
        while (q < n && (JsonByteChecker.plain(b[q]) || b[q] < 0)) {
            q++;
        }
        if (q >= n || b[q] != '"') {
            return -1; // an escape, a control character, or the end
        }
        p = JsonByteChecker.ws(b, n, q + 1);
        if (p >= n || b[p] != '}') {
            return -1;
        }
        return textFrom - i;
    }

    /** A kept member as it is. */
    private void copy(int depth, Out out, int nameStart, int nameEnd) {
        int start = i;
        value(depth);
        out.member(b, nameStart, nameEnd);
        out.add(b, start, i);
        out.add(',');
    }

    /**
     * A list whose objects keep only some members ({@code gpus}, {@code nvLinks}); anything but a list of objects is
     * kept as it is, for the binding to judge. The GPUs go to a list of their own ({@link Kept#gpus}), each bound
     * apart, so that the GPUs a folder's nodes have in common are bound once; the object keeps {@code "gpus":[]}.
     */
    private void list(int depth, Out out, int nameStart, int nameEnd, int elementKind) {
        int start = i;
        int mark = out.length();
        if (!listOpened(depth, out, nameStart, nameEnd, start)) {
            return;
        }
        boolean split = elementKind == GPU;
        Out into = split ? new Out(Math.max(256, n / 8)) : out;
        int[] ends = new int[split ? 8 : 0];
        int count = 0;
        boolean objects = true;
        if (peek() == ']') {
            i++;
        } else {
            do {
                if (objects && peek() == '{') {
                    object(depth + 1, elementKind, into);
                    if (split) {
                        if (count == ends.length) {
                            ends = Arrays.copyOf(ends, count * 2);
                        }
                        ends[count++] = into.length();
                    } else {
                        into.add(',');
                    }
                } else {
                    objects = false;
                    value(depth + 1);
                }
            } while (!listEnded());
        }
        if (!objects) {
            keptAsWritten(out, mark, nameStart, nameEnd, start);
        } else if (split) {
            out.add(']');
            out.gpus = into;
            out.gpuEnds = Arrays.copyOf(ends, count);
        } else {
            out.close(']');
        }
        out.add(',');
    }

    /** {@code nvSwitches}: the summary counts its objects, so each is kept as {@code {}}. */
    private void counted(int depth, Out out, int nameStart, int nameEnd) {
        int start = i;
        int mark = out.length();
        if (!listOpened(depth, out, nameStart, nameEnd, start)) {
            return;
        }
        boolean objects = true;
        if (peek() == ']') {
            i++;
        } else {
            do {
                objects &= peek() == '{';
                value(depth + 1);
                if (objects) {
                    out.add('{');
                    out.add('}');
                    out.add(',');
                }
            } while (!listEnded());
        }
        if (objects) {
            out.close(']');
        } else {
            keptAsWritten(out, mark, nameStart, nameEnd, start);
        }
        out.add(',');
    }

    /**
     * Writes the member's name; a value that is not a list is copied as written (true is not returned); a list has
     * its {@code [} read and written, and the reader stands at its first element or its {@code ]}.
     */
    private boolean listOpened(int depth, Out out, int nameStart, int nameEnd, int start) {
        out.member(b, nameStart, nameEnd);
        if (peek() != '[') {
            value(depth);
            out.add(b, start, i);
            out.add(',');
            return false;
        }
        if (depth > JsonByteChecker.MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++;
        out.add('[');
        ws();
        return true;
    }

    /** After a list's element: true at its {@code ]}, false at a {@code ,} (the reader then at the next element). */
    private boolean listEnded() {
        ws();
        byte c = peek();
        i++;
        if (c == ']') {
            return true;
        }
        if (c != ',') {
            throw GIVE_UP;
        }
        ws();
        return false;
    }

    /** A list that is not all objects, kept as the file wrote it (from {@code start}), for the binding to judge. */
    private void keptAsWritten(Out out, int mark, int nameStart, int nameEnd, int start) {
        out.reset(mark);
        out.member(b, nameStart, nameEnd);
        out.add(b, start, i);
    }

    /** Whether the member name being read is {@code word}. */
    private boolean is(Word word) {
        return nameHash == word.hash() && nameEnd - nameStart == word.bytes().length
                && Arrays.equals(b, nameStart, nameEnd, word.bytes(), 0, word.bytes().length);
    }

    private boolean kept(Word[] words) {
        for (Word w : words) {
            if (is(w)) {
                return true;
            }
        }
        return false;
    }

    // ---- helpers

    private static Word[] asciiAll(Set<String> words) {
        return words.stream().sorted().map(Word::of).toArray(Word[]::new);
    }

    /** A growing byte buffer for the compact JSON. */
    private static final class Out {
        private byte[] buf;
        private int len;
        /** The GPUs, when split out of this object: their compact objects one after the other, and where each ends. */
        Out gpus;
        int[] gpuEnds;
        /** The host, when kept apart from this object, and its plain host name. */
        Out host;
        String hostname;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        int length() {
            return len;
        }

        void reset(int mark) {
            len = mark;
        }

        private void room(int more) {
            if (len + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }

        void add(char c) {
            room(1);
            buf[len++] = (byte) c;
        }

        void add(byte[] src, int from, int to) {
            room(to - from);
            System.arraycopy(src, from, buf, len, to - from);
            len += to - from;
        }

        /** {@code "name":}. */
        void member(byte[] src, int nameStart, int nameEnd) {
            add('"');
            add(src, nameStart, nameEnd);
            add('"');
            add(':');
        }

        /** Ends an object or list whose every member or element was followed by a comma. */
        void close(char bracket) {
            if (buf[len - 1] == ',') {
                buf[len - 1] = (byte) bracket;
            } else {
                add(bracket);
            }
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, len);
        }

        Kept kept() {
            return new Kept(toArray(), gpus == null ? null : gpus.buf, gpuEnds, host == null ? null : host.toArray(),
                    host == null ? null : host.hostname);
        }
    }
}
