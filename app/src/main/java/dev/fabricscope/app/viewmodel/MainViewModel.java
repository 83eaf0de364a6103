package dev.fabricscope.app.viewmodel;

import dev.fabricscope.text.Words;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.Compare;
import dev.fabricscope.usecase.InspectCluster;
import dev.fabricscope.usecase.OpenSnapshot;
import dev.fabricscope.usecase.UseCaseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
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
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The window's state: which machine or cluster is shown and which of its tabs, whether a background load runs (and
 * how far it is), the no-driver banner, recent files. Every load (live probe, file, sample, cluster folder, a node of
 * the cluster) runs as a {@link Job} through {@link Tasks}; starting a new one cancels the one in flight, and a
 * cancelled load never replaces what is shown. Properties are read-only; the command methods are the only mutators
 * and must be called on the UI thread.
 */
public final class MainViewModel {

    /** What the window's centre shows: the machine tabs, the cluster page, or two reports compared. */
    public enum Page { MACHINE, CLUSTER, COMPARE }

    /** The machine page's tabs, in their order. */
    public enum MachineTab { OVERVIEW, FABRIC, MATRICES, ADVISOR, CHECKS, ACCEPTANCE }

    /** A live probe's result: the snapshot and the native-call trace it recorded (trace JSON), or null. */
    public record LiveReading(MachineSnapshot snapshot, String trace) {
    }

    /** Probes this machine, recording its native calls. */
    @FunctionalInterface
    public interface RecordingProbe {
        LiveReading probe();
    }

    private final RecordingProbe liveProbe;
    private final Compare compare;
    private final InspectCluster clusters;
    private final AppPreferences prefs;
    private final Tasks tasks;

    /** Where this view-model's work runs (the cluster page's drawing is read with it). */
    Tasks tasks() {
        return tasks;
    }

    // ---- Properties

