package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/** Records every call that passes through a seam interface (thread-safe: CUDA and NVML are read concurrently). */
public final class TraceRecorder {

    private final List<TraceCall> calls = new ArrayList<>();

    /** Wraps {@code delegate} so that each call it answers is appended to this trace. */
    public <I> I wrap(Class<I> api, String lib, I delegate) {
        Object proxy = Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return m.invoke(delegate, args);
            }
            long t0 = System.nanoTime();
            Object result = invoke(m, delegate, args);
            long us = (System.nanoTime() - t0) / 1000;
            record(lib, m.getName(), args, (NativeAnswer<?>) result, us);
            return result;
        });
        return api.cast(proxy);
    }

    static Object invoke(Method m, Object target, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void record(String lib, String call, Object[] args, NativeAnswer<?> a, long us) {
        ObjectMapper mapper = Json.mapper();
        JsonNode argsNode = mapper.valueToTree(args == null ? new Object[0] : args);
        JsonNode value = a == null || a.value() == null ? null : mapper.valueToTree(a.value());
        synchronized (calls) {
            calls.add(new TraceCall(calls.size(), lib, call, argsNode,
                    a == null || a.fault() != null ? null : a.rc(), value,
                    a == null ? NativeAnswer.Fault.THREW : a.fault(), a == null ? "no answer object" : a.detail(), us));
        }
    }

    public List<TraceCall> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }
}
