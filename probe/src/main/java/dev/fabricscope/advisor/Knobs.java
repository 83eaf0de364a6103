package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.inventory.KnobNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every knob of every rule set (all versions), and validation of {@code --flag} / {@code --env} input against them and
 * against the upstream name lists ({@link KnobNames}: accepted, shown as not modelled).
 */
public final class Knobs {

    private Knobs() {
    }

    public static List<KnobSpec> all() {
        return FrameworkRegistry.knobs();
    }

    /** Names {@code --flag} accepts, sorted. */
    public static List<String> flagNames() {
        return List.copyOf(new TreeSet<>(all().stream().filter(KnobSpec::setByFlag).map(KnobSpec::name).toList()));
    }

    /** Names {@code --env} accepts, sorted. */
    public static List<String> envNames() {
        return List.copyOf(new TreeSet<>(all().stream().filter(k -> k.kind() == KnobSpec.Kind.ENV).map(KnobSpec::name).toList()));
    }

    /** Whether a rule set models {@code name} as a flag (true) or an environment variable (false). */
    public static boolean modelled(String name, boolean flag) {
        return all().stream().anyMatch(k -> k.name().equals(name) && (flag ? k.setByFlag() : k.kind() == KnobSpec.Kind.ENV));
    }

    /** Of validated input, the names no rule set models (they are on an upstream list: {@link KnobNames}). */
    static Map<String, String> notModelled(Map<String, String> validated, boolean flag) {
        Map<String, String> out = new LinkedHashMap<>();
        validated.forEach((name, value) -> {
            if (!modelled(name, flag)) {
                out.put(name, value);
            }
        });
        return out;
    }

    /**
     * Per framework and kind, how many upstream names are accepted as not modelled (an unknown verdict naming the
     * upstream line), with the lists' commits.
     */
    public static List<KnobNames.Count> notModelledCounts() {
        return KnobNames.bundled().notModelledCounts(Knobs::modelled);
    }

    /** {@code --flag} input validated and normalised (leading dashes dropped, booleans to true/false). */
    static Map<String, String> flags(Map<String, String> raw) throws AdvisorInputException {
        return validate(raw, true);
    }

    /** {@code --env} input validated and normalised. */
    static Map<String, String> env(Map<String, String> raw) throws AdvisorInputException {
        return validate(raw, false);
    }

    /** NCCL's ncclParam variables (NCCL_PARAM, int64): what NCCL makes of text that is not a number. */
    private static final java.util.Set<String> NCCL_PARAMS = java.util.Set.of("NCCL_NVLS_ENABLE", "NCCL_MNNVL_ENABLE", "NCCL_MNNVL",
            "NCCL_CUMEM_ENABLE");

    /**
     * What the framework itself does with a value the advisor refuses (seventh audit F2), so the refusal still says what
     * would happen: NCCL's ncclParam reads it with strtoll (NVIDIA/nccl@v2.30.7-1 src/misc/param.cc:93-101), vLLM's
     * envs.py and SGLang's environ.py raise ValueError, argparse exits.
     */
    static String upstreamReading(KnobSpec k) {
        if (k.kind() == KnobSpec.Kind.ENV && NCCL_PARAMS.contains(k.name())) {
            return " (NCCL itself reads it with strtoll: text that does not start with a number counts as 0, silently)";
        }
        if (k.kind() == KnobSpec.Kind.ENV && k.name().equals("VLLM_FLASHINFER_ALLREDUCE_BACKEND")) {
            return " (vLLM itself stops at start-up with env_with_choices' ValueError, vllm/envs.py@156b1266:382)";
        }
        if (k.kind() == KnobSpec.Kind.ENV && k.name().equals("SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2")) {
            return " (SGLang itself stops with EnvBool's ValueError, environ.py@9be3044b:134-141)";
        }
        if (k.kind() == KnobSpec.Kind.FLAG && (k.type() == KnobSpec.Type.CHOICE || k.type() == KnobSpec.Type.INT)
                && (k.framework().equals("vllm") || k.framework().equals("sglang"))) {
            return " (the framework's argument parser rejects it at start-up)";
        }
        return "";
    }

