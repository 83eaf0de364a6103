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


    private final JavaType valueType;
    private final String field;
    /** The tree deserializer {@link DeserializationContext#readTree} looks up for each value, looked up once. */
    private final JsonDeserializer<?> trees;

    public ReadingDeserializer() {
        this(TypeFactory.unknownType(), null, null);
    }

    private ReadingDeserializer(JavaType valueType, String field, JsonDeserializer<?> trees) {
        this.valueType = valueType;
        this.field = field;
        this.trees = trees;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
        JavaType t = ctxt.getContextualType();
        if (t == null && property != null) {
            t = property.getType();
        }
        JavaType v = t == null ? TypeFactory.unknownType() : t.containedTypeOrUnknown(0);
        JsonDeserializer<?> trees;
        try {
            trees = ctxt.findRootValueDeserializer(ctxt.constructType(JsonNode.class));
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            trees = null;
        }
        return new ReadingDeserializer(v, property == null ? null : property.getName(), trees);
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
                case "value" -> v = tree(p, ctxt);
                case "missing" -> m = tree(p, ctxt);
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
            return why == null ? unreadable(m, "not a reason") : ReadingValues.shared(Reading.missing(why));
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
        return problem == null ? ReadingValues.shared(Reading.of(value)) : unreadable(v, problem);
    }

    /**
     * The value at the parser as a tree, as {@link DeserializationContext#readTree} reads it; scalars made here
     * with the same node factory calls, without that method's look-up of the tree deserializer for each of the
     * hundreds of thousands of readings of a cluster folder.
     */
    private JsonNode tree(JsonParser p, DeserializationContext ctxt) throws IOException {
        var nodes = ctxt.getNodeFactory();
        switch (p.currentToken()) {
            case VALUE_TRUE:
                return nodes.booleanNode(true);
            case VALUE_FALSE:
                return nodes.booleanNode(false);
            case VALUE_NULL:
                return nodes.nullNode();
            case VALUE_STRING:
                return nodes.textNode(p.getText());
            case VALUE_NUMBER_INT:
                if (p.getNumberType() == JsonParser.NumberType.INT
                        && !ctxt.isEnabled(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                        && !ctxt.isEnabled(com.fasterxml.jackson.databind.DeserializationFeature.USE_LONG_FOR_INTS)) {
                    return nodes.numberNode(p.getIntValue());
                }
                return ctxt.readTree(p);
            default:
                return trees != null ? (JsonNode) trees.deserialize(p, ctxt) : ctxt.readTree(p);
        }
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
        if ((value instanceof Integer || value instanceof Long) && !raw.isIntegralNumber()) {
            return "not a whole number";
        }
        if (value instanceof Double && !raw.isNumber()) {
            return "not a finite number";
        }
        if (value instanceof Boolean && !raw.isBoolean()) {
            return "not true or false";
        }
        if (value instanceof String && !raw.isTextual()) {
            return "not text";
        }
        return ReadingValues.rangeProblem(value, field);
    }

    /** The missing reading for a value that cannot be read: the raw JSON, escaped and cut, and why. */
    static Reading<?> unreadable(JsonNode raw, String why) {
        String text = raw.isTextual() ? '"' + raw.textValue() + '"' : raw.toString();
        return Reading.missing(Missing.unreadable(Escape.visible(Escape.cut(text, 80), false) + ": " + why));
    }
}
