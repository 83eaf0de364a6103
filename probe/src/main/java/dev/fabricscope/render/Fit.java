package dev.fabricscope.render;

/** Keeps terminal text within {@link #WIDTH} columns: wraps prose, folds numbered items into ranges. */
public final class Fit {

    /** The default terminal width every text view fits in. */
    public static final int WIDTH = 120;

    private Fit() {
    }

    /** Wraps every line of {@code text} longer than {@code width} at spaces; continuations indented 4 more. */
    public static String wrap(String text, int width) {
        return wrap(text, width, -1);
    }

    /** As {@link #wrap(String, int)}, continuations indented by {@code indent} columns (-1: the line's own + 4). */
    public static String wrap(String text, int width, int indent) {
        StringBuilder sb = new StringBuilder();
        text.lines().forEach(l -> wrapLine(sb, l, width, indent));
        return sb.toString();
    }

    private static void wrapLine(StringBuilder sb, String line, int width, int indent) {
        if (line.length() <= width) {
            sb.append(line).append('\n');
            return;
        }
        int lead = 0;
        while (lead < line.length() && line.charAt(lead) == ' ') {
            lead++;
        }
        String cont = " ".repeat(Math.min(indent >= 0 ? indent : lead + 4, width / 2));
        String rest = line;
        String prefix = "";
        while ((prefix + rest).length() > width) {
            int room = width - prefix.length();
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= prefix.length() / 2 || cut <= 0 || rest.substring(0, cut).isBlank()) {
                cut = room; // no space to break at: hard break
            }
            sb.append(prefix).append(rest, 0, cut).append('\n');
            rest = rest.substring(cut).stripLeading();
            prefix = cont;
        }
        if (!rest.isEmpty()) {
            sb.append(prefix).append(rest).append('\n');
        }
    }

    /**
     * {@code text} in at most {@code max} characters: whole, or cut at the last space that leaves room for {@code …}
     * (a hard cut only when a single word is longer), so the cell still reads as a sentence up to its cut.
     */
    public static String atWord(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int room = Math.max(1, max - 1);
        int cut = text.lastIndexOf(' ', room);
        if (cut < room / 2) {
            cut = room;
        }
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        String head = text.substring(0, cut).stripTrailing();
        while (!head.isEmpty() && ",;:—-(".indexOf(head.charAt(head.length() - 1)) >= 0) {
            head = head.substring(0, head.length() - 1).stripTrailing();
        }
        return head + "…";
    }

    /** The widest line of {@code text}. */
    public static int widest(String text) {
        return text.lines().mapToInt(String::length).max().orElse(0);
    }

    /** {@code [0,1,2,3,5]} with prefix GPU → {@code GPU0–3, GPU5} ({@link dev.fabricscope.text.Ranges#of}). */
    public static String ranges(String prefix, java.util.Collection<Integer> numbers) {
        return dev.fabricscope.text.Ranges.of(prefix, numbers);
    }
}
