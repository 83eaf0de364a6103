package dev.fabricscope.check.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How a check runs: time limit, progress listener and cancellation handle.
 *
 * @param timeout  the check's time limit; past it, collectives are aborted and the check reports TIMED_OUT
 * @param listener progress events
 * @param control  cancellation
 */
public record CheckOptions(Duration timeout, CheckListener listener, CheckControl control) {

    public CheckOptions {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        listener = listener == null ? CheckListener.NONE : listener;
        control = control == null ? new CheckControl() : control;
    }

    public static CheckOptions withTimeout(Duration timeout) {
        return new CheckOptions(timeout, CheckListener.NONE, new CheckControl());
    }
}
