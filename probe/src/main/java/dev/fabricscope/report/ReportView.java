package dev.fabricscope.report;

import dev.fabricscope.advisor.Recommendation;
import dev.fabricscope.advisor.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Wording shared by the Markdown and HTML reports (plain text; the caller escapes). */
final class ReportView {

    private ReportView() {
    }

    /** The deployment the verdicts are for, in one line, when the report records one. */
    static Optional<String> deployment(ReportAdvice a) {
        return Optional.empty();
    }

    private static final java.util.regex.Pattern REPO = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}");
    private static final java.util.regex.Pattern PATH = java.util.regex.Pattern.compile("[A-Za-z0-9_./+-]{1,300}");

    /** A link to the rule's source on GitHub, only when repo, commit and path look like what they are; else null. */
    static String sourceUrl(dev.fabricscope.advisor.SourceRef src) {
        if (src == null || src.repo() == null || src.path() == null || src.commit() == null
                || !REPO.matcher(src.repo()).matches() || !src.commit().matches("[0-9a-f]{40}")
                || !PATH.matcher(src.path()).matches() || src.path().contains("..")) {
            return null;
        }
        return Escape.url(src.url());
    }

    /** {@code (default: X)} or the user's value. */
    static String value(Verdict v) {
        if (v.value() == null) {
            return "(default)";
        }
        return v.userSet() ? v.value() : v.value() + " (default)";
    }

    /** {@code ok → trtllm}, {@code fallback → nccl}, {@code error: ValueError}. */
    static String outcome(Verdict v) {
        String o = v.outcome().json();
        if (v.errorClass() != null) {
            o += ": " + v.errorClass();
        }
        if (v.resolved() != null) {
            o += " → " + v.resolved();
        }
        return o;
    }

    /** The recommendation as shell lines: {@code export K=V} then the flags. */
    static String commandLines(Recommendation rec) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(rec.env()).entrySet()) {
            lines.add("export " + e.getKey() + "=" + shellQuote(e.getValue()));
        }
        if (!rec.flags().isEmpty()) {
            lines.add(String.join(" ", rec.flags()));
        }
        return String.join("\n", lines);
    }

    static String shellQuote(String v) {
        return v.matches("[A-Za-z0-9_.,:/=+-]*") && !v.isEmpty() ? v : "'" + v.replace("'", "'\\''") + "'";
    }
}