    private final ReadOnlyObjectWrapper<LoadedMachine> machine = new ReadOnlyObjectWrapper<>(this, "machine");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "Fabricscope");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "Ready");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyStringWrapper busyMessage = new ReadOnlyStringWrapper(this, "busyMessage", "");
    private final ReadOnlyStringWrapper noDriverMessage = new ReadOnlyStringWrapper(this, "noDriverMessage");
    private final ReadOnlyStringWrapper noDriverDetails = new ReadOnlyStringWrapper(this, "noDriverDetails");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error");
    private final ObservableList<Path> recentFiles = FXCollections.observableArrayList();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyObjectWrapper<LoadedCluster> cluster = new ReadOnlyObjectWrapper<>(this, "cluster");
    private final ReadOnlyObjectWrapper<Page> page = new ReadOnlyObjectWrapper<>(this, "page", Page.MACHINE);
    private final ReadOnlyStringWrapper clusterNode = new ReadOnlyStringWrapper(this, "clusterNode");
    private final ReadOnlyObjectWrapper<LoadedComparison> comparison = new ReadOnlyObjectWrapper<>(this, "comparison");
    private final ReadOnlyStringWrapper source = new ReadOnlyStringWrapper(this, "source", "");
    private final ObjectProperty<MachineTab> tab = new SimpleObjectProperty<>(this, "tab", MachineTab.OVERVIEW);
    private Page beforeCompare = Page.MACHINE;
    private Job<?> current;

    /** A live probe that records nothing (File -> Save Trace then has no trace for the live machine). */
    public MainViewModel(Supplier<MachineSnapshot> liveProbe, AppPreferences prefs, Tasks tasks) {
        this(liveProbe, new Compare(), new InspectCluster(), prefs, tasks);
    }

    /** A window whose live probe records its native calls, so that File -> Save Trace saves the recording. */
    public static MainViewModel recording(RecordingProbe liveProbe, AppPreferences prefs, Tasks tasks) {
        return new MainViewModel(liveProbe, new Compare(), new InspectCluster(), prefs, tasks);
    }

    public MainViewModel(Supplier<MachineSnapshot> liveProbe, Compare compare, InspectCluster clusters, AppPreferences prefs,
                         Tasks tasks) {
        this((RecordingProbe) () -> new LiveReading(liveProbe.get(), null), compare, clusters, prefs, tasks);
    }

    private MainViewModel(RecordingProbe liveProbe, Compare compare, InspectCluster clusters, AppPreferences prefs,
                         Tasks tasks) {
        this.liveProbe = liveProbe;
        this.compare = compare;
        this.clusters = clusters;
        this.prefs = prefs;
        this.tasks = tasks;
        recentFiles.setAll(prefs.recentFiles());
        // names in the title come from files: shown by the one rule for untrusted text (view.SafeText)
        title.bind(Bindings.createStringBinding(() -> ShownText.visible(makeTitle(), false),
                machine, cluster, page, clusterNode, comparison));
        source.bind(Bindings.createStringBinding(this::makeSource, machine, page, cluster, comparison));
    }

    private static String name(Path p) {
        return p.getFileName() == null ? p.toString() : p.getFileName().toString();
    }

    private String makeSource() {
        if (page.get() == Page.CLUSTER && cluster.get() != null) {
            return "cluster " + cluster.get().name(); // the whole path is the page's own title
        }
        if (page.get() == Page.COMPARE && comparison.get() != null) {
            // file names: the page's cards give each side's whole path
            return "comparing " + name(comparison.get().left()) + " with " + name(comparison.get().right());
        }
        return machine.get() == null ? "" : machine.get().subject();
    }

    private String makeTitle() {
        LoadedCluster c = cluster.get();
        LoadedMachine m = machine.get();
        LoadedComparison cmp = comparison.get();
        if (page.get() == Page.COMPARE && cmp != null) {
            return "Fabricscope — compare " + cmp.diff().left().name() + " ↔ " + cmp.diff().right().name();
        }
        if (page.get() == Page.CLUSTER && c != null) {
            return "Fabricscope — cluster " + c.name() + " (" + Words.grouped(c.view().nodes().size(), "node") + ")";
        }
        if (m == null) {
            return "Fabricscope";
        }
        return clusterNode.get() != null && c != null ? "Fabricscope — cluster " + c.name() + " › " + m.subject() : m.title();
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

    /** What is shown, for the status bar: the machine's subject, the cluster folder, or the two files compared. */
    public ReadOnlyStringProperty sourceProperty() {
        return source.getReadOnlyProperty();
    }

    /** One line about the last thing that happened. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** The background task's progress, 0–1; -1 while it cannot tell; 0 when idle. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The cluster folder last opened (kept while one of its nodes or another machine is shown), or null. */
    public ReadOnlyObjectProperty<LoadedCluster> clusterProperty() {
        return cluster.getReadOnlyProperty();
    }

    public LoadedCluster getCluster() {
        return cluster.get();
    }

    /** The two reports last compared, or null. */
    public ReadOnlyObjectProperty<LoadedComparison> comparisonProperty() {
        return comparison.getReadOnlyProperty();
    }

    public LoadedComparison getComparison() {
        return comparison.get();
    }

    public ReadOnlyObjectProperty<Page> pageProperty() {
        return page.getReadOnlyProperty();
    }

    public Page getPage() {
        return page.get();
    }

    /** The name of the cluster node whose machine views are shown, or null when the machine is not from the cluster. */
    public ReadOnlyStringProperty clusterNodeProperty() {
        return clusterNode.getReadOnlyProperty();
    }

    public String getClusterNode() {
        return clusterNode.get();
    }

    /** The tab shown on the machine page; the view selects it, and a user's choice of tab sets it. */
    public ObjectProperty<MachineTab> tabProperty() {
        return tab;
    }

    /** Shows the machine page on {@code which} tab (when a machine is loaded). */
    public void showTab(MachineTab which) {
        showMachinePage();
        tab.set(which);
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

    /** "No NVIDIA driver found on this machine." (in words) while the live machine without a usable driver is shown; null otherwise. */
    public ReadOnlyStringProperty noDriverMessageProperty() {
        return noDriverMessage.getReadOnlyProperty();
    }

    /** The library error behind {@link #noDriverMessageProperty()} (the loader's words, with its paths); null otherwise. */
    public ReadOnlyStringProperty noDriverDetailsProperty() {
        return noDriverDetails.getReadOnlyProperty();
    }

    /** The last load failure, one line; null after a success. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public ObservableList<Path> recentFiles() {
        return FXCollections.unmodifiableObservableList(recentFiles);
    }

    /** A bundled sample machine, as the menus offer it. */
    public record SampleChoice(String name, String description) {
    }

    /** The bundled samples, in their order. */
    public List<SampleChoice> samples() {
        return Samples.list().stream().map(s -> new SampleChoice(s.name(), s.description())).toList();
    }

    // ---- Commands

    /** Probes this machine in the background. */
    public Job<LoadedMachine> probeLive() {
        return start("Probing this machine (NVML, CUDA, NCCL)…", () -> {
            LiveReading r = liveProbe.probe();
            MachineSnapshot s = r.snapshot();
            return new LoadedMachine(s, LoadedMachine.Source.LIVE, null, null, FabricLayout.layout(s), r.trace());
        }, m -> "Probed this machine in " + (m.snapshot().probe() != null && m.snapshot().probe().durationMs() != null
                ? m.snapshot().probe().durationMs() + " ms" : "?"));
    }

    /** Opens a recent entry: a cluster folder or a report file. */
    public Job<?> openRecent(Path path) {
        return Files.isDirectory(path) ? openCluster(path) : openFile(path);
    }

    /**
     * Reads a folder of node reports in the background (progress: files read), merges them into NVLink domains and
     * differences, and shows the cluster page; remembers the folder in the recent files.
     */
    public Job<LoadedCluster> openCluster(Path dir) {
        String what = "Reading cluster folder " + (dir.getFileName() == null ? dir : dir.getFileName()) + "…";
        long started = System.nanoTime();
        return start(what, r -> {
            InspectCluster.Result opened = clusters.open(new InspectCluster.Request(dir, true, (read, total) -> {
                r.update(read, total, String.format(java.util.Locale.ROOT, "Reading node reports: %,d of %,d…", read, total));
                if (read == total && total > 0) {
                    r.update(-1, 1, String.format(java.util.Locale.ROOT, "Comparing %,d nodes…", total));
                }
            }));
            if (opened.view().nodes().isEmpty()) {
                throw new IOException(dir + ": no node reports (*.json) in this folder");
            }
            return LoadedCluster.of(dir, opened);
        }, c -> {
            cluster.set(c);
            clusterNode.set(null);
            page.set(Page.CLUSTER);
        }, c -> {
            recentFiles.setAll(prefs.addRecent(dir));
            return "Opened cluster " + c.name() + " in " + (System.nanoTime() - started) / 1_000_000 + " ms"; // the page says what it holds
        });
    }

    /**
     * Shows the machine views of one node of the open cluster (its file is read in full and its fabric graph laid out in
     * the background), then runs {@code onShown}.
     */
    public Job<LoadedMachine> openClusterNode(String name, Runnable onShown) {
        LoadedCluster c = cluster.get();
        ClusterNode n = c == null ? null : c.node(name);
        if (n == null || !n.ok()) {
            throw new IllegalArgumentException("no readable node '" + name + "' in the open cluster");
        }
        return start("Opening node " + name + "…", r -> {
            // the cluster view holds summaries; the node's file is read now, and judged from its data as File → Open does
            MachineSnapshot s = OpenSnapshot.judged(n.readSnapshot(OpenSnapshot.TRACES));
            return LoadedMachine.fromFile(s, Path.of(n.file()), FabricLayout.layout(s));
        }, m -> {
            showMachine(m);
            clusterNode.set(name);
        }, m -> "Opened node " + name + " of cluster " + c.name(), m -> onShown.run());
    }

    /**
     * Reads two reports or snapshots (untrusted: one-line errors) and compares them with the report package's diff;
     * shows the comparison.
     */
    public Job<LoadedComparison> compare(Path left, Path right) {
        String a = sideName(left, right);
        String b = sideName(right, left);
        return start("Comparing " + a + " with " + b + "…", r -> new LoadedComparison(left, right,
                compare.compare(new Compare.Request(left, a, right, b)).diff()), c -> {
            if (page.get() != Page.COMPARE) {
                beforeCompare = page.get();
            }
            comparison.set(c);
            page.set(Page.COMPARE);
        }, c -> c.diff().identical() ? "Compared " + a + " with " + b + ": no differences"
                : "Compared " + a + " with " + b + ": " + c.diff().changes().size() + " difference" + (c.diff().changes().size() == 1 ? "" : "s"));
    }

    /** The file name, or the whole path when both files have the same name. */
    private static String sideName(Path p, Path other) {
        Path n = p.getFileName();
        Path o = other.getFileName();
        return n == null || n.equals(o) ? p.toString() : n.toString();
    }

    /** Compares the two reports again, B against A. */
    public void swapComparison() {
        LoadedComparison c = comparison.get();
        if (c != null) {
            compare(c.right(), c.left());
        }
    }

    /** Two dropped files are compared; a dropped folder opens as a cluster, a dropped file as a report or snapshot. */
    public void openDropped(List<Path> paths) {
        if (paths.isEmpty()) {
            return;
        }
        if (paths.size() == 2 && paths.stream().allMatch(Files::isRegularFile)) {
            compare(paths.get(0), paths.get(1));
        } else if (Files.isDirectory(paths.get(0))) {
            openCluster(paths.get(0));
        } else {
            openFile(paths.get(0));
        }
    }

    /** Leaves the comparison for the page shown before it. */
    public void closeComparison() {
        if (page.get() == Page.COMPARE) {
            page.set(beforeCompare == Page.CLUSTER && cluster.get() != null ? Page.CLUSTER : Page.MACHINE);
        }
    }

    /** Back to the comparison last made. */
    public void showComparison() {
        if (comparison.get() != null && page.get() != Page.COMPARE) {
            beforeCompare = page.get();
            page.set(Page.COMPARE);
        }
    }

    /** Back to the cluster page (keeps the machine shown for the tabs). */
    public void showCluster() {
        if (cluster.get() != null) {
            page.set(Page.CLUSTER);
        }
    }

    /** Back to the machine tabs, when a machine is loaded. */
    public void showMachinePage() {
        if (machine.get() != null) {
            page.set(Page.MACHINE);
        }
    }

    /** Opens a snapshot or report file in the background; remembers it in the recent files. */
    public Job<LoadedMachine> openFile(Path file) {
        return start("Opening " + file.getFileName() + "…", () -> {
            MachineSnapshot s = OpenSnapshot.read(file);
            return LoadedMachine.fromFile(s, file, FabricLayout.layout(s));
        }, m -> {
            recentFiles.setAll(prefs.addRecent(file));
            return "Opened " + file;
        });
    }

    /** Opens a bundled sample in the background. */
    public Job<LoadedMachine> openSample(String name) {
        return start("Opening sample " + name + "…", () -> {
            Samples.Sample sample = Samples.find(name).orElseThrow(() -> new IllegalArgumentException(
                    "unknown sample '" + name + "'; valid: " + String.join(", ", Samples.names())));
            MachineSnapshot s = sample.snapshot().get();
            return new LoadedMachine(s, LoadedMachine.Source.SAMPLE, null, name, FabricLayout.layout(s));
        }, m -> "Opened sample " + name + (m.snapshot().probe() != null && m.snapshot().probe().origin() == dev.fabricscope.model.ProbeInfo.Origin.SYNTHETIC
                ? " (synthetic)" : " (captured)")); // short: the status bar's one line; the Overview says what it is
    }

    /** Cancels the load in flight (also one not yet started), keeping what is shown. */
    public void cancel() {
        if (current != null && !current.isDone()) {
            current.cancel();
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

    /** Cancels the load in flight (window closing). */
    public void shutdown() {
        cancel();
    }

    private void showMachine(LoadedMachine m) {
        machine.set(m);
        String[] said = noDriver(m);
        noDriverMessage.set(said == null ? null : said[0]);
        noDriverDetails.set(said == null ? null : said[1]);
        clusterNode.set(null);
        page.set(Page.MACHINE);
    }

    private Job<LoadedMachine> start(String message, Callable<LoadedMachine> work, Function<LoadedMachine, String> done) {
        return start(message, r -> work.call(), this::showMachine, done, m -> { });
    }

    private <T> Job<T> start(String message, Job.Work<T> work, Consumer<T> apply, Function<T, String> done) {
        return start(message, work, apply, done, v -> { });
    }

    /**
     * Runs {@code work} as the one background job; on success {@code apply} shows its result, {@code done} says so in
     * the status line, and then {@code then} runs (it may say more).
     */
    private <T> Job<T> start(String message, Job.Work<T> work, Consumer<T> apply, Function<T, String> done, Consumer<T> then) {
        cancel();
        Job<T> job = new Job<>(tasks, work);
        current = job;
        busy.set(true);
        busyMessage.set(message);
        progress.bind(job.progressProperty());
        status.set(message);
        job.messageProperty().addListener((o, was, now) -> {
            if (job == current && now != null && !now.isEmpty()) {
                busyMessage.set(now);
                status.set(now);
            }
        });
        job.onSucceeded(value -> {
            if (job != current) {
                return;
            }
            finish();
            error.set(null);
            apply.accept(value);
            status.set(done.apply(value));
            then.accept(value);
        });
        job.onFailed(t -> {
            if (job != current) {
                return;
            }
            finish();
            String why = t instanceof SnapshotIO.ReadException || t instanceof IllegalArgumentException || t instanceof IOException
                    || t instanceof UseCaseException
                    ? firstLine(t.getMessage()) : t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + firstLine(t.getMessage()));
            error.set(why);
            status.set("Failed: " + why);
        });
        job.onCancelled(() -> {
            if (job != current) {
                return;
            }
            finish();
            status.set("Cancelled: " + message.replace("…", ""));
        });
        return job.start();
    }

    private void finish() {
        busy.set(false);
        busyMessage.set("");
        progress.unbind();
        progress.set(0);
        current = null;
    }

    /** For a live machine without a usable driver: what to say, in words, and the raw error behind it; else null. */
    static String[] noDriver(LoadedMachine m) {
        DriverInfo d = m.snapshot().driver();
        if (m.source() != LoadedMachine.Source.LIVE || d == null || d.driverPresent()) {
            return null;
        }
        String msg = d.message() == null ? d.status().name() : d.message();
        int colon = msg.indexOf(": ");
        String raw = colon < 0 ? msg : msg.substring(colon + 2);
        return switch (d.status()) {
            case NOT_FOUND -> new String[] {"No NVIDIA driver found on this machine.", raw};
            case INIT_FAILED -> new String[] {"The NVIDIA driver is installed but could not start.", raw};
            default -> new String[] {colon < 0 ? msg : msg.substring(0, colon) + ".", raw};
        };
    }

    private static String firstLine(String s) {
        return s == null ? "unknown error" : s.lines().findFirst().orElse("");
    }
}
