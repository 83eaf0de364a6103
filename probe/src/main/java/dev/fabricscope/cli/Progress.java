package dev.fabricscope.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of long work on stderr: on a terminal one line rewritten in place, when asked for on a pipe one line per
 * event, otherwise nothing.
 */
final class Progress {

    private final PrintWriter err;
    private final boolean inPlace;
    private int lastWidth;

    private Progress(PrintWriter err, boolean inPlace) {
        this.err = err;
        this.inPlace = inPlace;
    }

    /** True when stderr is likely a terminal (the JVM has a console: neither stdin nor stdout is redirected). */
    static boolean terminal() {
        return System.console() != null;
    }

    /**
     * @param requested {@code --progress} (true), {@code --no-progress} (false), or null for the default: on a
     *                  terminal only
     * @return a progress printer, or null when there is to be none
     */
    static Progress of(PrintWriter err, Boolean requested) {
        boolean tty = terminal();
        boolean on = requested != null ? requested : tty;
        return on ? new Progress(err, tty) : null;
    }

    void update(String what, String message, double fraction) {
        String text = String.format(Locale.ROOT, "[%s] %s%s", what, message,
                fraction >= 0 ? String.format(Locale.ROOT, " (%.0f%%)", 100 * fraction) : "");
        text = text.replaceAll("\\p{Cntrl}", " ");
        if (inPlace) {
            String shown = text.length() > 119 ? text.substring(0, 118) + "…" : text;
            err.print("\r" + shown + " ".repeat(Math.max(0, lastWidth - shown.length())));
            lastWidth = shown.length();
        } else {
            err.println(text);
        }
        err.flush();
    }

    /** Clears the in-place line before the result is printed. */
    void done() {
        if (inPlace && lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
            lastWidth = 0;
        }
    }
}
