package dev.fabricscope.app;

import dev.fabricscope.app.viewmodel.Tasks;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;

/** The app's {@link Tasks}: daemon worker threads in the background, the JavaFX application thread for the UI. */
public final class FxTasks implements Tasks {

    private final ExecutorService workers = Executors.newCachedThreadPool(r -> daemon(r, "fabricscope-worker"));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "fabricscope-timer"));

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void background(Runnable work) {
        workers.execute(work);
    }

    @Override
    public void ui(Runnable action) {
        Platform.runLater(action);
    }

    @Override
    public Cancellable later(Duration delay, Runnable action) {
        boolean[] cancelled = {false}; // read and written on the FX thread only
        timer.schedule(() -> Platform.runLater(() -> {
            if (!cancelled[0]) {
                action.run();
            }
        }), delay.toMillis(), TimeUnit.MILLISECONDS);
        return () -> cancelled[0] = true;
    }

    /** Stops the worker threads (window closing). */
    public void shutdown() {
        workers.shutdownNow();
        timer.shutdownNow();
    }
}
