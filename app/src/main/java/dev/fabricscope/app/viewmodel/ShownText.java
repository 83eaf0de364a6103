package dev.fabricscope.app.viewmodel;

import dev.fabricscope.text.Escape;
import dev.fabricscope.text.LongValues;

/**
 * The app's rule for text from files and devices, the CLI's ({@link Escape}): control characters, DEL, bidi
 * overrides and other format characters are shown as {@code \}{@code u001b}, {@code \}{@code u202e}…, never as
 * themselves, and a line longer than {@link LongValues#MAX} characters is cut and says by how much ("… (N more
 * characters)"), as in every text output. The views apply it everywhere (view.SafeText: every label, cell, text
 * and tooltip); the window title is made safe here. Exports and JSON keep the whole value.
 */
public final class ShownText {

    private ShownText() {
    }

    /** {@code s} with invisible characters shown visibly; newlines and tabs kept when {@code multiLine}. Null stays null. */
    public static String visible(String s, boolean multiLine) {
        return s == null ? null : Escape.visible(cutLines(s), multiLine);
    }

    /** Longest table cell, as in the CLI's tables: a wrapping cell grows its row, so one value cannot fill the screen. */
    public static final int CELL = dev.fabricscope.render.TextTable.MAX_CELL;

    /** A table cell's text: visible, cut to {@link #CELL} characters with how many more there were. Null stays null. */
    public static String cell(String s) {
        return s == null ? null : Escape.visible(Escape.fit(s, CELL), false);
    }

    /** Every line of {@code s} in at most {@link LongValues#MAX} characters; applying it twice changes nothing. */
    static String cutLines(String s) {
        if (s.length() <= LongValues.MAX) {
            return s;
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 4 * LongValues.MAX));
        int start = 0;
        while (start <= s.length()) {
            int nl = s.indexOf('\n', start);
            int end = nl < 0 ? s.length() : nl;
            sb.append(Escape.fit(s.substring(start, end), LongValues.MAX));
            if (nl < 0) {
                break;
            }
            sb.append('\n');
            start = nl + 1;
        }
        return sb.toString();
    }

    /** What the About box names: the version, git commit and build date. */
    public static String version() {
        return dev.fabricscope.Version.get();
    }
}
