package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.host.HostQueries;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers a seam interface from a trace: each call gets the answer recorded for the same function and arguments
 * (successive calls with the same arguments get successive answers, the last one repeating). A call the trace
 * lacks answers {@link NativeAnswer.Fault#NOT_RECORDED}; an answer of the wrong shape answers
 * {@link NativeAnswer.Fault#UNREADABLE_TRACE}. Never throws.
 *
 * <p>A trace recorded before the host seam asked narrow questions holds the whole files instead (the process list,
 * the TCP tables, /proc/cpuinfo): such a question is then answered from them by the same code that answers it on a
 * machine ({@link HostQueries}), so old traces replay as they were recorded.
 */
public final class TraceReplayer {

    /** The answers recorded for one key, in order, and how far they were given (an entry may stand for several). */
    private static final class Answers {
        final List<TraceCall> calls = new java.util.ArrayList<>(1);
        int given;
        int givenOfEntry;
    }

    /** {@code "lib call"} → the arguments' text ({@link ArgsKey}) → the answers: small keys, small maps. */
    private final Map<String, Map<String, Answers>> answers = new HashMap<>();

    public TraceReplayer(NativeTrace trace) {
        String lib = null;
        String call = null;
        Map<String, Answers> byArgs = null;
        for (TraceCall c : trace.calls()) {
            if (c != null && c.lib() != null && c.call() != null) {
                if (!c.lib().equals(lib) || !c.call().equals(call)) { // a trace's calls come in runs of one function
                    lib = c.lib();
                    call = c.call();
                    byArgs = answers.computeIfAbsent(lib + " " + call, k -> new HashMap<>());
                }
                byArgs.computeIfAbsent(c.args() == null ? "[]" : ArgsKey.of(c.args()), k -> new Answers()).calls.add(c);
            }
        }
    }

    private Answers answers(String lib, String call, String argsJson) {
        Map<String, Answers> byArgs = answers.get(lib + " " + call);
        return byArgs == null ? null : byArgs.get(argsJson);
    }

    /** What one seam method needs at each call, found once: its answers by argument text and the type it returns. */
    private record Route(String name, Map<String, Answers> byArgs, Type valueType) {
    }

    public <I> I proxy(Class<I> api, String lib) {
        Map<Method, Route> routes = new java.util.concurrent.ConcurrentHashMap<>();
        Object proxy = Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> "replay of " + lib;
                };
            }
            Route r = routes.computeIfAbsent(m, k -> new Route(k.getName(), answers.getOrDefault(lib + " " + k.getName(), Map.of()),
                    valueType(k)));
            return answer(lib, r, args);
        });
        return api.cast(proxy);
    }

    private NativeAnswer<?> answer(String lib, Route r, Object[] args) {
        Object[] a = args == null ? new Object[0] : args;
        String argsJson = ArgsKey.of(a);
        Answers recorded = r.byArgs().get(argsJson);
        if (lib.equals(HOST) && recorded == null) {
            NativeAnswer<?> legacy = fromWholeFiles(r.name(), a);
            if (legacy != null) {
                return legacy;
            }
        }
        return answer(r.name(), argsJson, recorded, r.valueType());
    }

    private static final String HOST = "host";
    private static final Type LINES = new com.fasterxml.jackson.core.type.TypeReference<List<String>>() { }.getType();

    /** A narrow host question the trace does not hold, from the whole files it holds instead; null if not such a question. */
    @SuppressWarnings("unchecked")
    private NativeAnswer<?> fromWholeFiles(String call, Object[] a) {
        HostQueries.Raw raw = new HostQueries.Raw() {
            @Override
            public NativeAnswer<List<String>> readLines(String path) {
                return (NativeAnswer<List<String>>) answer(HOST, "readLines", Json.mapper().valueToTree(new Object[] {path}).toString(), LINES);
            }

            @Override
            public NativeAnswer<List<String>> listDirectory(String path, String glob) {
                return (NativeAnswer<List<String>>) answer(HOST, "listDirectory",
                        Json.mapper().valueToTree(new Object[] {path, glob}).toString(), LINES);
            }
        };
        try {
            return switch (call) {
                case "processesNamed" -> HostQueries.processesNamed(raw, (List<String>) a[0]);
                case "tcpListening" -> HostQueries.tcpListening(raw, (List<Integer>) a[0]);
                case "fileFields" -> HostQueries.fileFields(raw, (String) a[0], (List<String>) a[1]);
                default -> null;
            };
        } catch (RuntimeException e) {
            return NativeAnswer.failed(NativeAnswer.Fault.UNREADABLE_TRACE, "recorded files do not answer " + call + ": " + e);
        }
    }

    private NativeAnswer<?> answer(String lib, String name, String argsJson, Type valueType) {
        return answer(name, argsJson, answers(lib, name, argsJson), valueType);
    }

    private NativeAnswer<?> answer(String name, String argsJson, Answers recorded, Type valueType) {
        ObjectMapper mapper = Json.mapper();
        TraceCall c = next(recorded);
        if (c == null) {
            return NativeAnswer.failed(NativeAnswer.Fault.NOT_RECORDED, "the trace holds no answer for " + name + argsJson);
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
        Object simple = simpleValue(c.value(), valueType);
        if (simple != null) {
            return NativeAnswer.returned(c.rc(), simple);
        }
        try {
            JavaType type = mapper.getTypeFactory().constructType(valueType);
            return NativeAnswer.returned(c.rc(), mapper.convertValue(c.value(), type));
        } catch (IllegalArgumentException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return NativeAnswer.failed(NativeAnswer.Fault.UNREADABLE_TRACE, "recorded value " + abbreviate(c.value().toString())
                    + " does not fit " + name + ": " + why);
        }
    }

    /**
     * A number, text or flag answered without Jackson's conversion (the same value {@code convertValue} gives for
     * these node types; most of a big trace's answers are such); null for everything else.
     */
    private static Object simpleValue(JsonNode v, Type type) {
        if (type == Integer.class && v.isInt()) {
            return v.intValue();
        }
        if (type == Long.class && (v.isInt() || v.isLong())) {
            return v.longValue();
        }
        if (type == String.class && v.isTextual()) {
            return v.textValue();
        }
        if (type == Boolean.class && v.isBoolean()) {
            return v.booleanValue();
        }
        return null;
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

    /**
     * The next of a key's answers (an entry recorded {@code times} over is given that many times); once all were
     * given, the last again. The maps are only read after the
     * constructor, so the seams' threads (NVML, CUDA and the host are read concurrently) lock one key's answers only.
     */
    private static TraceCall next(Answers a) {
        if (a == null) {
            return null;
        }
        synchronized (a) {
            if (a.given >= a.calls.size()) {
                return a.calls.get(a.calls.size() - 1);
            }
            TraceCall c = a.calls.get(a.given);
            if (++a.givenOfEntry >= c.count()) {
                a.given++;
                a.givenOfEntry = 0;
            }
            return c;
        }
    }
}
