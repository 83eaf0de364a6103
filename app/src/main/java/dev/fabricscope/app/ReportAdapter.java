package dev.fabricscope.app;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.AdvisorInputException;
import dev.fabricscope.advisor.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.app.viewmodel.AdvisorPort;
import dev.fabricscope.app.viewmodel.LoadedMachine;
import dev.fabricscope.app.viewmodel.ReportPort;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.HtmlReport;
import dev.fabricscope.report.MarkdownReport;
import dev.fabricscope.report.Redactor;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportAdvice;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.report.Reports;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Exports through {@code dev.fabricscope.report}: {@link Reports}, {@link Redactor} and the report renderers. */
final class ReportAdapter implements ReportPort {

    @Override
    public String render(LoadedMachine m, AdvisorPort.Deployment d, Format format, boolean redact, ReportChecks checks) {
        Deployment dep = AdvisorAdapter.deployment(d);
        Options options = AdvisorAdapter.options(d);
        ReportAdvice advice;
        try {
            advice = ReportAdvice.of(Advisor.advise(m.snapshot(), dep, options), dep, options);
        } catch (AdvisorInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        ReportChecks c = checks != null ? checks : recordedChecks(m);
        Report report = Reports.create(m.snapshot(), advice, c, commandLine(m, dep, options, format, redact, checks != null), Instant.now());
        if (redact) {
            report = Redactor.redact(report);
        }
        return switch (format) {
            case JSON -> ReportIO.toJson(report);
            case MARKDOWN -> MarkdownReport.render(report);
            case HTML -> HtmlReport.render(report);
        };
    }

    @Override
    public MachineSnapshot redact(MachineSnapshot s) {
        // a report around the snapshot alone (no provenance needed: a snapshot may lack it)
        return Redactor.redact(Reports.create(s, ReportAdvice.none("snapshot export"), ReportChecks.notRequested(), List.of(),
                Instant.now())).snapshot();
    }

    /**
     * The live check results of the report the machine was opened from, when the file is still that report; none for
     * a sample, a bare snapshot or this machine.
     */
    static ReportChecks recordedChecks(LoadedMachine m) {
        if (m.source() != LoadedMachine.Source.FILE || m.file() == null) {
            return ReportChecks.notRequested();
        }
        try {
            Report r = ReportIO.read(m.file());
            return r.snapshot().equals(m.snapshot()) ? r.checks() : ReportChecks.notRequested();
        } catch (SnapshotIO.ReadException | RuntimeException e) {
            return ReportChecks.notRequested();
        }
    }

    /**
     * The {@code fabricscope report} command that makes the same report from the same machine ({@code --with-checks}
     * when the Checks tab's results are included; it runs every check, the tab only those the user ran).
     */
    static List<String> commandLine(LoadedMachine m, Deployment d, Options o, Format format, boolean redact, boolean withChecks) {
        List<String> args = new ArrayList<>(List.of("fabricscope", "report"));
        switch (m.source()) {
            case SAMPLE -> args.addAll(List.of("--sample", m.sample()));
            case FILE -> args.addAll(List.of("--snapshot", String.valueOf(m.file())));
            case LIVE -> { }
        }
        o.frameworks().forEach(f -> args.addAll(List.of("--framework", f)));
        option(args, "--tp", d.tp());
        option(args, "--nodes", d.nodes());
        option(args, "--dcp", d.dcp());
        option(args, "--model", d.model());
        option(args, "--tokens", d.tokens());
        pairs(args, "--flag", d.flags());
        pairs(args, "--env", d.env());
        pairs(args, "--assume", o.assume());
        if (withChecks) {
            args.add("--with-checks");
        }
        args.addAll(List.of("--format", format.cli));
        if (redact) {
            args.add("--redact");
        }
        return args;
    }

    private static void option(List<String> args, String name, Object value) {
        if (value != null) {
            args.addAll(List.of(name, String.valueOf(value)));
        }
    }

    private static void pairs(List<String> args, String name, Map<String, String> values) {
        values.forEach((k, v) -> args.addAll(List.of(name, k + "=" + v)));
    }
}
