package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.render.FabricGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * {@code --screenshots DIR --sample a,b,c}: the live start (no-driver banner on a machine without a driver), then
 * every tab for each sample, with the first GPU selected in the Fabric tab, written as {@code DIR/<name>-<tab>.png}
 * from the real window's scene; then the Fabric tab of the first sample in the other theme.
 */
final class Screenshots {

    private static final String[] TABS = {"overview", "fabric", "matrices", "advisor", "checks"};

    private final Stage stage;
    private final MainView view;
    private final MainViewModel vm;
    private final AppOptions opt;

    Screenshots(Stage stage, MainView view, MainViewModel vm, AppOptions opt) {
        this.stage = stage;
        this.view = view;
        this.vm = vm;
        this.opt = opt;
    }

    void start() {
        Path dir = opt.screenshots();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            System.err.println("fabricscope-app: cannot create " + dir + ": " + e.getMessage());
            Platform.exit();
            return;
        }
        PulseScript s = new PulseScript();
        s.then(2, vm::probeLive);
        s.then(() -> !vm.isBusy(), 4, () -> shot(dir.resolve("live-overview.png")));
        for (String name : opt.screenshotSamples()) {
            s.then(2, () -> vm.openSample(name));
            for (int t = 0; t < TABS.length; t++) {
                int tab = t;
                s.then(() -> !vm.isBusy(), 2, () -> {
                    view.tabs().getSelectionModel().select(tab);
                    if (tab == 1) {
                        FabricGraph g = view.fabricView().graph();
                        g.nodes(FabricGraph.NodeKind.GPU).stream().findFirst()
                                .ifPresent(n -> view.fabricView().canvas().select(n.id()));
                    }
                });
                s.then(() -> tab != 3 || !view.advisorView().table().getItems().isEmpty(), 2, () -> {
                    if (tab == 3) {
                        view.advisorView().table().getSelectionModel().select(0);
                    }
                });
                s.then(6, () -> shot(dir.resolve(name + "-" + TABS[tab] + ".png")));
            }
        }
        if (!opt.screenshotSamples().isEmpty()) {
            String first = opt.screenshotSamples().get(0);
            boolean dark = stage.getScene().getRoot().getStyleClass().contains("dark");
            s.then(2, () -> vm.openSample(first));
            s.then(() -> !vm.isBusy(), 2, () -> {
                view.setDark(!dark);
                view.tabs().getSelectionModel().select(1);
            });
            s.then(6, () -> shot(dir.resolve(first + "-fabric-" + (dark ? "light" : "dark") + ".png")));
            s.then(1, () -> view.setDark(dark));
        }
        s.then(1, () -> {
            stage.hide();
            Platform.exit();
        });
        s.start();
    }

    private void shot(Path file) {
        try {
            PngWriter.write(stage.getScene().snapshot(null), file);
            System.out.println("wrote " + file);
        } catch (IOException e) {
            System.err.println("fabricscope-app: cannot write " + file + ": " + e.getMessage());
        }
    }
}
