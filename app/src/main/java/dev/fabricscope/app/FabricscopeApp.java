package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.AppPreferences;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.util.List;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The desktop app: shows the window at once and probes this machine in the background (or opens the sample or file
 * given on the command line). The GUI reaches native code only through {@link LiveRecordingProbe} (recording as
 * {@code probe --record} does), on a worker thread.
 * Development tools (the start-up benchmark, the screenshot tour; in the test sources) extend it through the
 * protected methods.
 */
public class FabricscopeApp extends Application {

    /** Wall-clock times of the start-up steps, for the start-up benchmark. */
    public record StartTimes(long mainEntered, long startEntered, long shown, long firstFrame, long uiReady) {
    }

    static volatile long startEnteredMillis;

    /** The app's options from its arguments; a development tool takes its own out first. */
    protected AppOptions options(List<String> args) {
        return AppOptions.parse(args);
    }

    /** Opens what the options name, or probes this machine (unless --no-probe). */
    protected void openAtStart(MainViewModel vm, AppOptions opt) {
        if (opt.sample() != null) {
            vm.openSample(opt.sample());
        } else if (opt.snapshot() != null) {
            vm.openFile(opt.snapshot());
        } else if (opt.cluster() != null) {
            vm.openCluster(opt.cluster());
        } else if (opt.compare() != null) {
            vm.compare(opt.compare().get(0), opt.compare().get(1));
        } else if (!opt.noProbe()) {
            vm.probeLive();
        }
    }

    /** Whether the window's size is remembered when it closes (not for a development tool's run). */
    protected boolean remembersWindow() {
        return true;
    }

    /** Runs once the full window is drawn: nothing here; a development tool takes over. */
    protected void whenReady(Stage stage, MainView view, ViewModels vms, AppOptions opt, StartTimes times) {
    }

    @Override
    public void start(Stage stage) {
        startEnteredMillis = System.currentTimeMillis();
        AppOptions opt;
        try {
            opt = options(getParameters().getRaw());
        } catch (AppOptions.Invalid | AppOptions.HelpAsked e) {
            // started without the launcher (a development tool, an IDE): the launcher's words, then no window
            Startup.checkAppOptions(getParameters().getRaw().toArray(String[]::new));
            Platform.exit();
            return;
        }
        trace("options");
        // the theme first: a Control created before it would make JavaFX load Modena as well
        boolean darkTheme = opt.theme() != null ? "dark".equals(opt.theme()) : AppPreferences.standard().dark();
        Theme.install(darkTheme);
        trace("user-agent stylesheet");
        AppPreferences prefs = AppPreferences.standard();
        trace("preferences");
        boolean dark = opt.theme() != null ? "dark".equals(opt.theme()) : prefs.dark();
        FxTasks tasks = new FxTasks();
        // the live probe records its native calls, as probe --record does, so that File -> Save Trace has one to save
        MainViewModel vm = MainViewModel.recording(new LiveRecordingProbe(), prefs, tasks);
        trace("view-model");
        // the first frame is a light placeholder; the full window replaces it one pulse later
        double w = opt.size() != null ? opt.size()[0] : prefs.width(1320);
        double h = opt.size() != null ? opt.size()[1] : prefs.height(860);
        Scene scene = new Scene(placeholder(opt), w, h);
        trace("scene");
        Theme.apply(scene, dark);
        trace("theme");
        stage.titleProperty().bind(vm.titleProperty());
        AppIcons.apply(stage);
        trace("icons");
        stage.setScene(scene);
        stage.setMinWidth(720);
        stage.setMinHeight(480);
        if (opt.size() == null && prefs.maximized()) {
            stage.setMaximized(true);
        }
        stage.setOnHidden(e -> {
            if (remembersWindow()) {
                prefs.saveWindow(stage.getWidth(), stage.getHeight(), stage.isMaximized());
            }
            vm.shutdown();
            tasks.shutdown();
            Platform.exit();
        });
        stage.show();
        shownMillis = System.currentTimeMillis();
        trace("shown");

        openAtStart(vm, opt);
        new PulseScript().then(1, () -> {
            firstFrameMillis = System.currentTimeMillis();
            trace("first frame");
            RunCheck runs = RunCheck.inChildProcesses(CheckProcess.Launcher::current);
            Advise advise = new Advise();
            ViewModels vms = ViewModels.create(vm, prefs, tasks, advise, runs,
                    new MakeReport(advise, runs, java.time.Clock.systemUTC()), PngWriter::writeGraph);
            vms.cluster().setDrawingImageWriter(PngWriter::writeRack);
            MainView view = new MainView(vms, dark, d -> {
                Theme.apply(scene, d);
                prefs.setDark(d);
            }, url -> getHostServices().showDocument(url));
            scene.setRoot(view);
            Theme.apply(scene, dark);
            trace("main view");
            new PulseScript().then(1, () -> {
                uiReadyMillis = System.currentTimeMillis();
                trace("ui ready");
                tasks.background(FabricscopeApp::warmUp);
                whenReady(stage, view, vms, opt, new StartTimes(Startup.mainEnteredMillis, startEnteredMillis, shownMillis,
                        firstFrameMillis, uiReadyMillis));
            }).start();
        }).start();
    }

    /**
     * Loads and exercises the sample and layout code once on a worker while the user looks at the first screen, so
     * that the first sample or report opened does not pay for class loading. Best effort: failures are ignored.
     */
    static void warmUp() {
        try {
            Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
            for (var s : dev.fabricscope.samples.Samples.list()) {
                dev.fabricscope.render.fabric.FabricLayout.layout(s.snapshot().get());
            }
        } catch (RuntimeException e) {
            // nothing depends on the warm-up
        }
    }

    static volatile long shownMillis;
    static volatile long firstFrameMillis;
    static volatile long uiReadyMillis;

    /** What the first frame says is coming: what the options open (not "Probing this machine…" when a sample is). */
    static String opening(AppOptions opt) {
        if (opt.sample() != null) {
            return "Opening sample " + opt.sample() + "…";
        } else if (opt.snapshot() != null) {
            return "Opening " + (opt.snapshot().getFileName() == null ? opt.snapshot() : opt.snapshot().getFileName()) + "…";
        } else if (opt.cluster() != null) {
            return "Opening cluster " + (opt.cluster().getFileName() == null ? opt.cluster() : opt.cluster().getFileName()) + "…";
        } else if (opt.compare() != null) {
            return "Comparing two reports…";
        }
        return opt.noProbe() ? "" : "Probing this machine…";
    }

    /** What the first frame shows while the window is being built. */
    private static javafx.scene.Parent placeholder(AppOptions opt) {
        javafx.scene.control.Label name = new javafx.scene.control.Label("Fabricscope");
        name.getStyleClass().add("title-2");
        javafx.scene.control.Label what = new javafx.scene.control.Label(opening(opt));
        what.getStyleClass().add("text-muted");
        javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(8, name, what);
        box.setAlignment(javafx.geometry.Pos.CENTER);
        return box;
    }

    private static final boolean TRACE = Boolean.getBoolean("fabricscope.trace");

    static void trace(String what) {
        if (TRACE) {
            System.err.printf("[trace] %-16s %6d ms since start()%n", what, System.currentTimeMillis() - startEnteredMillis);
        }
    }

    /** For {@code mvn javafx:run}, where JavaFX is on the module path: always the desktop app. */
    public static void main(String[] args) {
        Startup.launch(FabricscopeApp.class, args);
    }
}
