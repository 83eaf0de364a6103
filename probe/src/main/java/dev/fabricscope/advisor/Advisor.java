package dev.fabricscope.advisor;

import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The backend advisor: for a machine and a planned deployment, what every SGLang, vLLM, FlashInfer and NCCL
 * all-reduce knob does, and the fastest valid settings. Pure: no I/O, no native calls, safe to call on every
 * change of a GUI panel.
 */
public final class Advisor {

    private Advisor() {
    }

    /**
     * Advises for {@code snapshot} (null: from {@code options.assume()} alone).
     *
     * @throws AdvisorInputException for an unknown or invalid flag, env, assume key, framework or version
     */
    public static AdviceResult advise(MachineSnapshot snapshot, Deployment deployment, Options options) throws AdvisorInputException {
        Options o = options == null ? Options.defaults() : options;
        Deployment d = deployment == null ? Deployment.defaults() : deployment;
        List<FrameworkRules> frameworks = frameworks(o.frameworks());
        Versions versions = VersionChoice.resolve(o.versions());
        Map<String, String> rawFlags = new LinkedHashMap<>(d.flags());
        Integer tpFlag = tpFromFlags(rawFlags, d.tp());
        if (tpFlag != null) {
            d = d.withTp(tpFlag);
        }
        Map<String, String> flags = Knobs.compilationConfig(Knobs.flags(rawFlags));
        Map<String, String> env = Knobs.env(d.env());
        checkDeployment(d);
        boolean gpusSeen = snapshot != null && snapshot.driver() != null && snapshot.driver().driverPresent() && !snapshot.gpus().isEmpty();
        // a snapshot without GPUs (this laptop, say) says nothing about the machine the assumptions describe
        MachineFacts facts = !gpusSeen && !o.assume().isEmpty() ? MachineFacts.derive(null, o.assume()) : MachineFacts.derive(snapshot, o.assume());
        List<String> ruleNotes = new ArrayList<>();
        versions = VersionChoice.forInstalled(versions, o.versions(), facts, installedFrameworks(snapshot), ruleNotes);
        String blocked = facts.insufficient();
        if (blocked != null) {
            return new AdviceResult(facts, null, List.of(), List.of(), versions.ids(), blocked, List.of());
        }
        Integer dcpFlag = dcpFromFlags(flags, d.dcp());
        Map<String, String> deploymentFlags = new LinkedHashMap<>(flags);
        deploymentFlags.remove("dcp-size");
        deploymentFlags.remove("decode-context-parallel-size");
        Resolved r = resolve(facts, d, dcpFlag, deploymentFlags, env);
        Eval e = new Eval(r.facts, r.deployment, versions);
        List<Verdict> verdicts = new ArrayList<>();
        List<Recommendation> recs = new ArrayList<>();
        for (FrameworkRules rules : frameworks) {
            verdicts.addAll(rules.evaluate(e));
            verdicts.addAll(OtherKnobs.evaluate(e, rules));
            recs.add(rules.recommend(e));
        }
        List<String> order = frameworks.stream().map(FrameworkRules::name).toList();
        verdicts.sort(Comparator.comparingInt((Verdict v) -> order.indexOf(v.framework())).thenComparing(Advisor::severity));
        return new AdviceResult(r.facts, r.deployment, verdicts, recs, versions.ids(), null, r.checks, ruleNotes);
    }

    /** Framework → the version installed in the frameworks' Python environment, where it was read. */
    private static Map<String, String> installedFrameworks(MachineSnapshot s) {
        Map<String, String> out = new LinkedHashMap<>();
        if (s == null || s.pythonStack() == null) {
            return out;
        }
        s.pythonStack().frameworkEnvironment().ifPresent(env -> {
            for (FrameworkRules rules : FrameworkRegistry.all()) {
                rules.pythonDistribution().flatMap(env::version).ifPresent(v -> out.put(rules.name(), v));
            }
        });
        return out;
    }

