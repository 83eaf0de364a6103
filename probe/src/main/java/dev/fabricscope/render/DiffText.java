package dev.fabricscope.render;

import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.diff.ReportDiff.Change;
import dev.fabricscope.text.Escape;
import dev.fabricscope.text.Words;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text view of a {@link ReportDiff} for a terminal: a one-line answer first, then the changes by category with
 * identical per-link and per-GPU changes folded into ranges ({@code GPU0–7}, {@code links 0–17}); control characters
 * escaped, long values cut, 120 columns.
 */
public final class DiffText {

    private static final int MAX = 200;
    private static final Pattern LINK = Pattern.compile("link (\\d+)(?: (.+))?");
    private static final Pattern GPU = Pattern.compile("GPU(\\d+)");
    private static final Pattern PAIR = Pattern.compile("GPU\\d+–GPU\\d+");

    private DiffText() {
    }

    public static String render(ReportDiff d) {
        return render(d, false);
    }

    /** @param all one row per GPU and per link instead of folded ranges */
    public static String render(ReportDiff d, boolean all) {
        d = dev.fabricscope.text.LongValues.cut(d);
        StringBuilder sb = new StringBuilder();
        List<Change> changes = all ? d.changes() : fold(d.changes());
        sb.append(answer(d, changes)).append("\n\n");
        sb.append("A: ").append(t(d.left().name())).append(" — ").append(t(d.left().machine()))
                .append(d.left().taken() == null ? "" : " (probed " + t(d.left().taken()) + ")").append('\n');
        sb.append("B: ").append(t(d.right().name())).append(" — ").append(t(d.right().machine()))
                .append(d.right().taken() == null ? "" : " (probed " + t(d.right().taken()) + ")").append('\n');
        if (d.identical()) {
            return Fit.wrap(sb.toString(), Fit.WIDTH);
        }
        String head = Fit.wrap(sb.toString(), Fit.WIDTH);
        sb.setLength(0);
        sb.append(head);
        Map<ReportDiff.Category, List<Change>> byCategory = new LinkedHashMap<>();
        for (ReportDiff.Category c : ReportDiff.Category.values()) {
            List<Change> l = changes.stream().filter(x -> x.category() == c).toList();
            if (!l.isEmpty()) {
                byCategory.put(c, l);
            }
        }
        byCategory.forEach((c, list) -> {
            sb.append('\n').append(c.title()).append(":\n");
            TextTable table = new TextTable("", "", "A", "", "B");
            for (Change x : list) {
                table.row("  " + t(x.subject()), t(x.item()), x.before() == null ? "(none)" : t(x.before()), "→",
                        x.after() == null ? "(none)" : t(x.after()));
            }
            List<String> lines = table.render().lines().skip(1).toList();
            if (lines.stream().allMatch(l -> l.length() <= Fit.WIDTH)) {
                lines.forEach(l -> sb.append(l).append('\n'));
                return;
            }
            // Too wide for a table: one block per change.
            for (Change x : list) {
                sb.append(Fit.wrap("  " + t(x.subject()) + "  " + t(x.item()), Fit.WIDTH));
                sb.append(Fit.wrap("      A: " + (x.before() == null ? "(none)" : t(x.before())), Fit.WIDTH));
                sb.append(Fit.wrap("      B: " + (x.after() == null ? "(none)" : t(x.after())), Fit.WIDTH));
            }
        });
        if (!all && changes.size() < d.changes().size()) {
            sb.append("\n(").append(d.changes().size()).append(" differences folded into ").append(changes.size())
                    .append(" rows; --all lists one per GPU and link)\n");
        }
        return sb.toString();
    }

    /** {@code Differ: 201 differences in 4 areas; first: GPU0–7 model NVIDIA H100 … → NVIDIA B200} or {@code Same: …}. */
    static String answer(ReportDiff d, List<Change> folded) {
        if (d.identical()) {
            return "No differences.";
        }
        Change first = folded.get(0);
        String line = "Differ: " + Words.plural(d.changes().size(), "difference") + " in "
                + Words.plural(d.byCategory().size(), "area") + "; first: " + t(first.subject()) + " " + t(first.item()) + " "
                + (first.before() == null ? "(none)" : t(first.before())) + " → " + (first.after() == null ? "(none)" : t(first.after()));
        return line.length() <= Fit.WIDTH ? line : line.substring(0, Fit.WIDTH - 1) + "…";
    }

    /**
     * Folds identical changes of consecutive links, then of GPUs and GPU pairs, keeping first-seen order: what
     * {@code diff} prints and the app's Compare page lists.
     */
    public static List<Change> fold(List<Change> changes) {
        return foldSubjects(foldLinks(changes));
    }

    private static List<Change> foldLinks(List<Change> changes) {
        return InOrderFold.fold(changes, c -> {
            Matcher m = c.item() == null ? null : LINK.matcher(c.item());
            return m == null || !m.matches() ? null : java.util.Arrays.asList(c.category(), c.subject(), m.group(2), c.before(), c.after());
        }, (c, same) -> {
            if (same.size() == 1) {
                return c;
            }
            String attr = linkAttribute(c);
            String links = Fit.ranges("", same.stream().map(DiffText::linkNumber).toList()).replace(", ", ",");
            return new Change(c.category(), c.subject(), "links " + links + (attr == null ? "" : " " + attr), c.before(), c.after());
        });
    }

    private static int linkNumber(Change c) {
        Matcher m = LINK.matcher(c.item());
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String linkAttribute(Change c) {
        Matcher m = LINK.matcher(c.item());
        return m.matches() ? m.group(2) : null;
    }

    private static List<Change> foldSubjects(List<Change> changes) {
        return InOrderFold.fold(changes, c -> {
            String s = c.subject() == null ? "" : c.subject();
            boolean gpu = GPU.matcher(s).matches();
            return gpu || PAIR.matcher(s).matches() ? java.util.Arrays.asList(c.category(), gpu, c.item(), c.before(), c.after()) : null;
        }, (c, same) -> {
            List<String> subjects = same.stream().map(Change::subject).toList();
            String subject;
            if (subjects.size() == 1) {
                subject = subjects.get(0);
            } else if (GPU.matcher(subjects.get(0)).matches()) {
                subject = Fit.ranges("GPU", subjects.stream().map(x -> Integer.parseInt(x.substring(3))).toList());
            } else {
                subject = subjects.size() <= 2 ? String.join(", ", subjects) : subjects.size() + " GPU pairs";
            }
            return new Change(c.category(), subject, c.item(), c.before(), c.after());
        });
    }

    private static String t(String s) {
        return Escape.visible(Escape.cut(s, MAX), false);
    }
}
