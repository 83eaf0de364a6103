package dev.fabricscope.app.viewmodel;

import java.util.EnumMap;
import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The Checks tab's state: whether checks can run here (and why not), the check in flight with its progress, and
 * the last result of each kind. A check runs as a {@link Job} through {@link Tasks}; {@link #cancel()} stops it.
 */
public final class ChecksViewModel {

    private final ChecksPort port;
    private final Tasks tasks;
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final ReadOnlyStringWrapper disabledReason = new ReadOnlyStringWrapper(this, "disabledReason");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private Job<ChecksPort.Result> job;
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper progressMessage = new ReadOnlyStringWrapper(this, "progressMessage", "");
    private final ReadOnlyObjectWrapper<ChecksPort.Kind> runningKind = new ReadOnlyObjectWrapper<>(this, "runningKind");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final Map<ChecksPort.Kind, ReadOnlyObjectWrapper<ChecksPort.Result>> results = new EnumMap<>(ChecksPort.Kind.class);

    public ChecksViewModel(ChecksPort port, Tasks tasks) {
        this.port = port;
        this.tasks = tasks;
        for (ChecksPort.Kind k : ChecksPort.Kind.values()) {
            results.put(k, new ReadOnlyObjectWrapper<>());
        }
        disabledReason.bind(Bindings.createStringBinding(() -> reason(machine.get()), machine));
        machine.addListener((o, was, now) -> results.values().forEach(r -> r.set(null)));
    }

    public ObjectProperty<LoadedMachine> machineProperty() { return machine; }
    /** Why the checks cannot run for the machine on screen, or null. */
    public ReadOnlyStringProperty disabledReasonProperty() { return disabledReason.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    /** The last check's progress, 0–1 (-1: cannot tell); kept after it ends until the next one starts. */
    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    /** The last check's own progress line; kept after it ends until the next one starts. */
    public ReadOnlyStringProperty progressMessageProperty() { return progressMessage.getReadOnlyProperty(); }
    /** The kind of the check in flight, or null. */
    public ReadOnlyObjectProperty<ChecksPort.Kind> runningKindProperty() { return runningKind.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** The kind of the check in flight, or null. */
    public ChecksPort.Kind getRunningKind() { return runningKind.get(); }
    public ReadOnlyObjectProperty<ChecksPort.Result> resultProperty(ChecksPort.Kind kind) { return results.get(kind).getReadOnlyProperty(); }

    private String reason(LoadedMachine m) {
        if (port.unavailableReason() != null) {
            return port.unavailableReason();
        }
        if (m == null) {
            return "No machine loaded yet.";
        }
        if (m.source() != LoadedMachine.Source.LIVE) {
            return "Checks run on this machine's GPUs, not on a report or sample: use File ▸ Probe this machine.";
        }
        if (!m.liveWithGpus()) {
            String[] said = MainViewModel.noDriver(m);
            return "Checks need an NVIDIA GPU: " + (said != null ? said[0] : "the driver reports no GPU.");
        }
        return null;
    }

    // ---- Commands

    public Job<ChecksPort.Result> run(ChecksPort.Kind kind) {
        if (disabledReason.get() != null || running.get()) {
            return null;
        }
        LoadedMachine m = machine.get();
        Job<ChecksPort.Result> t = new Job<>(tasks, p -> port.run(kind, m.snapshot(),
                (f, msg) -> p.update(f < 0 ? -1 : f, f < 0 ? -1 : 1, msg), p::cancelled));
        job = t;
        progress.unbind();
        progress.bind(t.progressProperty());
        progressMessage.unbind();
        progressMessage.set("Starting…");
        t.messageProperty().addListener((o, was, now) -> progressMessage.set(now));
        running.set(true);
        runningKind.set(kind);
        status.set(kind.title + ": running…");
        t.onSucceeded(r -> {
            results.get(kind).set(r);
            status.set(kind.title + ": " + r.summary());
            done();
        });
        t.onFailed(e -> {
            status.set(kind.title + " failed: " + e.getMessage());
            done();
        });
        t.onCancelled(() -> {
            status.set(kind.title + ": cancelled");
            done();
        });
        return t.start();
    }

    public void cancel() {
        if (job != null && !job.isDone()) {
            job.cancel();
        }
    }

    private void done() {
        progress.unbind();
        running.set(false);
        runningKind.set(null);
        job = null;
    }
}
