package dev.fabricscope.app.viewmodel;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.ImpossibleDeploymentException;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.cluster.ClusterFacts;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.UseCaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.Observable;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Advisor tab's state: the deployment panel's inputs, and the verdicts and recommendations for the machine on
 * screen, as rows the view shows as they are. Any input change re-runs the advisor ({@link Advise}) in the
 * background (debounced); a newer run supersedes an older one.
 */
public final class AdvisorViewModel {

    public static final String ALL = "all";

    /**
     * One verdict as the table and the details pane show it.
     *
     * @param outcome  {@code ok}, {@code fallback} or {@code error}
     * @param value    the knob's value, marked {@code (default)} when the user did not set it
     * @param setting  the knob's value as the advisor gives it
     * @param resolved what the framework resolves the knob to, or null; likewise the other texts
     * @param source   the upstream source cited, or null; {@code sourceUrl} its link, or null
     */
    public record VerdictRow(String outcome, String framework, String knob, String value, String setting, String resolved,
                             String when, String message, String errorClass, String why, String fix, String source,
                             String sourceUrl, String version) {

        static VerdictRow of(Verdict v) {
            String value = v.userSet() || String.valueOf(v.value()).endsWith("(default)") ? String.valueOf(v.value())
                    : v.value() + " (default)";
            return new VerdictRow(v.outcome().json(), v.framework(), v.knob(), value, v.value(), v.resolved(), v.when(), v.message(),
                    v.errorClass(), v.why(), v.fix(), v.source() == null ? null : v.source().toString(),
                    v.source() == null ? null : v.source().url(), v.version());
        }
    }

    /**
     * A framework's recommended configuration: {@code export NAME=VALUE} lines, then flags; and why, in one line;
     * and its predicted all-reduce cost as {@code advise} words it ({@code usecase.RecommendedCost}), or null.
     */
    public record RecommendationCard(String framework, List<String> lines, String summary, String predicted) {
        public RecommendationCard {
            lines = List.copyOf(lines);
        }

        static RecommendationCard of(Recommendation r) {
            return of(r, null);
        }

