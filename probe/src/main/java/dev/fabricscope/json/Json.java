package dev.fabricscope.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;

/** The one configured Jackson mapper: stable key order, pretty output, bounded input. */
public final class Json {

    private static final ObjectMapper MAPPER = create();

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper create() {
        JsonMapper m = JsonMapper.builder()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .addModule(compactMissingReadings())
                .build();
        m.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(1_000_000).maxNumberLength(100).build());
        return m;
    }

    /**
     * A missing reading on one line, {@code { "missing" : { "kind" : "UNSUPPORTED", "call" : "…", … } }}, as
     * {@link RecordJson} writes it: the same document, so every reader (old ones too) reads it as before.
     */
    private static com.fasterxml.jackson.databind.Module compactMissingReadings() {
        com.fasterxml.jackson.databind.module.SimpleModule module = new com.fasterxml.jackson.databind.module.SimpleModule("compact-missing");
        module.setSerializerModifier(new com.fasterxml.jackson.databind.ser.BeanSerializerModifier() {
            @Override
            @SuppressWarnings("unchecked")
            public com.fasterxml.jackson.databind.JsonSerializer<?> modifySerializer(com.fasterxml.jackson.databind.SerializationConfig config,
                    com.fasterxml.jackson.databind.BeanDescription bean, com.fasterxml.jackson.databind.JsonSerializer<?> serializer) {
                if (bean.getBeanClass() != dev.fabricscope.model.Reading.class) {
                    return serializer;
                }
                var fallback = (com.fasterxml.jackson.databind.JsonSerializer<Object>) serializer;
                return new com.fasterxml.jackson.databind.ser.std.StdSerializer<dev.fabricscope.model.Reading<?>>(
                        (Class<dev.fabricscope.model.Reading<?>>) (Class<?>) dev.fabricscope.model.Reading.class) {
                    @Override
                    public void serialize(dev.fabricscope.model.Reading<?> r, com.fasterxml.jackson.core.JsonGenerator gen,
                            com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
                        if (r.missing() != null && gen.getPrettyPrinter() != null) {
                            gen.writeRawValue(RecordJson.inline(r));
                        } else {
                            fallback.serialize(r, gen, provider);
                        }
                    }
                };
            }
        });
        return module;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
