package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.AcceptanceViewModel;
import dev.fabricscope.app.viewmodel.CheckDisplay;
import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.ExportViewModel;
import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import dev.fabricscope.render.fabric.FabricPalette;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The main window's content: menus, the no-driver banner, the tabs (Overview, Fabric, Matrices, Advisor, Checks,
 * Acceptance), the cluster page or two reports compared, and the status bar with the background task's progress and
 * Cancel. While a node of a cluster is shown, a bar above the tabs leads back to the cluster. Binds to the
 * view-models and lays out; holds no state of its own beyond what the controls show.
 */
public final class MainView extends BorderPane {

    private final ViewModels vms;
    private final MainViewModel vm;
    private final TabPane tabs = new TabPane();
    private final OverviewView overview = new OverviewView();
    private final Tab fabricTab = tab("Fabric", null, "tab-fabric");
    private final Tab matricesTab = tab("Matrices", null, "tab-matrices");
    private final Tab advisorTab = tab("Advisor", null, "tab-advisor");
    private final Tab checksTab = tab("Checks", null, "tab-checks");
    private final Tab acceptanceTab = tab("Acceptance", null, "tab-acceptance");
    private final Consumer<String> openLink;
    private final Consumer<Boolean> themeSwitcher;
    private final MainMenu menu;
    private final FileDialogs dialogs;
    private final BorderPane machinePane = new BorderPane();
    // built on first use, so that start-up styles and lays out only the Overview
    private FabricView fabric;
    private MatricesView matrices;
    private AdvisorView advisor;
    private ChecksView checks;
    private AcceptanceView acceptance;
    private ComparePage comparePage;
    private ClusterPage clusterPage;
    private boolean dark;

