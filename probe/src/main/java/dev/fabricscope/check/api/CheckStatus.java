package dev.fabricscope.check.api;

/** How a live check ended. */
public enum CheckStatus {
    /** Ran, and everything it tested worked. */
    PASSED,
    /** Ran, and found a failure (wrong results, a framework step that fails here). */
    FAILED,
    /** Did not run (no driver, no peer access, nothing to test); the summary says why. */
    SKIPPED,
    /** Ran past its time limit; hung collectives were aborted. */
    TIMED_OUT,
    /** Stopped on request. */
    CANCELLED,
    /** Could not run because of an unexpected error (a CUDA call failed outside what is being tested). */
    ERROR;

    /** The worse of two statuses, for combining parts of one check. */
    public CheckStatus worse(CheckStatus other) {
        return rank(other) > rank(this) ? other : this;
    }

    private static int rank(CheckStatus s) {
        return switch (s) {
            case PASSED -> 0;
            case SKIPPED -> 1;
            case FAILED -> 2;
            case CANCELLED -> 3;
            case TIMED_OUT -> 4;
            case ERROR -> 5;
        };
    }
}
