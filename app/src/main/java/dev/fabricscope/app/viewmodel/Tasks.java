package dev.fabricscope.app.viewmodel;

import java.time.Duration;

/**
 * Where view-models run work: in the background, and back on the UI thread (the one thread that reads and writes
 * their properties). The app passes one backed by worker threads and the JavaFX application thread; plain tests pass
 * one that runs everything on the calling thread, so no view-model needs the FX toolkit.
 */
public interface Tasks {

    /** Runs {@code work} off the UI thread. */
    void background(Runnable work);

    /** Runs {@code action} on the UI thread, later (never inside the caller). */
    void ui(Runnable action);

    /** Runs {@code action} on the UI thread after {@code delay}, unless cancelled first (debouncing). */
    Cancellable later(Duration delay, Runnable action);

    /** A delayed action that can still be called off. */
    interface Cancellable {
        void cancel();
    }
}
