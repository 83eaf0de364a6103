package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Answers a seam interface from a trace: each call gets the answer recorded for the same function and arguments
 * (successive calls with the same arguments get successive answers, the last one repeating). A call the trace
 * lacks answers {@link NativeAnswer.Fault#NOT_RECORDED}; an answer of the wrong shape answers
 * {@link NativeAnswer.Fault#UNREADABLE_TRACE}. Never throws.
 */
public final class TraceReplayer {

    private final Map<String, Deque<TraceCall>> answers = new HashMap<>();
    private final Map<String, TraceCall> lastAnswer = new HashMap<>();

    public TraceReplayer(NativeTrace trace) {
        for (TraceCall c : trace.calls()) {
            if (c != null && c.lib() != null && c.call() != null) {
                answers.computeIfAbsent(c.key(), k -> new ArrayDeque<>()).add(c);
            }
        }
    }

    public <I> I proxy(Class<I> api, String lib) {
        Object proxy = Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> "replay of " + lib;
                };
            }
            return answer(lib, m, args);
        });
        return api.cast(proxy);
    }

    private NativeAnswer<?> answer(String lib, Method m, Object[] args) {
        ObjectMapper mapper = Json.mapper();
        String argsJson = mapper.valueToTree(args == null ? new Object[0] : args).toString();
        TraceCall c = next(TraceCall.key(lib, m.getName(), argsJson));
        if (c == null) {
            return NativeAnswer.failed(NativeAnswer.Fault.NOT_RECORDED, "the trace holds no answer for " + m.getName() + argsJson);
        }
        if (c.fault() != null) {
            return NativeAnswer.failed(c.fault(), c.detail());
        }
        if (c.rc() == null) {
            return NativeAnswer.failed(NativeAnswer.Fault.UNREADABLE_TRACE, "recorded answer has neither a return code nor a fault");
        }
        if (c.value() == null || c.value().isNull()) {
            return NativeAnswer.returned(c.rc(), null);
        }
        try {
            JavaType type = mapper.getTypeFactory().constructType(valueType(m));
            return NativeAnswer.returned(c.rc(), mapper.convertValue(c.value(), type));
        } catch (IllegalArgumentException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return NativeAnswer.failed(NativeAnswer.Fault.UNREADABLE_TRACE, "recorded value " + abbreviate(c.value().toString())
                    + " does not fit " + m.getName() + ": " + why);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    /** The {@code T} of a method returning {@code NativeAnswer<T>}. */
    private static Type valueType(Method m) {
        Type r = m.getGenericReturnType();
        if (r instanceof ParameterizedType pt) {
            return pt.getActualTypeArguments()[0];
        }
        return Object.class;
    }

    private synchronized TraceCall next(String key) {
        Deque<TraceCall> q = answers.get(key);
        if (q != null && !q.isEmpty()) {
            TraceCall c = q.poll();
            lastAnswer.put(key, c);
            return c;
        }
        return lastAnswer.get(key);
    }
}
