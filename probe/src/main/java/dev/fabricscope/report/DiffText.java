package dev.fabricscope.report;

import dev.fabricscope.report.ReportDiff.Change;
import dev.fabricscope.render.TextTable;
import java.util.List;

/** The text view of a {@link ReportDiff} for a terminal: control characters escaped, long values cut. */
public final class DiffText {

    private static final int MAX = 200;

    private DiffText() {
    }

    public static String render(ReportDiff d) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(t(d.left().name())).append(" — ").append(t(d.left().machine()))
                .append(d.left().taken() == null ? "" : " (probed " + t(d.left().taken()) + ")").append('\n');
        sb.append("B: ").append(t(d.right().name())).append(" — ").append(t(d.right().machine()))
                .append(d.right().taken() == null ? "" : " (probed " + t(d.right().taken()) + ")").append('\n');
        if (d.identical()) {
            return sb.append("\nNo differences.\n").toString();
        }
        sb.append('\n').append(ReportFacts.plural(d.changes().size(), "difference")).append(", most important first.\n");
        d.byCategory().forEach((c, changes) -> {
            sb.append('\n').append(c.title()).append(":\n");
            TextTable table = new TextTable("", "", "A", "", "B");
            for (Change x : changes) {
                table.row("  " + t(x.subject()), t(x.item()), x.before() == null ? "(none)" : t(x.before()), "→",
                        x.after() == null ? "(none)" : t(x.after()));
            }
            List<String> lines = table.render().lines().skip(1).toList();
            lines.forEach(l -> sb.append(l).append('\n'));
        });
        return sb.toString();
    }

    private static String t(String s) {
        return Escape.visible(Escape.cut(s, MAX), false);
    }
}
