package dev.fabricscope.cli;

import dev.fabricscope.io.ErrorText;
import dev.fabricscope.render.Fit;
import dev.fabricscope.text.Escape;
import java.io.PrintWriter;

/**
 * The one way the CLI writes a line of its own to standard error: {@code fabricscope: …}, made safe by the existing
 * sanitisers (no control character of a file, device or argument reaches the terminal). Failures reach it through
 * {@link CliExceptionHandler}; notices and failures that do not end a command's output (an output file that could not
 * be written while the result is still shown) are printed here directly.
 */
final class ErrorLine {

    static final String PREFIX = "fabricscope: ";

    private ErrorLine() {
    }

    /** {@code fabricscope: MESSAGE} as one line ({@link ErrorText#oneLineSafe}: newlines and controls escaped). */
    static String of(String message) {
        return PREFIX + ErrorText.oneLineSafe(message);
    }

    static void print(PrintWriter err, String message) {
        err.println(of(message));
        err.flush();
    }

    /** As {@link #print}, cut at a word to fit 120 columns: a cause whose ways out follow on the next line. */
    static void printFitted(PrintWriter err, String message) {
        err.println(Fit.atWord(of(message), Fit.WIDTH));
        err.flush();
    }

    /** A notice that may run long (what a redaction replaced): wrapped at 120 columns, continuations indented 2. */
    static void printWrapped(PrintWriter err, String message) {
        err.print(Fit.wrap(PREFIX + Escape.visible(message, false), Fit.WIDTH, 2));
        err.flush();
    }
}
