package dev.fabricscope.cli;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckListener;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.io.ErrorText;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.Fit;
import dev.fabricscope.report.Report;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import dev.fabricscope.usecase.UseCaseException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope report}: a diagnostic report for a bug ticket, as JSON, Markdown or HTML. */
@Command(name = "report", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        sortOptions = false,
        description = {"Make a diagnostic report: the machine, the advisor's verdicts for a deployment (the options of 'advise') and any live check "
                + "results. JSON is the canonical form (docs/report-schema.md); Markdown is paste-ready for a GitHub "
                + "issue; HTML is one self-contained file with the fabric graph.",
            "Without --snapshot, --sample or --from, this machine is probed."})
public final class ReportCommand implements Callable<Integer> {

    /** Output formats, as {@code --format} takes them. */
    /** {@code --format json|md|html}: the report format by its command-line name. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<ReportFormat> {
        @Override
        public ReportFormat convert(String value) {
            for (ReportFormat f : ReportFormat.values()) {
                if (f.cli.equals(value)) {
                    return f;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("expected json, md or html, not '" + ErrorText.oneLineSafe(value) + "'");
        }
    }

    /** The command-line names, for help and completion. */
    static final class FormatNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(ReportFormat.values()).map(f -> f.cli).iterator();
        }
    }

    private final CliEnvironment env;

    ReportCommand(CliEnvironment env) {
        this.env = env;
    }

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SnapshotSource source;

    @Mixin
    DeploymentOptions deployment;

    @Option(names = "--from", paramLabel = "REPORT",
            description = "Re-render a saved JSON report as it was (no probing, advising or checks): to change its format or redact it.")
    Path from;

    @Option(names = "--with-checks", description = "Run the live checks on this machine's GPUs and include their results.")
    boolean withChecks;

    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class, completionCandidates = FormatNames.class,
            description = "json, md or html. Default: from the --out file's extension (.json, .md, .html), else json.")
    ReportFormat format;

    @Option(names = "--redact", description = "Replace host names, serials, UUIDs, user names in paths, IP and MAC addresses with stable pseudonyms.")
    boolean redact;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE (atomically) instead of standard output.")
    Path out;

    @Override
    public Integer call() throws CommandFailure, AdvisorInputException, UseCaseException, SnapshotIO.ReadException {
        var err = spec.commandLine().getErr();
        if (out != null) {
            try {
                dev.fabricscope.io.OutputFile.checkTarget(out);
            } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                throw CommandFailure.usage("--out " + e.getMessage());
            }
        }
        ReportFormat f = format != null ? format : ReportFormat.forFile(out);
        MakeReport reports = env.makeReport();
        MakeReport.Result made;
        boolean noDriver = false;
        if (from != null) {
            if (source.given() || withChecks || deployment.given()) {
                throw CommandFailure.usage("--from re-renders a saved report as it was; it cannot be combined with --snapshot, "
                        + "--sample, --with-checks or deployment options");
            }
            made = reports.rerender(from, f, redact);
        } else {
            DeploymentRequest d = deployment.request();
            MachineSnapshot s = source.load(env::probeLive);
            noDriver = s.isLive() && !s.driver().driverPresent();
            made = make(reports, new MakeReport.Request(s, null, d, checks(s), env.argv(), f, redact));
        }
        Report report = made.report();
        String text = made.text();
        if (out != null && !dev.fabricscope.io.OutputFile.isStandardOutput(out)) {
            dev.fabricscope.io.OutputFile.Kind kind;
            try {
                spec.commandLine().getOut().flush();
                kind = dev.fabricscope.io.OutputFile.write(out, text, spec.commandLine().getOut());
            } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                throw CommandFailure.usage("--out " + e.getMessage());
            } catch (IOException e) {
                throw CommandFailure.cannotWrite("--out", out, e);
            }
            // a device or FIFO may be this terminal (/dev/stdout): the confirmation then goes to standard error
            var confirm = kind == dev.fabricscope.io.OutputFile.Kind.STREAMED ? err : spec.commandLine().getOut();
            confirm.print(Fit.wrap((kind == dev.fabricscope.io.OutputFile.Kind.STREAMED ? "Report streamed to " : "Report written to ")
                    + ErrorText.oneLineSafe(out.toString()) + " (" + f.cli + ", " + text.length() + " characters; "
                    + report.redaction().describe() + ")", Fit.WIDTH, 2));
            confirm.flush();
        } else {
            spec.commandLine().getOut().print(text);
        }
        spec.commandLine().getOut().flush();
        if (noDriver) {
            throw CommandFailure.of(ExitCodes.NO_DRIVER, report.snapshot().driver().message());
        }
        CheckStatus worst = from == null ? RunCheck.worst(report.checks()) : null;
        return worst == null ? ExitCodes.OK : ExitCodes.of(worst);
    }

    /** The checks the report carries: none, or (--with-checks) run now, with progress on standard error. */
    private MakeReport.Checks checks(MachineSnapshot s) {
        if (!withChecks) {
            return MakeReport.Checks.notRequested();
        }
        var err = spec.commandLine().getErr();
        String why = RunCheck.cannotRun(s);
        if (why != null) {
            ErrorLine.print(err, "checks skipped — " + why);
        }
        CheckListener progress = e -> {
            err.println(String.format(Locale.ROOT, "[%s] %s%s", e.check(), e.message(),
                    e.fraction() >= 0 ? String.format(Locale.ROOT, " (%.0f%%)", 100 * e.fraction()) : ""));
            err.flush();
        };
        return MakeReport.Checks.run(progress, new CheckControl());
    }

    /** Makes the report; an interrupt (Ctrl-C) while its checks run cancels them. */
    private static MakeReport.Result make(MakeReport reports, MakeReport.Request request) throws UseCaseException {
        if (request.checks().mode() != MakeReport.Checks.Mode.RUN) {
            return reports.make(request);
        }
        Thread hook = new Thread(request.checks().control()::cancel);
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return reports.make(request);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
        }
    }
}
