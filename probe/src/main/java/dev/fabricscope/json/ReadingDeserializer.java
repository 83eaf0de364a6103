package dev.fabricscope.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;
import dev.fabricscope.text.Escape;
import java.io.IOException;

/**
 * Reads a {@link Reading} from an untrusted file as the probe reads a value from hardware: a value that does not
 * parse, has the wrong type, or is out of range (a negative count, an infinity, a petabyte GPU) becomes a missing
 * reading {@code unreadable ("raw": why)}, with the raw text escaped and cut; never an exception for the file.
 */
public final class ReadingDeserializer extends JsonDeserializer<Reading<?>> implements ContextualDeserializer {

    /** Largest GPU memory accepted: 1 PiB. */
    static final long MAX_MEMORY_BYTES = 1L << 50;
    /** Largest count of anything (CPUs, SMs, links): far above any machine. */
    static final int MAX_COUNT = 1 << 24;
    private static final java.util.regex.Pattern COMPUTE_CAPABILITY = java.util.regex.Pattern.compile("\\d{1,3}\\.\\d{1,3}");

    private final JavaType valueType;
    private final String field;

    public ReadingDeserializer() {
        this(TypeFactory.unknownType(), null);
    }

    private ReadingDeserializer(JavaType valueType, String field) {
        this.valueType = valueType;
        this.field = field;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
        JavaType t = ctxt.getContextualType();
        if (t == null && property != null) {
            t = property.getType();
        }
        JavaType v = t == null ? TypeFactory.unknownType() : t.containedTypeOrUnknown(0);
        return new ReadingDeserializer(v, property == null ? null : property.getName());
    }

