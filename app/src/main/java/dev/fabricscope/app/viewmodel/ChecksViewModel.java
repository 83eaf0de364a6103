package dev.fabricscope.app.viewmodel;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.concurrent.Task;

/**
 * The Checks tab's state: whether checks can run here (and why not), the check in flight with its progress, and
 * the last result of each kind. Checks run as a {@link Task}; {@link #cancel()} stops it.
 */
public final class ChecksViewModel {

    private final ChecksPort port;
    private final Executor executor;
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final ReadOnlyStringWrapper disabledReason = new ReadOnlyStringWrapper(this, "disabledReason");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyObjectWrapper<Task<ChecksPort.Result>> task = new ReadOnlyObjectWrapper<>(this, "task");
    private final ReadOnlyObjectWrapper<ChecksPort.Kind> runningKind = new ReadOnlyObjectWrapper<>(this, "runningKind");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final Map<ChecksPort.Kind, ReadOnlyObjectWrapper<ChecksPort.Result>> results = new EnumMap<>(ChecksPort.Kind.class);

    public ChecksViewModel(ChecksPort port, Executor executor) {
        this.port = port;
        this.executor = executor;
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
    public ReadOnlyObjectProperty<Task<ChecksPort.Result>> taskProperty() { return task.getReadOnlyProperty(); }
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

    public Task<ChecksPort.Result> run(ChecksPort.Kind kind) {
        if (disabledReason.get() != null || running.get()) {
            return null;
        }
        LoadedMachine m = machine.get();
        Task<ChecksPort.Result> t = new Task<>() {
            @Override
            protected ChecksPort.Result call() throws Exception {
                updateTitle(kind.title);
                updateMessage("Starting…");
                return port.run(kind, m.snapshot(), (f, msg) -> {
                    updateMessage(msg);
                    updateProgress(f < 0 ? -1 : f, f < 0 ? -1 : 1);
                }, this::isCancelled);
            }
        };
        runningKind.set(kind);
        task.set(t);
        running.set(true);
        status.set(kind.title + ": running…");
        t.setOnSucceeded(e -> {
            results.get(kind).set(t.getValue());
            status.set(kind.title + ": " + t.getValue().summary());
            done();
        });
        t.setOnFailed(e -> {
            status.set(kind.title + " failed: " + t.getException().getMessage());
            done();
        });
        t.setOnCancelled(e -> {
            status.set(kind.title + ": cancelled");
            done();
        });
        executor.execute(t);
        return t;
    }

    public void cancel() {
        Task<ChecksPort.Result> t = task.get();
        if (t != null && t.isRunning()) {
            t.cancel(true);
        }
    }

    private void done() {
        running.set(false);
        runningKind.set(null);
        Platform.runLater(() -> task.set(null));
    }
}
