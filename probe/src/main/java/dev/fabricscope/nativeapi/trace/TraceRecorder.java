package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.SeamInterceptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

/** Records every call that passes through a seam interface (thread-safe: CUDA and NVML are read concurrently). */
public final class TraceRecorder {

    private final List<TraceCall> calls = new ArrayList<>();
    private final boolean foldRepeats;
    /** With {@code foldRepeats}: each key's last entry, by index into {@link #calls}. */
    private final Map<String, Integer> lastOfKey = new HashMap<>();

    /** Every call its own entry (the probe's traces). */
    public TraceRecorder() {
        this(false);
    }

    /**
     * @param foldRepeats a call answered as the previous call with the same arguments was becomes a count on that
     *                    entry ({@link TraceCall#times}): a check polls a stream thousands of times per wait; the
     *                    replay gives the same answers in the same order
     */
    public TraceRecorder(boolean foldRepeats) {
        this.foldRepeats = foldRepeats;
    }

    /** Wraps {@code delegate} so that each call it answers is appended to this trace. */
    public <I> I wrap(Class<I> api, String lib, I delegate) {
        return SeamInterceptor.wrap(api, delegate, (call, args, answer, nanos) -> {
            record(lib, call, args, answer, nanos / 1000);
            return answer;
        });
    }

    private void record(String lib, String call, Object[] args, NativeAnswer<?> a, long us) {
        synchronized (calls) {
            TraceCall c = call(calls.size(), lib, call, args, a, us);
            if (!foldRepeats) {
                calls.add(c);
                return;
            }
            String key = c.key();
            Integer last = lastOfKey.get(key);
            if (last != null && calls.get(last).sameAnswer(c)) {
                calls.set(last, calls.get(last).again(us));
            } else {
                lastOfKey.put(key, calls.size());
                calls.add(c);
            }
        }
    }

    /** One call as a trace holds it ({@code us} null: not timed). */
    public static TraceCall call(int seq, String lib, String call, Object[] args, NativeAnswer<?> a, Long us) {
        ObjectMapper mapper = Json.mapper();
        JsonNode argsNode = mapper.valueToTree(args == null ? new Object[0] : args);
        JsonNode value = a == null || a.value() == null ? null : mapper.valueToTree(recordable(a.value()));
        return new TraceCall(seq, lib, call, argsNode, a == null || a.fault() != null ? null : a.rc(), value,
                a == null ? NativeAnswer.Fault.THREW : a.fault(), a == null ? "no answer object" : a.detail(), us);
    }

    /** A buffer's remaining bytes as an array (Jackson's tree cannot take a direct buffer); anything else as it is. */
    private static Object recordable(Object value) {
        if (value instanceof java.nio.ByteBuffer b) {
            byte[] out = new byte[b.remaining()];
            b.duplicate().get(out);
            return out;
        }
        return value;
    }

    public List<TraceCall> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }
}
