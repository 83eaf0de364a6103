package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.io.IOException;
import java.util.List;

/** Reads and writes traces; a trace from a bug ticket is untrusted input: every problem is one line. */
public final class TraceIO {

    /** Most calls one trace may hold (an 8-GPU board makes about 1,500). */
    public static final int MAX_CALLS = 1_000_000;

    private TraceIO() {
    }

    /** One-line reason a file is not a usable trace. */
    public static final class TraceFormatException extends Exception {
        public TraceFormatException(String message) {
            super(message);
        }
    }

    public static String write(NativeTrace trace) {
        return Json.write(trace);
    }

    /** Whether the JSON's first member says it is a trace (cheap: stops at the first token that decides). */
    public static boolean looksLikeTrace(byte[] json) {
        try (JsonParser p = Json.mapper().getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("format")) {
                    return t == JsonToken.VALUE_STRING && NativeTrace.FORMAT.equals(p.getText());
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    public static NativeTrace read(byte[] json, String where) throws TraceFormatException {
        NativeTrace t = TraceStream.read(json);
        return checked(t != null ? t : bound(json, where), where); // not plainly well formed: the mapper reads it
    }

    /** The trace as the mapper binds it, every problem one line. */
    static NativeTrace bound(byte[] json, String where) throws TraceFormatException {
        try {
            return Json.mapper().readValue(json, NativeTrace.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new TraceFormatException(dev.fabricscope.io.SnapshotIO.bindingFailure(where, e).getMessage());
        }
    }

    /** {@code t} if it is a trace this build replays, else why not. */
    static NativeTrace checked(NativeTrace t, String where) throws TraceFormatException {
        if (t == null || !NativeTrace.FORMAT.equals(t.format())) {
            throw new TraceFormatException(where + ": not a Fabricscope native-call trace (format is not '" + NativeTrace.FORMAT + "')");
        }
        if (t.traceVersion() < 1 || t.traceVersion() > NativeTrace.VERSION) {
            throw new TraceFormatException(where + ": traceVersion " + t.traceVersion() + " is not one this Fabricscope reads ("
                    + NativeTrace.VERSION + ")");
        }
        List<TraceCall> calls = t.calls();
        if (calls.size() > MAX_CALLS) {
            throw new TraceFormatException(where + ": " + calls.size() + " calls, over the limit of " + MAX_CALLS);
        }
        for (int i = 0; i < calls.size(); i++) {
            TraceCall c = calls.get(i);
            if (c == null || c.lib() == null || c.call() == null) {
                throw new TraceFormatException(where + ": at $.calls[" + i + "]: a call needs 'lib' and 'call'");
            }
            if (c.times() != null && c.times() < 1) {
                throw new TraceFormatException(where + ": at $.calls[" + i + "].times: " + c.times() + " is not a count");
            }
            JsonNode args = c.args();
            if (args != null && !args.isArray()) {
                throw new TraceFormatException(where + ": at $.calls[" + i + "].args: not an array");
            }
        }
        return t;
    }
}
