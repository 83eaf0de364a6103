package dev.fabricscope.check;

import dev.fabricscope.check.api.CheckStatus;

/** Thrown at a safe point when the check ran out of time or was cancelled. */
public final class CheckAbortedException extends RuntimeException {

    private final CheckStatus status;

    public CheckAbortedException(CheckStatus status, String message) {
        super(message);
        if (status != CheckStatus.TIMED_OUT && status != CheckStatus.CANCELLED) {
            throw new IllegalArgumentException("abort status must be TIMED_OUT or CANCELLED");
        }
        this.status = status;
    }

    public CheckStatus status() {
        return status;
    }
}