    @Override
    public Reading<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
            return unreadable(ctxt.readTree(p), "not an object with value or missing");
        }
        // streamed member by member: a 256-GPU snapshot holds half a million readings
        JsonNode v = null;
        JsonNode m = null;
        while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "value" -> v = ctxt.readTree(p);
                case "missing" -> m = ctxt.readTree(p);
                default -> p.skipChildren();
            }
        }
        boolean hasValue = v != null && !v.isNull();
        boolean hasMissing = m != null && !m.isNull();
        if (hasValue == hasMissing) {
            com.fasterxml.jackson.databind.node.ObjectNode whole = ctxt.getNodeFactory().objectNode();
            if (v != null) {
                whole.set("value", v);
            }
            if (m != null) {
                whole.set("missing", m);
            }
            return unreadable(whole, hasValue ? "both a value and why it is missing" : "neither a value nor why it is missing");
        }
        if (hasMissing) {
            Missing why = missing(m);
            return why == null ? unreadable(m, "not a reason") : shared(Reading.missing(why));
        }
        Object value;
        try {
            value = bind(v, ctxt);
        } catch (IOException | RuntimeException e) {
            return unreadable(v, "not " + expected());
        }
        if (value == null) {
            return unreadable(v, "not " + expected());
        }
        String problem = outOfRange(value, v);
        return problem == null ? shared(Reading.of(value)) : unreadable(v, problem);
    }

    /**
     * Readings repeat: the same "NV18", "OK" or "NVML_ERROR_NOT_SUPPORTED (3)" thousands of times in a big machine
     * and in every report of a cluster folder. Equal small readings share one instance (they are immutable), so a
     * folder of 10,000 node reports fits a 1 GiB heap. The table is bounded; past it, readings are not shared.
     */
    private static final java.util.concurrent.ConcurrentHashMap<Reading<?>, Reading<?>> SHARED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_SHARED = 50_000;

    static Reading<?> shared(Reading<?> r) {
        Object v = r.value();
        boolean small = v == null ? r.missing().detail() == null || r.missing().detail().length() <= 200
                : v instanceof String str ? str.length() <= 64 : v instanceof Number || v instanceof Boolean
                || v instanceof dev.fabricscope.model.PciAddress;
        if (!small) {
            return r;
        }
        Reading<?> known = SHARED.get(r);
        if (known != null) {
            return known;
        }
        if (SHARED.size() < MAX_SHARED) {
            known = SHARED.putIfAbsent(r, r);
        }
        return known != null ? known : r;
    }

    /** The value of the reading's type: scalars straight from the node, anything else through Jackson. */
    private Object bind(JsonNode v, DeserializationContext ctxt) throws IOException {
        Class<?> c = valueType.getRawClass();
        if (c == Integer.class) {
            return v.isIntegralNumber() && v.canConvertToInt() ? (Object) v.intValue() : v.isNumber() ? (Object) Integer.MAX_VALUE : null;
        }
        if (c == Long.class) {
            return v.isIntegralNumber() && v.canConvertToLong() ? (Object) v.longValue() : v.isNumber() ? (Object) Long.MAX_VALUE : null;
        }
        if (c == Double.class) {
            return v.isNumber() ? v.doubleValue() : null;
        }
        if (c == Boolean.class) {
            return v.isBoolean() ? v.booleanValue() : null;
        }
        if (c == String.class) {
            return v.isTextual() ? v.textValue() : null;
        }
        if (c == dev.fabricscope.model.PciAddress.class) {
            return v.isTextual() ? dev.fabricscope.model.PciAddress.parse(v.textValue()) : null;
        }
        return ctxt.readTreeAsValue(v, valueType);
    }

    /** A {@link Missing} from its object, or null when it is not one. */
    private static Missing missing(JsonNode m) {
        if (!m.isObject() || !m.path("kind").isTextual()) {
            return null;
        }
        Missing.Kind kind;
        try {
            kind = Missing.Kind.valueOf(m.get("kind").textValue());
        } catch (IllegalArgumentException e) {
            return null;
        }
        JsonNode codeValue = m.get("codeValue");
        for (String f : new String[] {"call", "code", "detail", "raw"}) {
            JsonNode t = m.get(f);
            if (t != null && !t.isNull() && !t.isTextual()) {
                return null;
            }
        }
        if (codeValue != null && !codeValue.isNull() && !(codeValue.isIntegralNumber() && codeValue.canConvertToInt())) {
            return null;
        }
        return new Missing(kind, text(m, "call"), text(m, "code"),
                codeValue == null || codeValue.isNull() ? null : codeValue.intValue(), text(m, "detail"), text(m, "raw"));
    }

    private static String text(JsonNode m, String field) {
        JsonNode t = m.get(field);
        return t == null || t.isNull() ? null : t.textValue();
    }

    private String expected() {
        Class<?> c = valueType.getRawClass();
        if (c == Integer.class || c == Long.class) {
            return "a whole number";
        }
        if (c == Double.class) {
            return "a number";
        }
        if (c == Boolean.class) {
            return "true or false";
        }
        if (c == String.class) {
            return "text";
        }
        if (c == dev.fabricscope.model.PciAddress.class) {
            return "a PCI address";
        }
        return "of the expected shape";
    }

    /** Why a value that bound is still not a plausible reading, or null. */
    private String outOfRange(Object value, JsonNode raw) {
        if (value instanceof Integer || value instanceof Long) {
            if (!raw.isIntegralNumber()) {
                return "not a whole number";
            }
            long n = ((Number) value).longValue();
            long min = "numaNode".equals(field) || "hostNumaId".equals(field) ? -1 : 0;
            long max = "memoryTotalBytes".equals(field) ? MAX_MEMORY_BYTES
                    : value instanceof Long ? 1L << 53 : "versionCode".equals(field) ? Integer.MAX_VALUE : MAX_COUNT;
            if (n < min) {
                return "negative";
            }
            if (n > max) {
                return "over " + max;
            }
        } else if (value instanceof Double d) {
            if (!raw.isNumber() || d.isNaN() || d.isInfinite()) {
                return "not a finite number";
            }
            if (d < 0 || d > 1e6) {
                return "out of range";
            }
        } else if (value instanceof Boolean && !raw.isBoolean()) {
            return "not true or false";
        } else if (value instanceof String s) {
            if (!raw.isTextual()) {
                return "not text";
            }
            if ("computeCapability".equals(field) && !COMPUTE_CAPABILITY.matcher(s).matches()) {
                return "not a compute capability (major.minor)";
            }
        }
        return null;
    }

    /** The missing reading for a value that cannot be read: the raw JSON, escaped and cut, and why. */
    static Reading<?> unreadable(JsonNode raw, String why) {
        String text = raw.isTextual() ? '"' + raw.textValue() + '"' : raw.toString();
        return Reading.missing(Missing.unreadable(Escape.visible(Escape.cut(text, 80), false) + ": " + why));
    }
}
