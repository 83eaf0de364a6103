package dev.fabricscope.cluster;

import dev.fabricscope.io.SnapshotIO;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The fast path of {@link SummaryReader}: one pass over a file's bytes that checks all of it as Jackson's parser with
 * {@code Json.mapper()}'s options would (strict JSON grammar, no duplicate keys, no raw control characters in strings,
 * bounded nesting and lengths, nothing after the top-level object, strict UTF-8 as the JDK's decoder checks it) and the
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

    // Stricter than Jackson's limits in Json.mapper() (nesting 64, strings 1,000,000 characters, numbers 100
    // characters, names 50,000): a file near them takes the full read.
    private static final int MAX_DEPTH = 40;
    private static final int MAX_STRING_BYTES = 100_000;
    private static final int MAX_NAME_BYTES = 1_000;
    private static final int MAX_NUMBER_CHARS = 50;
    /** Members of one object compared pairwise for duplicates; past this, a hash set. */
    private static final int LINEAR_NAMES = 16;

    /** A member name to look for, with the hash {@link #hash} computes. */
    private record Word(byte[] bytes, int hash) {
        static Word of(String s) {
            byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
            return new Word(bytes, SummaryScan.hash(bytes, 0, bytes.length));
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

    /** Bytes a string may hold as they are: not the quote, the backslash, a control character or a non-ASCII byte. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    /** Thrown to give up: the full read then runs. Without a stack trace, as it is not an error of ours. */
    private static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    private static final GiveUp GIVE_UP = new GiveUp();

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
    private final Names names = new Names();
    private final Seen seen;
    /** Whether each open container of {@link #skipContainer} is an object (else a list), by depth. */
    private final boolean[] open = new boolean[MAX_DEPTH + 2];

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

    private SummaryScan(byte[] json, Shape shape, Seen seen) {
        this.seen = seen;
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
    static Kept compact(byte[] json, Shape shape, Seen seen) {
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
        i = ws(b, n, i);
    }

    private byte peek() {
        if (i >= n) {
            throw GIVE_UP;
        }
        return b[i];
    }

    /** An object at {@code depth} (the top one is 1), its members kept into {@code out} as {@code kind} says. */
    private void object(int depth, int kind, Out out) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++; // '{'
        names.begin(depth);
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
            i = nameEnd(b, n, i);
            int hash = hash(b, start, i - 1 - start);
            names.add(depth, b, start, i - 1, hash);
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
        int p = ws(b, n, i + 1);
        if (i >= n || b[i] != '{' || p >= n || b[p] != '"') {
            return -1;
        }
        int nameFrom = p + 1;
        int q = nameFrom;
        while (q < n && PLAIN[b[q] & 0xFF]) {
            q++;
        }
        if (q >= n || b[q] != '"' || q - nameFrom != VALUE_NAME.bytes().length
                || !Arrays.equals(b, nameFrom, q, VALUE_NAME.bytes(), 0, VALUE_NAME.bytes().length)) {
            return -1;
        }
        p = ws(b, n, q + 1);
        if (p >= n || b[p] != ':') {
            return -1;
        }
        p = ws(b, n, p + 1);
        if (p >= n || b[p] != '"') {
            return -1;
        }
        int textFrom = p + 1;
        q = textFrom;
        while (q < n && (PLAIN[b[q] & 0xFF] || b[q] < 0)) {
            q++;
        }
        if (q >= n || b[q] != '"') {
            return -1; // an escape, a control character, or the end
        }
        p = ws(b, n, q + 1);
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
        out.member(b, nameStart, nameEnd);
        if (peek() != '[') {
            value(depth);
            out.add(b, start, i);
            out.add(',');
            return;
        }
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++;
        out.add('[');
        boolean split = elementKind == GPU;
        Out into = split ? new Out(Math.max(256, n / 8)) : out;
        int[] ends = new int[split ? 8 : 0];
        int count = 0;
        boolean objects = true;
        ws();
        if (peek() == ']') {
            i++;
        } else {
            while (true) {
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
                ws();
                byte c = peek();
                i++;
                if (c == ']') {
                    break;
                }
                if (c != ',') {
                    throw GIVE_UP;
                }
                ws();
            }
        }
        if (!objects) {
            out.reset(mark);
            out.member(b, nameStart, nameEnd);
            out.add(b, start, i);
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
        out.member(b, nameStart, nameEnd);
        if (peek() != '[') {
            value(depth);
            out.add(b, start, i);
            out.add(',');
            return;
        }
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        i++;
        out.add('[');
        boolean objects = true;
        ws();
        if (peek() == ']') {
            i++;
        } else {
            while (true) {
                objects &= peek() == '{';
                value(depth + 1);
                if (objects) {
                    out.add('{');
                    out.add('}');
                    out.add(',');
                }
                ws();
                byte c = peek();
                i++;
                if (c == ']') {
                    break;
                }
                if (c != ',') {
                    throw GIVE_UP;
                }
                ws();
            }
        }
        if (objects) {
            out.close(']');
        } else {
            out.reset(mark);
            out.member(b, nameStart, nameEnd);
            out.add(b, start, i);
        }
        out.add(',');
    }

    /** Any value at {@code depth}, checked and skipped. */
    private void value(int depth) {
        byte c = peek();
        if (c != '{' && c != '[') {
            i = scalar(b, n, i);
            return;
        }
        if (seen == null || i + Seen.PREFIX > n) {
            i = skipContainer(depth);
            return;
        }
        long key = Seen.key(b, i, depth, nameHash);
        int length = seen.match(key, depth, b, i, n);
        if (length > 0) {
            i += length; // the same bytes as a value checked before at this depth: the same value, as valid
            return;
        }
        int start = i;
        i = skipContainer(depth);
        seen.remember(key, depth, b, start, i);
    }

    /**
     * Objects and lists checked before (in this file or another of the folder), by their bytes: the nodes of a cluster
     * repeat most of their per-link readings byte for byte. JSON values delimit themselves, so bytes at p that equal a
     * value checked at the same depth (compared, not only hashed) are that value, valid; comparing them is many times cheaper than checking them.
     * One per reading thread (not thread-safe); bounded to {@link #SLOTS} values of at most {@link #MAX_LENGTH} bytes.
     */
    static final class Seen {
        static final int PREFIX = 16;
        static final int SLOTS = 512;
        static final int MAX_LENGTH = 4_096;
        private final long[] keys = new long[SLOTS];
        private final int[] depths = new int[SLOTS];
        private final byte[][] values = new byte[SLOTS][];

        /** A hash of the value's first 16 bytes, its depth and the name of its member (values of one member repeat). */
        static long key(byte[] b, int p, int depth, int name) {
            long h = word(b, p) * 0x9E3779B97F4A7C15L ^ word(b, p + 8) * 0xC2B2AE3D27D4EB4FL ^ ((long) name << 8) ^ depth;
            return h ^ (h >>> 29);
        }

        /** The length of the value at p when it is the one remembered under {@code key}, else 0. */
        int match(long key, int depth, byte[] b, int p, int n) {
            int slot = (int) key & (SLOTS - 1);
            byte[] v = values[slot];
            if (v == null || keys[slot] != key || depths[slot] != depth || p + v.length > n) {
                return 0;
            }
            return Arrays.equals(b, p, p + v.length, v, 0, v.length) ? v.length : 0;
        }

        void remember(long key, int depth, byte[] b, int start, int end) {
            if (end - start < PREFIX || end - start > MAX_LENGTH) {
                return;
            }
            int slot = (int) key & (SLOTS - 1);
            keys[slot] = key;
            depths[slot] = depth;
            values[slot] = Arrays.copyOfRange(b, start, end);
        }
    }

    // States of skipContainer.
    private static final int OPEN = 0;
    private static final int MEMBER = 1;
    private static final int VALUE = 2;
    private static final int AFTER = 3;

    /**
     * The object or list at i, opened at {@code depth}, checked to its end and skipped; returns the position after
     * it. A loop over the bytes with its own stack (not a method per value): most of a file is skipped here.
     */
    private int skipContainer(int depth) {
        final byte[] b = this.b;
        final int n = this.n;
        final boolean[] object = this.open;
        final int base = depth;
        int d = depth - 1;
        int p = i;
        int state = OPEN;
        while (true) {
            switch (state) {
                case OPEN -> { // at '{' or '['
                    d++;
                    if (d > MAX_DEPTH) {
                        throw GIVE_UP;
                    }
                    boolean isObject = b[p] == '{';
                    object[d] = isObject;
                    p = ws(b, n, p + 1);
                    if (p >= n) {
                        throw GIVE_UP;
                    }
                    if (b[p] == (isObject ? '}' : ']')) {
                        p++;
                        d--;
                        if (d < base) {
                            return p;
                        }
                        state = AFTER;
                    } else if (isObject) {
                        names.begin(d);
                        state = MEMBER;
                    } else {
                        state = VALUE;
                    }
                }
                case MEMBER -> { // at a member's name
                    if (b[p] != '"') {
                        throw GIVE_UP;
                    }
                    int start = p + 1;
                    p = nameEnd(b, n, p);
                    names.add(d, b, start, p - 1, hash(b, start, p - 1 - start));
                    p = ws(b, n, p);
                    if (p >= n || b[p] != ':') {
                        throw GIVE_UP;
                    }
                    p = ws(b, n, p + 1);
                    if (p >= n) {
                        throw GIVE_UP;
                    }
                    state = VALUE;
                }
                case VALUE -> { // at a value
                    byte c = b[p];
                    if (c == '{' || c == '[') {
                        state = OPEN;
                    } else {
                        p = scalar(b, n, p);
                        state = AFTER;
                    }
                }
                default -> { // AFTER a value: a comma, or the end of its container
                    p = ws(b, n, p);
                    if (p >= n) {
                        throw GIVE_UP;
                    }
                    byte c = b[p++];
                    if (c == ',') {
                        p = ws(b, n, p);
                        if (p >= n) {
                            throw GIVE_UP;
                        }
                        state = object[d] ? MEMBER : VALUE;
                    } else if (c == (object[d] ? '}' : ']')) {
                        d--;
                        if (d < base) {
                            return p;
                        }
                    } else {
                        throw GIVE_UP;
                    }
                }
            }
        }
    }

    // Eight bytes at a time: a pretty-printed file is two-fifths indentation, and its strings are mostly plain.
    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long SPACES = 0x2020202020202020L;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private static long word(byte[] b, int p) {
        return (long) LONGS.get(b, p);
    }

    /**
     * The high bit of each byte of {@code x} that a string cannot hold as it is (the quote, the backslash, a control
     * character, a non-ASCII byte); exact for the lowest such byte (borrows only mark bytes above one).
     */
    private static long special(long x) {
        long quote = x ^ 0x2222222222222222L;
        long backslash = x ^ 0x5C5C5C5C5C5C5C5CL;
        return ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (x - SPACES) & ~x | x) & HIGHS;
    }

    private static int ws(byte[] b, int n, int p) {
        while (p < n) {
            byte c = b[p];
            if (c == ' ') {
                p++;
                while (p + 8 <= n) {
                    long other = word(b, p) ^ SPACES;
                    if (other != 0) {
                        p += Long.numberOfTrailingZeros(other) >>> 3;
                        break;
                    }
                    p += 8;
                }
            } else if (c == '\n' || c == '\r' || c == '\t') {
                p++;
            } else {
                break;
            }
        }
        return p;
    }

    /** A string, number, {@code true}, {@code false} or {@code null} at p; returns the position after it. */
    private static int scalar(byte[] b, int n, int p) {
        switch (b[p]) {
            case '"' -> {
                return stringEnd(b, n, p);
            }
            case 't' -> {
                return word(b, n, p, TRUE);
            }
            case 'f' -> {
                return word(b, n, p, FALSE);
            }
            case 'n' -> {
                return word(b, n, p, NULL);
            }
            default -> {
                return number(b, n, p);
            }
        }
    }

    /** A string at its quote: escapes as JSON has them, no raw control characters, strict UTF-8; returns after it. */
    private static int stringEnd(byte[] b, int n, int p) {
        return quotedEnd(b, n, p, true, MAX_STRING_BYTES);
    }

    private static int escape(byte[] b, int n, int p) {
        if (p + 1 >= n) {
            throw GIVE_UP;
        }
        switch (b[p + 1]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return p + 2;
            }
            case 'u' -> {
                if (p + 5 >= n) {
                    throw GIVE_UP;
                }
                for (int k = p + 2; k < p + 6; k++) {
                    byte h = b[k];
                    if (!(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F')) {
                        throw GIVE_UP;
                    }
                }
                return p + 6;
            }
            default -> throw GIVE_UP;
        }
    }

    /**
     * A member name at its quote: no escapes, so equal names are equal bytes (a name with one is left to the full
     * read); returns the position after its closing quote.
     */
    private static int nameEnd(byte[] b, int n, int p) {
        return quotedEnd(b, n, p, false, MAX_NAME_BYTES);
    }

    /** The end of a quoted text at its quote, eight plain bytes at a time; gives up on what the full read must judge. */
    private static int quotedEnd(byte[] b, int n, int p, boolean escapes, int maxBytes) {
        int start = ++p;
        while (true) {
            if (p + 8 <= n) {
                long m = special(word(b, p));
                if (m == 0) {
                    p += 8;
                    continue;
                }
                p += Long.numberOfTrailingZeros(m) >>> 3;
            } else if (p >= n) {
                throw GIVE_UP;
            }
            int c = b[p] & 0xFF;
            if (PLAIN[c]) {
                p++;
            } else if (c == '"') {
                break;
            } else if (c == '\\' && escapes) {
                p = escape(b, n, p);
            } else if (c >= 0x80) {
                p = utf8(b, n, p, c);
            } else {
                throw GIVE_UP; // a raw control character, or an escape where none may be
            }
        }
        if (p - start > maxBytes) {
            throw GIVE_UP;
        }
        return p + 1;
    }

    /** A cheap hash of a name (its length and end bytes): enough to tell apart the members of one object. */
    private static int hash(byte[] bytes, int start, int len) {
        return len == 0 ? 0 : (len << 16) ^ ((bytes[start] & 0xFF) << 8) ^ (bytes[start + len - 1] & 0xFF);
    }

    /**
     * One multi-byte UTF-8 character at p (its lead byte {@code c}), as the JDK's strict decoder accepts it (Unicode's
     * table of well-formed sequences: no overlong forms, no surrogates, nothing past U+10FFFF); returns after it.
     */
    private static int utf8(byte[] b, int n, int p, int c) {
        int more;
        int lo = 0x80;
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            more = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            more = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            throw GIVE_UP;
        }
        if (p + more >= n) {
            throw GIVE_UP;
        }
        int second = b[p + 1] & 0xFF;
        if (second < lo || second > hi) {
            throw GIVE_UP;
        }
        for (int k = 2; k <= more; k++) {
            int cont = b[p + k] & 0xFF;
            if (cont < 0x80 || cont > 0xBF) {
                throw GIVE_UP;
            }
        }
        return p + more + 1;
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    /** {@code true}, {@code false} or {@code null}, followed by what may follow a value. */
    private static int word(byte[] b, int n, int p, byte[] word) {
        if (p + word.length > n || !Arrays.equals(b, p, p + word.length, word, 0, word.length)) {
            throw GIVE_UP;
        }
        return follows(b, n, p + word.length);
    }

    /** JSON's number grammar exactly: no leading zeros, no lone sign or point, no NaN or infinity. */
    private static int number(byte[] b, int n, int p) {
        int start = p;
        if (b[p] == '-') {
            p++;
        }
        if (p >= n) {
            throw GIVE_UP;
        }
        if (b[p] == '0') {
            p++;
        } else if (b[p] >= '1' && b[p] <= '9') {
            p = digits(b, n, p + 1);
        } else {
            throw GIVE_UP;
        }
        if (p < n && b[p] == '.') {
            p = requireDigits(b, n, p + 1);
        }
        if (p < n && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < n && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            p = requireDigits(b, n, p);
        }
        if (p - start > MAX_NUMBER_CHARS) {
            throw GIVE_UP;
        }
        return follows(b, n, p);
    }

    private static int requireDigits(byte[] b, int n, int p) {
        if (p >= n || b[p] < '0' || b[p] > '9') {
            throw GIVE_UP;
        }
        return digits(b, n, p + 1);
    }

    private static int digits(byte[] b, int n, int p) {
        while (p < n && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p;
    }

    /** After a number or a word: white space, a comma or a closing bracket (Jackson refuses {@code 1x}, {@code truex}). */
    private static int follows(byte[] b, int n, int p) {
        if (p >= n) {
            throw GIVE_UP; // a scalar is never last: the top level is an object
        }
        byte c = b[p];
        if (!(c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || c == '}' || c == ']')) {
            throw GIVE_UP;
        }
        return p;
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

    /** The member names seen in each open object, to refuse a duplicate as Jackson's strict duplicate detection does. */
    private static final class Names {
        private final int[][] starts = new int[MAX_DEPTH + 2][];
        private final int[][] ends = new int[MAX_DEPTH + 2][];
        private final int[][] hashes = new int[MAX_DEPTH + 2][];
        private final int[] counts = new int[MAX_DEPTH + 2];
        @SuppressWarnings("unchecked")
        private final HashSet<String>[] many = new HashSet[MAX_DEPTH + 2];

        void begin(int depth) {
            counts[depth] = 0;
            many[depth] = null;
            if (starts[depth] == null) {
                starts[depth] = new int[LINEAR_NAMES];
                ends[depth] = new int[LINEAR_NAMES];
                hashes[depth] = new int[LINEAR_NAMES];
            }
        }

        void add(int depth, byte[] b, int start, int end, int hash) {
            int k = counts[depth]++;
            if (k < LINEAR_NAMES) {
                int[] s = starts[depth];
                int[] e = ends[depth];
                int[] h = hashes[depth];
                for (int j = 0; j < k; j++) {
                    if (h[j] == hash && e[j] - s[j] == end - start && Arrays.equals(b, s[j], e[j], b, start, end)) {
                        throw GIVE_UP; // a duplicate key: the full read names it
                    }
                }
                s[k] = start;
                e[k] = end;
                h[k] = hash;
                return;
            }
            HashSet<String> set = many[depth];
            if (set == null) {
                set = new HashSet<>();
                for (int j = 0; j < LINEAR_NAMES; j++) {
                    set.add(new String(b, starts[depth][j], ends[depth][j] - starts[depth][j], StandardCharsets.ISO_8859_1));
                }
                many[depth] = set;
            }
            if (!set.add(new String(b, start, end - start, StandardCharsets.ISO_8859_1))) {
                throw GIVE_UP;
            }
        }
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
