package dev.fabricscope.report;

import dev.fabricscope.Version;
import dev.fabricscope.model.MachineSnapshot;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Makes reports. */
public final class Reports {

    private Reports() {
    }

    /** A new, unredacted report made now by this build. */
    public static Report create(MachineSnapshot snapshot, ReportAdvice advice, ReportChecks checks,
                                List<String> commandLine, Instant now) {
        return new Report(Report.FORMAT, Report.REPORT_VERSION, Version.get(),
                now.truncatedTo(ChronoUnit.MILLIS).toString(), commandLine, snapshot, advice, checks, Redaction.NONE);
    }

    /** A bare snapshot opened as a report: its own provenance, no verdicts, no checks. */
    public static Report fromSnapshot(MachineSnapshot s) {
        var p = s.probe();
        return new Report(Report.FORMAT, Report.REPORT_VERSION, p.toolVersion(), p.probedAt(), p.commandLine(), s,
                ReportAdvice.none("a bare snapshot: no advice was recorded with it"), ReportChecks.notRequested(),
                Redaction.NONE);
    }
}