        static RecommendationCard of(Recommendation r, String predicted) {
            List<String> lines = new ArrayList<>(r.flags());
            r.env().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> lines.add(0, "export " + e.getKey() + "=" + e.getValue()));
            lines.addAll(0, r.dropCommands());
            return new RecommendationCard(r.framework(), lines, r.summary(), predicted);
        }
    }

    /**
     * What the advisor saw besides the verdicts: the effective machine facts and deployment (one line each), the
     * rule-set versions applied, and why no verdict could be given (or null).
     */
    public record Advice(Map<String, String> machineFacts, List<String> deploymentNotes, Map<String, String> versions,
                         String blocked) {
        public Advice {
            machineFacts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(machineFacts));
            deploymentNotes = List.copyOf(deploymentNotes);
            versions = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(versions));
        }

        static Advice of(AdviceResult r) {
            Map<String, String> facts = new LinkedHashMap<>();
            r.machine().values().forEach((k, v) -> facts.put(k, v == null ? "unknown" : String.valueOf(v)));
            List<String> notes = new ArrayList<>();
            if (r.deployment() != null) {
                notes.addAll(r.deployment().notes().values());
            }
            return new Advice(facts, notes, r.versions(), r.blocked());
        }
    }

    /** One run's answer, built off the FX thread. */
    private record Answer(Advice advice, List<VerdictRow> verdicts, List<RecommendationCard> recommendations, String predicted) {
    }

    private static final Duration DEBOUNCE = Duration.ofMillis(180);

    private final Advise advise;
    private final Tasks tasks;

    // ---- Properties: inputs
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final StringProperty framework = new SimpleStringProperty(this, "framework", ALL);
    private final IntegerProperty nodes = new SimpleIntegerProperty(this, "nodes", 1);
    private final IntegerProperty tp = new SimpleIntegerProperty(this, "tp", 0);
    private final IntegerProperty dcp = new SimpleIntegerProperty(this, "dcp", 1);
    private final StringProperty model = new SimpleStringProperty(this, "model", "");
    private final StringProperty tokens = new SimpleStringProperty(this, "tokens", "");
    private final StringProperty flags = new SimpleStringProperty(this, "flags", "");
    private final StringProperty env = new SimpleStringProperty(this, "env", "");
    private final StringProperty assume = new SimpleStringProperty(this, "assume", "");
    private final BooleanProperty immediate = new SimpleBooleanProperty(this, "immediate", false);

    // ---- Properties: outputs
    private final ObservableList<VerdictRow> verdicts = FXCollections.observableArrayList();
    private final ObservableList<RecommendationCard> recommendations = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper predicted = new ReadOnlyStringWrapper(this, "predicted", "");
    private final javafx.beans.property.ReadOnlyObjectWrapper<Advice> advice = new javafx.beans.property.ReadOnlyObjectWrapper<>(this, "advice");
    private Tasks.Cancellable debounce;
    private Job<Answer> running;

    public AdvisorViewModel(Advise advise, Tasks tasks) {
        this.advise = advise;
        this.tasks = tasks;
        for (Observable o : List.of(machine, framework, nodes, tp, dcp, model, tokens, flags, env, assume)) {
            o.addListener(x -> schedule());
        }
    }

    public ObjectProperty<LoadedMachine> machineProperty() { return machine; }
    public StringProperty frameworkProperty() { return framework; }
    public IntegerProperty nodesProperty() { return nodes; }
    /** Tensor-parallel size; 0 means "all GPUs of a node". */
    public IntegerProperty tpProperty() { return tp; }
    public IntegerProperty dcpProperty() { return dcp; }
    public StringProperty modelProperty() { return model; }
    public StringProperty tokensProperty() { return tokens; }
    /** One {@code name=value} per line, flag names without dashes. */
    public StringProperty flagsProperty() { return flags; }
    /** One {@code NAME=value} per line. */
    public StringProperty envProperty() { return env; }
    /** One {@code key=value} per line: what-if machine facts. */
    public StringProperty assumeProperty() { return assume; }
    /** Skip the debounce (tests). */
    public BooleanProperty immediateProperty() { return immediate; }
    /** The verdicts, errors first. */
    public ObservableList<VerdictRow> verdicts() { return verdicts; }
    public ObservableList<RecommendationCard> recommendations() { return recommendations; }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** Where the recommendations' predicted costs come from and at which sizes (as {@code advise} heads them), or empty. */
    public ReadOnlyStringProperty predictedProperty() { return predicted.getReadOnlyProperty(); }
    public List<String> frameworks() { return advise.frameworks(); }
    /** The last answer (facts, deployment notes, versions), or null. */
    public javafx.beans.property.ReadOnlyObjectProperty<Advice> adviceProperty() { return advice.getReadOnlyProperty(); }
    public List<String> assumeKeys() { return advise.assumeKeys(); }

    // ---- Commands

    /**
     * The deployment the inputs describe (every framework: none named, newest rule sets); throws
     * {@link IllegalArgumentException} naming a malformed line.
     */
    public DeploymentRequest deployment() {
        Integer tok = tokens.get() == null || tokens.get().isBlank() ? null : parseInt("tokens", tokens.get());
        List<String> fw = ALL.equals(framework.get()) ? List.of() : List.of(framework.get());
        String m = model.get() == null || model.get().isBlank() ? null : model.get().strip();
        return new DeploymentRequest(fw, tp.get() > 0 ? tp.get() : null, Math.max(1, nodes.get()),
                dcp.get() > 1 ? dcp.get() : null, m, tok, pairs("flag", flags.get()), pairs("env", env.get()),
                pairs("assume", assume.get()), Map.of());
    }

    /** Why the inputs describe no deployment (a malformed line, in one line), or null when they do. */
    public String deploymentProblem() {
        try {
            deployment();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * Puts a deployment over the nodes of a cluster into the panel, as {@code advise --cluster} advises it: the node
     * count and the cluster-wide facts as what-if assumptions ({@link DeploymentRequest#overCluster}).
     */
    public void showCluster(ClusterFacts facts) {
        DeploymentRequest d = DeploymentRequest.NONE.overCluster(facts);
        nodes.set(d.nodes());
        assume.set(d.assume().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining("\n")));
    }

    private void schedule() {
        if (debounce != null) {
            debounce.cancel();
            debounce = null;
        }
        if (immediate.get()) {
            advise();
        } else {
            debounce = tasks.later(DEBOUNCE, this::advise);
        }
    }

    /** Runs the advisor now. */
    public void advise() {
        LoadedMachine m = machine.get();
        if (m == null) {
            verdicts.clear();
            recommendations.clear();
            predicted.set("");
            return;
        }
        if (running != null) {
            running.cancel();
            running = null;
        }
        DeploymentRequest d;
        try {
            d = deployment();
        } catch (IllegalArgumentException e) {
            refuse(e.getMessage());
            return;
        }
        Job<Answer> job = new Job<>(tasks, p -> {
            Advise.Result result = advise.advise(Advise.Request.of(m.snapshot(), d));
            AdviceResult r = result.advice();
            List<Verdict> sorted = new ArrayList<>(r.verdicts());
            sorted.sort(java.util.Comparator.comparing((Verdict v) -> rank(v.outcome())));
            Map<String, String> costs = result.predicted().lines();
            return new Answer(Advice.of(r), sorted.stream().map(VerdictRow::of).toList(),
                    r.recommendations().stream().map(x -> RecommendationCard.of(x, costs.get(x.framework()))).toList(),
                    result.predicted().heading());
        });
        running = job;
        status.set("Advising…");
        job.onSucceeded(a -> {
            if (job != running) {
                return;
            }
            advice.set(a.advice());
            List<VerdictRow> sorted = a.verdicts();
            verdicts.setAll(sorted);
            predicted.set(a.predicted());
            recommendations.setAll(a.recommendations());
            String blocked = a.advice().blocked();
            status.set(blocked != null ? "No verdicts: " + blocked : counted(sorted));
        });
        job.onFailed(t -> {
            if (job == running) {
                refuse(t.getCause() instanceof ImpossibleDeploymentException i ? "Impossible deployment: " + i.say(ImpossibleDeploymentException.Words.GUI) + "."
                        : t instanceof UseCaseException ? t.getMessage() : "Advisor failed: " + t);
            }
        });
        job.start();
    }

    /**
     * No verdicts for a deployment that cannot be advised (TP 3 on one GPU, a flag that is not NAME=VALUE): the last
     * deployment's verdicts and recommendations go, so they are not read as this one's; {@code why} says what to change.
     */
    private void refuse(String why) {
        verdicts.clear();
        recommendations.clear();
        predicted.set("");
        advice.set(null);
        status.set(why);
    }

    private static int rank(Outcome o) {
        return o.severity();
    }

    static Map<String, String> pairs(String what, String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("[\\n,]")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(what + " '" + l + "' is not NAME=VALUE");
            }
            String name = l.substring(0, eq).strip();
            if ("flag".equals(what)) {
                name = name.replaceFirst("^--", "");
            }
            out.put(name, l.substring(eq + 1).strip());
        }
        return out;
    }

    private static int parseInt(String what, String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + text.strip() + "' is not a whole number");
        }
    }
    /**
     * "69 verdicts: 0 error, 1 fallback, 41 unknown, 27 ok" — each outcome counted as itself: an unknown verdict (the
     * upstream path not read, a fact unreadable) is never counted as ok; not applicable only where there is one.
     */
    static String counted(List<VerdictRow> rows) {
        java.util.function.Function<Outcome, Long> n = o -> rows.stream().filter(v -> v.outcome().equals(o.json())).count();
        long na = n.apply(Outcome.NOT_APPLICABLE);
        return rows.size() + " verdicts: " + n.apply(Outcome.ERROR) + " error, " + n.apply(Outcome.FALLBACK) + " fallback, "
                + n.apply(Outcome.UNKNOWN) + " unknown, " + n.apply(Outcome.OK) + " ok" + (na > 0 ? ", " + na + " not applicable" : "");
    }

}
