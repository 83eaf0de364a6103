package dev.fabricscope.advisor.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.api.MachineFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When a branch the advisor does not model could apply, as facts the advisor has: every given test must hold, and one of
 * {@code anyOf} where that is given. A test whose value is unknown (a fact the machine did not give, a TP size the user
 * did not name) does not rule the branch out: what is not known could apply. Vocabulary (docs/upstream-coverage.md):
 *
 * @param frameworks the advice ({@code sglang}, {@code vllm}, {@code flashinfer}, {@code nccl}) whose start-up reaches
 *                   the branch; empty: those its {@code anyOf} alternatives name, else the entry's own framework. An
 *                   alternative that names frameworks holds only for them.
 * @param facts      {@code --assume} keys ({@link FactKey#key}) to {@link Predicate}s over the fact's value
 * @param flags      framework flags or config keys (no dashes, as {@link Deployment#flags()}) to predicates over the value
 *                   given; a flag not given has no value ({@code unset} holds, {@code *} does not)
 * @param env        environment variables to predicates, as {@code flags}
 * @param tp         predicate over the tensor-parallel size (the all-reduce group's world size)
 * @param nodes      predicate over the nodes the deployment spans (the deployment's, else the machine's)
 * @param dcp        predicate over the decode-context-parallel size
 * @param model      predicate over the model architecture
 * @param anyOf      alternatives, at least one of which must hold
 * @param internal   set where no machine fact or deployment choice reaches the branch (an argument the framework itself
 *                   passes, an internal invariant): why; such a branch never applies
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AppliesWhen(List<String> frameworks, Map<String, String> facts, Map<String, String> flags,
                          Map<String, String> env, String tp, String nodes, String dcp, String model,
                          List<AppliesWhen> anyOf, String internal) {

    /** The projects whose files the inventory reads (PyTorch entries count under nccl). */
    static final Set<String> FRAMEWORKS = Set.of("sglang", "vllm", "flashinfer", "nccl");

    public AppliesWhen {
        frameworks = frameworks == null ? List.of() : List.copyOf(frameworks);
        facts = facts == null ? Map.of() : Map.copyOf(facts);
        flags = flags == null ? Map.of() : Map.copyOf(flags);
        env = env == null ? Map.of() : Map.copyOf(env);
        anyOf = anyOf == null ? List.of() : List.copyOf(anyOf);
    }

    /** Whether the branch could apply when advising {@code framework}: no test is known to fail. */
    public boolean couldApply(MachineFacts f, Deployment d, String framework) {
        return evaluate(f, d, framework) != Predicate.Truth.FALSE;
    }

    /** The frameworks whose advice reaches the branch ({@code own}: the entry's framework). */
    public List<String> reached(String own) {
        if (!frameworks.isEmpty()) {
            return frameworks;
        }
        List<String> named = anyOf.stream().flatMap(a -> a.frameworks().stream()).distinct().toList();
        return named.isEmpty() ? List.of(own) : named;
    }

    Predicate.Truth evaluate(MachineFacts f, Deployment d, String framework) {
        if (internal != null || !frameworks.isEmpty() && !frameworks.contains(framework)) {
            return Predicate.Truth.FALSE;
        }
        List<Predicate.Truth> all = new ArrayList<>();
        facts.forEach((key, p) -> all.add(Predicate.parse(p).test(factValue(f, key))));
        flags.forEach((name, p) -> all.add(Predicate.parse(p).testGiven(d.flags().get(name))));
        env.forEach((name, p) -> all.add(Predicate.parse(p).testGiven(d.env().get(name))));
        all.add(test(tp, d.tp()));
        all.add(test(nodes, d.nodes() != null ? d.nodes() : factValue(f, FactKey.NODES.key)));
        all.add(test(dcp, d.dcp()));
        all.add(test(model, d.model()));
        if (!anyOf.isEmpty()) {
            all.add(anyOf.stream().map(a -> a.evaluate(f, d, framework)).reduce(Predicate.Truth.FALSE, Predicate.Truth::or));
        }
        return all.stream().reduce(Predicate.Truth.TRUE, Predicate.Truth::and);
    }

    private static Predicate.Truth test(String predicate, Object value) {
        return predicate == null ? Predicate.Truth.TRUE : Predicate.parse(predicate).test(value == null ? null : value.toString());
    }

    /** The fact's value as text, or null when the machine did not give it (unknown, even with a working value). */
    static String factValue(MachineFacts f, String key) {
        FactKey k = FactKey.of(key).orElseThrow(() -> new IllegalArgumentException("unknown fact key '" + key + "'"));
        Fact<?> fact = f == null ? null : f.get(k);
        if (fact == null || fact.value() == null || fact.origin() == Fact.Origin.UNKNOWN) {
            return null;
        }
        return fact.value().toString();
    }

    /** Problems with the names and predicates this uses (fact keys that do not exist, predicates that do not parse). */
    List<String> problems() {
        List<String> out = new ArrayList<>();
        for (String fw : frameworks) {
            if (!FRAMEWORKS.contains(fw)) {
                out.add("appliesWhen framework '" + fw + "' is not one of " + FRAMEWORKS);
            }
        }
        for (String key : facts.keySet()) {
            if (FactKey.of(key).isEmpty()) {
                out.add("unknown fact key '" + key + "' (keys: " + FactKey.keys() + ")");
            }
        }
        List<String> predicates = new ArrayList<>(facts.values());
        predicates.addAll(flags.values());
        predicates.addAll(env.values());
        for (String p : new String[] {tp, nodes, dcp, model}) {
            if (p != null) {
                predicates.add(p);
            }
        }
        for (String p : predicates) {
            try {
                Predicate.parse(p);
            } catch (IllegalArgumentException e) {
                out.add(e.getMessage());
            }
        }
        for (AppliesWhen a : anyOf) {
            out.addAll(a.problems());
        }
        return out;
    }
}