    /** Rule-set version ids per framework, newest (the default) first, e.g. for a GUI's version picker. */
    public static Map<String, List<String>> versions() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (FrameworkRules rules : FrameworkRegistry.all()) {
            m.put(rules.name(), rules.versions().stream().map(RuleVersion::id).toList());
        }
        return m;
    }

    /** Errors first, then fallbacks, then ok (stable within each group). */
    private static int severity(Verdict v) {
        return v.outcome().severity();
    }

    /** The requested frameworks' rules in registry order (all when none is requested). */
    private static List<FrameworkRules> frameworks(List<String> requested) throws AdvisorInputException {
        if (requested.isEmpty()) {
            return FrameworkRegistry.all();
        }
        Set<String> want = new HashSet<>();
        for (String f : requested) {
            if (FrameworkRegistry.byName(f).isEmpty()) {
                throw new AdvisorInputException("unknown framework '" + f + "'; valid: " + String.join(", ", FrameworkRegistry.names()));
            }
            want.add(f);
        }
        return FrameworkRegistry.all().stream().filter(r -> want.contains(r.name())).toList();
    }

    private static void checkDeployment(Deployment d) throws AdvisorInputException {
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
    private static Integer dcpFromFlags(Map<String, String> flags, Integer dcp) throws AdvisorInputException {
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
    private static Integer tpFromFlags(Map<String, String> flags, Integer tp) throws AdvisorInputException {
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

    private record Resolved(MachineFacts facts, EffectiveDeployment deployment, List<String> checks) {
    }

    private static int intFlag(Map<String, String> flags, String name) {
        String v = flags.get(name);
        return v == null ? 1 : Integer.parseInt(v);
    }

    /** Fills what the user did not give from the machine, raising GPUs per node when TP needs more (and saying so). */
    private static Resolved resolve(MachineFacts facts, Deployment d, Integer dcp, Map<String, String> flags, Map<String, String> env)
            throws AdvisorInputException {
        Map<String, String> notes = new LinkedHashMap<>();
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
        int nodes;
        if (d.nodes() != null) {
            nodes = d.nodes();
        } else {
            nodes = facts.nodes().value();
            if (facts.nodes().origin() == Fact.Origin.UNKNOWN) {
                notes.put("nodes", "1 node (no --nodes)");
            } else if (facts.nodes().origin() == Fact.Origin.ASSUMED) {
                notes.put("nodes", nodes + " nodes (no --nodes; from --assume nodes)");
            }
        }
        Integer gpn = facts.gpusPerNode().value();
        int tp;
        if (d.tp() != null) {
            tp = d.tp();
        } else if (gpn != null) {
            tp = gpn * nodes;
            notes.put("tp", "TP " + tp + " (no --tp: every GPU of " + (nodes == 1 ? "the node" : "the " + nodes + " nodes") + ")");
        } else {
            tp = 1;
            notes.put("tp", "TP 1 (no --tp and the GPU count is unknown)");
        }
        MachineFacts f = facts;
        List<String> checks = new ArrayList<>();
        int pcp = intFlag(flags, "prefill-context-parallel-size");
        int pp = intFlag(flags, "pipeline-parallel-size");
        if (pcp < 1 || pp < 1) {
            throw new AdvisorInputException("--flag " + (pcp < 1 ? "prefill-context-parallel-size" : "pipeline-parallel-size") + " must be at least 1");
        }
        int ranks = tp * pcp * pp;
        String rankText = (pcp == 1 && pp == 1) ? "TP " + tp : "TP " + tp + (pcp > 1 ? " × PCP " + pcp : "") + (pp > 1 ? " × PP " + pp : "") + " = " + ranks + " ranks";
        if (gpn == null) {
            int needed = (ranks + nodes - 1) / nodes;
            f = facts.withGpusPerNode(Fact.derived(needed, "no GPU count known; " + rankText + " over " + nodes + (nodes == 1 ? " node" : " nodes")));
            gpn = needed;
        } else if (ranks > gpn * nodes && d.nodes() == null && gpn >= 2 && ranks % gpn == 0) {
            int derivedNodes = ranks / gpn;
            notes.put("nodes", derivedNodes + " nodes (no --nodes: " + rankText + " over " + gpn + " GPUs per node)");
            checks.add(rankText + " is more than one node's " + gpn + " GPUs: assumed " + derivedNodes + " such nodes (give --nodes to say otherwise).");
            nodes = derivedNodes;
        } else if (ranks > gpn * nodes) {
            String machine = nodes + (nodes == 1 ? " node" : " nodes") + " × " + gpn + " GPU" + (gpn == 1 ? "" : "s");
            String where = facts.gpusPerNode().origin() == Fact.Origin.ASSUMED ? "--assume gpus-per-node=" + gpn
                    : "the " + (facts.origin() == null ? "machine" : facts.origin()) + " shows " + gpn + " GPU" + (gpn == 1 ? "" : "s") + " per node";
            int nodesNeeded = (ranks + gpn - 1) / gpn;
            throw new AdvisorInputException("impossible deployment: " + rankText + " need" + (pcp == 1 && pp == 1 ? "s " : " ") + ranks + " GPUs, but "
                    + machine + " have " + (gpn * nodes) + " (" + where + "); give --nodes " + nodesNeeded
                    + (d.nodes() == null ? " to span " + nodesNeeded + " such nodes" : "") + ", a smaller --tp, or --assume gpus-per-node=" + ((ranks + nodes - 1) / nodes)
                    + " to ask about a larger machine like this one");
        }
        if (ranks < gpn * nodes && nodes > 1 && d.nodes() != null && ranks <= gpn * (nodes - 1)) {
            checks.add(rankText + " fits on " + ((ranks + gpn - 1) / gpn) + " of the " + nodes + " nodes; the frameworks still see " + nodes
                    + " nodes (SGLang's multi-node rules apply).");
        }
        if (dcp != null && dcp > 1 && tp % dcp != 0) {
            checks.add("DCP " + dcp + " does not divide TP " + tp + ": SGLang (RuntimeError at distributed init) and vLLM (ValueError at config validation) refuse it.");
        }
        if (pcp > 1 && dcp != null && dcp != 1 && dcp != pcp && dcp != tp * pcp) {
            checks.add("PCP " + pcp + " with DCP " + dcp + ": vLLM takes DCP 1, " + pcp + " or " + (tp * pcp) + " only.");
        }
        EffectiveDeployment dep = new EffectiveDeployment(tp, nodes, gpn, dcp == null ? 1 : dcp, d.model(), d.tokens(), flags, env, notes, given);
        return new Resolved(f, dep, checks);
    }
}