    public MainView(ViewModels vms, boolean dark, Consumer<Boolean> themeSwitcher, Consumer<String> openLink) {
        this.vms = vms;
        this.vm = vms.main();
        this.dark = dark;
        this.themeSwitcher = themeSwitcher;
        this.openLink = openLink;
        // every text shown from a file or device passes the CLI's rule for invisible characters, in one place
        SafeText.guard(this);
        SafeText.installEverywhere();
        getStyleClass().add("main-view");
        // a view shows the current machine when its tab is on screen; hidden tabs catch up when selected
        overview.machineProperty().set(vm.getMachine());
        vm.machineProperty().addListener((o, was, now) -> refreshSelected());
        tabs.getTabs().addAll(tab("Overview", overview, "tab-overview"), fabricTab, matricesTab, advisorTab, checksTab, acceptanceTab);
        tabs.getSelectionModel().selectedItemProperty().addListener((o, was, t) -> {
            if (t == fabricTab) {
                fabricView();
            } else if (t == matricesTab) {
                matricesView();
            } else if (t == advisorTab) {
                advisorView();
            } else if (t == checksTab) {
                checksView();
            } else if (t == acceptanceTab) {
                acceptanceView();
            }
            refreshSelected();
            int i = tabs.getTabs().indexOf(t);
            if (i >= 0) {
                vm.tabProperty().set(MainViewModel.MachineTab.values()[i]);
            }
        });
        vm.tabProperty().addListener((o, was, t) -> tabs.getSelectionModel().select(t.ordinal()));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getStyleClass().add("main-tabs");

        dialogs = new FileDialogs(vm, vms.exports(), vms.prefs(), this::window);
        menu = new MainMenu(vm, vms.reports(), dialogs, this::window);
        machinePane.setTop(MainBars.clusterBar(vm, vms.cluster()));
        machinePane.setCenter(tabs);
        setTop(new VBox(menu.build(dark, this::setDark, () -> this.dark, this::onFabric, tabs),
                MainBars.banner(vm, dialogs::open, menu::showSampleMenu), MainBars.errorBar(vm)));
        setCenter(machinePane);
        vm.pageProperty().addListener((o, was, now) -> showPage(now));
        showPage(vm.getPage());
        setBottom(MainBars.statusBar(vm));
        setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.COPY);
            }
            e.consume();
        });
        setOnDragDropped(e -> {
            List<File> files = e.getDragboard().getFiles();
            boolean ok = files != null && !files.isEmpty();
            if (ok) {
                openDropped(files.stream().map(File::toPath).toList());
            }
            e.setDropCompleted(ok);
            e.consume();
        });
    }

    /** What dropping {@code paths} on the window does ({@link MainViewModel#openDropped}). */
    public void openDropped(List<Path> paths) {
        vm.openDropped(paths);
    }

    private void showPage(MainViewModel.Page page) {
        switch (page) {
            case CLUSTER -> {
                setCenter(clusterPage());
                Platform.runLater(clusterPage::takeFocus);
            }
            case COMPARE -> setCenter(comparePage());
            case MACHINE -> setCenter(machinePane);
        }
    }

    /** The comparison page (built on first use). */
    public ComparePage comparePage() {
        if (comparePage == null) {
            comparePage = new ComparePage(vm.comparisonProperty());
            comparePage.setOnBack(vm::closeComparison);
            comparePage.setOnSwap(vm::swapComparison);
            comparePage.setOnCompareOther(dialogs::compare);
        }
        return comparePage;
    }

    /** The cluster page (built on first use). */
    public ClusterPage clusterPage() {
        if (clusterPage == null) {
            clusterPage = new ClusterPage(vms.cluster());
            clusterPage.setPalette(FabricPalette.of(dark));
            clusterPage.setOnExportDrawing(png -> dialogs.exportDrawing(vms.cluster(), png, dark));
        }
        return clusterPage;
    }

    public ClusterViewModel clusterViewModel() {
        return vms.cluster();
    }

    public TabPane tabs() {
        return tabs;
    }

    public FabricView fabricView() {
        if (fabric == null) {
            fabric = new FabricView();
            fabric.setPalette(FabricPalette.of(dark));
            fabric.exportPng.setOnAction(e -> dialogs.export(ExportViewModel.Kind.PNG, dark));
            fabric.exportSvg.setOnAction(e -> dialogs.export(ExportViewModel.Kind.SVG, dark));
            fabric.machineProperty().set(vm.getMachine());
            fabricTab.setContent(fabric);
        }
        return fabric;
    }

    private void refreshSelected() {
        Tab t = tabs.getSelectionModel().getSelectedItem();
        LoadedMachine m = vm.getMachine();
        if (t == fabricTab && fabric != null) {
            fabric.machineProperty().set(m);
        } else if (t == matricesTab && matrices != null) {
            matrices.machineProperty().set(m);
        } else if (t == acceptanceTab && acceptance != null) {
            acceptance.machineProperty().set(m);
        } else if (t != null && "tab-overview".equals(t.getId())) {
            overview.machineProperty().set(m);
        }
    }

    /** The Acceptance tab: expectations of 'check node' against a chosen reference. */
    public AcceptanceView acceptanceView() {
        if (acceptance == null) {
            acceptance = new AcceptanceView(new AcceptanceViewModel());
            acceptance.machineProperty().set(vm.getMachine());
            acceptanceTab.setContent(acceptance);
        }
        return acceptance;
    }

    public MatricesView matricesView() {
        if (matrices == null) {
            matrices = new MatricesView();
            matrices.machineProperty().set(vm.getMachine());
            var p2p = vms.checks().resultProperty(CheckDisplay.Kind.P2P);
            matrices.measuredProperty().bind(Bindings.createObjectBinding(() -> p2p.get() == null ? null : p2p.get().heatmap(), p2p));
            matricesTab.setContent(matrices);
        }
        return matrices;
    }

    public ChecksView checksView() {
        if (checks == null) {
            checks = new ChecksView(vms.checks());
            checksTab.setContent(checks);
        }
        return checks;
    }

    public OverviewView overviewView() {
        return overview;
    }

    public AdvisorView advisorView() {
        if (advisor == null) {
            advisor = new AdvisorView(vms.advisor(), openLink);
            advisorTab.setContent(advisor);
        }
        return advisor;
    }

    private static Tab tab(String title, javafx.scene.Node content, String id) {
        Tab t = new Tab(title, content);
        t.setId(id);
        return t;
    }

    /** Runs a zoom command on the Fabric tab, showing it first. */
    private void onFabric(Consumer<FabricView> command) {
        vm.showTab(MainViewModel.MachineTab.FABRIC);
        command.accept(fabricView());
    }

    public void setDark(boolean d) {
        dark = d;
        menu.showDark(d);
        if (fabric != null) {
            fabric.setPalette(FabricPalette.of(d));
        }
        if (clusterPage != null) {
            clusterPage.setPalette(FabricPalette.of(d));
        }
        themeSwitcher.accept(d);
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }
}
