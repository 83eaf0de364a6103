package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.MachineFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The deployment the verdicts are computed for: the user's values checked, aliases read from {@code --flag}, and what
 * the user did not give filled in from the machine (raising GPUs per node or nodes where TP needs more, and saying so).
 */
public final class DeploymentResolver {

    private DeploymentResolver() {
    }

    /**
     * @param facts      the machine facts, with GPUs per node derived when the machine did not give it
     * @param deployment the effective deployment
     * @param checks     the deployment checked against the machine and the frameworks' parallel-size rules, one line each
     */
    public record Resolved(MachineFacts facts, EffectiveDeployment deployment, List<String> checks) {
    }

    /** TP × PCP × PP, and how to say it ({@code TP 8}, {@code TP 4 × PP 2 = 8 ranks}). */
    private record Ranks(int tp, int pcp, int pp, int count, String text) {
        boolean tpOnly() {
            return pcp == 1 && pp == 1;
        }
    }

    /** What the rank count needs of the machine: GPUs per node (derived when unknown) and nodes (raised when not given). */
    private record Fit(MachineFacts facts, int gpusPerNode, int nodes) {
    }

    public static void checkDeployment(Deployment d) throws AdvisorInputException {
        if (d.tp() != null && d.tp() < 1) {
            throw new AdvisorInputException("--tp must be at least 1, got " + d.tp());
        }
        if (d.nodes() != null && d.nodes() < 1) {
            throw new AdvisorInputException("--nodes must be at least 1, got " + d.nodes());
        }
        if (d.tokens() != null && d.tokens() < 1) {
            throw new AdvisorInputException("--tokens must be at least 1, got " + d.tokens());
        }
    }

