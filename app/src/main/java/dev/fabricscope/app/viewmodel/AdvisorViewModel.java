package dev.fabricscope.app.viewmodel;

import dev.fabricscope.advisor.Outcome;
import dev.fabricscope.advisor.Recommendation;
import dev.fabricscope.advisor.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;
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
 * screen. Any input change re-runs the advisor in the background (debounced); a newer run supersedes an older one.
 */
public final class AdvisorViewModel {

    public static final String ALL = "all";

    private final AdvisorPort port;
    private static final Duration DEBOUNCE = Duration.ofMillis(180);

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
    private final ObservableList<Verdict> verdicts = FXCollections.observableArrayList();
    private final ObservableList<Recommendation> recommendations = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper unavailable = new ReadOnlyStringWrapper(this, "unavailable");
    private final javafx.beans.property.ReadOnlyObjectWrapper<AdvisorPort.Advice> advice = new javafx.beans.property.ReadOnlyObjectWrapper<>(this, "advice");
    private Tasks.Cancellable debounce;
    private Job<AdvisorPort.Advice> running;

    public AdvisorViewModel(AdvisorPort port, Tasks tasks) {
        this.port = port;
        this.tasks = tasks;
        unavailable.set(port.unavailableReason());
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
    public ObservableList<Verdict> verdicts() { return verdicts; }
    public ObservableList<Recommendation> recommendations() { return recommendations; }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** Why the advisor cannot run in this build, or null. */
    public ReadOnlyStringProperty unavailableProperty() { return unavailable.getReadOnlyProperty(); }
    public List<String> frameworks() { return port.frameworks(); }
    /** The last answer (facts, deployment notes, versions), or null. */
    public javafx.beans.property.ReadOnlyObjectProperty<AdvisorPort.Advice> adviceProperty() { return advice.getReadOnlyProperty(); }
    public List<String> assumeKeys() { return port.assumeKeys(); }

    // ---- Commands

    /** The deployment the inputs describe; throws {@link IllegalArgumentException} naming a malformed line. */
    public AdvisorPort.Deployment deployment() {
        Integer tok = tokens.get() == null || tokens.get().isBlank() ? null : parseInt("tokens", tokens.get());
        List<String> fw = ALL.equals(framework.get()) ? port.frameworks() : List.of(framework.get());
        String m = model.get() == null || model.get().isBlank() ? null : model.get().strip();
        return new AdvisorPort.Deployment(fw, tp.get() > 0 ? tp.get() : null, Math.max(1, nodes.get()),
                dcp.get() > 1 ? dcp.get() : null, m, tok, pairs("flag", flags.get()), pairs("env", env.get()),
                pairs("assume", assume.get()));
    }

    private void schedule() {
        if (unavailable.get() != null) {
            return;
        }
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
        if (unavailable.get() != null || m == null) {
            verdicts.clear();
            recommendations.clear();
            return;
        }
        AdvisorPort.Deployment d;
        try {
            d = deployment();
        } catch (IllegalArgumentException e) {
            status.set(e.getMessage());
            return;
        }
        if (running != null) {
            running.cancel();
        }
        Job<AdvisorPort.Advice> job = new Job<>(tasks, p -> port.advise(m.snapshot(), d));
        running = job;
        status.set("Advising…");
        job.onSucceeded(a -> {
            if (job != running) {
                return;
            }
            advice.set(a);
            List<Verdict> sorted = new ArrayList<>(a.verdicts());
            sorted.sort(java.util.Comparator.comparing((Verdict v) -> rank(v.outcome())));
            verdicts.setAll(sorted);
            recommendations.setAll(a.recommendations());
            long errors = sorted.stream().filter(v -> v.outcome() == Outcome.ERROR).count();
            long fallbacks = sorted.stream().filter(v -> v.outcome() == Outcome.FALLBACK).count();
            status.set(a.blocked() != null ? "No verdicts: " + a.blocked() : sorted.size() + " verdicts: " + errors + " error, "
                    + fallbacks + " fallback, " + (sorted.size() - errors - fallbacks) + " ok");
        });
        job.onFailed(t -> {
            if (job == running) {
                status.set(t instanceof IllegalArgumentException ? t.getMessage() : "Advisor failed: " + t);
            }
        });
        job.start();
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
}
