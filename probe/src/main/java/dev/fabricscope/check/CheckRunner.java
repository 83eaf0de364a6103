package dev.fabricscope.check;

import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a check on its own worker thread so that the caller never hangs: the check polls its deadline and the
 * cancellation flag itself; if it stays blocked in native code past the deadline (or past a cancel) plus a grace
 * period, the runner fires the check's abort hooks (e.g. {@code ncclCommAbort}), waits once more, and then answers
 * with a TIMED_OUT/CANCELLED result of its own, leaving the stuck daemon thread behind.
 */
public final class CheckRunner {

    /** The check's work. It catches {@link CheckAbortedException} itself and reports partial results. */
    @FunctionalInterface
    public interface Body<T> {
        T run(CheckContext ctx);
    }

    /** Builds a result when the body could not produce one (blocked, or an unexpected exception). */
    @FunctionalInterface
    public interface Fallback<T> {
        T result(CheckStatus status, String message);
    }

    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

    private CheckRunner() {
    }

    public static <T> T run(String check, CheckOptions options, Body<T> body, Fallback<T> fallback) {
        return run(check, options, DEFAULT_GRACE, body, fallback);
    }

    public static <T> T run(String check, CheckOptions options, Duration grace, Body<T> body, Fallback<T> fallback) {
        CheckContext ctx = new CheckContext(check, options);
        ctx.emit(CheckEvent.Kind.STARTED, check + " started (time limit " + options.timeout().toSeconds() + " s)", 0);
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread worker = new Thread(() -> {
            try {
                future.complete(body.run(ctx));
            } catch (CheckAbortedException e) {
                future.complete(fallback.result(e.status(), e.getMessage()));
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        }, "fabricscope-check-" + check);
        worker.setDaemon(true);
        worker.start();

        long graceNanos = grace.toNanos();
        Long stopNoticedAt = null;
        boolean hooksFired = false;
        while (true) {
            try {
                T result = future.get(20, TimeUnit.MILLISECONDS);
                ctx.emit(CheckEvent.Kind.FINISHED, check + " finished", 1);
                return result;
            } catch (TimeoutException e) {
                boolean stopWanted = ctx.expired() || options.control().isCancelled();
                if (!stopWanted) {
                    continue;
                }
                long now = System.nanoTime();
                if (stopNoticedAt == null) {
                    stopNoticedAt = now;
                } else if (!hooksFired && now - stopNoticedAt > graceNanos) {
                    hooksFired = true;
                    int fired = fire(ctx);
                    ctx.emit(CheckEvent.Kind.WARNING, check + " still blocked in '" + ctx.step() + "'; fired " + fired
                            + " abort hook(s)", -1);
                } else if (hooksFired && now - stopNoticedAt > 2 * graceNanos) {
                    CheckStatus status = options.control().isCancelled() && !ctx.expired()
                            ? CheckStatus.CANCELLED : CheckStatus.TIMED_OUT;
                    String message = (status == CheckStatus.CANCELLED ? "cancelled" : "timed out after "
                            + options.timeout().toSeconds() + " s") + " while blocked in '" + ctx.step()
                            + "'; abort hooks fired, the worker thread did not return and was left behind";
                    ctx.emit(CheckEvent.Kind.FINISHED, message, 1);
                    return fallback.result(status, message);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                options.control().cancel();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                String message = "unexpected error: " + cause;
                ctx.emit(CheckEvent.Kind.FINISHED, message, 1);
                return fallback.result(CheckStatus.ERROR, message);
            }
        }
    }

    private static int fire(CheckContext ctx) {
        int n = 0;
        for (Runnable hook : ctx.abortHooks()) {
            try {
                hook.run();
                n++;
            } catch (RuntimeException | LinkageError ignored) {
                // keep firing the others
            }
        }
        return n;
    }
}
