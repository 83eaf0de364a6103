package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.Optional;

/**
 * Whether vLLM's default executor over several nodes takes the world size: on CUDA with {@code --nnodes} above 1 it is
 * multiprocessing, which asserts that the world size (TP × PP × PCP) divides over the nodes of one DP replica.
 */
final class VllmNodesRule {

    /** vLLM's --nnodes: the deployment's --nodes (shown, not a separate input). */
    static final KnobSpec NNODES = KnobSpec.flag(VllmKnobs.FW, "nnodes", KnobSpec.Type.INT, "1", "nodes the engine spans (the deployment's --nodes)");

    private VllmNodesRule() {
    }

    static Optional<Verdict> verdict(Eval e) {
        int nodes = e.nodes();
        if (nodes <= 1 || !e.cuda()) {
            return Optional.empty();
        }
        VerdictBuilder v = e.on(NNODES, VllmVersion.class).value(Integer.toString(nodes)).source(VllmSources.NODES_DIVIDE)
                .when("engine start (multiprocessing executor)");
        if (e.intValue(VllmKnobs.DP_SIZE) > 1) {
            return Optional.of(v.outcome(Outcome.UNKNOWN).why("With --data-parallel-size above 1, nnodes_within_dp = nnodes // (data_parallel_size "
                    + "// data_parallel_size_local); the local DP size vLLM infers is not modelled.").build());
        }
        int pcp = Math.max(1, e.intValue(VllmKnobs.PCP_SIZE));
        int world = e.tp() * e.pp() * pcp;
        if (world % nodes != 0) {
            return Optional.of(v.error("AssertionError").message(VllmMessage.NODES_DIVIDE, world, nodes)
                    .why("On CUDA with --nnodes " + nodes + " vLLM picks the multiprocessing executor (ParallelConfig.__post_init__, parallel.py), "
                            + "which asserts that the world size (TP × PP × PCP = " + world + ") divides over the nodes (nnodes_within_dp = "
                            + "nnodes without data parallelism).")
                    .fix("a TP (× PP × PCP) that is a multiple of " + nodes + ", or --nnodes that divides " + world).build());
        }
        if (!e.userGave("nodes")) {
            return Optional.empty(); // nodes the advisor assumed for the ranks: they divide by construction
        }
        return Optional.of(v.ok().why("World size " + world + " divides over " + nodes + " nodes: " + world / nodes
                + " ranks per node under the multiprocessing executor.").build());
    }
}
