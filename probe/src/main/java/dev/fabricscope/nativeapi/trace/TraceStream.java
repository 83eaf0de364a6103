package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace read token by token (a 256-GPU trace holds 350,000 calls: binding each through databind's record creator
 * is most of {@code probe --replay}'s read), to the same {@link NativeTrace} the mapper binds. Plainly well-formed
 * traces only: a token of another type than the member's, a null, a missing {@code seq}, a number beyond {@code int}
 * or {@code long}, any parser error returns null, and {@link TraceIO#read} lets the mapper read the file and say
 * what it says ({@code TraceStreamTest} holds the two readings equal on every captured trace and mutations of them).
 */
final class TraceStream {

    private static final JsonNodeFactory NODES = Json.mapper().getNodeFactory();

    /** Not the shape this reader follows: the mapper reads the file. */
    private static final class GiveUp extends Exception {
        private GiveUp() {
            super(null, null, false, false);
        }
    }

    private static final GiveUp GIVE_UP = new GiveUp();

    private TraceStream() {
    }

    /** The trace, or null where the mapper must read it. */
    static NativeTrace read(byte[] json) {
        try (JsonParser p = Json.mapper().getFactory().createParser(json)) {
            // the mapper refuses a member named twice; this reader gives up on one itself (Seen), which costs less
            // than the parser's detector on 350,000 small objects
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            NativeTrace t = trace(p);
            return p.nextToken() == null ? t : null; // trailing content: the mapper refuses it
        } catch (IOException | GiveUp | RuntimeException e) {
            return null;
        }
    }

    private static NativeTrace trace(JsonParser p) throws IOException, GiveUp {
        expect(p.nextToken(), JsonToken.START_OBJECT);
        String format = null;
        Integer traceVersion = null;
        String toolVersion = null;
        String recordedAt = null;
        List<String> commandLine = null;
        Long durationMs = null;
        String source = null;
        List<TraceCall> calls = null;
        JsonNode snapshot = null;
        JsonNode redaction = null;
        JsonNode check = null;
        Seen seen = new Seen();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "format" -> format = text(p, t, seen, 0);
                case "traceVersion" -> traceVersion = integer(p, seen.once(t, 1));
                case "toolVersion" -> toolVersion = text(p, t, seen, 2);
                case "recordedAt" -> recordedAt = text(p, t, seen, 3);
                case "commandLine" -> commandLine = texts(p, seen.once(t, 4));
                case "durationMs" -> durationMs = whole(p, seen.once(t, 5));
                case "source" -> source = text(p, t, seen, 6);
                case "calls" -> calls = calls(p, seen.once(t, 7));
                case "snapshot" -> snapshot = tree(p, seen.once(t, 8), false);
                case "redaction" -> redaction = tree(p, seen.once(t, 9), false);
                case "check" -> check = tree(p, seen.once(t, 10), false);
                default -> throw GIVE_UP; // a member this reader does not know: the mapper says what it makes of it
            }
        }
        expect(p.currentToken(), JsonToken.END_OBJECT);
        if (traceVersion == null) {
            throw GIVE_UP; // what the mapper makes of an absent int is its own
        }
        return new NativeTrace(format, traceVersion, toolVersion, recordedAt, commandLine, durationMs, source, calls, snapshot,
                redaction, check);
    }

    private static List<TraceCall> calls(JsonParser p, JsonToken t) throws IOException, GiveUp {
        expect(t, JsonToken.START_ARRAY);
        List<TraceCall> out = new ArrayList<>();
        Names names = new Names();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            out.add(call(p, names));
        }
        expect(p.currentToken(), JsonToken.END_ARRAY);
        return out;
    }

    /**
     * The library and function names seen so far, each kept once: a big trace repeats a few dozen names 350,000 times,
     * and one copy each is less to hold and to copy at every collection.
     */
    private static final class Names {
        private final java.util.Map<String, String> seen = new java.util.HashMap<>();

        String text(JsonParser p, JsonToken t) throws IOException, GiveUp {
            String s = TraceStream.text(p, t);
            String before = seen.putIfAbsent(s, s);
            return before != null ? before : s;
        }
    }

    private static TraceCall call(JsonParser p, Names names) throws IOException, GiveUp {
        Integer seq = null;
        String lib = null;
        String call = null;
        JsonNode args = null;
        Integer rc = null;
        JsonNode value = null;
        NativeAnswer.Fault fault = null;
        String detail = null;
        Long us = null;
        Integer times = null;
        Seen seen = new Seen();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "seq" -> seq = integer(p, seen.once(t, 0));
                case "lib" -> lib = names.text(p, seen.once(t, 1));
                case "call" -> call = names.text(p, seen.once(t, 2));
                case "args" -> args = tree(p, seen.once(t, 3), false);
                case "rc" -> rc = integer(p, seen.once(t, 4));
                case "value" -> value = tree(p, seen.once(t, 5), false);
                case "fault" -> fault = fault(text(p, t, seen, 6));
                case "detail" -> detail = text(p, t, seen, 7);
                case "us" -> us = whole(p, seen.once(t, 8));
                case "times" -> times = integer(p, seen.once(t, 9));
                default -> throw GIVE_UP;
            }
        }
        if (seq == null) {
            throw GIVE_UP;
        }
        return new TraceCall(seq, lib, call, args, rc, value, fault, detail, us, times);
    }

    private static NativeAnswer.Fault fault(String name) throws GiveUp {
        try {
            return NativeAnswer.Fault.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw GIVE_UP;
        }
    }

    /**
     * A value as the mapper's tree reader builds it (ints as int nodes where they fit, else long nodes; fractions as
     * double nodes, nulls inside as null nodes); a member's own null, or a number beyond {@code long} or {@code double}, gives up.
     */
    private static JsonNode tree(JsonParser p, JsonToken t, boolean nested) throws IOException, GiveUp {
        switch (t) {
            case START_OBJECT -> {
                ObjectNode o = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    if (o.replace(name, tree(p, p.nextToken(), true)) != null) {
                        throw GIVE_UP; // named twice
                    }
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    a.add(tree(p, e, true));
                }
                return a;
            }
            case VALUE_STRING -> {
                return NODES.textNode(p.getText());
            }
            case VALUE_NUMBER_INT -> {
                JsonParser.NumberType n = p.getNumberType();
                if (n == JsonParser.NumberType.INT) {
                    return NODES.numberNode(p.getIntValue());
                }
                if (n == JsonParser.NumberType.LONG) {
                    return NODES.numberNode(p.getLongValue());
                }
                throw GIVE_UP;
            }
            case VALUE_NUMBER_FLOAT -> {
                double d = p.getDoubleValue();
                if (Double.isInfinite(d)) {
                    throw GIVE_UP;
                }
                return NODES.numberNode(d);
            }
            case VALUE_TRUE -> {
                return NODES.booleanNode(true);
            }
            case VALUE_FALSE -> {
                return NODES.booleanNode(false);
            }
            case VALUE_NULL -> {
                if (nested) {
                    return NODES.nullNode();
                }
                throw GIVE_UP; // what the mapper makes of a member's null is its own
            }
            default -> throw GIVE_UP;
        }
    }

    /** The members of one object met so far, by their place in the switch: a second one gives up. */
    private static final class Seen {
        private int bits;

        JsonToken once(JsonToken t, int member) throws GiveUp {
            if ((bits & (1 << member)) != 0) {
                throw GIVE_UP;
            }
            bits |= 1 << member;
            return t;
        }
    }

    private static String text(JsonParser p, JsonToken t, Seen seen, int member) throws IOException, GiveUp {
        return text(p, seen.once(t, member));
    }

    private static String text(JsonParser p, JsonToken t) throws IOException, GiveUp {
        expect(t, JsonToken.VALUE_STRING);
        return p.getText();
    }

    private static List<String> texts(JsonParser p, JsonToken t) throws IOException, GiveUp {
        expect(t, JsonToken.START_ARRAY);
        List<String> out = new ArrayList<>();
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            out.add(text(p, e));
        }
        return out;
    }

    private static Integer integer(JsonParser p, JsonToken t) throws IOException, GiveUp {
        expect(t, JsonToken.VALUE_NUMBER_INT);
        if (p.getNumberType() != JsonParser.NumberType.INT) {
            throw GIVE_UP;
        }
        return p.getIntValue();
    }

    private static Long whole(JsonParser p, JsonToken t) throws IOException, GiveUp {
        expect(t, JsonToken.VALUE_NUMBER_INT);
        JsonParser.NumberType n = p.getNumberType();
        if (n != JsonParser.NumberType.INT && n != JsonParser.NumberType.LONG) {
            throw GIVE_UP;
        }
        return p.getLongValue();
    }

    private static void expect(JsonToken t, JsonToken wanted) throws GiveUp {
        if (t != wanted) {
            throw GIVE_UP;
        }
    }
}
