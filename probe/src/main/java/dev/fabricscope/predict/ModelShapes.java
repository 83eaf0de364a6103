package dev.fabricscope.predict;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Hidden sizes of a few models ({@code hidden_size} of each model's Hugging Face {@code config.json}), by model id and,
 * where one architecture has one size, by architecture ({@code architectures[0]}).
 */
public final class ModelShapes {
    private ModelShapes() {
    }

    /** A model's hidden size and where it was read. */
    public record Shape(String name, int hiddenSize, String source) {
    }

    private static final Map<String, Shape> BY_NAME = new LinkedHashMap<>();

    private static void add(String id, int hidden, String... aliases) {
        Shape s = new Shape(id, hidden, "huggingface.co/" + id + "/blob/main/config.json (hidden_size " + hidden + ")");
        BY_NAME.put(id.toLowerCase(Locale.ROOT), s);
        for (String a : aliases) {
            BY_NAME.put(a.toLowerCase(Locale.ROOT), s);
        }
    }

    static {
        add("deepseek-ai/DeepSeek-V3", 7168, "DeepseekV3ForCausalLM");
        add("meta-llama/Llama-3.1-8B", 4096);
        add("meta-llama/Llama-3.1-70B", 8192);
        add("meta-llama/Llama-3.1-405B", 16384);
        add("Qwen/Qwen2.5-72B", 8192);
        add("mistralai/Mixtral-8x7B-v0.1", 4096, "MixtralForCausalLM");
    }

    public static Optional<Shape> find(String nameOrArch) {
        return nameOrArch == null ? Optional.empty() : Optional.ofNullable(BY_NAME.get(nameOrArch.trim().toLowerCase(Locale.ROOT)));
    }

    /** The names {@link #find} knows, as written. */
    public static java.util.List<String> names() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Shape s : new java.util.LinkedHashSet<>(BY_NAME.values())) {
            out.add(s.name());
        }
        out.add("DeepseekV3ForCausalLM");
        out.add("MixtralForCausalLM");
        return out;
    }

    /** Bytes per element of a dtype ({@code bf16}, {@code fp16}, {@code fp32}, {@code fp8}), or 0 when unknown. */
    public static int elementBytes(String dtype) {
        return switch (dtype == null ? "" : dtype.toLowerCase(Locale.ROOT)) {
            case "bf16", "bfloat16", "fp16", "float16", "half" -> 2;
            case "fp32", "float32", "float" -> 4;
            case "fp8", "e4m3", "e5m2" -> 1;
            default -> 0;
        };
    }
}
