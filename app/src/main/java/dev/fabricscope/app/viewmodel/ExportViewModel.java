package dev.fabricscope.app.viewmodel;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.fabric.FabricSvg;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.usecase.Redact;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The File menu's exports of the machine on screen: the snapshot as JSON, the text rendering, the fabric graph as SVG
 * and PNG, a report in every report format with the Advisor tab's deployment and the checks run in the Checks
 * tab, and the native-call trace a machine opened from one came from. Every export honours "Redact identifiers" ({@link ReportsViewModel#redactProperty()}), also in the file name
 * it suggests. The view asks where to write; this says what is written, writes it and reports the outcome: a status
 * line on success, or a problem (a title and one line) for the view to show.
 */
public final class ExportViewModel {

    /** Draws the fabric graph into a PNG file at {@code scale} (needs the UI toolkit, so the view supplies it). */
    public interface GraphImageWriter {
        void write(FabricGraph graph, FabricPalette palette, double scale, Path file) throws Exception;
    }

    /** What each export writes: its dialog title, file type and extension. */
    public enum Kind {
        SNAPSHOT("Save snapshot", "JSON (*.json)", "json"),
        TEXT("Export as text", "Text (*.txt)", "txt"),
        SVG("Export graph as SVG", "SVG (*.svg)", "svg"),
        PNG("Export graph as PNG", "PNG (*.png)", "png"),
        /** The native-call trace the machine was opened from (probe --record), reduced to the least data. */
        TRACE("Save trace", "Trace (*.trace.json)", "trace.json");

        public final String title;
        public final String description;
        public final String extension;

        Kind(String title, String description, String extension) {
            this.title = title;
            this.description = description;
            this.extension = extension;
        }
    }

    private interface IoAction {
        void run() throws Exception;
    }

    private final MainViewModel main;
    private final AdvisorViewModel advisor;
    private final ChecksViewModel checks;
    private final ReportsViewModel reports;
    private final GraphImageWriter png;
    private BiConsumer<String, String> onProblem = (title, text) -> { };

    public ExportViewModel(MainViewModel main, AdvisorViewModel advisor, ChecksViewModel checks, ReportsViewModel reports,
                           GraphImageWriter png) {
        this.main = main;
        this.advisor = advisor;
        this.checks = checks;
        this.reports = reports;
        this.png = png;
    }

    /** Where a failed export is told: a title ("Export failed") and one line saying why. */
    public void setOnProblem(BiConsumer<String, String> handler) {
        onProblem = handler;
    }

    /** The file name offered for {@code kind}: the machine's name, or a neutral one when identifiers are redacted. */
    public String suggestedName(Kind kind) {
        return base() + (reports.redactProperty().get() ? "-redacted" : "") + "." + kind.extension;
    }

    /** The file name offered for a report in {@code format}. */
    public String suggestedName(ReportFormat format) {
        return base() + (reports.redactProperty().get() ? "-report-redacted" : "-report") + "." + format.extension();
    }

    private String base() {
        LoadedMachine m = main.getMachine();
        if (reports.redactProperty().get()) {
            return "fabricscope-machine";
        }
        String host = m == null ? "machine" : m.sample() != null ? m.sample() : m.host();
        return "fabricscope-" + host.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * Whether a report can be exported now: a machine is shown and the Advisor tab's deployment is well-formed
     * (otherwise the problem names the malformed input).
     */
    public boolean reportReady() {
        if (main.getMachine() == null) {
            return false;
        }
        String problem = advisor.deploymentProblem();
        if (problem != null) {
            onProblem.accept("Export failed", "The Advisor tab's deployment cannot be used: " + problem);
        }
        return problem == null;
    }

    /**
     * Writes a report of the machine shown in the background, with the advisor's verdicts for the deployment in the
     * Advisor tab's panel and the checks run on this machine in the Checks tab, in {@code format} (redacted when the
     * toggle is on). Null when no machine is shown or the deployment is malformed.
     */
    public Job<String> exportReport(ReportFormat format, Path target) {
        LoadedMachine m = main.getMachine();
        if (!reportReady()) {
            return null;
        }
        main.report("Writing the " + format.title + " report…");
        List<CheckDisplay.Result> checksRun = new ArrayList<>();
        for (var kind : CheckDisplay.Kind.values()) {
            var r = checks.resultProperty(kind).get();
            if (r != null && m == checks.machineProperty().get()) {
                checksRun.add(r);
            }
        }
        return reports.export(m, advisor.deployment(), checksRun, format, target, main::report, why -> {
            main.report("Export failed: " + why);
            onProblem.accept("Export failed", "Could not export the report to " + target + ": " + why);
        });
    }

    /** Writes {@code kind} of the machine shown to {@code target}; {@code palette} colours the graph exports. */
    public void export(Kind kind, Path target, FabricPalette palette) {
        LoadedMachine m = main.getMachine();
        if (m == null) {
            return;
        }
        if (kind == Kind.TRACE) {
            exportTrace(m, target);
            return;
        }
        write(target, switch (kind) {
            case SNAPSHOT -> () -> OutputFile.write(target,
                    Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(exportSnapshot(m)) + "\n");
            case TEXT -> () -> OutputFile.write(target, SnapshotText.render(exportSnapshot(m)));
            case SVG -> () -> OutputFile.write(target, FabricSvg.render(exportGraph(m), palette));
            case PNG -> () -> png.write(exportGraph(m), palette, 2, target);
            case TRACE -> () -> { };
        });
    }

    /** Whether the machine shown was probed live (recorded) or opened from a native-call trace: one to save. */
    public boolean traceAvailable() {
        LoadedMachine m = main.getMachine();
        return m != null && (m.trace() != null
                || m.source() == LoadedMachine.Source.FILE && m.file() != null && Redact.isTrace(m.file()));
    }

    /**
     * The trace the machine was opened from, redacted with the same pseudonyms as the other exports when the toggle
     * is on; otherwise the status line says what identifiers it holds.
     */
    private void exportTrace(LoadedMachine m, Path target) {
        if (!traceAvailable()) {
            onProblem.accept("Export failed", "The machine shown was not probed live nor opened from a trace; record one with "
                    + "'fabricscope probe --record TRACE --redact' and open it.");
            return;
        }
        try {
            String status;
            boolean live = m.trace() != null;
            if (reports.redactProperty().get()) {
                Redact.Result r = live ? Redact.trace(m.trace(), "the recorded trace") : Redact.file(m.file());
                OutputFile.write(target, r.text());
                status = "Saved " + target + " (trace " + r.redaction().describe() + ")";
            } else {
                Redact.Unredacted u = live ? Redact.unredactedTrace(m.trace(), "the recorded trace")
                        : Redact.unredactedTrace(m.file());
                OutputFile.write(target, u.text());
                status = "Saved " + target + " (" + u.notice() + ")";
            }
            main.report(status);
        } catch (Exception e) {
            onProblem.accept("Export failed", "Could not write " + target + ": " + e.getMessage());
        }
    }

    /** The machine's snapshot as exports show it (identifiers replaced when the toggle is on). */
    private MachineSnapshot exportSnapshot(LoadedMachine m) {
        return reports.forExport(m.snapshot());
    }

    private FabricGraph exportGraph(LoadedMachine m) {
        return reports.redactProperty().get() ? FabricLayout.layout(exportSnapshot(m)) : m.graph();
    }

    private void write(Path p, IoAction action) {
        try {
            action.run();
            main.report("Saved " + p);
        } catch (Exception e) {
            onProblem.accept("Export failed", "Could not write " + p + ": " + e.getMessage());
        }
    }
}
