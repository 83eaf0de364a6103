package dev.fabricscope.json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text as plain Java values, for a fast path that needs no Jackson (a bundled sample or a report opened once by
 * the CLI, where Jackson-databind's start costs more than the reading). Objects are {@link LinkedHashMap}s, arrays
 * {@link ArrayList}s, numbers {@link Long} (written without fraction or exponent) or {@link Double}, {@code null} the
 * {@link #NULL} marker. Stricter than {@code Json.mapper()}'s reader, never looser: whatever it is not sure of
 * (malformed or non-UTF-8 text, a byte-order mark, duplicate keys, trailing content, deep nesting, a long text or
 * number, an integer beyond {@code long}) throws {@link #GIVE_UP}, and the caller reads with Jackson instead, which
 * says what is wrong.
 */
public final class JsonTree {

    /** JSON's {@code null}, told apart from an absent member. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** Nesting past this gives up (Jackson's limit in {@code Json.mapper()} is 64). */
    static final int MAX_DEPTH = 40;
    /** Stricter than the mapper's limits (texts 1,000,000 characters, numbers 100). */
    private static final int MAX_STRING_CHARS = 100_000;
    private static final int MAX_NUMBER_CHARS = 50;

    /** Thrown to give up: the caller then reads with Jackson. Without a stack trace, as it is not an error of ours. */
    public static final class GiveUp extends RuntimeException {
        private GiveUp() {
            super(null, null, false, false);
        }
    }

    /** The one {@link GiveUp}, never built again. */
    public static final GiveUp GIVE_UP = new GiveUp();

    private final String s;
    private final int n;
    private int p;

    private JsonTree(String text) {
        this.s = text;
        this.n = text.length();
    }

    /** The one value {@code json} (strict UTF-8) holds, or {@link #GIVE_UP}. */
    public static Object parse(byte[] json) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(json)).toString();
        } catch (CharacterCodingException e) {
            throw GIVE_UP;
        }
        JsonTree t = new JsonTree(text);
        t.ws();
        Object v = t.value(0);
        t.ws();
        if (t.p != t.n) {
            throw GIVE_UP;
        }
        return v;
    }

    private Object value(int depth) {
        if (p >= n) {
            throw GIVE_UP;
        }
        char c = s.charAt(p);
        return switch (c) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", NULL);
            default -> number();
        };
    }

    private Map<String, Object> object(int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        p++;
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (peek() == '}') {
            p++;
            return m;
        }
        while (true) {
            ws();
            if (peek() != '"') {
                throw GIVE_UP;
            }
            String key = string();
            ws();
            expect(':');
            ws();
            if (m.put(key, value(depth)) != null) {
                throw GIVE_UP; // a duplicate key (Jackson's STRICT_DUPLICATE_DETECTION refuses it)
            }
            ws();
            char c = next();
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
        }
    }

    private List<Object> array(int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        p++;
        List<Object> a = new ArrayList<>();
        ws();
        if (peek() == ']') {
            p++;
            return a;
        }
        while (true) {
            ws();
            a.add(value(depth));
            ws();
            char c = next();
            if (c == ']') {
                return a;
            }
            if (c != ',') {
                throw GIVE_UP;
            }
        }
    }

    private String string() {
        p++; // the opening quote
        int start = p;
        while (p < n) {
            char c = s.charAt(p);
            if (c == '"') {
                String plain = s.substring(start, p++);
                return checkedLength(plain);
            }
            if (c == '\\') {
                return escaped(start);
            }
            if (c < 0x20) {
                throw GIVE_UP;
            }
            p++;
        }
        throw GIVE_UP;
    }

    /** The rest of a string from its first backslash at {@code p}; {@code start}: its first character. */
    private String escaped(int start) {
        StringBuilder sb = new StringBuilder(p - start + 16).append(s, start, p);
        while (p < n) {
            char c = s.charAt(p++);
            if (c == '"') {
                return checkedLength(sb.toString());
            }
            if (c < 0x20) {
                throw GIVE_UP;
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (p >= n) {
                throw GIVE_UP;
            }
            char e = s.charAt(p++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (p + 4 > n) {
                        throw GIVE_UP;
                    }
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(s.charAt(p++), 16);
                        if (d < 0) {
                            throw GIVE_UP;
                        }
                        code = code * 16 + d;
                    }
                    sb.append((char) code);
                }
                default -> throw GIVE_UP;
            }
        }
        throw GIVE_UP;
    }

    private static String checkedLength(String t) {
        if (t.length() > MAX_STRING_CHARS) {
            throw GIVE_UP;
        }
        return t;
    }

    /** A number as JSON's grammar has it: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private Object number() {
        int start = p;
        if (peek() == '-') {
            p++;
        }
        if (peek() == '0') {
            p++;
        } else if (digit(peek()) && peek() != '0') {
            digits();
        } else {
            throw GIVE_UP;
        }
        boolean integral = true;
        if (peek() == '.') {
            p++;
            integral = false;
            if (!digit(peek())) {
                throw GIVE_UP;
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            p++;
            integral = false;
            if (peek() == '+' || peek() == '-') {
                p++;
            }
            if (!digit(peek())) {
                throw GIVE_UP;
            }
            digits();
        }
        if (p - start > MAX_NUMBER_CHARS) {
            throw GIVE_UP;
        }
        String text = s.substring(start, p);
        if (!integral) {
            return Double.parseDouble(text);
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw GIVE_UP; // beyond long
        }
    }

    private void digits() {
        while (digit(peek())) {
            p++;
        }
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private Object word(String w, Object v) {
        if (!s.startsWith(w, p)) {
            throw GIVE_UP;
        }
        p += w.length();
        return v;
    }

    private char peek() {
        return p < n ? s.charAt(p) : '\0';
    }

    private char next() {
        if (p >= n) {
            throw GIVE_UP;
        }
        return s.charAt(p++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw GIVE_UP;
        }
    }

    private void ws() {
        while (p < n) {
            char c = s.charAt(p);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            p++;
        }
    }
}
