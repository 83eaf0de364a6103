package dev.fabricscope.usecase;

/**
 * A use case could not do what was asked: the request itself is wrong (a usage error) or an input it names cannot be
 * read. The message is one line for the user; the CLI maps the reason to its exit code, the GUI shows the line.
 */
public final class UseCaseException extends Exception {

    /** Why the request failed. */
    public enum Reason {
        /** The request is wrong: a bad deployment, options that do not fit together. */
        INVALID_REQUEST,
        /** A file or folder the request names cannot be read or holds nothing usable. */
        UNREADABLE_INPUT
    }

    private final Reason reason;

    public UseCaseException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public UseCaseException(Reason reason, String message) {
        this(reason, message, null);
    }

    public Reason reason() {
        return reason;
    }

    static UseCaseException invalid(String message, Throwable cause) {
        return new UseCaseException(Reason.INVALID_REQUEST, message, cause);
    }

    static UseCaseException unreadable(String message, Throwable cause) {
        return new UseCaseException(Reason.UNREADABLE_INPUT, message, cause);
    }
}
