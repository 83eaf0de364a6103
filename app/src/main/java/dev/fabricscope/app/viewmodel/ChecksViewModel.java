package dev.fabricscope.app.viewmodel;

import dev.fabricscope.app.viewmodel.CheckDisplay.Kind;
import dev.fabricscope.app.viewmodel.CheckDisplay.Result;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.report.RecordedChecks;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.usecase.RunCheck;
import java.util.EnumMap;
import java.util.List;
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
 * the last result of each kind. Each check runs in a child process through {@link RunCheck} (this process never
 * loads NCCL nor creates a CUDA context), as a {@link Job} through {@link Tasks}; {@link #cancel()} stops it and ends
 * that process.
 * Results come as tables (and optional chart series) so the view stays independent of each check's result type.
 */
public final class ChecksViewModel {

    private final RunCheck runs;
    private final Tasks tasks;
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final ReadOnlyStringWrapper disabledReason = new ReadOnlyStringWrapper(this, "disabledReason");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private Job<Result> job;
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper progressMessage = new ReadOnlyStringWrapper(this, "progressMessage", "");
    private final ReadOnlyObjectWrapper<Kind> runningKind = new ReadOnlyObjectWrapper<>(this, "runningKind");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final Map<Kind, ReadOnlyObjectWrapper<Result>> results = new EnumMap<>(Kind.class);

    public ChecksViewModel(RunCheck runs, Tasks tasks) {
        this.runs = runs;
        this.tasks = tasks;
        for (Kind k : Kind.values()) {
            results.put(k, new ReadOnlyObjectWrapper<>());
        }
        disabledReason.bind(Bindings.createStringBinding(() -> reason(machine.get()), machine));
        machine.addListener((o, was, now) -> {
            results.values().forEach(r -> r.set(null));
            status.set("");
            showRecorded(now);
        });
    }

    /** The checks a report holds, read-only: each as the tab shows a check run here, with the report's date and machine. */
    private void showRecorded(LoadedMachine m) {
        RecordedChecks rec = m == null ? null : m.recorded();
        if (rec == null) {
            return;
        }
        List<String> unreadable = new java.util.ArrayList<>();
        for (Kind k : Kind.values()) {
            rec.entries().stream().filter(e -> k.check.check.equals(e.check())).findFirst().ifPresent(e -> {
                CheckResult r = e.typed();
                if (r == null) {
                    unreadable.add(e.check() + ": " + e.unreadable());
                } else {
                    results.get(k).set(CheckTables.recorded(k, r, rec.provenance(), m.snapshot()));
                }
            });
        }
        if (!unreadable.isEmpty()) {
            status.set("Not shown (the JSON report keeps them as recorded): " + String.join("; ", unreadable));
        }
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
    public ReadOnlyObjectProperty<Kind> runningKindProperty() { return runningKind.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** The kind of the check in flight, or null. */
    public Kind getRunningKind() { return runningKind.get(); }
    public ReadOnlyObjectProperty<Result> resultProperty(Kind kind) { return results.get(kind).getReadOnlyProperty(); }

    private static String reason(LoadedMachine m) {
        if (m == null) {
            return "No machine loaded yet.";
        }
        if (m.source() != LoadedMachine.Source.LIVE && m.recorded() != null) {
            return "Read-only: the checks this report recorded (" + m.recorded().provenance() + "). New checks run on this "
                    + "machine's GPUs: use File ▸ Probe this machine.";
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

    public Job<Result> run(Kind kind) {
        if (disabledReason.get() != null || running.get()) {
            return null;
        }
        LoadedMachine m = machine.get();
        Job<Result> t = new Job<>(tasks, p -> CheckTables.of(kind, runCheck(kind, m, p), m.snapshot()));
        job = t;
        progress.unbind();
        progress.bind(t.progressProperty());
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

    /**
     * Runs the check with its default request and time limit in its child process; the task's cancel (polled, and an
     * interrupt of this thread) ends that process.
     */
    private CheckResult runCheck(Kind kind, LoadedMachine m, Job.Progress p) {
        CheckControl control = new CheckControl();
        Thread watcher = new Thread(() -> {
            while (!control.isCancelled()) {
                if (p.cancelled()) {
                    control.cancel();
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    control.cancel();
                }
            }
        }, "fabricscope-checks-cancel");
        watcher.setDaemon(true);
        watcher.start();
        try {
            return runs.inChildProcess(RunCheck.Request.defaults(kind.check, kind == Kind.P2P ? m.snapshot() : null, e -> {
                if (p.cancelled()) {
                    control.cancel();
                }
                double f = e.fraction();
                p.update(f < 0 ? -1 : f, f < 0 ? -1 : 1, e.message());
            }, control));
        } finally {
            control.cancel();
        }
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
