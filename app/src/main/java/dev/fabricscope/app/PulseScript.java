package dev.fabricscope.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import javafx.animation.AnimationTimer;

/**
 * Runs steps on the FX thread, one per pulse, each after an optional wait: a number of rendered frames, or a
 * condition. Drives the benchmark and the screenshot tour without sleeping on the FX thread.
 */
public final class PulseScript {

    private record Step(Runnable action, BooleanSupplier ready, int frames) {
    }

    private final Deque<Step> steps = new ArrayDeque<>();
    private int waitFrames;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            tick();
        }
    };

    /** Then: wait until {@code ready}, then {@code frames} more frames, then run {@code action}. */
    public PulseScript then(BooleanSupplier ready, int frames, Runnable action) {
        steps.add(new Step(action, ready, frames));
        return this;
    }

    public PulseScript then(int frames, Runnable action) {
        return then(() -> true, frames, action);
    }

    public void start() {
        timer.start();
    }

    private void tick() {
        Step s = steps.peek();
        if (s == null) {
            timer.stop();
            return;
        }
        if (!s.ready().getAsBoolean()) {
            waitFrames = -1;
            return;
        }
        if (waitFrames < 0) {
            waitFrames = s.frames();
        }
        if (waitFrames > 0) {
            waitFrames--;
            return;
        }
        steps.poll();
        waitFrames = -1;
        s.action().run();
    }

    public PulseScript() {
        waitFrames = -1;
    }
}
