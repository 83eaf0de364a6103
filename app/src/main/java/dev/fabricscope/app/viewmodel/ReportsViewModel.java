package dev.fabricscope.app.viewmodel;

import dev.fabricscope.io.OutputFile;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.UseCaseException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * Exports: a report of the machine on screen in every report format ({@link MakeReport}), with the advisor's verdicts
 * for the deployment panel's deployment, written in the background; and the "Redact identifiers" toggle, which
 * applies to every export (reports, the snapshot, the text and the graph).
 */
public final class ReportsViewModel {

    private final MakeReport reports;
    private final Tasks tasks;
    private final BooleanProperty redact = new SimpleBooleanProperty(this, "redact");
    private final ReadOnlyBooleanWrapper exporting = new ReadOnlyBooleanWrapper(this, "exporting");

    public ReportsViewModel(MakeReport reports, Tasks tasks) {
        this.reports = reports;
        this.tasks = tasks;
    }

    /** Replace host names, serials, UUIDs, user names in paths, IP and MAC addresses in exports. */
    public BooleanProperty redactProperty() {
        return redact;
    }

    public ReadOnlyBooleanProperty exportingProperty() {
        return exporting.getReadOnlyProperty();
    }

    /**
     * Renders the report and writes it to {@code target} atomically, in the background; {@code done} gets the status
     * line, {@code failed} one line saying why.
     */
    public Job<String> export(LoadedMachine machine, DeploymentRequest deployment, ReportFormat format, Path target,
                               Consumer<String> done, Consumer<String> failed) {
        return export(machine, deployment, List.of(), format, target, done, failed);
    }

    /** As below, with the Advisor tab's deployment ({@link AdvisorViewModel#deployment()}: it must be well formed). */
    public Job<String> export(LoadedMachine machine, AdvisorViewModel advisor, List<CheckDisplay.Result> checksRun,
                               ReportFormat format, Path target, Consumer<String> done, Consumer<String> failed) {
        return export(machine, advisor.deployment(), checksRun, format, target, done, failed);
    }

    /**
     * As above, with the results of the checks run on this machine in the Checks tab (those with a report entry);
     * none: the results recorded with the report the machine was opened from, if any. The report records the
     * {@code fabricscope report} command that makes it again.
     */
    public Job<String> export(LoadedMachine machine, DeploymentRequest deployment, List<CheckDisplay.Result> checksRun,
                               ReportFormat format, Path target, Consumer<String> done, Consumer<String> failed) {
        List<ReportChecks.Entry> entries = checksRun.stream().map(CheckDisplay.Result::reportEntry)
                .filter(java.util.Objects::nonNull).toList();
        ReportChecks checks = entries.isEmpty() ? null : new ReportChecks(true, null, entries);
        MakeReport.Request request = new MakeReport.Request(machine.snapshot(), origin(machine), deployment,
                checks == null ? MakeReport.Checks.recorded() : MakeReport.Checks.given(checks), null, format, redact.get());
        Job<String> job = new Job<>(tasks, p -> {
            String text = reports.make(request).text();
            OutputFile.write(target, text);
            return "Report written to " + target + " (" + format.title + (request.redact() ? ", identifiers redacted" : "")
                    + (checks != null ? ", " + checks.results().size() + " check result" + (checks.results().size() == 1 ? "" : "s") : "") + ", "
                    + String.format(java.util.Locale.ROOT, "%,d", text.length()) + " characters)";
        });
        exporting.set(true);
        job.onSucceeded(text -> {
            exporting.set(false);
            done.accept(text);
        });
        job.onFailed(t -> {
            exporting.set(false);
            failed.accept(t instanceof UseCaseException || t instanceof java.io.IOException ? t.getMessage() : String.valueOf(t));
        });
        return job.start();
    }

    /** Where the machine came from, for the report's command line. */
    static MakeReport.Origin origin(LoadedMachine m) {
        return switch (m.source()) {
            case SAMPLE -> MakeReport.Origin.sample(m.sample());
            case FILE -> MakeReport.Origin.file(m.file());
            case LIVE -> MakeReport.Origin.live();
        };
    }

    /** The snapshot as exports show it: with identifiers replaced when {@link #redactProperty()} is on. */
    public MachineSnapshot forExport(MachineSnapshot s) {
        return reports.forExport(s, redact.get());
    }
}
