package dev.fabricscope.app.view;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.app.viewmodel.AppPreferences;
import dev.fabricscope.app.viewmodel.ExportViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import java.io.File;
import java.nio.file.Path;
import java.util.function.Supplier;
import javafx.scene.control.Alert;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The window's file and folder dialogs (open, open cluster folder, compare, save as) and its error alerts; what is
 * opened or written is the view-models' business.
 */
final class FileDialogs {

    private static final String REPORTS = "Reports and snapshots (*.json)";

    private final MainViewModel vm;
    private final ExportViewModel exports;
    private final AppPreferences prefs;
    private final Supplier<Window> window;

    FileDialogs(MainViewModel vm, ExportViewModel exports, AppPreferences prefs, Supplier<Window> window) {
        this.vm = vm;
        this.exports = exports;
        this.prefs = prefs;
        this.window = window;
        exports.setOnProblem(this::error);
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

    void open() {
        File f = chooser("Open a Fabricscope report or snapshot", REPORTS, "*.json").showOpenDialog(window.get());
        if (f != null) {
            vm.openFile(f.toPath());
        }
    }

    void openClusterFolder() {
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle("Open a cluster folder (one report per node)");
        Path dir = prefs.lastDirectory();
        if (dir != null && dir.toFile().isDirectory()) {
            dc.setInitialDirectory(dir.toFile());
        }
        File f = dc.showDialog(window.get());
        if (f != null) {
            vm.openCluster(f.toPath());
        }
    }

    void compare() {
        File a = chooser("Compare reports: choose report A", REPORTS, "*.json").showOpenDialog(window.get());
        if (a == null) {
            return;
        }
        FileChooser second = chooser("Compare reports: choose report B (A is " + a.getName() + ")", REPORTS, "*.json");
        if (a.getParentFile() != null) {
            second.setInitialDirectory(a.getParentFile());
        }
        File b = second.showOpenDialog(window.get());
        if (b != null) {
            vm.compare(a.toPath(), b.toPath());
        }
    }

    /** Asks where to write a report in {@code format} (after checking the deployment), then exports it. */
    void exportReport(ReportFormat format) {
        if (!exports.reportReady()) {
            return;
        }
        Path p = saveTarget("Export report as " + format.title, format.title + " (" + format.pattern + ")", format.extension(),
                exports.suggestedName(format));
        if (p != null) {
            exports.exportReport(format, p);
        }
    }

    /** Asks where to write the cluster drawing, then writes it as PNG or SVG. */
    void exportDrawing(dev.fabricscope.app.viewmodel.ClusterViewModel cluster, boolean png, boolean dark) {
        String what = png ? "PNG" : "SVG";
        Path p = saveTarget("Export drawing as " + what, what + " (*." + what.toLowerCase(java.util.Locale.ROOT) + ")",
                what.toLowerCase(java.util.Locale.ROOT), cluster.drawingFileName(png));
        if (p != null) {
            cluster.exportDrawing(p, dev.fabricscope.render.fabric.FabricPalette.of(dark), png);
        }
    }

    /** Asks where to write {@code kind}, then writes it. */
    void export(ExportViewModel.Kind kind, boolean dark) {
        if (kind == ExportViewModel.Kind.TRACE && vm.getMachine() != null && !exports.traceAvailable()) {
            exports.export(kind, null, null); // says why there is none to save
            return;
        }
        Path p = vm.getMachine() == null ? null : saveTarget(kind.title, kind.description, kind.extension, exports.suggestedName(kind));
        if (p != null) {
            exports.export(kind, p, dev.fabricscope.render.fabric.FabricPalette.of(dark));
        }
    }

    private Path saveTarget(String title, String desc, String ext, String name) {
        FileChooser fc = chooser(title, desc, "*." + ext);
        fc.setInitialFileName(name);
        File f = fc.showSaveDialog(window.get());
        return f == null ? null : f.toPath();
    }

    void error(String header, String text) {
        Alert a = new Alert(Alert.AlertType.ERROR, text);
        a.setHeaderText(header);
        a.initOwner(window.get());
        a.show();
    }
}
