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

    /** This table without column {@code index} (0 is the first). */
    /** Rows for GPU0..n-1 whose cells are equal, folded into one row labelled {@code GPU0–7}. */
    public TextTable foldedGpuRows(java.util.List<Object[]> perGpu) {
        int i = 0;
        while (i < perGpu.size()) {
            int j = i;
            while (j + 1 < perGpu.size() && java.util.Arrays.equals(perGpu.get(j + 1), perGpu.get(i))) {
                j++;
            }
            Object[] row = new Object[perGpu.get(i).length + 1];
            row[0] = i == j ? "GPU" + i : "GPU" + i + "–" + j;
            System.arraycopy(perGpu.get(i), 0, row, 1, perGpu.get(i).length);
            row(row);
            i = j + 1;
        }
        return this;
    }

    public TextTable withoutColumn(int index) {
        TextTable t = new TextTable();
        t.rows.clear();
        for (String[] r : rows) {
            List<String> cells = new ArrayList<>(List.of(r));
            if (index < cells.size()) {
                cells.remove(index);
            }
            t.rows.add(cells.toArray(String[]::new));
        }
        return t;
    }

    /** The header and the first {@code rowCount - 1} rows, their first {@code columnCount} cells. */
    public TextTable part(int rowCount, int columnCount) {
        TextTable t = new TextTable();
        t.rows.clear();
        for (String[] r : rows.subList(0, Math.min(rowCount, rows.size()))) {
            t.rows.add(java.util.Arrays.copyOf(r, Math.min(columnCount, r.length)));
        }
        return t;
    }

    /** This table without its last {@code n} columns. */
    public TextTable withoutLastColumns(int n) {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        TextTable t = this;
        for (int i = 0; i < n && cols - 1 - i >= 0; i++) {
            t = t.withoutColumn(cols - 1 - i);
        }
        return t;
    }

    /**
     * The table within {@code width} columns: a row too wide continues its last cell on the next lines, under that
     * cell's column (broken after a space, {@code |} or {@code ,}); the other cells are never moved.
     */
    public String render(int width) {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        if (cols < 2) {
            return render();
        }
        int[] w = widths(cols);
        int start = 0;
        for (int i = 0; i < cols - 1; i++) {
            start += w[i] + 2;
        }
        int room = width - start;
        if (room < 12) {
            return render();
        }
        StringBuilder sb = new StringBuilder();
        for (String line : render().lines().toList()) {
            if (line.length() <= width || line.length() <= start) {
                sb.append(line).append('\n');
                continue;
            }
            String rest = line.substring(start);
            String prefix = line.substring(0, start);
            while (rest.length() > room) {
                int cut = breakAt(rest, room);
                sb.append((prefix + rest.substring(0, cut)).stripTrailing()).append('\n');
                rest = rest.substring(cut).stripLeading();
                prefix = " ".repeat(start);
            }
            sb.append(prefix).append(rest).append('\n');
        }
        return sb.toString();
    }

    /** Where to break {@code text} to keep at most {@code room} characters: after its last space, | or , within room. */
    private static int breakAt(String text, int room) {
        for (int i = room; i > room / 3; i--) {
            char c = text.charAt(i - 1);
            if (c == ' ' || c == '|' || c == ',') {
                return i;
            }
        }
        return room;
    }

    private int[] widths(int cols) {
        int[] w = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        return w;
    }

    public String render() {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] w = widths(cols);
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
