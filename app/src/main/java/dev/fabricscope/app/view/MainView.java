package dev.fabricscope.app.view;

import dev.fabricscope.app.AppPreferences;
import dev.fabricscope.app.PngWriter;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.LoadedCluster;
import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.FabricLayout;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.FabricGraph;
import dev.fabricscope.render.FabricPalette;
import dev.fabricscope.render.FabricSvg;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.samples.Samples;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.controlsfx.control.StatusBar;

/**
 * The main window's content: menus, the no-driver banner, the tabs (Overview, Fabric, Matrices, Advisor, Checks),
 * the cluster page or two reports compared, and the status bar with the background task's progress and Cancel. While a node of a cluster
 * is shown, a bar above the tabs leads back to the cluster. Binds to the view-models; holds no state of its own
 * beyond what the controls show.
 */
public final class MainView extends BorderPane {

    private final MainViewModel vm;
    private final AppPreferences prefs;
    private final TabPane tabs = new TabPane();
    private final OverviewView overview = new OverviewView();
    private final AdvisorViewModel advisorVm;
    private final ChecksViewModel checksVm;
    private final ReportsViewModel reportsVm;
    private ComparePage comparePage;
    private final Consumer<String> openLink;
    private final Tab fabricTab = tab("Fabric", null, "tab-fabric");
    private final Tab matricesTab = tab("Matrices", null, "tab-matrices");
    private final Tab advisorTab = tab("Advisor", null, "tab-advisor");
    private final Tab checksTab = tab("Checks", null, "tab-checks");
    private final Tab acceptanceTab = tab("Acceptance", null, "tab-acceptance");
    private AcceptanceView acceptance;
    // built on first use, so that start-up styles and lays out only the Overview
    private FabricView fabric;
    private MatricesView matrices;
    private AdvisorView advisor;
    private ChecksView checks;
    private final ClusterViewModel clusterVm = new ClusterViewModel();
    private ClusterPage clusterPage;
    private final BorderPane machinePane = new BorderPane();
    private final Menu recentMenu = new Menu("Open _Recent");
    private final CheckMenuItem darkItem = new CheckMenuItem("_Dark Theme");
    private final Consumer<Boolean> themeSwitcher;
    private boolean dark;

