package dev.fabricscope.report;

import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.CheckSections;
import dev.fabricscope.render.CheckText;
import dev.fabricscope.render.Fit;
import dev.fabricscope.render.TextTable;
import dev.fabricscope.text.Escape;
import java.util.List;

/**
 * The live checks a report holds, with when and on which machine they ran: what {@code show}, the app's Checks and
 * Matrices tabs (read-only) show of a report. The report's own JSON stays the record; this only reads it.
 *
 * @param madeAt  when the report (and so its checks, which {@code report --with-checks} runs) was made, ISO-8601
 * @param machine the machine, e.g. {@code vm (2× NVIDIA H200)}
 * @param entries the checks that ran, in the order run (never empty)
 */
public record RecordedChecks(String madeAt, String machine, List<ReportChecks.Entry> entries) {

    public RecordedChecks {
        entries = List.copyOf(entries);
    }

    /** The checks of {@code r}, or null when it holds none (not asked for, skipped, a bare snapshot). */
    public static RecordedChecks of(Report r) {
        if (r == null || r.checks().results().isEmpty()) {
            return null;
        }
        return new RecordedChecks(r.createdAt(), machine(r.snapshot()), r.checks().results());
    }

    static String machine(MachineSnapshot s) {
        String host = s.host() == null ? "unknown host" : s.host().hostname().orElse("unknown host");
        var models = new java.util.LinkedHashMap<String, Integer>();
        s.gpus().forEach(g -> models.merge(g.name().orElse("GPU"), 1, Integer::sum));
        StringBuilder gpus = new StringBuilder();
        models.forEach((name, n) -> gpus.append(gpus.length() == 0 ? "" : ", ").append(n).append("× ").append(name));
        return host + (gpus.length() == 0 ? "" : " (" + gpus + ")");
    }

    private static final java.time.format.DateTimeFormatter WHEN = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(java.time.ZoneOffset.UTC);

    /** "made 2026-12-01 02:20:48 UTC on vm (2× NVIDIA H200)" (a time that does not parse is given as written). */
    public String provenance() {
        String when;
        try {
            when = madeAt == null ? "at an unknown time" : WHEN.format(java.time.Instant.parse(madeAt));
        } catch (java.time.format.DateTimeParseException e) {
            when = madeAt;
        }
        return "made " + when + " on " + machine;
    }

    /** The result of the check named {@code check} read as its record, or null when absent or unreadable. */
    public CheckResult result(String check) {
        return entries.stream().filter(e -> check.equals(e.check())).findFirst().map(ReportChecks.Entry::typed).orElse(null);
    }

    /**
     * As {@code show} prints them: a heading with date and machine, one line per check, then each check's tables
     * ({@link CheckSections}) within {@code width} columns (cells cut at a word); {@code Integer.MAX_VALUE}
     * ({@code show --wide}): each check as {@code fabricscope check NAME} prints it ({@link CheckText}), however wide.
     */
    public String text(int width) {
        StringBuilder sb = new StringBuilder();
        sb.append(Fit.wrap("Live checks (recorded in the report, " + Escape.visible(provenance(), false) + "):", width));
        TextTable t = new TextTable("Check", "Status", "Summary");
        for (ReportChecks.Entry e : entries) {
            t.row(e.check(), e.status(), width == Integer.MAX_VALUE ? e.summary() : Fit.atWord(oneLine(e.summary()), width - 30));
        }
        t.render().lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        for (ReportChecks.Entry e : entries) {
            CheckResult r = e.typed();
            sb.append('\n');
            if (r == null) {
                sb.append(Fit.wrap(Escape.visible(e.check() + ": the result cannot be shown: " + e.unreadable()
                        + " (the JSON report keeps it as recorded)", false), width));
                continue;
            }
            // at full width the check command's own text (nccl-tests' layout, in-place and CUDA-event timings included)
            sb.append(width == Integer.MAX_VALUE ? CheckText.render(r)
                    : CheckSections.text(CheckSections.of(dev.fabricscope.text.LongValues.cut(r)), width));
        }
        return sb.toString();
    }

    private static String oneLine(String s) {
        return s == null ? "" : dev.fabricscope.io.ErrorText.oneLineSafe(s);
    }
}
