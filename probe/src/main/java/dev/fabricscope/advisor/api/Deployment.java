package dev.fabricscope.advisor.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A planned deployment, as the user describes it. Null fields are not given (the advisor derives them and says so).
 *
 * @param tp     tensor-parallel size (the all-reduce group's world size)
 * @param nodes  nodes the deployment spans
 * @param dcp    decode-context-parallel size
 * @param model  {@code hf_config.architectures[0]}, e.g. {@code DeepseekV3ForCausalLM}
 * @param tokens tokens per batch (per forward pass)
 * @param flags  framework flags, config keys and library arguments by name (flags without dashes)
 * @param env    environment variables
 */
public record Deployment(Integer tp, Integer nodes, Integer dcp, String model, Integer tokens,
                         Map<String, String> flags, Map<String, String> env) {

    public Deployment {
        flags = flags == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(flags));
        env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    /** Nothing given: every value derived from the machine. */
    public static Deployment defaults() {
        return new Deployment(null, null, null, null, null, Map.of(), Map.of());
    }

    public Deployment withTp(Integer n) {
        return new Deployment(n, nodes, dcp, model, tokens, flags, env);
    }

    public Deployment withNodes(Integer n) {
        return new Deployment(tp, n, dcp, model, tokens, flags, env);
    }

    public Deployment withDcp(Integer n) {
        return new Deployment(tp, nodes, n, model, tokens, flags, env);
    }

    public Deployment withModel(String m) {
        return new Deployment(tp, nodes, dcp, m, tokens, flags, env);
    }

    public Deployment withTokens(Integer n) {
        return new Deployment(tp, nodes, dcp, model, n, flags, env);
    }

    /** With {@code name} set to {@code value}, or removed when {@code value} is null. */
    public Deployment withFlag(String name, String value) {
        Map<String, String> f = new LinkedHashMap<>(flags);
        if (value == null) {
            f.remove(name);
        } else {
            f.put(name, value);
        }
        return new Deployment(tp, nodes, dcp, model, tokens, f, env);
    }

    /** With environment variable {@code name} set to {@code value}, or removed when {@code value} is null. */
    public Deployment withEnv(String name, String value) {
        Map<String, String> e = new LinkedHashMap<>(env);
        if (value == null) {
            e.remove(name);
        } else {
            e.put(name, value);
        }
        return new Deployment(tp, nodes, dcp, model, tokens, flags, e);
    }
}
