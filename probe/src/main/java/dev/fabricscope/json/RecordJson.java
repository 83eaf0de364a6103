package dev.fabricscope.json;

import com.fasterxml.jackson.annotation.JsonValue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small, start-up-cheap JSON writer for the model's records: the same document Jackson writes with
 * {@link Json#mapper()} (components in declaration order, nulls left out, {@link JsonValue} honoured, map keys
 * sorted), without Jackson-databind's cold introspection cost (≈0.3 s), which matters for a CLI run once per node.
 * Reading stays with Jackson.
 */
public final class RecordJson {

    private static final Map<Class<?>, Method> JSON_VALUE = new ConcurrentHashMap<>();
    private static final Method NONE;

    static {
        try {
            NONE = Object.class.getMethod("toString");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private RecordJson() {
    }

    /** Pretty-printed JSON with a trailing newline. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        value(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void value(StringBuilder sb, Object v, int depth) {
        if (v == null) {
            sb.append("null");
            return;
        }
        Method jsonValue = jsonValueMethod(v.getClass());
        if (jsonValue != NONE) {
            value(sb, invoke(jsonValue, v), depth);
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            sb.append(v);
        } else if (v instanceof Double d) {
            number(sb, d);
        } else if (v instanceof Float f) {
            number(sb, f.doubleValue());
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof Enum<?> e) {
            string(sb, e.name());
        } else if (v instanceof Record r) {
            record(sb, r, depth);
        } else if (v instanceof Collection<?> c) {
            array(sb, c, depth);
        } else if (v instanceof Map<?, ?> m) {
            map(sb, m, depth);
        } else if (v instanceof Character c) {
            string(sb, c.toString());
        } else {
            throw new IllegalArgumentException("RecordJson cannot write " + v.getClass().getName());
        }
    }

    private static void number(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            string(sb, Double.toString(d));
        } else {
            sb.append(d);
        }
    }

    private static void record(StringBuilder sb, Record r, int depth) {
        if (r instanceof dev.fabricscope.model.Missing || onlyMissing(r)) {
            inline(sb, r);
            return;
        }
        sb.append('{');
        boolean first = true;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = invoke(c.getAccessor(), r);
            if (v == null) {
                continue;
            }
            first = field(sb, c.getName(), v, depth, first);
        }
        close(sb, '}', depth, first);
    }

    /**
     * A missing reading on one line, {@code "speedMbps" : { "missing" : { "kind" : "NOT_APPLICABLE", "detail" : "…" } }},
     * not five: the same document (every reader reads it as before), a tenth of the lines on a machine with many.
     */
    private static void inline(StringBuilder sb, Record r) {
        sb.append("{ ");
        boolean first = true;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = invoke(c.getAccessor(), r);
            if (v == null) {
                continue;
            }
            sb.append(first ? "" : ", ");
            string(sb, c.getName());
            sb.append(" : ");
            if (v instanceof Record inner) {
                inline(sb, inner);
            } else {
                value(sb, v, 0);
            }
            first = false;
        }
        sb.append(first ? "}" : " }");
    }

    /** {@code r} on one line (a missing reading, for {@link Json}'s writer). */
    static String inline(Record r) {
        StringBuilder sb = new StringBuilder();
        inline(sb, r);
        return sb.toString();
    }

    /** Whether a record's only component with a value is a {@link dev.fabricscope.model.Missing} (a missing reading). */
    private static boolean onlyMissing(Record r) {
        boolean missing = false;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = invoke(c.getAccessor(), r);
            if (v instanceof dev.fabricscope.model.Missing) {
                missing = true;
            } else if (v != null) {
                return false;
            }
        }
        return missing;
    }

    private static void map(StringBuilder sb, Map<?, ?> m, int depth) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            first = field(sb, String.valueOf(e.getKey()), e.getValue(), depth, first);
        }
        close(sb, '}', depth, first);
    }

    private static boolean field(StringBuilder sb, String name, Object v, int depth, boolean first) {
        sb.append(first ? "\n" : ",\n");
        indent(sb, depth + 1);
        string(sb, name);
        sb.append(" : ");
        value(sb, v, depth + 1);
        return false;
    }

    private static void array(StringBuilder sb, Collection<?> c, int depth) {
        sb.append('[');
        boolean first = true;
        for (Object o : c) {
            sb.append(first ? "\n" : ",\n");
            indent(sb, depth + 1);
            value(sb, o, depth + 1);
            first = false;
        }
        close(sb, ']', depth, first);
    }

    private static void close(StringBuilder sb, char bracket, int depth, boolean empty) {
        if (!empty) {
            sb.append('\n');
            indent(sb, depth);
        }
        sb.append(bracket);
    }

    private static void indent(StringBuilder sb, int depth) {
        for (int i = 0; i < depth; i++) {
            sb.append("  ");
        }
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        sb.append('"');
    }

    private static Method jsonValueMethod(Class<?> type) {
        return JSON_VALUE.computeIfAbsent(type, t -> {
            if (!t.getName().startsWith("dev.fabricscope.")) {
                return NONE;
            }
            for (Method m : t.getMethods()) {
                JsonValue a = m.getAnnotation(JsonValue.class);
                if (a != null && a.value() && m.getParameterCount() == 0) {
                    return m;
                }
            }
            return NONE;
        });
    }

    private static Object invoke(Method m, Object target) {
        try {
            return m.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + m + ": " + e, e);
        }
    }
}
