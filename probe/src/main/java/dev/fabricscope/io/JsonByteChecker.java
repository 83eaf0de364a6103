package dev.fabricscope.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;

/**
 * A check of JSON bytes as Jackson's parser with {@code Json.mapper()}'s options makes it (strict JSON grammar, no
 * duplicate keys, no raw control characters in strings, bounded nesting and lengths, strict UTF-8 as the JDK's decoder
 * checks it), for a fast path that reads a file without binding all of it. Stricter than those checks, never looser:
 * whatever it is not sure of (an escape in a member name, deep nesting, a long string or number, any error) throws
 * {@link #GIVE_UP}, and the caller runs the full read instead, which says what is wrong. A few paths over input cut
 * mid-token read past its end instead ({@link IndexOutOfBoundsException}): a caller takes any runtime exception as
 * giving up, as {@code cluster.read.SummaryScan} does.
 *
 * <p>The static methods check one token at a position and return the position after it; an instance holds what a
 * whole file needs: the member names of each open object, to refuse duplicates, and the skipping of whole values.
 */
public final class JsonByteChecker {

    /** Nesting past this gives up (Jackson's limit in {@code Json.mapper()} is 64). */
    public static final int MAX_DEPTH = 40;
    // Stricter than Jackson's limits in Json.mapper() (strings 1,000,000 characters, numbers 100 characters, names
    // 50,000): a file near them takes the full read.
    private static final int MAX_STRING_BYTES = 100_000;
    private static final int MAX_NAME_BYTES = 1_000;
    private static final int MAX_NUMBER_CHARS = 50;
    /** Members of one object compared pairwise for duplicates; past this, a hash set. */
    private static final int LINEAR_NAMES = 16;

    /** Bytes a string may hold as they are: not the quote, the backslash, a control character or a non-ASCII byte. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    /** Thrown to give up: the full read then runs. Without a stack trace, as it is not an error of ours. */
    public static final class GiveUp extends RuntimeException {
        private GiveUp() {
            super(null, null, false, false);
        }
    }

    /** The one {@link GiveUp}: thrown often on a fast path, so never built again. */
    public static final GiveUp GIVE_UP = new GiveUp();

    private final byte[] b;
    private final int n;
    private final Names names = new Names();
    /** Whether each open container of {@link #skipContainer} is an object (else a list), by depth. */
    private final boolean[] open = new boolean[MAX_DEPTH + 2];
    private final SeenValues seen;

    /** A checker of {@code json}; {@code seen}: values checked before, to compare with (or null). */
    public JsonByteChecker(byte[] json, SeenValues seen) {
        this.b = json;
        this.n = json.length;
        this.seen = seen;
    }

    /** An object opens at {@code depth}: its member names start afresh. */
    public void beginObject(int depth) {
        names.begin(depth);
    }

    /** A member name {@code b[start..end)} ({@link #hash}) of the object open at {@code depth}; a duplicate gives up. */
    public void addName(int depth, int start, int end, int hash) {
        names.add(depth, b, start, end, hash);
    }

    /** Whether {@code c} may stand in a string as it is: not the quote, the backslash, a control or non-ASCII byte. */
    public static boolean plain(byte c) {
        return PLAIN[c & 0xFF];
    }

    /**
     * Any value at p, at {@code depth}, the value of a member whose name has {@code nameHash} ({@link #hash}), checked
     * and skipped; returns the position after it.
     */
    public int skipValue(int p, int depth, int nameHash) {
        if (p >= n) {
            throw GIVE_UP;
        }
        byte c = b[p];
        if (c != '{' && c != '[') {
            return scalar(b, n, p);
        }
        if (seen == null || p + SeenValues.PREFIX > n) {
            return skipContainer(p, depth);
        }
        long key = SeenValues.key(word(b, p), word(b, p + 8), depth, nameHash);
        int length = seen.match(key, depth, b, p, n);
        if (length > 0) {
            return p + length; // the same bytes as a value checked before at this depth: the same value, as valid
        }
        int end = skipContainer(p, depth);
        seen.remember(key, depth, b, p, end);
        return end;
    }

    // States of skipContainer.
    private static final int OPEN = 0;
    private static final int MEMBER = 1;
    private static final int VALUE = 2;
    private static final int AFTER = 3;

    /**
     * The object or list at {@code at}, opened at {@code depth}, checked to its end and skipped; returns the position after
     * it. A loop over the bytes with its own stack (not a method per value): most of a file is skipped here.
     */
    private int skipContainer(int at, int depth) {
        final byte[] b = this.b;
        final int n = this.n;
        final boolean[] object = this.open;
        final int base = depth;
        int d = depth - 1;
        int p = at;
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

    /** The position of the first byte from p that is not JSON white space. */
    public static int ws(byte[] b, int n, int p) {
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
    public static int scalar(byte[] b, int n, int p) {
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
    public static int nameEnd(byte[] b, int n, int p) {
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
    public static int hash(byte[] bytes, int start, int len) {
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

}
