package dev.fabricscope.advisor.api;

import java.util.List;
import java.util.Map;

/**
 * The fastest valid configuration of one framework for this machine and deployment.
 *
 * @param framework sglang, vllm, flashinfer or nccl
 * @param flags     command-line flags as typed, e.g. {@code --flashinfer-allreduce-fusion-backend=trtllm}
 * @param env       environment variables to export
 * @param drop      the user's settings to remove (a flag as displayed, {@code --enable-torch-symm-mem}; a config key;
 *                  an environment variable's name): each fails at start-up as given, and the summary says so
 * @param summary   one or two sentences: what this buys and why the alternatives were not chosen
 */
public record Recommendation(String framework, List<String> flags, Map<String, String> env, List<String> drop, String summary) {
    public Recommendation {
        flags = flags == null ? List.of() : List.copyOf(flags);
        env = env == null ? Map.of() : Map.copyOf(env);
        drop = drop == null ? List.of() : List.copyOf(drop);
    }

    /** Settings to add only, nothing of the user's to remove. */
    public Recommendation(String framework, List<String> flags, Map<String, String> env, String summary) {
        this(framework, flags, env, List.of(), summary);
    }

    /** The drops as a user types them: {@code unset NAME} for an environment variable, {@code drop --flag} otherwise. */
    public List<String> dropCommands() {
        return drop.stream().map(d -> d.matches("[A-Z][A-Z0-9_]*") ? "unset " + d : "drop " + d).toList();
    }
}
