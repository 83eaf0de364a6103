package dev.fabricscope.app.view;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.app.viewmodel.ExportViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.app.viewmodel.ShownText;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Window;

/** The window's menus (File, View, Help) with their shortcuts, and the dialogs of the Help menu. */
final class MainMenu {

    private final MainViewModel vm;
    private final ReportsViewModel reports;
    private final FileDialogs dialogs;
    private final Supplier<Window> window;
    private final Menu recentMenu = new Menu("Open _Recent");
    private final CheckMenuItem darkItem = new CheckMenuItem("_Dark Theme");

    MainMenu(MainViewModel vm, ReportsViewModel reports, FileDialogs dialogs, Supplier<Window> window) {
        this.vm = vm;
        this.reports = reports;
        this.dialogs = dialogs;
        this.window = window;
    }

    /**
     * The menu bar. {@code dark} is the theme shown, {@code onDark} switches it, {@code isDark} tells it for the
     * graph exports, {@code onFabric} runs a zoom command on the Fabric tab, {@code sampleAnchor} is where the sample
     * chooser opens.
     */
    MenuBar build(boolean dark, Consumer<Boolean> onDark, Supplier<Boolean> isDark, Consumer<Consumer<FabricView>> onFabric, Node sampleAnchor) {
        MenuItem open = item("_Open Report…", "Ctrl+O", dialogs::open);
        MenuItem openCluster = item("Open _Cluster Folder…", "Ctrl+Shift+F", dialogs::openClusterFolder);
        MenuItem compare = item("Co_mpare Reports…", "Ctrl+Shift+C", dialogs::compare);
        Menu exportReport = new Menu("Export _Report");
        for (ReportFormat f : ReportFormat.values()) {
            String accel = switch (f) {
                case JSON -> "Ctrl+R";
                case MARKDOWN -> "Ctrl+Shift+R";
                case HTML -> "Ctrl+Alt+R";
            };
            MenuItem m = item("As " + f.title + "…", accel, () -> dialogs.exportReport(f));
            m.setId("exportReport-" + f.extension());
            exportReport.getItems().add(m);
        }
        exportReport.disableProperty().bind(vm.machineProperty().isNull());
        CheckMenuItem redactItem = new CheckMenuItem("Re_dact Identifiers in Exports");
        redactItem.setId("redactItem");
        redactItem.selectedProperty().bindBidirectional(reports.redactProperty());
        Menu samples = new Menu("Open _Sample");
        for (MainViewModel.SampleChoice s : vm.samples()) {
            MenuItem m = new MenuItem(s.name() + " — " + s.description());
            m.setMnemonicParsing(false);
            m.setOnAction(e -> vm.openSample(s.name()));
            samples.getItems().add(m);
        }
        MenuItem chooseSample = item("Open Sample…", "Ctrl+Shift+O", () -> showSampleMenu(sampleAnchor));
        rebuildRecent();
        vm.recentFiles().addListener((ListChangeListener<Path>) c -> rebuildRecent());
        MenuItem probe = item("_Probe This Machine", "F5", vm::probeLive);
        MenuItem cancel = item("_Cancel Background Task", "Esc", vm::cancel);
        cancel.disableProperty().bind(vm.busyProperty().not());
        MenuItem saveJson = item("_Save Snapshot as JSON…", "Ctrl+S", () -> dialogs.export(ExportViewModel.Kind.SNAPSHOT, isDark.get()));
        MenuItem text = item("Export as _Text…", "Ctrl+Shift+T", () -> dialogs.export(ExportViewModel.Kind.TEXT, isDark.get()));
        MenuItem png = item("Export Graph as _PNG…", "Ctrl+E", () -> dialogs.export(ExportViewModel.Kind.PNG, isDark.get()));
        MenuItem svg = item("Export Graph as S_VG…", "Ctrl+Shift+E", () -> dialogs.export(ExportViewModel.Kind.SVG, isDark.get()));
        MenuItem trace = item("Save T_race…", null, () -> dialogs.export(ExportViewModel.Kind.TRACE, isDark.get()));
        trace.setId("saveTrace");
        for (MenuItem m : List.of(saveJson, text, png, svg)) {
            m.disableProperty().bind(vm.machineProperty().isNull());
        }
        MenuItem quit = item("_Quit", "Ctrl+Q", () -> window.get().hide());
        Menu file = new Menu("_File", null, open, openCluster, compare, samples, chooseSample, recentMenu, new SeparatorMenuItem(),
                probe, cancel, new SeparatorMenuItem(), exportReport, saveJson, text, png, svg, trace, redactItem, new SeparatorMenuItem(), quit);

        Menu view = new Menu("_View");
        String[] names = {"Overview", "Fabric", "Matrices", "Advisor", "Checks", "Acceptance"};
        for (int i = 0; i < names.length; i++) {
            MainViewModel.MachineTab tab = MainViewModel.MachineTab.values()[i];
            view.getItems().add(item(names[i], "Ctrl+" + (i + 1), () -> vm.showTab(tab)));
        }
        MenuItem clusterItem = item("C_luster", "Ctrl+7", vm::showCluster);
        clusterItem.disableProperty().bind(vm.clusterProperty().isNull());
        view.getItems().add(clusterItem);
        MenuItem comparisonItem = item("Co_mparison", "Ctrl+8", vm::showComparison);
        comparisonItem.disableProperty().bind(vm.comparisonProperty().isNull());
        view.getItems().add(comparisonItem);
        view.getItems().add(new SeparatorMenuItem());
        view.getItems().add(item("Zoom _In", "Ctrl+Equals", () -> onFabric.accept(FabricView::zoomIn)));
        view.getItems().add(item("Zoom _Out", "Ctrl+Minus", () -> onFabric.accept(FabricView::zoomOut)));
        view.getItems().add(item("_Fit Graph", "Ctrl+0", () -> onFabric.accept(FabricView::fit)));
        view.getItems().add(new SeparatorMenuItem());
        darkItem.setSelected(dark);
        darkItem.setAccelerator(KeyCombination.keyCombination("Ctrl+Shift+D"));
        darkItem.setOnAction(e -> onDark.accept(darkItem.isSelected()));
        view.getItems().add(darkItem);

        Menu help = new Menu("_Help", null, item("_Keyboard Shortcuts", "F1", this::showShortcuts), item("_About Fabricscope", null, this::showAbout));
        MenuBar bar = new MenuBar(file, view, help);
        bar.setUseSystemMenuBar(true);
        return bar;
    }