    public MainView(MainViewModel vm, AdvisorViewModel advisorVm, ChecksViewModel checksVm, ReportsViewModel reportsVm,
                    AppPreferences prefs, boolean dark, Consumer<Boolean> themeSwitcher, Consumer<String> openLink) {
        this.vm = vm;
        this.reportsVm = reportsVm;
        // every text shown from a file or device passes the CLI's rule for invisible characters, in one place
        SafeText.guard(this);
        SafeText.installEverywhere();
        reportsVm.redactProperty().set(prefs.redactExports());
        reportsVm.redactProperty().addListener((o, was, now) -> prefs.setRedactExports(now));
        this.prefs = prefs;
        this.dark = dark;
        this.themeSwitcher = themeSwitcher;
        getStyleClass().add("main-view");
        this.advisorVm = advisorVm;
        this.checksVm = checksVm;
        this.openLink = openLink;
        for (var p : List.of(advisorVm.machineProperty(), checksVm.machineProperty())) {
            p.bind(vm.machineProperty());
        }
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
        });
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getStyleClass().add("main-tabs");

        clusterVm.clusterProperty().bind(vm.clusterProperty());
        machinePane.setTop(clusterBar());
        machinePane.setCenter(tabs);
        setTop(new VBox(menuBar(), banner(), errorBar()));
        setCenter(machinePane);
        vm.pageProperty().addListener((o, was, now) -> showPage(now));
        showPage(vm.getPage());
        setBottom(statusBar());
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

    /** Two dropped files are compared; a dropped folder opens as a cluster, a dropped file as a report or snapshot. */
    public void openDropped(List<Path> paths) {
        if (paths.size() == 2 && paths.stream().allMatch(p -> p.toFile().isFile())) {
            vm.compare(paths.get(0), paths.get(1));
            return;
        }
        Path p = paths.get(0);
        if (p.toFile().isDirectory()) {
            vm.openCluster(p);
        } else {
            vm.openFile(p);
        }
    }

    private void showPage(MainViewModel.Page page) {
        switch (page) {
            case CLUSTER -> {
                setCenter(clusterPage());
                javafx.application.Platform.runLater(clusterPage::takeFocus);
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
            comparePage.setOnSwap(() -> {
                var c = vm.getComparison();
                if (c != null) {
                    vm.compare(c.right(), c.left());
                }
            });
            comparePage.setOnCompareOther(this::chooseAndCompare);
        }
        return comparePage;
    }

    /** The cluster page (built on first use). */
    public ClusterPage clusterPage() {
        if (clusterPage == null) {
            clusterPage = new ClusterPage(clusterVm);
            clusterPage.setOnOpenNode(this::openClusterNode);
            clusterPage.setOnAdvise(this::adviseCluster);
        }
        return clusterPage;
    }

    public ClusterViewModel clusterViewModel() {
        return clusterVm;
    }

    /** Opens a node of the cluster on its Fabric tab. */
    public void openClusterNode(String name) {
        clusterPage().setCurrentNode(name);
        vm.openClusterNode(name, () -> {
            tabs.getSelectionModel().select(fabricTab);
            fabricView();
        });
    }

    /**
     * The Advisor tab for a deployment over every readable node of the cluster, as {@code advise --cluster} does: the
     * representative node's GPUs, the node count, and the cluster-wide facts (shared MNNVL domain, multicast and
     * fabric handles on every node) as what-if assumptions, shown in the deployment panel.
     */
    public void adviseCluster() {
        LoadedCluster c = vm.getCluster();
        if (c == null || c.facts() == null) {
            return;
        }
        var facts = c.facts();
        clusterPage().setCurrentNode(facts.representative().name());
        vm.openClusterNode(facts.representative().name(), () -> {
            advisorVm.showCluster(facts);
            tabs.getSelectionModel().select(advisorTab);
            advisorView();
            vm.report("Advising over " + facts.nodesUsed() + " nodes of cluster " + c.name() + ": " + facts.summary());
        });
    }

    /** "← Cluster NAME" and which node is shown; only while the machine shown is a node of the open cluster. */
    private HBox clusterBar() {
        Button back = new Button("← Back to cluster");
        back.setId("backToCluster");
        back.setTooltip(new javafx.scene.control.Tooltip("Back to the cluster's NVLink domains (Ctrl+6)"));
        back.setOnAction(e -> vm.showCluster());
        Label where = new Label();
        where.setId("clusterNodeLabel");
        SafeText.bind(where.textProperty(), javafx.beans.binding.Bindings.createStringBinding(() -> {
            LoadedCluster c = vm.getCluster();
            String node = vm.getClusterNode();
            if (c == null || node == null) {
                return "";
            }
            var diffs = c.differences(node);
            return "Node " + node + " of cluster " + c.name() + (diffs.isEmpty() ? " · matches the majority of nodes"
                    : " · differs from most nodes in " + diffs.stream().map(d -> d.inconsistency().field())
                            .collect(java.util.stream.Collectors.joining(", ")));
        }, vm.clusterNodeProperty(), vm.clusterProperty()));
        where.getStyleClass().add("cluster-bar-text");
        HBox bar = new HBox(10, back, where);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 12, 6, 12));
        bar.getStyleClass().add("cluster-bar");
        bar.visibleProperty().bind(vm.clusterNodeProperty().isNotNull());
        bar.managedProperty().bind(bar.visibleProperty());
        return bar;
    }

    public TabPane tabs() {
        return tabs;
    }

    public FabricView fabricView() {
        if (fabric == null) {
            fabric = new FabricView();
            fabric.setPalette(FabricPalette.of(dark));
            fabric.exportPng.setOnAction(e -> exportPng());
            fabric.exportSvg.setOnAction(e -> exportSvg());
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
            acceptance = new AcceptanceView();
            acceptance.machineProperty().set(vm.getMachine());
            acceptanceTab.setContent(acceptance);
        }
        return acceptance;
    }

    public MatricesView matricesView() {
        if (matrices == null) {
            matrices = new MatricesView();
            matrices.machineProperty().set(vm.getMachine());
            var p2p = checksVm.resultProperty(ChecksViewModel.Kind.P2P);
            matrices.measuredProperty().bind(javafx.beans.binding.Bindings.createObjectBinding(
                    () -> p2p.get() == null ? null : p2p.get().heatmap(), p2p));
            matricesTab.setContent(matrices);
        }
        return matrices;
    }

    public ChecksView checksView() {
        if (checks == null) {
            checks = new ChecksView(checksVm);
            checksTab.setContent(checks);
        }
        return checks;
    }

    public OverviewView overviewView() {
        return overview;
    }

    public AdvisorView advisorView() {
        if (advisor == null) {
            advisor = new AdvisorView(advisorVm, openLink);
            advisorTab.setContent(advisor);
        }
        return advisor;
    }

    private static Tab tab(String title, javafx.scene.Node content, String id) {
        Tab t = new Tab(title, content);
        t.setId(id);
        return t;
    }

    // ---- menus and shortcuts

    private MenuBar menuBar() {
        MenuItem open = item("_Open Report…", "Ctrl+O", () -> chooseAndOpen());
        MenuItem openCluster = item("Open _Cluster Folder…", "Ctrl+Shift+F", this::chooseClusterFolder);
        MenuItem compare = item("Co_mpare Reports…", "Ctrl+Shift+C", this::chooseAndCompare);
        Menu exportReport = new Menu("Export _Report");
        for (ReportsViewModel.Format f : ReportsViewModel.Format.values()) {
            String accel = switch (f) {
                case JSON -> "Ctrl+R";
                case MARKDOWN -> "Ctrl+Shift+R";
                case HTML -> "Ctrl+Alt+R";
            };
            MenuItem m = item("As " + f.title + "…", accel, () -> exportReport(f));
            m.setId("exportReport-" + f.extension());
            exportReport.getItems().add(m);
        }
        exportReport.disableProperty().bind(vm.machineProperty().isNull());
        CheckMenuItem redactItem = new CheckMenuItem("Re_dact Identifiers in Exports");
        redactItem.setId("redactItem");
        redactItem.selectedProperty().bindBidirectional(reportsVm.redactProperty());
        Menu samples = new Menu("Open _Sample");
        for (Samples.Sample s : vm.samples()) {
            MenuItem m = new MenuItem(s.name() + " — " + s.description());
            m.setMnemonicParsing(false);
            m.setOnAction(e -> vm.openSample(s.name()));
            samples.getItems().add(m);
        }
        MenuItem chooseSample = item("Open Sample…", "Ctrl+Shift+O", () -> showSampleMenu(tabs));
        rebuildRecent();
        vm.recentFiles().addListener((ListChangeListener<Path>) c -> rebuildRecent());
        MenuItem probe = item("_Probe This Machine", "F5", vm::probeLive);
        MenuItem cancel = item("_Cancel Background Task", "Esc", vm::cancel);
        cancel.disableProperty().bind(vm.busyProperty().not());
        MenuItem saveJson = item("_Save Snapshot as JSON…", "Ctrl+S", this::saveJson);
        MenuItem text = item("Export as _Text…", "Ctrl+Shift+T", this::exportText);
        MenuItem png = item("Export Graph as _PNG…", "Ctrl+E", this::exportPng);
        MenuItem svg = item("Export Graph as S_VG…", "Ctrl+Shift+E", this::exportSvg);
        for (MenuItem m : List.of(saveJson, text, png, svg)) {
            m.disableProperty().bind(vm.machineProperty().isNull());
        }
        MenuItem quit = item("_Quit", "Ctrl+Q", () -> getScene().getWindow().hide());
        Menu file = new Menu("_File", null, open, openCluster, compare, samples, chooseSample, recentMenu, new SeparatorMenuItem(),
                probe, cancel, new SeparatorMenuItem(), exportReport, saveJson, text, png, svg, redactItem, new SeparatorMenuItem(), quit);

        Menu view = new Menu("_View");
        String[] names = {"Overview", "Fabric", "Matrices", "Advisor", "Checks"};
        for (int i = 0; i < names.length; i++) {
            int idx = i;
            view.getItems().add(item(names[i], "Ctrl+" + (i + 1), () -> {
                vm.showMachinePage();
                tabs.getSelectionModel().select(idx);
            }));
        }
        MenuItem clusterItem = item("C_luster", "Ctrl+6", vm::showCluster);
        clusterItem.disableProperty().bind(vm.clusterProperty().isNull());
        view.getItems().add(clusterItem);
        MenuItem comparisonItem = item("Co_mparison", "Ctrl+7", vm::showComparison);
        comparisonItem.disableProperty().bind(vm.comparisonProperty().isNull());
        view.getItems().add(comparisonItem);
        view.getItems().add(new SeparatorMenuItem());
        view.getItems().add(item("Zoom _In", "Ctrl+Equals", () -> onFabric(fabric::zoomIn)));
        view.getItems().add(item("Zoom _Out", "Ctrl+Minus", () -> onFabric(fabric::zoomOut)));
        view.getItems().add(item("_Fit Graph", "Ctrl+0", () -> onFabric(fabric::fit)));
        view.getItems().add(new SeparatorMenuItem());
        darkItem.setSelected(dark);
        darkItem.setAccelerator(KeyCombination.keyCombination("Ctrl+Shift+D"));
        darkItem.setOnAction(e -> setDark(darkItem.isSelected()));
        view.getItems().add(darkItem);

        Menu help = new Menu("_Help", null, item("_Keyboard Shortcuts", "F1", this::showShortcuts), item("_About Fabricscope", null, this::showAbout));
        MenuBar bar = new MenuBar(file, view, help);
        bar.setUseSystemMenuBar(true);
        return bar;
    }

    private void onFabric(Runnable r) {
        vm.showMachinePage();
        tabs.getSelectionModel().select(fabricTab);
        fabricView();
        r.run();
    }

    private static MenuItem item(String text, String accel, Runnable action) {
        MenuItem m = new MenuItem(text);
        if (accel != null) {
            m.setAccelerator(accel.equals("Esc") ? new KeyCodeCombination(KeyCode.ESCAPE) : KeyCombination.keyCombination(accel));
        }
        m.setOnAction(e -> action.run());
        return m;
    }

    private void rebuildRecent() {
        recentMenu.getItems().clear();
        for (Path p : vm.recentFiles()) {
            MenuItem m = new MenuItem(p.toString());
            m.setMnemonicParsing(false);
            m.setOnAction(e -> vm.openRecent(p));
            recentMenu.getItems().add(m);
        }
        if (recentMenu.getItems().isEmpty()) {
            MenuItem none = new MenuItem("(none)");
            none.setDisable(true);
            recentMenu.getItems().add(none);
        } else {
            recentMenu.getItems().addAll(new SeparatorMenuItem(), item("Clear Recent", null, vm::clearRecent));
        }
    }

    public void setDark(boolean d) {
        dark = d;
        darkItem.setSelected(d);
        if (fabric != null) {
            fabric.setPalette(FabricPalette.of(d));
        }
        themeSwitcher.accept(d);
    }

    // ---- banner, error bar, status bar

    private VBox banner() {
        Label icon = new Label("⚠");
        icon.getStyleClass().add("banner-icon");
        Label msg = new Label();
        msg.setId("noDriverBanner");
        SafeText.bind(msg.textProperty(), vm.noDriverMessageProperty());
        msg.setWrapText(true);
        msg.getStyleClass().add("banner-text");
        HBox.setHgrow(msg, Priority.ALWAYS);
        Button openReport = new Button("Open report…");
        openReport.setId("bannerOpenReport");
        openReport.setOnAction(e -> chooseAndOpen());
        Button openSample = new Button("Open sample…");
        openSample.setId("bannerOpenSample");
        openSample.setOnAction(e -> showSampleMenu(openSample));
        Button again = new Button("Probe again");
        again.setOnAction(e -> vm.probeLive());
        Hyperlink details = new Hyperlink("Details");
        details.setId("noDriverDetailsToggle");
        Label raw = new Label();
        raw.setId("noDriverDetails");
        raw.getStyleClass().add("mono");
        raw.setWrapText(true);
        SafeText.bind(raw.textProperty(), vm.noDriverDetailsProperty());
        raw.setVisible(false);
        raw.managedProperty().bind(raw.visibleProperty());
        details.setOnAction(e -> {
            raw.setVisible(!raw.isVisible());
            details.setText(raw.isVisible() ? "Hide details" : "Details");
        });
        HBox top = new HBox(10, icon, msg, details, openReport, openSample, again);
        top.setAlignment(Pos.CENTER_LEFT);
        FlowPane chips = new FlowPane(6, 4);
        Label try_ = new Label("Or look at a sample machine:");
        try_.getStyleClass().add("text-muted");
        chips.getChildren().add(try_);
        for (Samples.Sample s : vm.samples()) {
            Hyperlink h = new Hyperlink(s.name());
            h.setId("sample-" + s.name());
            h.setTooltip(new javafx.scene.control.Tooltip(s.description()));
            h.setOnAction(e -> vm.openSample(s.name()));
            chips.getChildren().add(h);
        }
        VBox box = new VBox(4, top, raw, chips);
        box.getStyleClass().add("no-driver-banner");
        box.setPadding(new Insets(10, 16, 8, 16));
        box.visibleProperty().bind(vm.noDriverMessageProperty().isNotNull().and(vm.pageProperty().isEqualTo(MainViewModel.Page.MACHINE)));
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    private HBox errorBar() {
        Label msg = new Label();
        msg.setId("errorBar");
        SafeText.bind(msg.textProperty(), vm.errorProperty());
        msg.setWrapText(true);
        HBox.setHgrow(msg, Priority.ALWAYS);
        HBox box = new HBox(10, new Label("✖"), msg);
        box.getStyleClass().add("error-bar");
        box.setPadding(new Insets(6, 16, 6, 16));
        box.setAlignment(Pos.CENTER_LEFT);
        box.visibleProperty().bind(vm.errorProperty().isNotNull());
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    private StatusBar statusBar() {
        StatusBar bar = new StatusBar();
        bar.setId("statusBar");
        SafeText.bind(bar.textProperty(), vm.statusProperty());
        bar.progressProperty().bind(vm.progressProperty());
        Button cancel = new Button("Cancel");
        cancel.setId("cancelButton");
        cancel.visibleProperty().bind(vm.busyProperty());
        cancel.managedProperty().bind(cancel.visibleProperty());
        cancel.setOnAction(e -> vm.cancel());
        Label source = new Label();
        SafeText.bind(source.textProperty(), javafx.beans.binding.Bindings.createStringBinding(() -> {
            if (vm.getPage() == MainViewModel.Page.CLUSTER && vm.getCluster() != null) {
                return "cluster " + vm.getCluster().dir();
            }
            if (vm.getPage() == MainViewModel.Page.COMPARE && vm.getComparison() != null) {
                return "comparing " + vm.getComparison().left() + " with " + vm.getComparison().right();
            }
            return vm.getMachine() == null ? "" : vm.getMachine().subject();
        }, vm.machineProperty(), vm.pageProperty(), vm.clusterProperty(), vm.comparisonProperty()));
        source.getStyleClass().add("text-muted");
        Region gap = new Region();
        gap.setMinWidth(8);
        bar.getRightItems().addAll(cancel, gap, source);
        return bar;
    }

    private void showSampleMenu(javafx.scene.Node anchor) {
        ContextMenu menu = new ContextMenu();
        for (Samples.Sample s : vm.samples()) {
            MenuItem m = new MenuItem(s.name() + " — " + s.description());
            m.setMnemonicParsing(false);
            m.setOnAction(e -> vm.openSample(s.name()));
            menu.getItems().add(m);
        }
        menu.show(anchor, Side.BOTTOM, 0, 0);
    }

    // ---- files

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    private FileChooser chooser(String title, String desc, String... patterns) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title);
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(desc, patterns));
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("All files", "*"));
        Path dir = prefs.lastDirectory();
        if (dir != null && dir.toFile().isDirectory()) {
            fc.setInitialDirectory(dir.toFile());
        }
        return fc;
    }

    private void chooseAndOpen() {
        File f = chooser("Open a Fabricscope report or snapshot", "Reports and snapshots (*.json)", "*.json").showOpenDialog(window());
        if (f != null) {
            vm.openFile(f.toPath());
        }
    }

    private void chooseClusterFolder() {
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle("Open a cluster folder (one report per node)");
        Path dir = prefs.lastDirectory();
        if (dir != null && dir.toFile().isDirectory()) {
            dc.setInitialDirectory(dir.toFile());
        }
        File f = dc.showDialog(window());
        if (f != null) {
            vm.openCluster(f.toPath());
        }
    }

    private void chooseAndCompare() {
        File a = chooser("Compare reports: choose report A", "Reports and snapshots (*.json)", "*.json").showOpenDialog(window());
        if (a == null) {
            return;
        }
        FileChooser second = chooser("Compare reports: choose report B (A is " + a.getName() + ")", "Reports and snapshots (*.json)", "*.json");
        if (a.getParentFile() != null) {
            second.setInitialDirectory(a.getParentFile());
        }
        File b = second.showOpenDialog(window());
        if (b != null) {
            vm.compare(a.toPath(), b.toPath());
        }
    }

    /**
     * Writes a report of the machine shown, with the advisor's verdicts for the deployment in the Advisor tab's
     * panel, in {@code format} (redacted when the toggle is on).
     */
    private void exportReport(ReportsViewModel.Format format) {
        LoadedMachine m = vm.getMachine();
        if (m == null || !deploymentUsableOrSay()) {
            return;
        }
        Path p = saveTarget("Export report as " + format.title, format.title + " (" + format.pattern + ")", format.extension(),
                reportsVm.redactProperty().get() ? "-report-redacted" : "-report");
        if (p != null) {
            exportReport(m, format, p);
        }
    }

    /** Exports without a file dialog (tests, and the screenshot tour), with the Advisor tab's deployment. */
    public javafx.concurrent.Task<String> exportReport(LoadedMachine m, ReportsViewModel.Format format, Path p) {
        vm.report("Writing the " + format.title + " report…");
        List<ChecksViewModel.Result> checksRun = new java.util.ArrayList<>();
        for (var kind : ChecksViewModel.Kind.values()) {
            var r = checksVm.resultProperty(kind).get();
            if (r != null && m == checksVm.machineProperty().get()) {
                checksRun.add(r);
            }
        }
        return reportsVm.export(m, advisorVm, checksRun, format, p, vm::report, why -> {
            vm.report("Export failed: " + why);
            Alert a = new Alert(Alert.AlertType.ERROR, "Could not export the report to " + p + ": " + why);
            a.setHeaderText("Export failed");
            a.initOwner(window());
            a.show();
        });
    }

    /** Whether the Advisor tab's deployment can be used; if not, tells the user which input is malformed. */
    private boolean deploymentUsableOrSay() {
        String problem = advisorVm.deploymentProblem();
        if (problem != null) {
            Alert a = new Alert(Alert.AlertType.ERROR, "The Advisor tab's deployment cannot be used: " + problem);
            a.setHeaderText("Export failed");
            a.initOwner(window());
            a.show();
        }
        return problem == null;
    }

    /** The machine's snapshot as exports show it (identifiers replaced when the toggle is on). */
    private MachineSnapshot exportSnapshot(LoadedMachine m) {
        return reportsVm.forExport(m.snapshot());
    }

    private FabricGraph exportGraph(LoadedMachine m) {
        return reportsVm.redactProperty().get() ? FabricLayout.layout(exportSnapshot(m)) : m.graph();
    }

    private String baseName() {
        LoadedMachine m = vm.getMachine();
        String host = m == null ? "machine" : m.sample() != null ? m.sample() : m.host();
        return "fabricscope-" + host.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private Path saveTarget(String title, String desc, String ext) {
        return saveTarget(title, desc, ext, reportsVm.redactProperty().get() ? "-redacted" : "");
    }

    private Path saveTarget(String title, String desc, String ext, String suffix) {
        FileChooser fc = chooser(title, desc, "*." + ext);
        fc.setInitialFileName((reportsVm.redactProperty().get() ? "fabricscope-machine" : baseName()) + suffix + "." + ext);
        File f = fc.showSaveDialog(window());
        return f == null ? null : f.toPath();
    }

    private void saveJson() {
        LoadedMachine m = vm.getMachine();
        Path p = m == null ? null : saveTarget("Save snapshot", "JSON (*.json)", "json");
        if (p != null) {
            write(p, () -> SnapshotIO.writeAtomically(p, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(exportSnapshot(m)) + "\n"));
        }
    }

    private void exportText() {
        LoadedMachine m = vm.getMachine();
        Path p = m == null ? null : saveTarget("Export as text", "Text (*.txt)", "txt");
        if (p != null) {
            write(p, () -> SnapshotIO.writeAtomically(p, SnapshotText.render(exportSnapshot(m))));
        }
    }

    private void exportSvg() {
        LoadedMachine m = vm.getMachine();
        Path p = m == null ? null : saveTarget("Export graph as SVG", "SVG (*.svg)", "svg");
        if (p != null) {
            write(p, () -> SnapshotIO.writeAtomically(p, FabricSvg.render(exportGraph(m), FabricPalette.of(dark))));
        }
    }

    private void exportPng() {
        LoadedMachine m = vm.getMachine();
        Path p = m == null ? null : saveTarget("Export graph as PNG", "PNG (*.png)", "png");
        if (p != null) {
            write(p, () -> PngWriter.write(renderGraph(exportGraph(m), FabricPalette.of(dark), 2), p));
        }
    }

    /** The graph drawn off screen at {@code scale} (2 = crisp on high-DPI screens and in documents). */
    public static WritableImage renderGraph(FabricGraph g, FabricPalette palette, double scale) {
        return FabricCanvas.render(g, palette, scale);
    }

    private interface IoAction {
        void run() throws Exception;
    }

    private void write(Path p, IoAction action) {
        try {
            action.run();
            vm.report("Saved " + p);
        } catch (Exception e) {
            Alert a = new Alert(Alert.AlertType.ERROR, "Could not write " + p + ": " + e.getMessage());
            a.setHeaderText("Export failed");
            a.initOwner(window());
            a.show();
        }
    }

    private void showShortcuts() {
        Alert a = new Alert(Alert.AlertType.INFORMATION);
        a.initOwner(window());
        a.setTitle("Keyboard shortcuts");
        a.setHeaderText("Keyboard shortcuts");
        a.setContentText("""
                Ctrl+O            Open report or snapshot
                Ctrl+Shift+F      Open cluster folder (or drop a folder on the window)
                Ctrl+Shift+C      Compare two reports (or drop two files on the window)
                Ctrl+R            Export report as JSON (Ctrl+Shift+R Markdown, Ctrl+Alt+R HTML)
                Ctrl+Shift+O      Open sample
                F5                Probe this machine again
                Esc               Cancel the background task
                Ctrl+S            Save snapshot as JSON
                Ctrl+Shift+T      Export as text
                Ctrl+E            Export graph as PNG
                Ctrl+Shift+E      Export graph as SVG
                Ctrl+1 … Ctrl+5   Overview, Fabric, Matrices, Advisor, Checks
                Ctrl+6            Cluster (back from a node to its cluster)
                Ctrl+7            The last comparison of two reports
                Ctrl+= / Ctrl+-   Zoom the graph in / out
                Ctrl+0            Fit the graph
                Ctrl+Shift+D      Dark theme
                Ctrl+Q            Quit""");
        a.getDialogPane().lookupAll(".content").forEach(n -> n.setStyle("-fx-font-family: monospace;"));
        a.show();
    }

    private void showAbout() {
        Alert a = new Alert(Alert.AlertType.INFORMATION);
        a.initOwner(window());
        a.setTitle("About Fabricscope");
        a.setHeaderText("Fabricscope " + dev.fabricscope.Version.get());
        a.setContentText("Inspector for NVIDIA GPU fabrics: probe, draw, advise, check, report.\nJava "
                + System.getProperty("java.version") + " · JavaFX " + System.getProperty("javafx.runtime.version"));
        a.show();
    }

    static BooleanSupplier never() {
        return () -> false;
    }
}
