package dev.fabricscope.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What "fits 120 columns" means for a terminal text, checked line by line.
 * <ul>
 * <li>A <em>cell</em> is a run of text between runs of two or more spaces; a line's cells start at its
 * <em>column starts</em>.</li>
 * <li>A <em>table row</em> is a line of three or more cells (a header or a row).</li>
 * <li>A <em>wrapped row</em> is a non-blank line right after a table row that is indented further than that row,
 * starts at none of its column starts and has fewer cells: the tail of a row (or header) put on a line of its own,
 * indented under a column that is not the first. Not a wrap: a row with empty leading cells (it starts at a column
 * start), a right-aligned sibling row (as many cells or more), a labelled detail under a row (up to three words and
 * a colon: {@code says:}, {@code GPU0 peak:}, {@code handle type:}).</li>
 * </ul>
 * Prose wrapped under a two-column list (a description under its column, as {@code samples} and {@code --help} do)
 * is not a table row.
 */
final class TerminalLayout {

    static final int WIDTH = 120;
    private static final Pattern CELL = Pattern.compile("\\S+(?: \\S+)*");
    private static final Pattern LABEL = Pattern.compile("[^ :]+(?: [^ :]+){0,2}:(?: |$)");

    private TerminalLayout() {
    }

    /** The starts of the cells of {@code line}. */
    static List<Integer> columnStarts(String line) {
        List<Integer> starts = new ArrayList<>();
        Matcher m = CELL.matcher(line);
        while (m.find()) {
            starts.add(m.start());
        }
        return starts;
    }

    static int indent(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /** Every problem of {@code text}: {@code what: N columns: line} and {@code what: wrapped row: row / tail}. */
    static List<String> problems(String what, String text) {
        List<String> out = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int cols = l.codePointCount(0, l.length());
            if (cols > WIDTH) {
                out.add(what + ": " + cols + " columns: " + l);
            }
            if (i > 0 && isWrap(lines.get(i - 1), l)) {
                out.add(what + ": wrapped row:\n" + lines.get(i - 1) + "\n" + l);
            }
        }
        return out;
    }

    static boolean isWrap(String row, String next) {
        if (next.isBlank()) {
            return false;
        }
        List<Integer> starts = columnStarts(row);
        boolean labelled = LABEL.matcher(next.strip()).lookingAt();
        return starts.size() >= 3 && indent(next) > indent(row) && !starts.contains(indent(next))
                && columnStarts(next).size() < starts.size() && !labelled;
    }
}
