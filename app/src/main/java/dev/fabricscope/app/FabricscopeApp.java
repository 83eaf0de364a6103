package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.probe.LiveProbe;
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
        AppPreferences prefs = AppPreferences.standard();
        boolean dark = opt.theme() != null ? "dark".equals(opt.theme()) : prefs.dark();
        MainViewModel vm = new MainViewModel(() -> new LiveProbe(List.of("fabricscope-app"), null).probe(), prefs);
        ExecutorService workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fabricscope-worker");
            t.setDaemon(true);
            return t;
        });
        AdvisorViewModel advisor = new AdvisorViewModel(Ports.advisor(), workers);
        ChecksViewModel checks = new ChecksViewModel(Ports.checks(), workers);
        Scene[] sceneRef = new Scene[1];
        MainView view = new MainView(vm, advisor, checks, prefs, dark, d -> {
            Theme.apply(sceneRef[0], d);
            prefs.setDark(d);
        }, url -> getHostServices().showDocument(url));
        double w = opt.size() != null ? opt.size()[0] : prefs.width(1320);
        double h = opt.size() != null ? opt.size()[1] : prefs.height(860);
        Scene scene = new Scene(view, w, h);
        sceneRef[0] = scene;
        Theme.apply(scene, dark);
        stage.titleProperty().bind(vm.titleProperty());
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

        if (opt.bench()) {
            new Bench(stage, view, vm, opt).start();
        } else if (opt.screenshots() != null) {
            new Screenshots(stage, view, vm, opt).start();
        } else if (opt.sample() != null) {
            vm.openSample(opt.sample());
        } else if (opt.snapshot() != null) {
            vm.openFile(opt.snapshot());
        } else if (!opt.noProbe()) {
            vm.probeLive();
        }
    }

    /** For {@code mvn javafx:run}, where JavaFX is on the module path: always the desktop app. */
    public static void main(String[] args) {
        Launcher.gui(args);
    }
}