    /** {@code --flag dcp-size=N} / {@code decode-context-parallel-size=N} as aliases of {@code --dcp}. */
    public static Integer dcpFromFlags(Map<String, String> flags, Integer dcp) throws AdvisorInputException {
        Integer result = dcp;
        for (String alias : List.of("dcp-size", "decode-context-parallel-size")) {
            String v = flags.get(alias);
            if (v == null) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException ex) {
                throw new AdvisorInputException("--flag " + alias + " expects a whole number, got '" + v + "'");
            }
            if (result != null && result != n) {
                throw new AdvisorInputException("--flag " + alias + "=" + n + " contradicts the DCP size " + result);
            }
            result = n;
        }
        return result;
    }

    /** {@code --flag tp=N} / {@code tp-size} / {@code tensor-parallel-size} (SGLang's and vLLM's spellings, {@code -tp}) as {@code --tp}; removed from the flags. */
    public static Integer tpFromFlags(Map<String, String> flags, Integer tp) throws AdvisorInputException {
        Integer result = tp;
        for (String key : List.copyOf(flags.keySet())) {
            String name = key.replaceFirst("^-+", "");
            if (!List.of("tp", "tp-size", "tensor-parallel-size").contains(name)) {
                continue;
            }
            String v = flags.remove(key).trim();
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException ex) {
                throw new AdvisorInputException("--flag " + name + " expects a whole number, got '" + v + "'");
            }
            if (result != null && result != n) {
                throw new AdvisorInputException("--flag " + name + "=" + n + " contradicts the TP size " + result);
            }
            result = n;
        }
        return result;
    }

    private static int intFlag(Map<String, String> flags, String name) {
        String v = flags.get(name);
        return v == null ? 1 : Integer.parseInt(v);
    }

    /** Fills what the user did not give from the machine, raising GPUs per node when TP needs more (and saying so). */
    public static Resolved resolve(MachineFacts facts, Deployment d, Integer dcp, Map<String, String> flags, Map<String, String> env)
            throws AdvisorInputException {
        Map<String, String> notes = new LinkedHashMap<>();
        int nodes = nodes(facts, d, notes);
        int tp = tp(facts, d, nodes, notes);
        Ranks ranks = ranks(tp, flags);
        List<String> checks = new ArrayList<>();
        Fit fit = fit(facts, d, ranks, nodes, notes, checks);
        int tpNodes = placement(ranks, fit, intFlag(flags, "data-parallel-size"), notes, checks);
        checks.addAll(parallelChecks(ranks, dcp));
        EffectiveDeployment dep = new EffectiveDeployment(tp, fit.nodes(), fit.gpusPerNode(), tpNodes, dcp == null ? 1 : dcp, d.model(), d.tokens(), flags,
                env, notes, given(d, dcp));
        return new Resolved(fit.facts(), dep, checks);
    }

    /** The fields the user gave ({@code tp}, {@code nodes}, {@code dcp}, {@code model}, {@code tokens}). */
    private static Set<String> given(Deployment d, Integer dcp) {
        Set<String> given = new HashSet<>();
        if (d.tp() != null) {
            given.add("tp");
        }
        if (d.nodes() != null) {
            given.add("nodes");
        }
        if (dcp != null) {
            given.add("dcp");
        }
        if (d.model() != null) {
            given.add("model");
        }
        if (d.tokens() != null) {
            given.add("tokens");
        }
        return given;
    }

    private static int nodes(MachineFacts facts, Deployment d, Map<String, String> notes) {
        if (d.nodes() != null) {
            return d.nodes();
        }
        int nodes = facts.nodes().value();
        if (facts.nodes().origin() == Fact.Origin.UNKNOWN) {
            notes.put("nodes", "1 node (no --nodes)");
        } else if (facts.nodes().origin() == Fact.Origin.ASSUMED) {
            notes.put("nodes", nodes + " nodes (no --nodes; from --assume nodes)");
        }
        return nodes;
    }

    private static int tp(MachineFacts facts, Deployment d, int nodes, Map<String, String> notes) {
        if (d.tp() != null) {
            return d.tp();
        }
        Integer gpn = facts.gpusPerNode().value();
        if (gpn != null) {
            int tp = gpn * nodes;
            notes.put("tp", "TP " + tp + " (no --tp: every GPU of " + (nodes == 1 ? "the node" : "the " + nodes + " nodes") + ")");
            return tp;
        }
        notes.put("tp", "TP 1 (no --tp and the GPU count is unknown)");
        return 1;
    }

    private static Ranks ranks(int tp, Map<String, String> flags) throws AdvisorInputException {
        int pcp = intFlag(flags, "prefill-context-parallel-size");
        int pp = intFlag(flags, "pipeline-parallel-size");
        if (pcp < 1 || pp < 1) {
            throw new AdvisorInputException("--flag " + (pcp < 1 ? "prefill-context-parallel-size" : "pipeline-parallel-size") + " must be at least 1");
        }
        int count = tp * pcp * pp;
        String text = (pcp == 1 && pp == 1) ? "TP " + tp : "TP " + tp + (pcp > 1 ? " × PCP " + pcp : "") + (pp > 1 ? " × PP " + pp : "") + " = " + count + " ranks";
        return new Ranks(tp, pcp, pp, count, text);
    }

    /** GPUs per node derived when unknown; more nodes when the ranks fill whole nodes and --nodes was not given; else refused. */
    private static Fit fit(MachineFacts facts, Deployment d, Ranks r, int nodes, Map<String, String> notes, List<String> checks)
            throws AdvisorInputException {
        Integer gpn = facts.gpusPerNode().value();
        if (gpn == null) {
            int needed = (r.count() + nodes - 1) / nodes;
            return new Fit(facts.withGpusPerNode(Fact.derived(needed, "no GPU count known; " + r.text() + " over " + nodes + (nodes == 1 ? " node" : " nodes"))),
                    needed, nodes);
        }
        if (r.count() > gpn * nodes && d.nodes() == null && gpn >= 2 && r.count() % gpn == 0) {
            int derivedNodes = r.count() / gpn;
            notes.put("nodes", derivedNodes + " nodes (no --nodes: " + r.text() + " over " + gpn + " GPUs per node)");
            checks.add(r.text() + " is more than one node's " + gpn + " GPUs: assumed " + derivedNodes + " such nodes (give --nodes to say otherwise).");
            return new Fit(facts, gpn, derivedNodes);
        }
        if (r.count() > gpn * nodes) {
            throw impossible(facts, d, r, gpn, nodes);
        }
        return new Fit(facts, gpn, nodes);
    }

    private static AdvisorInputException impossible(MachineFacts facts, Deployment d, Ranks r, int gpn, int nodes) {
        return new dev.fabricscope.advisor.api.ImpossibleDeploymentException(r.text(), r.tpOnly(), r.count(), nodes, gpn,
                facts.origin(), facts.gpusPerNode().origin() == Fact.Origin.ASSUMED, d.nodes() != null);
    }

    /**
     * The nodes one TP group spans, as both frameworks place their ranks: the ranks fill the nodes evenly, TP innermost.
     * SGLang: {@code nnodes_per_tp_group = max(nnodes // pp_size, 1)}, {@code tp_size_per_node = tp_size //
     * nnodes_per_tp_group}, with or without --dp-size and --enable-dp-attention (engine.py _calculate_rank_ranges,
     * data_parallel_controller.py launch_tensor_parallel_group). vLLM (multiprocessing, --nnodes): {@code local_world_size
     * = world_size // nnodes_within_dp}, world size TP × PP × PCP, ranks node by node (multiproc_executor.py), TP groups
     * of consecutive ranks (parallel_state.py initialize_model_parallel). Both agree where the ranks divide evenly; where
     * they do not, or vLLM's data parallelism splits the nodes, the placement is noted as not modelled and the ranks are
     * taken as filling whole nodes.
     */
    private static int placement(Ranks r, Fit fit, int vllmDp, Map<String, String> notes, List<String> checks) {
        int gpn = fit.gpusPerNode();
        int nodes = fit.nodes();
        int packed = Math.max(1, (r.tp() + gpn - 1) / gpn);
        if (nodes == 1) {
            return 1;
        }
        String why = null;
        int perNode = r.count() / nodes;
        if (vllmDp > 1) {
            why = "vLLM's --data-parallel-size " + vllmDp + " over " + nodes + " nodes: nnodes_within_dp = nnodes // (data_parallel_size // "
                    + "data_parallel_size_local), and the local DP size vLLM infers was not modelled";
        } else if (r.count() % nodes != 0) {
            why = r.text() + " does not divide over the " + nodes + " nodes: vLLM asserts world_size % nnodes_within_dp == 0, and SGLang "
                    + "launches tp_size // max(nnodes // pp_size, 1) ranks per node";
        } else if (perNode % r.tp() != 0 && r.tp() % perNode != 0) {
            why = r.text() + " over " + nodes + " nodes puts " + perNode + " ranks on a node, which neither holds whole TP groups nor "
                    + "divides one";
        } else if (r.pp() < nodes && nodes % r.pp() != 0) {
            why = "PP " + r.pp() + " over " + nodes + " nodes: SGLang's max(nnodes // pp_size, 1) nodes per TP group do not divide the nodes";
        }
        if (why != null) {
            notes.put(EffectiveDeployment.PLACEMENT, EffectiveDeployment.PLACEMENT_UNKNOWN + " (" + why + "); taken as " + r.text()
                    + (packed == 1 ? " on one node" : " over " + packed + " nodes"));
            checks.add("Not modelled: " + why + ". The TP group was taken as filling whole nodes; an ok that rests on it reads unknown.");
            return packed;
        }
        int tpNodes = perNode >= r.tp() ? 1 : r.tp() / perNode;
        if (r.count() < gpn * nodes) {
            checks.add(r.text() + " over " + nodes + " nodes: SGLang (tp_size // max(nnodes // pp_size, 1)) and vLLM (world_size // nnodes) "
                    + "put " + perNode + " ranks on each node, of its " + gpn + " GPUs; "
                    + (tpNodes == 1 ? "each TP group stays on one node." : "the TP " + r.tp() + " group spans " + tpNodes + " nodes × "
                    + r.tp() / tpNodes + " GPUs."));
        }
        return tpNodes;
    }

    /** DCP sizes SGLang and vLLM refuse. */
    private static List<String> parallelChecks(Ranks r, Integer dcp) {
        List<String> checks = new ArrayList<>();
        if (dcp != null && dcp > 1 && r.tp() % dcp != 0) {
            checks.add("DCP " + dcp + " does not divide TP " + r.tp() + ": SGLang (RuntimeError at distributed init) and vLLM (ValueError at config validation) refuse it.");
        }
        int pcp = r.pcp();
        if (pcp > 1 && dcp != null && dcp != 1 && dcp != pcp && dcp != r.tp() * pcp) {
            checks.add("PCP " + pcp + " with DCP " + dcp + ": vLLM takes DCP 1, " + pcp + " or " + (r.tp() * pcp) + " only.");
        }
        return checks;
    }
}