    private static Map<String, String> validate(Map<String, String> raw, boolean flag) throws AdvisorInputException {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        for (Map.Entry<String, String> e : raw.entrySet()) {
            String name = flag ? alias(e.getKey().replaceFirst("^-+", "")) : e.getKey();
            List<KnobSpec> specs = new ArrayList<>();
            for (KnobSpec k : all()) {
                if (k.name().equals(name) && (flag ? k.setByFlag() : k.kind() == KnobSpec.Kind.ENV)) {
                    specs.add(k);
                }
            }
            if (specs.isEmpty() && !KnobNames.bundled().readers(name, flag).isEmpty()) {
                // real upstream, not modelled: kept as typed; advise shows it as unknown with its source (notModelled)
                out.put(name, e.getValue() == null ? "" : e.getValue().trim());
                continue;
            }
            if (specs.isEmpty()) {
                List<String> names = new ArrayList<>(flag ? flagNames() : envNames());
                KnobNames.bundled().reads().stream().filter(r -> r.flag() == flag).map(KnobNames.Read::name).distinct().forEach(names::add);
                String near = nearest(name, names);
                throw new AdvisorInputException("unknown " + (flag ? "flag" : "env") + " '" + dev.fabricscope.text.Escape.visible(name, false)
                        + "': no SGLang, vLLM, FlashInfer or NCCL " + (flag ? "flag" : "variable") + " of that name"
                        + (near != null ? "; did you mean '" + near + "'?" : "") + " (every name: fabricscope advise --list-knobs)");
            }
            String value = null;
            for (KnobSpec k : specs) {
                value = k.accept(e.getValue());
                if (value != null) {
                    break;
                }
            }
            if (value == null) {
                throw new AdvisorInputException("invalid value '" + dev.fabricscope.text.Escape.visible(dev.fabricscope.text.Escape.cut(e.getValue(), 80), false) + "' for " + (flag ? "--flag " : "--env ")
                        + name + ": expected " + specs.get(0).expects() + upstreamReading(specs.get(0)));
            }
            // environment values stay as typed (frameworks parse "1" and "true" differently); flags are normalised
            out.put(name, flag ? value : e.getValue().trim());
        }
        return out;
    }

    /** Short and dotted spellings the frameworks accept, as the knob's name: {@code pcp}, {@code dcp}, {@code cc}, {@code cc.pass_config.KEY}. */
    static String alias(String name) {
        for (String prefix : List.of("cc.pass_config.", "compilation-config.pass_config.", "compilation_config.pass_config.")) {
            if (name.startsWith(prefix)) {
                String key = name.substring(prefix.length());
                return "enable_fi_allreduce_fusion".equals(key) ? "fuse_allreduce_rms" : key;
            }
        }
        return switch (name) {
            case "pcp" -> "prefill-context-parallel-size";
            case "dcp" -> "decode-context-parallel-size";
            case "cc", "compilation_config" -> "compilation-config";
            case "pp" -> "pipeline-parallel-size";
            case "dp" -> "data-parallel-size";
            case "O" -> "optimization-level";
            case "enable_fi_allreduce_fusion" -> "fuse_allreduce_rms";
            // SGLang's long spellings (fields/parallel.py@00ac7105 aliases)
            case "attention-context-parallel-size" -> "attn-cp-size";
            case "moe-data-parallel-size" -> "moe-dp-size";
            // vLLM's ParallelConfig field name for --dcp-q-replicate
            case "dcp_q_replicate" -> "dcp-q-replicate";
            default -> name;
        };
    }

    /**
     * vLLM's {@code -cc/--compilation-config} JSON: its {@code pass_config.fuse_allreduce_rms} (older name
     * {@code enable_fi_allreduce_fusion}), {@code fi_allreduce_fusion_max_size_mb} and its {@code mode} become those keys; the rest
     * of the JSON is not modelled. Returns the flags without {@code compilation-config}.
     */
    static Map<String, String> compilationConfig(Map<String, String> flags) throws AdvisorInputException {
        String json = flags.get("compilation-config");
        if (json == null) {
            return flags;
        }
        Map<String, String> out = new LinkedHashMap<>(flags);
        out.remove("compilation-config");
        com.fasterxml.jackson.databind.JsonNode root;
        try {
            root = dev.fabricscope.json.Json.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new AdvisorInputException("--flag compilation-config expects JSON such as {\"pass_config\": {\"fuse_allreduce_rms\": true}}, got '"
                    + dev.fabricscope.text.Escape.visible(dev.fabricscope.text.Escape.cut(json, 80), false) + "'");
        }
        if (root == null || !root.isObject()) {
            throw new AdvisorInputException("--flag compilation-config expects a JSON object");
        }
        com.fasterxml.jackson.databind.JsonNode pass = root.path("pass_config");
        for (String key : List.of("fuse_allreduce_rms", "enable_fi_allreduce_fusion", "fi_allreduce_fusion_max_size_mb", "mode", "cudagraph_mode")) {
            boolean top = key.equals("mode") || key.equals("cudagraph_mode");
            com.fasterxml.jackson.databind.JsonNode v = top ? root.get(key) : pass.get(key);
            if (v == null || v.isNull()) {
                continue;
            }
            String name = alias(key);
            Map<String, String> one = validate(Map.of(name, v.asText()), true);
            String prior = out.get(name);
            if (prior != null && !prior.equals(one.get(name))) {
                throw new AdvisorInputException("--flag compilation-config sets " + (top ? "" : "pass_config.") + key + "=" + one.get(name) + ", contradicting --flag " + name + "=" + prior);
            }
            out.putAll(one);
        }
        return out;
    }

    /** The valid name closest to {@code name} (edit distance at most 3, or one containing the other), or null. */
    static String nearest(String name, List<String> names) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        for (String n : names) {
            int d = distance(lower, n.toLowerCase(java.util.Locale.ROOT));
            if (d < bestD) {
                bestD = d;
                best = n;
            }
        }
        return bestD <= 3 ? best : null;
    }

    private static int distance(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 3) {
            return 99;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
