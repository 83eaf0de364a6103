package dev.fabricscope.app.viewmodel;

import dev.fabricscope.check.CheckControl;
import dev.fabricscope.check.CheckResult;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.usecase.RunCheck;
import java.util.EnumMap;
import java.util.List;
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
 * the last result of each kind. Each check runs in a child process through {@link RunCheck} (this process never
 * loads NCCL nor creates a CUDA context), inside a {@link Task}; {@link #cancel()} stops it and ends that process.
 * Results come as tables (and optional chart series) so the view stays independent of each check's result type.
 */
public final class ChecksViewModel {

    /** The checks the tab offers. */
    public enum Kind {
        PREFLIGHT("Workspace preflight", "What SGLang and FlashInfer do before creating their all-reduce workspace", RunCheck.Kind.PREFLIGHT),
        P2P("P2P bandwidth", "Peer access and measured copy bandwidth and latency for every GPU pair", RunCheck.Kind.P2P),
        ALLREDUCE("All-reduce", "NCCL and the one-shot and two-shot P2P kernels, plain and CUDA-graph, timed like nccl-tests",
                RunCheck.Kind.ALLREDUCE);

        public final String title;
        public final String description;
        final RunCheck.Kind check;

        Kind(String title, String description, RunCheck.Kind check) {
            this.title = title;
            this.description = description;
            this.check = check;
        }
    }

    /** A line of a chart: x and y values (e.g. message size in bytes and busbw in GB/s). */
    public record Series(String name, List<double[]> points) {
    }

    /** A chart of series against message size (x drawn on a log₂ axis; y on a log₁₀ axis when {@code logY}). */
    public record Chart(String title, String xLabel, String yLabel, List<Series> series, boolean logY) {
        public Chart {
            series = List.copyOf(series);
        }

        public Chart(String title, String xLabel, String yLabel, List<Series> series) {
            this(title, xLabel, yLabel, series, false);
        }
    }

    /** A GPU × GPU grid of figures (null = not measured), e.g. P2P bandwidth. */
    public record Heatmap(String title, String unit, List<String> labels, Double[][] values, Double[][] reference) {
    }

    /**
     * A finished check, rendered as a table, notes, charts and an optional heatmap.
     *
     * @param status the check's own status word (PASSED, FAILED, SKIPPED, …)
     * @param passed true when nothing failed
     * @param reportEntry the check's own result as a report records it ({@code report --with-checks}), or null
     */
    public record Result(Kind kind, String status, boolean passed, String summary, List<String> columns, List<List<String>> rows,
                         List<String> notes, List<Chart> charts, Heatmap heatmap, ReportChecks.Entry reportEntry) {
        public Result {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
            notes = notes == null ? List.of() : List.copyOf(notes);
            charts = charts == null ? List.of() : List.copyOf(charts);
        }
    }

    private final RunCheck runs;
    private final Executor executor;
    private final ObjectProperty<LoadedMachine> machine = new SimpleObjectProperty<>(this, "machine");
    private final ReadOnlyStringWrapper disabledReason = new ReadOnlyStringWrapper(this, "disabledReason");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyObjectWrapper<Task<Result>> task = new ReadOnlyObjectWrapper<>(this, "task");
    private final ReadOnlyObjectWrapper<Kind> runningKind = new ReadOnlyObjectWrapper<>(this, "runningKind");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final Map<Kind, ReadOnlyObjectWrapper<Result>> results = new EnumMap<>(Kind.class);

    public ChecksViewModel(RunCheck runs, Executor executor) {
        this.runs = runs;
        this.executor = executor;
        for (Kind k : Kind.values()) {
            results.put(k, new ReadOnlyObjectWrapper<>());
        }
        disabledReason.bind(Bindings.createStringBinding(() -> reason(machine.get()), machine));
        machine.addListener((o, was, now) -> results.values().forEach(r -> r.set(null)));
    }

    public ObjectProperty<LoadedMachine> machineProperty() { return machine; }
    /** Why the checks cannot run for the machine on screen, or null. */
    public ReadOnlyStringProperty disabledReasonProperty() { return disabledReason.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Task<Result>> taskProperty() { return task.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** The kind of the check in flight, or null. */
    public Kind getRunningKind() { return runningKind.get(); }
    public ReadOnlyObjectProperty<Result> resultProperty(Kind kind) { return results.get(kind).getReadOnlyProperty(); }

    private static String reason(LoadedMachine m) {
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

    public Task<Result> run(Kind kind) {
        if (disabledReason.get() != null || running.get()) {
            return null;
        }
        LoadedMachine m = machine.get();
        CheckTask t = new CheckTask() {
            @Override
            protected Result call() {
                updateTitle(kind.title);
                updateMessage("Starting…");
                return CheckTables.of(kind, runCheck(kind, m, this));
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

    /**
     * Runs the check with its default request and time limit in its child process; the task's cancel (polled, and an
     * interrupt of this thread) ends that process.
     */
    private CheckResult runCheck(Kind kind, LoadedMachine m, CheckTask t) {
        CheckControl control = new CheckControl();
        Thread watcher = new Thread(() -> {
            while (!control.isCancelled()) {
                if (t.isCancelled()) {
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
                if (t.isCancelled()) {
                    control.cancel();
                }
                t.progress(e.fraction(), e.message());
            }, control));
        } finally {
            control.cancel();
        }
    }

    /** A check's task, telling its progress: 0..1 (negative: unknown) and one line. */
    private abstract static class CheckTask extends Task<Result> {
        void progress(double fraction, String message) {
            updateMessage(message);
            updateProgress(fraction < 0 ? -1 : fraction, fraction < 0 ? -1 : 1);
        }
    }

    public void cancel() {
        Task<Result> t = task.get();
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
