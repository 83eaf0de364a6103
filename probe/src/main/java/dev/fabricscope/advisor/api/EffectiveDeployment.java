package dev.fabricscope.advisor.api;

import java.util.Map;

/**
 * The deployment the verdicts were computed for: the user's values, and derived values with a note saying so.
 *
 * @param gpusPerNode GPUs per node the deployment uses (raised above the snapshot's count when TP needs more)
 * @param tpNodes     nodes one TP group spans as SGLang and vLLM place its ranks (backend-rules.md §0.1); its ranks per node
 *                    are {@link #tpPerNode()}
 * @param flags       flags, config keys and library arguments as validated
 * @param env         environment variables as validated
 * @param notes       per field ({@code tp}, {@code nodes}, …): how a value not given was derived, where it matters
 * @param given       the fields the user gave ({@code tp}, {@code nodes}, {@code dcp}, {@code model}, {@code tokens})
 */
public record EffectiveDeployment(int tp, int nodes, int gpusPerNode, Integer tpNodes, int dcp, String model, Integer tokens,
                                  Map<String, String> flags, Map<String, String> env, Map<String, String> notes,
                                  java.util.Set<String> given) {
    public EffectiveDeployment {
        if (tpNodes == null || tpNodes < 1) {
            // a report written before tpNodes existed: its verdicts took the TP group as filling whole nodes
            tpNodes = Math.max(1, Math.min(nodes, gpusPerNode < 1 ? 1 : (tp + gpusPerNode - 1) / gpusPerNode));
        }
        flags = Map.copyOf(flags);
        env = Map.copyOf(env);
        notes = Map.copyOf(notes);
        given = java.util.Set.copyOf(given);
    }

    /**
     * The note key whose text says the TP group's placement over the nodes is not modelled; an ok verdict that reads it
     * reads unknown ({@code VerdictBuilder}).
     */
    public static final String PLACEMENT = "placement";
    /** How a placement note starts. */
    public static final String PLACEMENT_UNKNOWN = "the TP group's placement over the nodes is not modelled";

    /** The TP group's ranks on each node it spans. */
    public int tpPerNode() {
        return tp / tpNodes;
    }

    /** {@code TP 8 · 2 nodes × 4 GPUs · DCP 1 · model DeepseekV3ForCausalLM · 4096 tokens per batch}. */
    public String summary() {
        return "TP " + tp + " · " + nodes + (nodes == 1 ? " node" : " nodes") + " × " + gpusPerNode + " GPU" + (gpusPerNode == 1 ? "" : "s")
                + (tpNodes > 1 && tpPerNode() < gpusPerNode ? " (the TP group on " + tpNodes + " nodes × " + tpPerNode() + ")" : "")
                + " · DCP " + dcp + " · model " + (model == null ? "(not given)" : model)
                + " · " + (tokens == null ? "tokens per batch not given" : tokens + " tokens per batch");
    }
}
