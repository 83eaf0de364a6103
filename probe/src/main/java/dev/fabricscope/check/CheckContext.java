package dev.fabricscope.check;

import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a running check sees: its deadline, the cancellation flag, the progress listener, and a place to register
 * abort hooks (e.g. {@code ncclCommAbort}) that {@link CheckRunner} fires if the worker stays blocked in native code.
 */
public final class CheckContext {

    private final String check;
    private final long deadlineNanos;
    private final CheckOptions options;
    private final List<Runnable> abortHooks = new CopyOnWriteArrayList<>();
    private volatile String step = "starting";

    public CheckContext(String check, CheckOptions options) {
        this.check = check;
        this.options = options;
        this.deadlineNanos = System.nanoTime() + options.timeout().toNanos();
    }

    public String check() {
        return check;
    }

    public CheckOptions options() {
        return options;
    }

    /** What the check is doing now (reported when it times out). */
    public String step() {
        return step;
    }

    public void progress(String message, double fraction) {
        step = message;
        emit(CheckEvent.Kind.PROGRESS, message, fraction);
    }

    public void warn(String message) {
        emit(CheckEvent.Kind.WARNING, message, -1);
    }

    void emit(CheckEvent.Kind kind, String message, double fraction) {
        try {
            options.listener().onEvent(new CheckEvent(check, kind, message, fraction));
        } catch (RuntimeException ignored) {
            // a listener's failure must not break the check
        }
    }

    public boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    public long remainingNanos() {
        return deadlineNanos - System.nanoTime();
    }

    /** Throws {@link CheckAbortedException} when cancelled or past the deadline. */
    public void checkpoint() {
        if (options.control().isCancelled()) {
            throw new CheckAbortedException(CheckStatus.CANCELLED, "cancelled during: " + step);
        }
        if (expired()) {
            throw new CheckAbortedException(CheckStatus.TIMED_OUT,
                    "timed out after " + options.timeout().toSeconds() + " s during: " + step);
        }
    }

    /**
     * Busy-waits (as nccl-tests does) until {@code done} answers true, checking {@code failure} (a non-null text
     * means an asynchronous error) and the deadline every few thousand polls.
     */
    public void await(String what, BooleanSupplier done, Supplier<String> failure) {
        int polls = 0;
        while (!done.getAsBoolean()) {
            if ((++polls & 0x3ff) == 0) {
                String f = failure.get();
                if (f != null) {
                    throw new IllegalStateException(what + ": " + f);
                }
                step = what;
                checkpoint();
            }
            Thread.onSpinWait();
        }
    }

    /** Registers something to run if the worker stays blocked past the deadline (run at most once). */
    public void onAbort(Runnable hook) {
        abortHooks.add(hook);
    }

    List<Runnable> abortHooks() {
        return abortHooks;
    }
}
