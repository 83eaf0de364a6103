package dev.fabricscope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fabricscope.model.MachineSnapshot;
import java.util.List;

/**
 * A diagnostic report: one machine snapshot with the advisor's verdicts for a deployment and any live check results,
 * plus where and when it was made. The JSON form is canonical ({@code docs/report-schema.md}); Markdown and HTML are
 * rendered from it. Immutable.
 *
 * @param format        always {@link #FORMAT}: tells a report from a bare snapshot
 * @param reportVersion {@link #REPORT_VERSION} when written by this build
 * @param toolVersion   Fabricscope version that made the report
 * @param createdAt     ISO-8601 instant (UTC) the report was made
 * @param commandLine   the command line that made it (argv, program first)
 * @param snapshot      the machine
 * @param advice        deployment, verdicts and recommendations
 * @param checks        live check results (empty when none were asked for or they could not run)
 * @param redaction     what was replaced by pseudonyms; {@code applied} false for an unredacted report
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Report(String format, int reportVersion, String toolVersion, String createdAt, List<String> commandLine,
                     MachineSnapshot snapshot, ReportAdvice advice, ReportChecks checks, Redaction redaction) {

    public static final String FORMAT = "fabricscope-report";
    public static final int REPORT_VERSION = 1;

    public Report {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
        advice = advice == null ? ReportAdvice.none("no advice recorded") : advice;
        checks = checks == null ? ReportChecks.notRequested() : checks;
        redaction = redaction == null ? Redaction.NONE : redaction;
    }

    /** Same report with another snapshot, advice, checks and redaction (used by redaction). */
    public Report with(MachineSnapshot s, ReportAdvice a, ReportChecks c, Redaction r) {
        return new Report(format, reportVersion, toolVersion, createdAt, commandLine, s, a, c, r);
    }
}
