package dev.fabricscope.cli;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.AdvisorInputException;
import dev.fabricscope.advisor.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.check.CheckControl;
import dev.fabricscope.check.CheckListener;
import dev.fabricscope.check.CheckStatus;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.report.LiveChecks;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.HtmlReport;
import dev.fabricscope.report.MarkdownReport;
import dev.fabricscope.report.Redactor;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportAdvice;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.report.Reports;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
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

    /** Output formats. */
    public enum Format { json, md, html }

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

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "json, md or html. Default: from the --out file's extension (.json, .md, .html), else json.")
    Format format;

    @Option(names = "--redact", description = "Replace host names, serials, UUIDs, user names in paths, IP and MAC addresses with stable pseudonyms.")
    boolean redact;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE (atomically) instead of standard output.")
    Path out;

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        Report report;
        boolean noDriver = false;
        if (out != null) {
            try {
                dev.fabricscope.io.OutputFile.checkTarget(out);
            } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                return DeploymentOptions.usage(spec, "report", "--out " + e.getMessage());
            }
        }
        try {
            if (from != null) {
                if (source.given() || withChecks || deployment.given()) {
                    err.println("fabricscope: --from re-renders a saved report as it was; it cannot be combined with --snapshot, "
                            + "--sample, --with-checks or deployment options");
                    return ExitCodes.USAGE;
                }
                report = ReportIO.read(from);
            } else {
                Deployment d;
                Options o;
                try {
                    d = deployment.deployment();
                    o = deployment.options();
                } catch (AdvisorInputException e) {
                    return usage(e.getMessage());
                }
                MachineSnapshot s = source.load(spec.commandLine(), true);
                noDriver = s.isLive() && !s.driver().driverPresent();
                ReportAdvice advice;
                try {
                    advice = ReportAdvice.of(Advisor.advise(s, d, o), d, o);
                } catch (AdvisorInputException e) {
                    return usage(e.getMessage());
                }
                report = Reports.create(s, advice, checks(s, advice), Main.argv, Instant.now());
            }
        } catch (SnapshotSource.SourceException e) {
            err.println("fabricscope: " + e.getMessage());
            return e.exitCode;
        } catch (SnapshotIO.ReadException e) {
            err.println("fabricscope: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        if (redact) {
            report = Redactor.redact(report);
        }
        Format f = format != null ? format : fromExtension(out);
        String text = switch (f) {
            case json -> ReportIO.toJson(report);
            case md -> MarkdownReport.render(report);
            case html -> HtmlReport.render(report);
        };
        if (out != null && !dev.fabricscope.io.OutputFile.isStandardOutput(out)) {
            dev.fabricscope.io.OutputFile.Kind kind;
            try {
                spec.commandLine().getOut().flush();
                kind = dev.fabricscope.io.OutputFile.write(out, text, System.out);
            } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                return DeploymentOptions.usage(spec, "report", "--out " + e.getMessage());
            } catch (IOException e) {
                err.println("fabricscope: cannot write " + SnapshotIO.oneLineSafe(out + ": " + describe(e)));
                return ExitCodes.FAILURE;
            }
            // a device or FIFO may be this terminal (/dev/stdout): the confirmation then goes to standard error
            var confirm = kind == dev.fabricscope.io.OutputFile.Kind.STREAMED ? err : spec.commandLine().getOut();
            confirm.println((kind == dev.fabricscope.io.OutputFile.Kind.STREAMED ? "Report streamed to " : "Report written to ")
                    + SnapshotIO.oneLineSafe(out.toString()) + " (" + f + ", " + text.length() + " characters; "
                    + report.redaction().describe() + ")");
        } else {
            spec.commandLine().getOut().print(text);
        }
        spec.commandLine().getOut().flush();
        if (noDriver) {
            err.println("fabricscope: " + report.snapshot().driver().message());
            return ExitCodes.NO_DRIVER;
        }
        CheckStatus worst = from == null ? LiveChecks.worst(report.checks()) : null;
        return worst == null ? ExitCodes.OK : CheckCommand.exitCode(worst);
    }

    /** An I/O failure in words: the file system's reason, not Java's exception name. */
    static String describe(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static Format fromExtension(Path out) {
        if (out == null) {
            return Format.json;
        }
        String name = out.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".md") || name.endsWith(".markdown")) {
            return Format.md;
        }
        if (name.endsWith(".html") || name.endsWith(".htm")) {
            return Format.html;
        }
        return Format.json;
    }

    private int usage(String message) {
        return DeploymentOptions.usage(spec, "report", message);
    }

    private ReportChecks checks(MachineSnapshot s, ReportAdvice advice) {
        if (!withChecks) {
            return ReportChecks.notRequested();
        }
        String why = LiveChecks.cannotRun(s);
        var err = spec.commandLine().getErr();
        if (why != null) {
            err.println("fabricscope: checks skipped — " + why);
            err.flush();
            return ReportChecks.skipped(why);
        }
        CheckListener progress = e -> {
            err.println(String.format(Locale.ROOT, "[%s] %s%s", e.check(), e.message(),
                    e.fraction() >= 0 ? String.format(Locale.ROOT, " (%.0f%%)", 100 * e.fraction()) : ""));
            err.flush();
        };
        CheckControl control = new CheckControl();
        Thread hook = new Thread(control::cancel);
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Integer tp = advice.deployment() == null ? null : advice.deployment().tp();
            return LiveChecks.run(s, tp != null && tp <= s.gpus().size() ? tp : null, progress, control);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
        }
    }
}
