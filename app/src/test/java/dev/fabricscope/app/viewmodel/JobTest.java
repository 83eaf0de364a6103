package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The background job without the FX toolkit: one outcome each, progress coalesced, cancel drops the late result. */
class JobTest {

    private final ManualTasks tasks = new ManualTasks();
    private final List<String> outcomes = new ArrayList<>();

    private <T> Job<T> job(Job.Work<T> work) {
        return new Job<>(tasks, work).onSucceeded(v -> outcomes.add("succeeded " + v))
                .onFailed(t -> outcomes.add("failed " + t.getMessage())).onCancelled(() -> outcomes.add("cancelled"));
    }

    @Test
    void aBurstOfProgressReachesTheUiAsItsLastUpdate() {
        List<String> messages = new ArrayList<>();
        Job<Integer> j = job(p -> {
            for (int i = 1; i <= 1000; i++) {
                p.update(i, 1000, "step " + i);
            }
            return 42;
        });
        j.messageProperty().addListener((o, was, now) -> messages.add(now));
        j.start();
        assertEquals(-1, j.progressProperty().get(), "cannot tell before any update");
        tasks.runAll();
        assertEquals(List.of("step 1000"), messages, "one UI update for the burst");
        assertEquals(1.0, j.progressProperty().get());
        assertEquals(List.of("succeeded 42"), outcomes);
        assertEquals(Job.State.SUCCEEDED, j.state());
        assertEquals(42, j.value());
    }

    @Test
    void aFailureIsReportedWithItsException() {
        Job<String> j = this.<String>job(p -> {
            throw new IOException("disk full");
        }).start();
        tasks.runAll();
        assertEquals(List.of("failed disk full"), outcomes);
        assertEquals(Job.State.FAILED, j.state());
        assertEquals("disk full", j.exception().getMessage());
        assertNull(j.value());
    }

    @Test
    void cancellingRunsOnlyTheCancelledHandlerOnce() {
        Job<String> j = job(p -> "late").start();
        j.cancel();
        j.cancel();
        tasks.runAll();
        assertEquals(List.of("cancelled"), outcomes, "no late success after cancel");
        assertEquals(Job.State.CANCELLED, j.state());
        assertEquals(1, tasks.backgroundRuns, "handed over, returned at once");
    }

    @Test
    void aDoneJobCannotBeCancelledOrStartedAgain() {
        Job<String> j = job(p -> "done").start();
        tasks.runAll();
        j.cancel();
        assertEquals(List.of("succeeded done"), outcomes);
        assertSame(Job.State.SUCCEEDED, j.state());
        assertFalse(!j.isDone());
        assertThrows(IllegalStateException.class, j::start);
    }
}
