package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.inventory.KnobNames;
import dev.fabricscope.advisor.inventory.UnmodelledSettings;
import dev.fabricscope.advisor.inventory.UpstreamInventory;
import dev.fabricscope.advisor.rule.DeploymentResolver;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.RuleVersion;
import dev.fabricscope.advisor.rule.Versions;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
        AdviceResult r = adviseOnce(snapshot, deployment, options);
        if (r.blocked() != null) {
            return r;
        }
        Deployment d = deployment == null ? Deployment.defaults() : deployment;
        List<Recommendation> vetted = RecommendationCheck.vet(r, d, applied -> adviseOnce(snapshot, applied, options));
        return new AdviceResult(r.machine(), r.deployment(), r.verdicts(), vetted, r.versions(), null, r.checks(), r.ruleNotes());
    }

    private static AdviceResult adviseOnce(MachineSnapshot snapshot, Deployment deployment, Options options) throws AdvisorInputException {
        Options o = options == null ? Options.defaults() : options;
        Deployment d = deployment == null ? Deployment.defaults() : deployment;
        List<FrameworkRules> frameworks = frameworks(o.frameworks());
        Versions versions = VersionChoice.resolve(o.versions());
        Map<String, String> rawFlags = new LinkedHashMap<>(d.flags());
        Integer tpFlag = DeploymentResolver.tpFromFlags(rawFlags, d.tp());
        if (tpFlag != null) {
            d = d.withTp(tpFlag);
        }
        Map<String, String> flags = Knobs.compilationConfig(Knobs.flags(rawFlags));
        Map<String, String> inherited = machineEnv(snapshot, d.env());
        Map<String, String> env = new LinkedHashMap<>(inherited);
        env.putAll(Knobs.env(d.env()));
        // upstream names no rule set models: kept out of the rules' input (they change no other verdict), shown as unknown
        Map<String, String> notModelledFlags = Knobs.notModelled(flags, true);
        Map<String, String> notModelledEnv = Knobs.notModelled(env, false);
        flags.keySet().removeAll(notModelledFlags.keySet());
        env.keySet().removeAll(notModelledEnv.keySet());
        DeploymentResolver.checkDeployment(d);
        boolean gpusSeen = snapshot != null && snapshot.driver() != null && snapshot.driver().driverPresent() && !snapshot.gpus().isEmpty();
        // a snapshot without GPUs (this laptop, say) says nothing about the machine the assumptions describe
        MachineFacts facts = !gpusSeen && !o.assume().isEmpty() ? MachineFacts.derive(null, o.assume()) : MachineFacts.derive(snapshot, o.assume());
        List<String> ruleNotes = new ArrayList<>();
        versions = VersionChoice.forInstalled(versions, o.versions(), facts, installedFrameworks(snapshot), ruleNotes);
        String blocked = facts.insufficient();
        if (blocked != null) {
            return new AdviceResult(facts, null, List.of(), List.of(), versions.ids(), blocked, List.of());
        }
        Integer dcpFlag = DeploymentResolver.dcpFromFlags(flags, d.dcp());
        Map<String, String> deploymentFlags = new LinkedHashMap<>(flags);
        deploymentFlags.remove("dcp-size");
        deploymentFlags.remove("decode-context-parallel-size");
        DeploymentResolver.Resolved r = DeploymentResolver.resolve(facts, d, dcpFlag, deploymentFlags, env);
        if (!inherited.isEmpty()) {
            r = withEnvNote(r, inherited);
        }
        Eval e = new Eval(r.facts(), r.deployment(), versions);
        List<Verdict> verdicts = new ArrayList<>();
        List<Recommendation> recs = new ArrayList<>();
        Map<String, String> advised = new LinkedHashMap<>();
        for (FrameworkRules rules : frameworks) {
            advised.put(rules.name(), versions.id(rules.name()));
        }
        // first, so that among a framework's unknown verdicts the knobs the user set lead (the sort below is stable)
        verdicts.addAll(KnobNames.bundled().unknownVerdicts(advised, notModelledFlags, notModelledEnv));
        for (FrameworkRules rules : frameworks) {
            verdicts.addAll(rules.evaluate(e));
            verdicts.addAll(OtherKnobs.evaluate(e, rules));
            verdicts.addAll(UpstreamInventory.bundled().unknownVerdicts(r.facts(), r.deployment(), rules.name(), versions.id(rules.name())));
            recs.add(rules.recommend(e));
        }
        List<UnmodelledSettings.Known> known = knownSet(e, frameworks);
        verdicts = UnmodelledSettings.applied(verdicts, KnobNames.bundled(), notModelledFlags, notModelledEnv, known);
        recs = UnmodelledSettings.caveated(recs, KnobNames.bundled(), notModelledFlags, notModelledEnv, known);
        List<String> order = frameworks.stream().map(FrameworkRules::name).toList();
        verdicts.sort(Comparator.comparingInt((Verdict v) -> order.indexOf(v.framework())).thenComparing(Advisor::severity));
        return new AdviceResult(r.facts(), r.deployment(), verdicts, recs, versions.ids(), null, r.checks(), ruleNotes);
    }

    /** The known-but-not-modelled knobs ({@link KnobSpec.Scope#KNOWN}) the user set, with where upstream reads them. */
    private static List<UnmodelledSettings.Known> knownSet(Eval e, List<FrameworkRules> frameworks) {
        List<UnmodelledSettings.Known> out = new ArrayList<>();
        for (FrameworkRules rules : frameworks) {
            for (KnobSpec k : rules.knobs()) {
                if (k.scope() == KnobSpec.Scope.KNOWN && e.isSet(k) && !e.value(k).strip().equals(k.defaultValue())) {
                    dev.fabricscope.advisor.api.SourceRef s = rules.knownKnobSource(e, k);
                    java.util.regex.Matcher line = java.util.regex.Pattern.compile("\\d+").matcher(s == null || s.line() == null ? "" : s.line());
                    out.add(new UnmodelledSettings.Known(new KnobNames.Read(rules.name(), k.kind() != KnobSpec.Kind.ENV, k.name(),
                            s == null ? null : s.repo(), s == null ? null : s.commit(), s == null ? "?" : s.path(),
                            line.lookingAt() ? Integer.parseInt(line.group()) : 0, false), e.value(k), rules.readBy(k)));
                }
            }
        }
        return out;
    }

    /**
     * The variables the advisor knows that the machine's environment sets and {@code --env} does not: a deployment on this
     * machine inherits them (NCCL_NVLS_ENABLE=0 exported by the image turns NVLS off whatever the flags say). A value the
     * advisor would refuse from {@code --env} is left out: the user did not type it, so it is not a usage error.
     */
    private static Map<String, String> machineEnv(MachineSnapshot snapshot, Map<String, String> given) {
        Map<String, String> out = new LinkedHashMap<>();
        if (snapshot == null || snapshot.environment() == null) {
            return out;
        }
        for (String name : Knobs.envNames()) {
            String value = snapshot.environment().get(name);
            if (value == null || given.containsKey(name)) {
                continue;
            }
            try {
                out.putAll(Knobs.env(Map.of(name, value)));
            } catch (AdvisorInputException e) {
                // not a value the frameworks document: not taken over
            }
        }
        return out;
    }

    /** The deployment's notes say which variables came from the machine's environment. */
    private static DeploymentResolver.Resolved withEnvNote(DeploymentResolver.Resolved r, Map<String, String> inherited) {
        EffectiveDeployment d = r.deployment();
        Map<String, String> notes = new LinkedHashMap<>(d.notes());
        notes.put("env", inherited.entrySet().stream().map(x -> x.getKey() + "=" + x.getValue()).collect(Collectors.joining(" "))
                + " (from the machine's environment; --env NAME=VALUE overrides)");
        EffectiveDeployment withNote = new EffectiveDeployment(d.tp(), d.nodes(), d.gpusPerNode(), d.tpNodes(), d.dcp(), d.model(), d.tokens(), d.flags(), d.env(),
                notes, d.given());
        return new DeploymentResolver.Resolved(r.facts(), withNote, r.checks());
    }

    /** Framework → the release (and, for a git source install, the commit) in the frameworks' Python environment, where read. */
    private static Map<String, VersionChoice.Installed> installedFrameworks(MachineSnapshot s) {
        Map<String, VersionChoice.Installed> out = new LinkedHashMap<>();
        if (s == null || s.pythonStack() == null) {
            return out;
        }
        s.pythonStack().frameworkEnvironment().ifPresent(env -> {
            for (FrameworkRules rules : FrameworkRegistry.all()) {
                rules.pythonDistribution().flatMap(env::pkg).ifPresent(p -> out.put(rules.name(), new VersionChoice.Installed(p.version(),
                        p.commit() != null && Pedigree.isCommitPrefix(p.commit()) ? p.commit() : null)));
            }
        });
        return out;
    }

    /**
     * The deployment with a recommendation applied (its settings to drop removed, its flags as typed and its
     * environment set), as the recommendation check evaluates it: what a caller re-advises to see what the
     * recommendation selects.
     */
    public static Deployment applied(Recommendation r, Deployment d) {
        return RecommendationCheck.applied(r, d == null ? Deployment.defaults() : d);
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
}
