package dev.fabricscope.app.devtools;

import dev.fabricscope.app.AppOptions;
import dev.fabricscope.app.PngWriter;
import dev.fabricscope.app.PulseScript;
import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import dev.fabricscope.render.fabric.FabricGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * {@code --screenshots DIR --sample a,b,c} (a name ending in {@code .json} is opened as a file): the live start (no-driver banner on a machine without a driver), then
 * every tab for each sample, with the first GPU selected in the Fabric tab, written as {@code DIR/<name>-<tab>.png}
 * (and, for a report holding an all-reduce check, the Checks tab scrolled to it: {@code <name>-checks-allreduce.png})
 * from the real window's scene; then the Fabric tab of the first sample in the other theme.
 * {@code --screenshots DIR --cluster FOLDER}: the cluster page ({@code cluster-<folder>-domains.png}), with its most
 * important difference highlighted ({@code -difference}), the fabric view of that difference's first outlier node
 * ({@code -node-fabric}), the Advisor tab for a deployment over the whole cluster ({@code -advisor}), and the
 * cluster page in the other theme. {@code --screenshots DIR --snapshot FILE}: that file's Fabric tab with its first GPU
 * selected ({@code snapshot-fabric.png}). {@code --screenshots DIR --compare A,B}: the comparison ({@code compare.png}), scrolled
 * to the verdicts ({@code compare-verdicts.png}), and in the other theme.
 */
final class Screenshots {

    /** A system property: the Advisor tab's environment field for the tour (e.g. NCCL_P2P_DISABLE=1), to show a recommendation that unsets it. */
    static final String ADVISOR_ENV = "fabricscope.shots.advisorEnv";
    /** A system property: the Advisor tab's framework choice for the tour (e.g. nccl). */
    static final String ADVISOR_FRAMEWORK = "fabricscope.shots.advisorFramework";
    private static final String[] TABS = {"overview", "fabric", "matrices", "advisor", "checks", "acceptance"};

    private final Stage stage;
    private final MainView view;
    private final MainViewModel vm;
    private final ViewModels vms;
    private final AppOptions opt;
    private final Path dir;

    Screenshots(Stage stage, MainView view, ViewModels vms, AppOptions opt, Path dir) {
        this.stage = stage;
        this.view = view;
        this.vm = vms.main();
        this.vms = vms;
        this.opt = opt;
        this.dir = dir;
    }

    /** A bundled sample by name, or a snapshot, report or trace file when the name ends in {@code .json}. */
    private void open(String name) {
        if (name.endsWith(".json")) {
            vm.openFile(Path.of(name));
        } else {
            vm.openSample(name);
        }
    }

    /** The file's folder name for a file ({@code …/h200-nvswitch-2gpu-2026-12-01/trace.json} → that folder), else the sample. */
    private static String shotName(String name) {
        if (!name.endsWith(".json")) {
            return name;
        }
        Path p = Path.of(name).toAbsolutePath();
        return p.getParent() != null && p.getParent().getFileName() != null ? p.getParent().getFileName().toString() : "file";
    }

