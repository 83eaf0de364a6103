package dev.fabricscope.usecase;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckListener;
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
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A diagnostic report of a machine: the advisor's verdicts for a deployment, live check results, provenance,
 * identifiers replaced when asked, rendered as JSON, Markdown or HTML. {@code fabricscope report} and the app's
 * exports; the decision to redact is taken here, once, for the report and for every other export of the machine.
 */
public final class MakeReport {

    /** Where the machine came from: this machine, a bundled sample or a file (for the equivalent command line). */
    public record Origin(Kind kind, String sample, Path file) {
        public enum Kind { LIVE, SAMPLE, FILE }

        public static Origin live() {
            return new Origin(Kind.LIVE, null, null);
        }

        public static Origin sample(String name) {
            return new Origin(Kind.SAMPLE, name, null);
        }

        public static Origin file(Path file) {
            return new Origin(Kind.FILE, null, file);
        }
    }

    /** Which live check results the report carries. */
    public record Checks(Mode mode, ReportChecks given, CheckListener listener, CheckControl control) {
        public enum Mode {
            /** None were asked for. */
            NOT_REQUESTED,
            /** Those recorded with the report the machine was opened from, when that file is still that report. */
            RECORDED,
            /** These results (e.g. the checks run in the app's Checks tab). */
            GIVEN,
            /** Run them now on this machine ({@code --with-checks}). */
            RUN
        }

        public static Checks notRequested() {
            return new Checks(Mode.NOT_REQUESTED, null, null, null);
        }

        public static Checks recorded() {
            return new Checks(Mode.RECORDED, null, null, null);
        }

        public static Checks given(ReportChecks results) {
            return new Checks(Mode.GIVEN, results, null, null);
        }

        public static Checks run(CheckListener listener, CheckControl control) {
            return new Checks(Mode.RUN, null, listener, control);
        }
    }

    /**
     * @param commandLine the command line that makes the report (argv, program first), or null for the
     *                    {@code fabricscope report} command that reproduces it from {@code origin} and the request
     */
    public record Request(MachineSnapshot machine, Origin origin, DeploymentRequest deployment, Checks checks,
                          List<String> commandLine, ReportFormat format, boolean redact) {
    }

    /** @param report the report as written (redacted when asked); @param text it rendered in {@code format} */
    public record Result(Report report, ReportFormat format, String text) {
    }

    private final Advise advise;
    private final RunCheck checks;
    private final Clock clock;

    public MakeReport(Advise advise, RunCheck checks, Clock clock) {
        this.advise = advise;
        this.checks = checks;
        this.clock = clock;
    }

    /** Advises, gathers the checks, makes the report, redacts it when asked and renders it. */
    public Result make(Request r) throws UseCaseException {
        DeploymentRequest d = r.deployment();
        Advise.Result advised = advise.advise(Advise.Request.of(r.machine(), d));
        ReportAdvice advice = ReportAdvice.of(advised.advice(), d.deployment(), d.options());
        if (advised.advice().blocked() == null) {
            advice = advice.withPredicted(new ReportAdvice.Predicted(advised.predicted().heading(), advised.predicted().lines()));
        }
        ReportChecks results = switch (r.checks().mode()) {
            case NOT_REQUESTED -> ReportChecks.notRequested();
            case RECORDED -> recordedChecks(r.machine(), r.origin());
            case GIVEN -> r.checks().given();
            case RUN -> {
                Integer tp = advice.deployment() == null ? null : advice.deployment().tp();
                yield checks.forReport(r.machine(), tp != null && tp <= r.machine().gpus().size() ? tp : null, r.checks().listener(),
                        r.checks().control());
            }
        };
        List<String> commandLine = r.commandLine() != null ? r.commandLine()
                : commandLine(r.origin(), d, r.format(), r.redact(), r.checks().mode() == Checks.Mode.GIVEN);
        return render(Reports.create(r.machine(), advice, results, commandLine, clock.instant()), r.format(), r.redact());
    }

    /**
     * A saved report re-rendered (no advising, no checks): to change its format or redact it. Its machine is judged
     * again: every format shows this version's findings, never the stored ones.
     */
    public Result rerender(Path saved, ReportFormat format, boolean redact) throws UseCaseException {
        try {
            return render(OpenSnapshot.judged(ReportIO.read(saved)), format, redact);
        } catch (SnapshotIO.ReadException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }

    private static Result render(Report report, ReportFormat format, boolean redact) {
        Report r = redact ? Redactor.redact(report) : report;
        String text = switch (format) {
            case JSON -> ReportIO.toJson(r);
            case MARKDOWN -> MarkdownReport.render(r);
            case HTML -> HtmlReport.render(r);
        };
        return new Result(r, format, text);
    }

    /** The snapshot as every other export of the machine shows it: identifiers replaced as in a redacted report when asked. */
    public MachineSnapshot forExport(MachineSnapshot s, boolean redact) {
        if (!redact) {
            return s;
        }
        // a report around the snapshot alone (no provenance needed: a snapshot may lack it)
        return Redactor.redact(Reports.create(s, ReportAdvice.none("snapshot export"), ReportChecks.notRequested(), List.of(),
                clock.instant())).snapshot();
    }

    /**
     * The live check results of the report the machine was opened from, when the file is still that report; none for
     * a sample, a bare snapshot or this machine.
     */
    static ReportChecks recordedChecks(MachineSnapshot machine, Origin origin) {
        if (origin == null || origin.kind() != Origin.Kind.FILE || origin.file() == null) {
            return ReportChecks.notRequested();
        }
        try {
            Report r = ReportIO.read(origin.file());
            // both judged: a report whose stored findings are stale is still the report the machine came from
            return OpenSnapshot.judged(r.snapshot()).equals(OpenSnapshot.judged(machine)) ? r.checks() : ReportChecks.notRequested();
        } catch (SnapshotIO.ReadException | RuntimeException e) {
            return ReportChecks.notRequested();
        }
    }

    /**
     * The {@code fabricscope report} command that makes the same report from the same machine ({@code --with-checks}
     * when check results are included; it runs every check, the app's tab only those the user ran).
     */
    public static List<String> commandLine(Origin origin, DeploymentRequest d, ReportFormat format, boolean redact, boolean withChecks) {
        List<String> args = new ArrayList<>(List.of("fabricscope", "report"));
        switch (origin.kind()) {
            case SAMPLE -> args.addAll(List.of("--sample", origin.sample()));
            case FILE -> args.addAll(List.of("--snapshot", String.valueOf(origin.file())));
            case LIVE -> { }
        }
        args.addAll(d.arguments());
        if (withChecks) {
            args.add("--with-checks");
        }
        args.addAll(List.of("--format", format.cli));
        if (redact) {
            args.add("--redact");
        }
        return args;
    }
}
