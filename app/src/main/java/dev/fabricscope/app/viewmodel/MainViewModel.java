package dev.fabricscope.app.viewmodel;

import dev.fabricscope.app.AppPreferences;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.FabricLayout;
import dev.fabricscope.samples.Samples;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The window's state: which machine is shown, whether a background load runs, the no-driver banner, recent files.
 * Every load (live probe, file, sample) runs as a {@link Task} off the FX thread; starting a new one cancels the
 * one in flight, and a cancelled load never replaces what is shown. Properties are read-only; the command methods
 * are the only mutators and must be called on the FX thread.
 */
public final class MainViewModel {

    private final Supplier<MachineSnapshot> liveProbe;
    private final AppPreferences prefs;
    private final ExecutorService executor;

    // ---- Properties

    private final ReadOnlyObjectWrapper<LoadedMachine> machine = new ReadOnlyObjectWrapper<>(this, "machine");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "Fabricscope");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "Ready");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyStringWrapper busyMessage = new ReadOnlyStringWrapper(this, "busyMessage", "");
    private final ReadOnlyStringWrapper noDriverMessage = new ReadOnlyStringWrapper(this, "noDriverMessage");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error");
    private final ObservableList<Path> recentFiles = FXCollections.observableArrayList();
    private Task<LoadedMachine> current;

    public MainViewModel(Supplier<MachineSnapshot> liveProbe, AppPreferences prefs) {
        this.liveProbe = liveProbe;
        this.prefs = prefs;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fabricscope-load");
            t.setDaemon(true);
            return t;
        });
        recentFiles.setAll(prefs.recentFiles());
        machine.addListener((o, was, now) -> title.set(now == null ? "Fabricscope" : now.title()));
    }

    public ReadOnlyObjectProperty<LoadedMachine> machineProperty() {
        return machine.getReadOnlyProperty();
    }

    public LoadedMachine getMachine() {
        return machine.get();
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** One line about the last thing that happened. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public boolean isBusy() {
        return busy.get();
    }

    public ReadOnlyStringProperty busyMessageProperty() {
        return busyMessage.getReadOnlyProperty();
    }

    /** "No NVIDIA driver found: …" while the live machine without a usable driver is shown; null otherwise. */
    public ReadOnlyStringProperty noDriverMessageProperty() {
        return noDriverMessage.getReadOnlyProperty();
    }

    /** The last load failure, one line; null after a success. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public ObservableList<Path> recentFiles() {
        return FXCollections.unmodifiableObservableList(recentFiles);
    }

    public List<Samples.Sample> samples() {
        return Samples.list();
    }

    // ---- Commands

    /** Probes this machine in the background. */
    public Task<LoadedMachine> probeLive() {
        return start("Probing this machine (NVML, CUDA, NCCL)…", () -> {
            MachineSnapshot s = liveProbe.get();
            return new LoadedMachine(s, LoadedMachine.Source.LIVE, null, null, FabricLayout.layout(s));
        }, m -> "Probed this machine in " + (m.snapshot().probe() != null && m.snapshot().probe().durationMs() != null
                ? m.snapshot().probe().durationMs() + " ms" : "?"));
    }

    /** Opens a snapshot or report file in the background; remembers it in the recent files. */
    public Task<LoadedMachine> openFile(Path file) {
        return start("Opening " + file.getFileName() + "…", () -> {
            MachineSnapshot s = SnapshotIO.read(file);
            return new LoadedMachine(s, LoadedMachine.Source.FILE, file, null, FabricLayout.layout(s));
        }, m -> {
            recentFiles.setAll(prefs.addRecent(file));
            return "Opened " + file;
        });
    }

    /** Opens a bundled sample in the background. */
    public Task<LoadedMachine> openSample(String name) {
        return start("Opening sample " + name + "…", () -> {
            Samples.Sample sample = Samples.find(name).orElseThrow(() -> new IllegalArgumentException(
                    "unknown sample '" + name + "'; valid: " + String.join(", ", Samples.names())));
            MachineSnapshot s = sample.snapshot().get();
            return new LoadedMachine(s, LoadedMachine.Source.SAMPLE, null, name, FabricLayout.layout(s));
        }, m -> "Opened sample " + name + " — " + Samples.find(name).map(Samples.Sample::description).orElse(""));
    }

    /** Cancels the load in flight, keeping what is shown. */
    public void cancel() {
        if (current != null && current.isRunning()) {
            current.cancel(true);
        }
    }

    /** Puts a line in the status bar (e.g. after an export). */
    public void report(String message) {
        status.set(message);
    }

    public void clearRecent() {
        prefs.clearRecent();
        recentFiles.clear();
    }

    /** Stops the worker threads (window closing). */
    public void shutdown() {
        cancel();
        executor.shutdownNow();
    }

    private Task<LoadedMachine> start(String message, Callable<LoadedMachine> work,
                                      java.util.function.Function<LoadedMachine, String> done) {
        cancel();
        Task<LoadedMachine> task = new Task<>() {
            @Override
            protected LoadedMachine call() throws Exception {
                updateMessage(message);
                return work.call();
            }
        };
        current = task;
        busy.set(true);
        busyMessage.set(message);
        status.set(message);
        task.setOnSucceeded(e -> {
            if (task != current) {
                return;
            }
            LoadedMachine m = task.getValue();
            finish();
            error.set(null);
            machine.set(m);
            noDriverMessage.set(noDriver(m));
            status.set(done.apply(m));
        });
        task.setOnFailed(e -> {
            if (task != current) {
                return;
            }
            finish();
            Throwable t = task.getException();
            String why = t instanceof SnapshotIO.ReadException || t instanceof IllegalArgumentException
                    ? t.getMessage() : t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + firstLine(t.getMessage()));
            error.set(why);
            status.set("Failed: " + why);
        });
        task.setOnCancelled(e -> {
            if (task != current) {
                return;
            }
            finish();
            status.set("Cancelled: " + message.replace("…", ""));
        });
        executor.execute(task);
        return task;
    }

    private void finish() {
        busy.set(false);
        busyMessage.set("");
        current = null;
    }

    static String noDriver(LoadedMachine m) {
        DriverInfo d = m.snapshot().driver();
        if (m.source() != LoadedMachine.Source.LIVE || d == null || d.driverPresent()) {
            return null;
        }
        String msg = d.message() == null ? d.status().name() : d.message();
        String prefix = "NVIDIA driver not found: ";
        if (d.status() == DriverInfo.Status.NOT_FOUND) {
            return "No NVIDIA driver found: " + (msg.startsWith(prefix) ? msg.substring(prefix.length()) : msg);
        }
        return msg;
    }

    private static String firstLine(String s) {
        return s.lines().findFirst().orElse("");
    }
}