    /** Keeps the Dark Theme item in step with the theme shown. */
    void showDark(boolean dark) {
        darkItem.setSelected(dark);
    }

    /** The bundled samples as a pop-up list below {@code anchor}. */
    void showSampleMenu(Node anchor) {
        ContextMenu menu = new ContextMenu();
        for (MainViewModel.SampleChoice s : vm.samples()) {
            MenuItem m = new MenuItem(s.name() + " — " + s.description());
            m.setMnemonicParsing(false);
            m.setOnAction(e -> vm.openSample(s.name()));
            menu.getItems().add(m);
        }
        menu.show(anchor, Side.BOTTOM, 0, 0);
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

    private void showShortcuts() {
        Alert a = new Alert(Alert.AlertType.INFORMATION);
        a.initOwner(window.get());
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
                Ctrl+1 … Ctrl+6   Overview, Fabric, Matrices, Advisor, Checks, Acceptance
                Ctrl+7            Cluster (back from a node to its cluster)
                Ctrl+8            The last comparison of two reports
                Ctrl+= / Ctrl+-   Zoom the graph in / out
                Ctrl+0            Fit the graph
                Ctrl+Shift+D      Dark theme
                Ctrl+Q            Quit""");
        a.getDialogPane().lookupAll(".content").forEach(n -> n.setStyle("-fx-font-family: monospace;"));
        a.show();
    }

    private void showAbout() {
        Alert a = new Alert(Alert.AlertType.INFORMATION);
        a.initOwner(window.get());
        a.setTitle("About Fabricscope");
        a.setHeaderText("Fabricscope " + ShownText.version());
        a.setContentText("Inspector for NVIDIA GPU fabrics: probe, draw, advise, check, report.\nJava "
                + System.getProperty("java.version") + " · JavaFX " + System.getProperty("javafx.runtime.version"));
        a.show();
    }
}
