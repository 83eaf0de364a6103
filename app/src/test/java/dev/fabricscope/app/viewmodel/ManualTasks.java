package dev.fabricscope.app.viewmodel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * {@link Tasks} for plain view-model tests: the test's own thread is the UI thread. Background work runs on that
 * thread too, in order, when the test says ({@link #runAll()}), so a test sees the state while work is pending and
 * cancels or supersedes it deterministically; or, made with {@link #threaded()}, on a thread of its own, for work that
 * blocks until cancelled ({@link #runUntil}). Delayed actions run after everything queued, in the order they were
 * scheduled, unless cancelled.
 */
final class ManualTasks implements Tasks {

    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final List<Runnable> delayed = new ArrayList<>();
    private final boolean threaded;
    volatile int backgroundRuns;

    ManualTasks() {
        this(false);
    }

    private ManualTasks(boolean threaded) {
        this.threaded = threaded;
    }

    /** Background work on threads of its own; UI actions still run on the test's thread. */
    static ManualTasks threaded() {
        return new ManualTasks(true);
    }

    @Override
    public void background(Runnable work) {
        Runnable counted = () -> {
            backgroundRuns++;
            work.run();
        };
        if (threaded) {
            Thread t = new Thread(counted, "test-background");
            t.setDaemon(true);
            t.start();
        } else {
            queue.add(counted);
        }
    }

    @Override
    public void ui(Runnable action) {
        queue.add(action);
    }

    @Override
    public Cancellable later(Duration delay, Runnable action) {
        boolean[] cancelled = {false};
        delayed.add(() -> {
            if (!cancelled[0]) {
                action.run();
            }
        });
        return () -> cancelled[0] = true;
    }

    /** Runs what is queued, then what was delayed, until nothing is left (work on other threads is not waited for). */
    void runAll() {
        while (!queue.isEmpty() || !delayed.isEmpty()) {
            Runnable r;
            while ((r = queue.poll()) != null) {
                r.run();
            }
            List<Runnable> due = new ArrayList<>(delayed);
            delayed.clear();
            due.forEach(Runnable::run);
        }
    }

    /** Runs UI actions as they come until {@code done} holds; fails after {@code timeout}. */
    void runUntil(BooleanSupplier done, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        runAll();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not done within " + timeout);
            }
            Runnable r = queue.poll(50, TimeUnit.MILLISECONDS);
            if (r != null) {
                r.run();
            }
            runAll();
        }
    }
}
