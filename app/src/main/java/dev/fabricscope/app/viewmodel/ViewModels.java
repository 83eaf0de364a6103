package dev.fabricscope.app.viewmodel;

import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;

/**
 * The main window's view-models, wired together: one set per window. Built by the app with its {@link Tasks} and
 * use cases, and by tests with theirs.
 */
public record ViewModels(MainViewModel main, AdvisorViewModel advisor, ChecksViewModel checks, ReportsViewModel reports,
                         ClusterViewModel cluster, ExportViewModel exports, AppPreferences prefs) {

    /**
     * The view-models around {@code main}, sharing its {@code tasks}: the advisor and checks follow the machine shown;
     * the redact toggle starts as remembered and is remembered when changed.
     */
    public static ViewModels create(MainViewModel main, AppPreferences prefs, Tasks tasks, Advise advise, RunCheck runs,
                                    MakeReport makeReport, ExportViewModel.GraphImageWriter png) {
        AdvisorViewModel advisor = new AdvisorViewModel(advise, tasks);
        ChecksViewModel checks = new ChecksViewModel(runs, tasks);
        ReportsViewModel reports = new ReportsViewModel(makeReport, tasks);
        advisor.machineProperty().bind(main.machineProperty());
        checks.machineProperty().bind(main.machineProperty());
        reports.redactProperty().set(prefs.redactExports());
        reports.redactProperty().addListener((o, was, now) -> prefs.setRedactExports(now));
        ClusterViewModel cluster = new ClusterViewModel(main, advisor);
        ExportViewModel exports = new ExportViewModel(main, advisor, checks, reports, png);
        return new ViewModels(main, advisor, checks, reports, cluster, exports, prefs);
    }
}
