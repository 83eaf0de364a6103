package dev.fabricscope.advisor.api;

import java.util.List;
import java.util.Map;

/**
 * The fastest valid configuration of one framework for this machine and deployment.
 *
 * @param framework sglang, vllm, flashinfer or nccl
 * @param flags     command-line flags as typed, e.g. {@code --flashinfer-allreduce-fusion-backend=trtllm}
 * @param env       environment variables to export
 * @param summary   one or two sentences: what this buys and why the alternatives were not chosen
 */
public record Recommendation(String framework, List<String> flags, Map<String, String> env, String summary) {
    public Recommendation {
        flags = flags == null ? List.of() : List.copyOf(flags);
        env = env == null ? Map.of() : Map.copyOf(env);
    }
}
