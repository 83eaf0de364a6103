package dev.fabricscope.cli;

import java.nio.file.Path;

/**
 * A command stops with a failure it has put in words: one line for the user, the exit code ({@link ExitCodes}) and,
 * where there is one, a line on what to do instead. Thrown out of a command's {@code call()}; {@link
 * CliExceptionHandler} prints it, as it prints the use cases' refusals.
 */
public final class CommandFailure extends Exception {

    private final int exitCode;
    private final String hint;
    private final boolean fitted;

    private CommandFailure(int exitCode, String message, String hint, boolean fitted) {
        super(message, null, false, false);
        this.exitCode = exitCode;
        this.hint = hint;
        this.fitted = fitted;
    }

    /** Ends the command with {@code exitCode} and the line {@code fabricscope: MESSAGE}. */
    public static CommandFailure of(int exitCode, String message) {
        return new CommandFailure(exitCode, message, null, false);
    }

    /** A wrong request (exit 2); the handler adds where to look ({@code Try 'fabricscope probe --help'.}). */
    public static CommandFailure usage(String message) {
        return of(ExitCodes.USAGE, message);
    }

    /** An output that could not be written (exit 8): {@code cannot write --out /dev/full: No space left on device}. */
    public static CommandFailure cannotWrite(String option, Path target, Exception e) {
        return of(ExitCodes.CANNOT_WRITE, ExitCodes.cannotWrite(option, target, e));
    }

    /** Its line cut at a word to fit 120 columns, then {@code hint} as it is (a cause, then the ways out). */
    public static CommandFailure fitted(int exitCode, String message, String hint) {
        return new CommandFailure(exitCode, message, hint, true);
    }

    public int exitCode() {
        return exitCode;
    }

    /** The line after the message (what to do instead), or null. */
    String hint() {
        return hint;
    }

    boolean fitted() {
        return fitted;
    }
}
