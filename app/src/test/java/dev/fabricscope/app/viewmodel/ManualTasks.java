package dev.fabricscope.app.viewmodel;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * {@link Tasks} for plain view-model tests: everything runs on the test's own thread, in order, when the test says
 * ({@link #runAll()}), so a test sees the state while work is pending, and cancels or supersedes it deterministically.
 * Delayed actions run after everything queued, in the order they were scheduled, unless cancelled.
 */
final class ManualTasks implements Tasks {

    private final Deque<Runnable> queue = new ArrayDeque<>();
    private final List<Runnable> delayed = new ArrayList<>();
    int backgroundRuns;

    @Override
    public void background(Runnable work) {
        queue.add(() -> {
            backgroundRuns++;
            work.run();
        });
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

    /** Whether anything is still queued or delayed. */
    boolean pending() {
        return !queue.isEmpty() || !delayed.isEmpty();
    }

    /** Runs what is queued, then what was delayed, until nothing is left. */
    void runAll() {
        while (pending()) {
            while (!queue.isEmpty()) {
                queue.poll().run();
            }
            List<Runnable> due = new ArrayList<>(delayed);
            delayed.clear();
            due.forEach(Runnable::run);
        }
    }
}
