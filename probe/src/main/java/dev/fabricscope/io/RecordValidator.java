package dev.fabricscope.io;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a record tree read from an untrusted file before anything renders it: every component present unless it is
 * optional by design, no null list elements or map values, bounded sizes, and the few string formats code parses.
 * Jackson fills an absent field with null; without this a hostile file would fail later, deep inside a renderer.
 */
public final class RecordValidator {

    /** Components that may be null: {@code SimpleName.component}. Everything else is required. */
    private static final Set<String> OPTIONAL = Set.of(
            "Reading.value", "Reading.missing",
            "Missing.call", "Missing.code", "Missing.codeValue", "Missing.detail", "Missing.raw", "NvLink.speedMbps",
            "NvLink.errors", "Gpu.health", "MachineSnapshot.node",
            "ProbeInfo.toolVersion", "ProbeInfo.probedAt", "ProbeInfo.durationMs", "ProbeInfo.description",
            "DriverInfo.message", "Finding.subject", "MachineSnapshot.pythonStack", "PythonPackage.commit",
            "Verdict.value", "Verdict.resolved", "Verdict.errorClass", "Verdict.message", "Verdict.when",
            "Verdict.why", "Verdict.fix", "Verdict.source", "Verdict.version",
            "SourceRef.commit", "SourceRef.line", "Recommendation.summary",
            "Report.toolVersion", "Report.createdAt",
            "Bound.format", "Bound.toolVersion", "Bound.createdAt", "Bound.commandLine", "Bound.advice", "Bound.checks",
            "Bound.redaction", "ReportAdvice.blocked", "ReportAdvice.predicted", "Predicted.heading", "ReportAdvice.deployment", "ReportAdvice.requested", "ReportAdvice.options",
            "Deployment.tp", "Deployment.nodes", "Deployment.dcp", "Deployment.model", "Deployment.tokens",
            "ReportChecks.skipped", "Entry.summary", "Entry.result",
            "EffectiveDeployment.model", "EffectiveDeployment.tokens",
            "EffectiveDeployment.tpNodes");

    /** Whole-number components (outside readings, which check their own) that may be negative. */
    private static final Set<String> SIGNED = Set.of("Missing.codeValue");

    /** Most GPUs one snapshot may hold (a machine has at most a few dozen; the matrices grow with the square). */
    public static final int MAX_GPUS = 256;
    /** Most elements in any one list or map. */
    public static final int MAX_ELEMENTS = 100_000;

    private static final Pattern COMPUTE_CAPABILITY = Pattern.compile("\\d{1,3}\\.\\d{1,3}");

    private RecordValidator() {
    }

    /** Thrown with {@code at $.path: problem}. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    public static void validate(Object root, String path) throws Invalid {
        walk(root, new At(null, path, -1), 0);
    }

    /**
     * Where a value sits ({@code $.gpus[3].name}), spelled out only when something there is wrong: a large tree has
     * hundreds of thousands of components, and building each one's path as text was a tenth of reading a cluster.
     */
    private record At(At parent, String name, int index) {
        At member(String n) {
            return new At(this, n, -1);
        }

        At element(int i) {
            return new At(this, null, i);
        }

        @Override
        public String toString() {
            if (parent == null) {
                return name;
            }
            return parent + (name != null ? "." + name : "[" + index + "]");
        }
    }

    private static void walk(Object v, At path, int depth) throws Invalid {
        if (depth > 64) {
            throw new Invalid("at " + path + ": nested too deeply");
        }
        if (v instanceof Record r) {
            record(r, path, depth);
        } else if (v instanceof Collection<?> c) {
            size(c.size(), path);
            int i = 0;
            for (Object o : c) {
                At p = path.element(i++);
                if (o == null) {
                    throw new Invalid("at " + p + ": null element");
                }
                walk(o, p, depth + 1);
            }
        } else if (v instanceof Map<?, ?> m) {
            size(m.size(), path);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getValue() == null) {
                    throw new Invalid("at " + path.member(ErrorText.pathKey(String.valueOf(e.getKey()))) + ": null value");
                }
                if (!isLeaf(e.getValue())) {
                    walk(e.getValue(), path.member(ErrorText.pathKey(String.valueOf(e.getKey()))), depth + 1);
                }
            }
        } else if (v instanceof JsonNode) {
            return; // free-form (check results): rendered as JSON text only
        }
    }

    /** Strings, numbers and booleans have nothing inside to check. */
    private static boolean isLeaf(Object v) {
        return v instanceof String || v instanceof Number || v instanceof Boolean;
    }

    private static void size(int n, At path) throws Invalid {
        if (n > MAX_ELEMENTS) {
            throw new Invalid("at " + path + ": " + n + " elements, over the limit of " + MAX_ELEMENTS);
        }
    }

    /**
     * A record component with its rules looked up once per record type (a cluster folder validates millions of
     * components; spelling {@code Type.component} out for each one was a tenth of the time).
     */
    private record Part(java.lang.reflect.Method accessor, String name, boolean optional, boolean signed,
                        boolean gpuList, boolean computeCapability) {
    }

    private static final java.util.Map<Class<?>, Part[]> PARTS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Part[] parts(Class<?> type) {
        String simple = type.getSimpleName();
        RecordComponent[] cs = type.getRecordComponents();
        Part[] parts = new Part[cs.length];
        for (int k = 0; k < cs.length; k++) {
            RecordComponent c = cs[k];
            c.getAccessor().trySetAccessible(); // private records (a reader's binding shapes) are validated too
            String key = simple + "." + c.getName();
            parts[k] = new Part(c.getAccessor(), c.getName(), OPTIONAL.contains(key), SIGNED.contains(key),
                    simple.equals("MachineSnapshot") && c.getName().equals("gpus"),
                    simple.equals("Gpu") && c.getName().equals("computeCapability"));
        }
        return parts;
    }

    private static void record(Record r, At path, int depth) throws Invalid {
        for (Part c : PARTS.computeIfAbsent(r.getClass(), RecordValidator::parts)) {
            Object v;
            try {
                v = c.accessor().invoke(r);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new Invalid("at " + path + ": cannot read " + c.name());
            }
            if (v == null) {
                if (!c.optional()) {
                    throw new Invalid("at " + path.member(c.name()) + ": missing (required)");
                }
                continue;
            }
            if (isLeaf(v)) {
                if ((v instanceof Integer || v instanceof Long) && ((Number) v).longValue() < 0 && !c.signed()) {
                    throw new Invalid("at " + path.member(c.name()) + ": " + v + " is negative");
                }
                if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
                    throw new Invalid("at " + path.member(c.name()) + ": not a finite number");
                }
                continue;
            }
            At p = path.member(c.name());
            if (c.gpuList() && ((Collection<?>) v).size() > MAX_GPUS) {
                throw new Invalid("at " + p + ": " + ((Collection<?>) v).size() + " GPUs, over the limit of " + MAX_GPUS);
            }
            if (c.computeCapability() && v instanceof dev.fabricscope.model.Reading<?> cc && cc.value() != null
                    && !COMPUTE_CAPABILITY.matcher(String.valueOf(cc.value())).matches()) {
                throw new Invalid("at " + p + ".value: not a compute capability (major.minor)");
            }
            walk(v, p, depth + 1);
        }
    }
}
