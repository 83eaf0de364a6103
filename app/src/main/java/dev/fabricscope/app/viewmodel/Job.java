package dev.fabricscope.app.viewmodel;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * One piece of background work started by a view-model (what {@code javafx.concurrent.Task} did, without the FX
 * toolkit): the work runs through {@link Tasks#background}; its progress, message and outcome come back through
 * {@link Tasks#ui}. {@link #cancel()} (on the UI thread) interrupts the work and drops its late result: exactly one of
 * the succeeded, failed or cancelled handlers runs. Progress updates are coalesced, so a fast worker cannot flood the
 * UI thread.
 */
public final class Job<T> {

    public enum State { READY, RUNNING, SUCCEEDED, FAILED, CANCELLED }

    /** What the work sees: progress to report and whether it was cancelled. */
    public interface Progress {
        /** {@code done} of {@code total}; {@code done} &lt; 0 or {@code total} &lt;= 0: cannot tell. */
        void update(double done, double total, String message);

        boolean cancelled();
    }

    /** The work itself, run off the UI thread. */
    public interface Work<T> {
        T call(Progress progress) throws Exception;
    }

    private record Update(double progress, String message) {
    }

    private final Tasks tasks;
    private final Work<T> work;
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", -1);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final AtomicReference<Update> pending = new AtomicReference<>();
    private volatile State state = State.READY;
    private Thread worker;
    private T value;
    private Throwable exception;
    private Consumer<T> onSucceeded = v -> { };
    private Consumer<Throwable> onFailed = t -> { };
    private Runnable onCancelled = () -> { };

    public Job(Tasks tasks, Work<T> work) {
        this.tasks = tasks;
        this.work = work;
    }

    public Job<T> onSucceeded(Consumer<T> handler) {
        onSucceeded = handler;
        return this;
    }

    public Job<T> onFailed(Consumer<Throwable> handler) {
        onFailed = handler;
        return this;
    }

    public Job<T> onCancelled(Runnable handler) {
        onCancelled = handler;
        return this;
    }

    /** The work's progress, 0–1, or -1 while it cannot tell (the start). */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The work's last message. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public State state() {
        return state;
    }

    public boolean isDone() {
        return state != State.READY && state != State.RUNNING;
    }

    /** The result, once succeeded. */
    public T value() {
        return value;
    }

    /** Why it failed, once failed. */
    public Throwable exception() {
        return exception;
    }

    /** Hands the work to the background; call once, on the UI thread, after the handlers are set. */
    public Job<T> start() {
        if (state != State.READY) {
            throw new IllegalStateException("job already started");
        }
        state = State.RUNNING;
        tasks.background(this::runWork);
        return this;
    }

    /** Stops the work (interrupting it) and drops its result; on the UI thread. No effect once done. */
    public void cancel() {
        synchronized (this) {
            if (isDone()) {
                return;
            }
            state = State.CANCELLED;
            if (worker != null) {
                worker.interrupt();
            }
        }
        onCancelled.run();
    }

    private void runWork() {
        synchronized (this) {
            if (state != State.RUNNING) {
                return;
            }
            worker = Thread.currentThread();
        }
        T result = null;
        Throwable failure = null;
        try {
            result = work.call(new Progress() {
                @Override
                public void update(double done, double total, String msg) {
                    report(done < 0 || total <= 0 ? -1 : done / total, msg);
                }

                @Override
                public boolean cancelled() {
                    return state == State.CANCELLED;
                }
            });
        } catch (Throwable t) {
            failure = t;
        } finally {
            synchronized (this) {
                worker = null;
                Thread.interrupted(); // a cancel's interrupt must not reach the pool's next work
            }
        }
        T r = result;
        Throwable f = failure;
        tasks.ui(() -> finish(r, f));
    }

    private void report(double fraction, String msg) {
        if (pending.getAndSet(new Update(fraction, msg)) == null) {
            tasks.ui(() -> {
                Update u = pending.getAndSet(null);
                if (u != null && state == State.RUNNING) {
                    progress.set(u.progress());
                    if (u.message() != null) {
                        message.set(u.message());
                    }
                }
            });
        }
    }

    private void finish(T result, Throwable failure) {
        synchronized (this) {
            if (state != State.RUNNING) {
                return; // cancelled meanwhile: the late result is dropped
            }
            state = failure == null ? State.SUCCEEDED : State.FAILED;
        }
        if (failure == null) {
            value = result;
            onSucceeded.accept(result);
        } else {
            exception = failure;
            onFailed.accept(failure);
        }
    }
}