    void start() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            System.err.println("fabricscope-app: cannot create " + dir + ": " + e.getMessage());
            Platform.exit();
            return;
        }
        PulseScript s = new PulseScript();
        if (opt.cluster() == null && opt.compare() == null || !opt.samples().isEmpty()) {
            s.then(2, vm::probeLive);
            s.then(() -> !vm.isBusy(), 4, () -> shot(dir.resolve("live-overview.png")));
        }
        if (opt.cluster() != null) {
            cluster(s, dir);
        }
        if (opt.compare() != null) {
            compare(s, dir);
        }
        for (String name : opt.samples()) {
            s.then(2, () -> open(name));
            for (int t = 0; t < TABS.length; t++) {
                int tab = t;
                s.then(() -> !vm.isBusy(), 2, () -> {
                    if (tab == 0 && System.getProperty(ADVISOR_ENV) != null) { // set early: the advice is ready by the Advisor tab
                        vms.advisor().envProperty().set(System.getProperty(ADVISOR_ENV));
                    }
                    if (tab == 0 && System.getProperty(ADVISOR_FRAMEWORK) != null) {
                        vms.advisor().frameworkProperty().set(System.getProperty(ADVISOR_FRAMEWORK));
                    }
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
                s.then(6, () -> shot(dir.resolve(shotName(name) + "-" + TABS[tab] + ".png")));
                if (tab == 4) {
                    // a report's own all-reduce: its card at the bottom of the tab, with the charts
                    s.then(1, () -> view.checksView().setVvalue(1.0));
                    s.then(6, () -> {
                        if (vms.checks().resultProperty(dev.fabricscope.app.viewmodel.CheckDisplay.Kind.ALLREDUCE).get() != null) {
                            shot(dir.resolve(shotName(name) + "-checks-allreduce.png"));
                        }
                    });
                }
            }
        }
        if (opt.snapshot() != null) {
            // --snapshot FILE: its Fabric tab with the first GPU selected (the details pane shows that GPU)
            s.then(2, () -> vm.openFile(opt.snapshot()));
            s.then(() -> !vm.isBusy(), 2, () -> {
                view.tabs().getSelectionModel().select(1);
                view.fabricView().graph().nodes(FabricGraph.NodeKind.GPU).stream().findFirst()
                        .ifPresent(n -> view.fabricView().canvas().select(n.id()));
            });
            s.then(6, () -> shot(dir.resolve("snapshot-fabric.png")));
        }
        if (!opt.samples().isEmpty()) {
            String first = opt.samples().get(0);
            boolean dark = stage.getScene().getRoot().getStyleClass().contains("dark");
            s.then(2, () -> open(first));
            s.then(() -> !vm.isBusy(), 2, () -> {
                view.setDark(!dark);
                view.tabs().getSelectionModel().select(1);
            });
            s.then(6, () -> shot(dir.resolve(shotName(first) + "-fabric-" + (dark ? "light" : "dark") + ".png")));
            s.then(1, () -> view.setDark(dark));
        }
        s.then(1, () -> {
            stage.hide();
            Platform.exit();
        });
        s.start();
    }

    private void cluster(PulseScript s, Path dir) {
        String name = "cluster-" + opt.cluster().getFileName();
        boolean dark = stage.getScene().getRoot().getStyleClass().contains("dark");
        s.then(2, () -> vm.openCluster(opt.cluster()));
        s.then(() -> !vm.isBusy(), 2, () -> {
            if (vm.getCluster() == null) {
                System.err.println("fabricscope-app: " + opt.cluster() + " did not open: " + vm.errorProperty().get());
            } else {
                System.out.println(vm.statusProperty().get());
            }
        });
        s.then(() -> vm.getCluster() != null, 8, () -> shot(dir.resolve(name + "-domains.png")));
        s.then(1, () -> {
            var list = view.clusterPage().differences();
            if (!list.getItems().isEmpty()) {
                list.getSelectionModel().select(0);
            }
        });
        s.then(8, () -> shot(dir.resolve(name + "-difference.png")));
        s.then(1, () -> {
            var c = vm.getCluster();
            var hi = vms.cluster().firstHighlighted();
            String node = hi != null ? hi : c.view().readable().isEmpty() ? null : c.view().readable().get(0).name();
            if (node != null) {
                vms.cluster().openNode(node);
            }
        });
        s.then(() -> !vm.isBusy() && vm.getClusterNode() != null, 8, () -> {
            FabricGraph g = view.fabricView().graph();
            g.nodes(FabricGraph.NodeKind.GPU).stream().findFirst().ifPresent(n -> view.fabricView().canvas().select(n.id()));
        });
        s.then(6, () -> shot(dir.resolve(name + "-node-fabric.png")));
        s.then(1, vms.cluster()::adviseCluster);
        s.then(() -> !vm.isBusy() && !view.advisorView().table().getItems().isEmpty(), 4,
                () -> view.advisorView().table().getSelectionModel().select(0));
        s.then(6, () -> shot(dir.resolve(name + "-advisor.png")));
        s.then(1, () -> {
            vm.showCluster();
            view.setDark(!dark);
        });
        s.then(8, () -> shot(dir.resolve(name + "-domains-" + (dark ? "light" : "dark") + ".png")));
        s.then(1, () -> view.setDark(dark));
    }

    private void compare(PulseScript s, Path dir) {
        boolean dark = stage.getScene().getRoot().getStyleClass().contains("dark");
        s.then(2, () -> vm.compare(opt.compare().get(0), opt.compare().get(1)));
        s.then(() -> !vm.isBusy(), 8, () -> {
            if (vm.getComparison() == null) {
                System.err.println("fabricscope-app: no comparison: " + vm.errorProperty().get());
            }
            shot(dir.resolve("compare.png"));
        });
        s.then(1, () -> {
            var table = view.comparePage().table();
            for (var group : table.getRoot().getChildren()) {
                if ("VERDICTS".equals(group.getValue().group().kind())) {
                    table.scrollTo(table.getRow(group));
                    table.getSelectionModel().select(group.getChildren().get(Math.min(2, group.getChildren().size() - 1)));
                }
            }
        });
        s.then(8, () -> shot(dir.resolve("compare-verdicts.png")));
        s.then(1, () -> {
            view.comparePage().table().getSelectionModel().clearSelection();
            view.comparePage().table().scrollTo(0);
        });
        s.then(1, () -> view.setDark(!dark));
        s.then(8, () -> shot(dir.resolve("compare-" + (dark ? "light" : "dark") + ".png")));
        s.then(1, () -> view.setDark(dark));
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
