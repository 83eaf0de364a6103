package dev.fabricscope.render;

import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with left-aligned columns separated by two spaces. Cells are one line with nothing invisible
 * ({@link Escape#visible}) and at most {@link #MAX_CELL} characters ({@code … (N more characters)}), so one
 * hostile value cannot pad every row of the table to megabytes.
 */
public final class TextTable {
    /** Longest cell, in characters. */
    public static final int MAX_CELL = 120;

    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        rows.add(header);
    }

    public TextTable row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = cell(cells[i] == null ? "" : String.valueOf(cells[i]));
        }
        rows.add(r);
        return this;
    }

    /** One cell: escaped, cut to {@link #MAX_CELL} characters with how many more there were ({@link Escape#cut}). */
    static String cell(String raw) {
        String v = Escape.visible(raw, false);
        return Escape.fit(v, MAX_CELL);
    }

    public String render() {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] w = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(r[i]);
                if (i < r.length - 1) {
                    line.append(" ".repeat(w[i] - r[i].length() + 2));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
