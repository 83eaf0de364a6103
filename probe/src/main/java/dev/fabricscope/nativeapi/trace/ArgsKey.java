package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import java.util.List;

/**
 * A call's arguments as the compact JSON text that keys a trace's answers, written directly for the arguments the
 * seams take (numbers, booleans, text, null, arrays and lists of them) and by Jackson for anything else. The same
 * text as {@code JsonNode.toString()} of the recorded arguments and of the live ones turned into a tree (what the
 * replay did before, at ~10x the cost: a 256-GPU trace holds ~350,000 calls; docs/benchmarks.md, issue 31).
 */
final class ArgsKey {

    private ArgsKey() {
    }

    /** The recorded arguments' text. */
    static String of(JsonNode args) {
        StringBuilder sb = new StringBuilder(24);
        node(sb, args);
        return sb.toString();
    }

    /** The live arguments' text (null: no arguments). */
    static String of(Object[] args) {
        StringBuilder sb = new StringBuilder(24);
        sb.append('[');
        if (args != null) {
            for (int i = 0; i < args.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                value(sb, args[i]);
            }
        }
        return sb.append(']').toString();
    }

    private static void node(StringBuilder sb, JsonNode n) {
        if (n == null || n.isNull()) {
            sb.append("null");
        } else if (n.isInt() || n.isLong()) {
            sb.append(n.longValue());
        } else if (n.isBoolean()) {
            sb.append(n.booleanValue());
        } else if (n.isTextual()) {
            text(sb, n.textValue());
        } else if (n.isArray()) {
            sb.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                node(sb, n.get(i));
            }
            sb.append(']');
        } else {
            sb.append(n.toString());
        }
    }

    private static void value(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof String s) {
            text(sb, s);
        } else if (v instanceof int[] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i > 0 ? "," : "").append(a[i]);
            }
            sb.append(']');
        } else if (v instanceof int[][] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i > 0 ? "," : "");
                value(sb, a[i]);
            }
            sb.append(']');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i > 0 ? "," : "");
                value(sb, l.get(i));
            }
            sb.append(']');
        } else {
            sb.append(Json.mapper().valueToTree(v).toString());
        }
    }

    /** Plain text as is; anything Jackson escapes, by Jackson. */
    private static void text(StringBuilder sb, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                sb.append(TextNode.valueOf(s).toString());
                return;
            }
        }
        sb.append('"').append(s).append('"');
    }
}
