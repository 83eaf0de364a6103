package dev.fabricscope.check.api;

/** The caller's handle on a running check: {@link #cancel()} stops it at its next safe point. */
public final class CheckControl {

    private volatile boolean cancelled;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
