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
import dev.fabricscope.report.Escape;
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
        JsonNode node = ctxt.readTree(p);
        if (!node.isObject()) {
            return unreadable(node, "not an object with value or missing");
        }
        JsonNode v = node.get("value");
        JsonNode m = node.get("missing");
        boolean hasValue = v != null && !v.isNull();
        boolean hasMissing = m != null && !m.isNull();
        if (hasValue == hasMissing) {
            return unreadable(node, hasValue ? "both a value and why it is missing" : "neither a value nor why it is missing");
        }
        if (hasMissing) {
            try {
                Missing why = ctxt.readTreeAsValue(m, Missing.class);
                return why == null ? unreadable(m, "not a reason") : Reading.missing(why);
            } catch (IOException | RuntimeException e) {
                return unreadable(m, "not a reason");
            }
        }
        Object value;
        try {
            value = ctxt.readTreeAsValue(v, valueType);
        } catch (IOException | RuntimeException e) {
            return unreadable(v, "not " + expected());
        }
        if (value == null) {
            return unreadable(v, "not " + expected());
        }
        String problem = outOfRange(value, v);
        return problem == null ? Reading.of(value) : unreadable(v, problem);
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
                return "not a whole number"; // Jackson coerces "5" and 5.7
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
