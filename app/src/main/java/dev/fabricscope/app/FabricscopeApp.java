package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The desktop app: shows the window at once and probes this machine in the background (or opens the sample or file
 * given on the command line). The GUI reaches native code only through {@link LiveProbe}, on a worker thread.
 */
public final class FabricscopeApp extends Application {

    static volatile long startEnteredMillis;

    @Override
    public void start(Stage stage) {
        startEnteredMillis = System.currentTimeMillis();
        AppOptions opt = AppOptions.parse(getParameters().getRaw());
        trace("options");
        // the theme first: a Control created before it would make JavaFX load Modena as well
        boolean darkTheme = opt.theme() != null ? "dark".equals(opt.theme()) : AppPreferences.standard().dark();
        Theme.install(darkTheme);
        trace("user-agent stylesheet");
        AppPreferences prefs = AppPreferences.standard();
        trace("preferences");
        boolean dark = opt.theme() != null ? "dark".equals(opt.theme()) : prefs.dark();
        MainViewModel vm = new MainViewModel(() -> new LiveProbe(List.of("fabricscope-app"), null).probe(), prefs);
        trace("view-model");
        ExecutorService workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fabricscope-worker");
            t.setDaemon(true);
            return t;
        });
        // the first frame is a light placeholder; the full window replaces it one pulse later
        double w = opt.size() != null ? opt.size()[0] : prefs.width(1320);
        double h = opt.size() != null ? opt.size()[1] : prefs.height(860);
        Scene scene = new Scene(placeholder(), w, h);
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
            if (!opt.bench() && opt.screenshots() == null) {
                prefs.saveWindow(stage.getWidth(), stage.getHeight(), stage.isMaximized());
            }
            vm.shutdown();
            workers.shutdownNow();
            Platform.exit();
        });
        stage.show();
        shownMillis = System.currentTimeMillis();
        trace("shown");

        if (opt.screenshots() == null) {
            if (opt.sample() != null && !opt.bench()) {
                vm.openSample(opt.sample());
            } else if (opt.snapshot() != null && !opt.bench()) {
                vm.openFile(opt.snapshot());
            } else if (opt.cluster() != null && !opt.bench()) {
                vm.openCluster(opt.cluster());
            } else if (opt.compare() != null && !opt.bench()) {
                vm.compare(opt.compare().get(0), opt.compare().get(1));
            } else if (!opt.noProbe()) {
                vm.probeLive();
            }
        }
        new PulseScript().then(1, () -> {
            firstFrameMillis = System.currentTimeMillis();
            trace("first frame");
            RunCheck runs = RunCheck.inChildProcesses(CheckProcess.Launcher::current);
            AdvisorViewModel advisor = new AdvisorViewModel(new Advise(), workers);
            ChecksViewModel checks = new ChecksViewModel(runs, workers);
            ReportsViewModel reports = new ReportsViewModel(new MakeReport(new Advise(), runs, java.time.Clock.systemUTC()), workers);
            MainView view = new MainView(vm, advisor, checks, reports, prefs, dark, d -> {
                Theme.apply(scene, d);
                prefs.setDark(d);
            }, url -> getHostServices().showDocument(url));
            scene.setRoot(view);
            Theme.apply(scene, dark);
            trace("main view");
            new PulseScript().then(1, () -> {
                uiReadyMillis = System.currentTimeMillis();
                trace("ui ready");
                workers.execute(FabricscopeApp::warmUp);
                if (opt.bench()) {
                    new Bench(stage, view, vm, opt).start();
                } else if (opt.screenshots() != null) {
                    new Screenshots(stage, view, vm, opt).start();
                }
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
                dev.fabricscope.render.FabricLayout.layout(s.snapshot().get());
            }
        } catch (RuntimeException e) {
            // nothing depends on the warm-up
        }
    }

    static volatile long shownMillis;
    static volatile long firstFrameMillis;
    static volatile long uiReadyMillis;

    /** What the first frame shows while the window is being built. */
    private static javafx.scene.Parent placeholder() {
        javafx.scene.control.Label name = new javafx.scene.control.Label("Fabricscope");
        name.getStyleClass().add("title-2");
        javafx.scene.control.Label what = new javafx.scene.control.Label("Probing this machine…");
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
        Launcher.gui(args);
    }
}
