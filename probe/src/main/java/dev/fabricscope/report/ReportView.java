package dev.fabricscope.report;

import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.text.Escape;
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
        return a.deployment() == null ? Optional.empty() : Optional.of(a.deployment().summary());
    }

    /** The {@code advise} command line that gives the same verdicts for this report's snapshot, or null when not advised. */
    static String reproduce(ReportAdvice a) {
        if (a.requested() == null || a.options() == null) {
            return null;
        }
        List<String> args = new ArrayList<>(List.of("fabricscope", "advise", "--snapshot", "REPORT.json"));
        var d = a.requested();
        opt(args, "--tp", d.tp());
        opt(args, "--nodes", d.nodes());
        opt(args, "--dcp", d.dcp());
        opt(args, "--model", d.model());
        opt(args, "--tokens", d.tokens());
        d.flags().forEach((k, v) -> args.add("--flag " + shellQuote(k + "=" + v)));
        d.env().forEach((k, v) -> args.add("--env " + shellQuote(k + "=" + v)));
        a.options().frameworks().forEach(f -> args.add("--framework " + shellQuote(f)));
        a.options().versions().forEach((k, v) -> args.add("--framework-version " + shellQuote(k + "=" + v)));
        a.options().assume().forEach((k, v) -> args.add("--assume " + shellQuote(k + "=" + v)));
        return String.join(" ", args);
    }

    private static void opt(List<String> args, String name, Object v) {
        if (v != null) {
            args.add(name + " " + shellQuote(String.valueOf(v)));
        }
    }

    private static final java.util.regex.Pattern REPO = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}");
    private static final java.util.regex.Pattern PATH = java.util.regex.Pattern.compile("[A-Za-z0-9_./+-]{1,300}");

    /** A link to the rule's source on GitHub, only when repo, commit and path look like what they are; else null. */
    static String sourceUrl(dev.fabricscope.advisor.api.SourceRef src) {
        if (src == null || src.repo() == null || src.path() == null || src.commit() == null
                || !REPO.matcher(src.repo()).matches() || !src.commit().matches("[0-9a-f]{40}")
                || !PATH.matcher(src.path()).matches() || src.path().contains("..")) {
            return null;
        }
        return Escape.url(src.url());
    }

    /** The advisor's inputs as label/value lines: deployment, derived values, settings, facts, rules, how to reproduce. */
    static List<String[]> adviceInputs(ReportAdvice a) {
        List<String[]> out = new ArrayList<>();
        deployment(a).ifPresent(d -> out.add(new String[] {"Deployment", d}));
        if (a.deployment() != null) {
            new java.util.TreeMap<>(a.deployment().notes()).forEach((k, v) -> out.add(new String[] {"Derived " + k, v}));
            List<String> given = new ArrayList<>();
            new java.util.TreeMap<>(a.deployment().flags()).forEach((k, v) -> given.add("--flag " + k + "=" + v));
            new java.util.TreeMap<>(a.deployment().env()).forEach((k, v) -> given.add("--env " + k + "=" + v));
            if (!given.isEmpty()) {
                out.add(new String[] {"Settings", String.join(" ", given)});
            }
        }
        a.facts().forEach((k, v) -> out.add(new String[] {"Fact " + k, v + (a.factSources().containsKey(k) ? " (" + a.factSources().get(k) + ")" : "")}));
        if (!a.versions().isEmpty()) {
            List<String> v = new ArrayList<>();
            a.versions().forEach((k, x) -> v.add(k + " " + x));
            out.add(new String[] {"Rules", String.join(" · ", v)});
        }
        if (a.blocked() != null) {
            out.add(new String[] {"No verdicts", a.blocked()});
        }
        String again = reproduce(a);
        if (again != null) {
            out.add(new String[] {"Reproduce", again});
        }
        return out;
    }

    /** {@code (default: X)} or the user's value. */
    static String value(Verdict v) {
        if (v.value() == null) {
            return "(default)";
        }
        // The advisor already marks some defaults itself, e.g. "auto (default)" or "true (default at -O2)".
        return v.userSet() || v.value().contains("(default") ? v.value() : v.value() + " (default)";
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
        rec.dropCommands().stream().filter(d -> d.startsWith("unset ")).forEach(lines::add);
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
