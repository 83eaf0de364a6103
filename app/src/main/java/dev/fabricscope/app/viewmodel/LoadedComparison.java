package dev.fabricscope.app.viewmodel;

import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.render.DiffText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two reports (or snapshots) compared: the files and the differences that matter, most important first; and the same
 * as the comparison page shows it ({@link #side}, {@link #groups}, {@link #summary}), so the page needs no diff type.
 */
public record LoadedComparison(Path left, Path right, ReportDiff diff) {

    /** One of the two reports, as its card shows it: its name, the machine in a line, when it was probed, its file. */
    public record Side(String name, String machine, String taken, String path) {
    }

    /** A kind of difference (its {@code kind} is the diff's category name, e.g. VERDICTS) and its differences. */
    public record Group(String kind, String title, List<Item> items) {
        public Group {
            items = List.copyOf(items);
        }
    }

    /** One difference: what it is about, report A's and B's values (null: that report lacks it), and what it means. */
    public record Item(String subject, String item, String before, String after, ChangeMeaning meaning) {
    }

    /** Report A ({@code true}) or B. */
    public Side side(boolean a) {
        ReportDiff.Side s = a ? diff.left() : diff.right();
        return new Side(s.name(), s.machine(), s.taken(), (a ? left : right).toString());
    }

    /**
     * The differences by kind, most important kind first; the same change on several GPUs or consecutive links is one
     * item ({@code GPU0–7}, {@code links 0–17}), as {@code diff} folds it ({@link DiffText#fold}).
     */
    public List<Group> groups() {
        List<Group> out = new ArrayList<>();
        for (Map.Entry<ReportDiff.Category, List<ReportDiff.Change>> e : diff.byCategory().entrySet()) {
            out.add(new Group(e.getKey().name(), e.getKey().title(), DiffText.fold(e.getValue()).stream()
                    .map(c -> new Item(c.subject(), c.item(), c.before(), c.after(), ChangeMeaning.of(c))).toList()));
        }
        return out;
    }

    /**
     * "identical in everything compared", "N differences, most important first" or, when the same change on several
     * GPUs or links is one row, "N differences in M rows, most important first".
     */
    public String summary() {
        int n = diff.changes().size();
        int rows = DiffText.fold(diff.changes()).size();
        return n == 0 ? "identical in everything compared" : n + (n == 1 ? " difference" : " differences")
                + (rows < n ? " in " + rows + " rows" : "") + ", most important first";
    }
}
