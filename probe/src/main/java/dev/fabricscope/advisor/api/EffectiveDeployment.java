package dev.fabricscope.advisor.api;

import java.util.Map;

/**
 * The deployment the verdicts were computed for: the user's values, and derived values with a note saying so.
 *
 * @param gpusPerNode GPUs per node the deployment uses (raised above the snapshot's count when TP needs more)
 * @param flags       flags, config keys and library arguments as validated
 * @param env         environment variables as validated
 * @param notes       per field ({@code tp}, {@code nodes}, …): how a value not given was derived, where it matters
 * @param given       the fields the user gave ({@code tp}, {@code nodes}, {@code dcp}, {@code model}, {@code tokens})
 */
public record EffectiveDeployment(int tp, int nodes, int gpusPerNode, int dcp, String model, Integer tokens,
                                  Map<String, String> flags, Map<String, String> env, Map<String, String> notes,
                                  java.util.Set<String> given) {
    public EffectiveDeployment {
        flags = Map.copyOf(flags);
        env = Map.copyOf(env);
        notes = Map.copyOf(notes);
        given = java.util.Set.copyOf(given);
    }

    /** {@code TP 8 · 2 nodes × 4 GPUs · DCP 1 · model DeepseekV3ForCausalLM · 4096 tokens per batch}. */
    public String summary() {
        return "TP " + tp + " · " + nodes + (nodes == 1 ? " node" : " nodes") + " × " + gpusPerNode + " GPU" + (gpusPerNode == 1 ? "" : "s")
                + " · DCP " + dcp + " · model " + (model == null ? "(not given)" : model)
                + " · " + (tokens == null ? "tokens per batch not given" : tokens + " tokens per batch");
    }
}
