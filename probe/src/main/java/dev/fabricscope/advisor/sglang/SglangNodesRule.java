package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.Optional;

/** Whether SGLang takes the deployment's node count: its ranks must divide over the nodes (check_server_args). */
final class SglangNodesRule {

    /** SGLang's --nnodes: the deployment's --nodes (shown, not a separate input). */
    static final KnobSpec NNODES = KnobSpec.flag(SglangKnobs.FW, "nnodes", KnobSpec.Type.INT, "1", "nodes the server spans (the deployment's --nodes)");

    private SglangNodesRule() {
    }

    /** For a deployment over several nodes: ok where TP × PP divides over them, else the assertion that stops the server. */
    static Optional<Verdict> verdict(Eval e) {
        int nodes = e.nodes();
        if (nodes <= 1) {
            return Optional.empty();
        }
        VerdictBuilder v = e.on(NNODES, SglangVersion.class).value(Integer.toString(nodes)).source(SglangSources.NODES_DIVIDE)
                .when(SglangSources.WHEN_ARGS);
        int ranks = e.tp() * e.pp();
        String product = e.pp() > 1 ? "TP " + e.tp() + " × PP " + e.pp() + " = " + ranks : "TP " + ranks;
        if (ranks % nodes != 0) {
            return Optional.of(v.error("AssertionError").message(SglangMessage.NODES_DIVIDE)
                    .why("check_server_args asserts (tp_size * pp_size) % nnodes == 0 (unless --ep-join-mode scale, not modelled), and "
                            + product + " does not divide over " + nodes + " nodes.")
                    .fix("a TP (× PP) that is a multiple of " + nodes + ", or --nnodes that divides it").build());
        }
        if (!e.userGave("nodes")) {
            return Optional.empty(); // nodes the advisor assumed for the ranks: they divide by construction
        }
        return Optional.of(v.ok().why(product + " divides over " + nodes + " nodes, as check_server_args asserts.").build());
    }
}
