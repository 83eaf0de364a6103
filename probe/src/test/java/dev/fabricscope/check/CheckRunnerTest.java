package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CheckRunnerTest {

    record Outcome(CheckStatus status, String message) {
    }

    @Test
    void aBodyThatPollsReportsItsTimeout() {
        Outcome o = CheckRunner.run("t", CheckOptions.withTimeout(Duration.ofMillis(200)), Duration.ofMillis(100), ctx -> {
            while (true) {
                ctx.progress("spinning", -1);
                ctx.checkpoint();
                Thread.onSpinWait();
            }
        }, Outcome::new);
        assertEquals(CheckStatus.TIMED_OUT, o.status());
        assertTrue(o.message().contains("during: spinning"), o.message());
    }

    @Test
    void aBlockedBodyIsAbandonedAfterAbortHooksFire() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger fired = new AtomicInteger();
        long t0 = System.nanoTime();
        Outcome o = CheckRunner.run("t", CheckOptions.withTimeout(Duration.ofMillis(200)), Duration.ofMillis(100), ctx -> {
            ctx.onAbort(fired::incrementAndGet);
            ctx.progress("inside a native call", 0.5);
            try {
                never.await(); // stands for a collective that never returns
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Outcome(CheckStatus.PASSED, "unreachable");
        }, Outcome::new);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(CheckStatus.TIMED_OUT, o.status());
        assertEquals(1, fired.get());
        assertTrue(o.message().contains("inside a native call"), o.message());
        assertTrue(ms < 2000, "returned after " + ms + " ms");
    }

    @Test
    void abortHooksCanUnblockTheBody() {
        CountDownLatch released = new CountDownLatch(1);
        Outcome o = CheckRunner.run("t", CheckOptions.withTimeout(Duration.ofMillis(100)), Duration.ofMillis(50), ctx -> {
            ctx.onAbort(released::countDown);
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Outcome(CheckStatus.TIMED_OUT, "aborted and reported");
        }, Outcome::new);
        assertEquals(new Outcome(CheckStatus.TIMED_OUT, "aborted and reported"), o);
    }

    @Test
    void cancellationStopsAtTheNextCheckpoint() {
        CheckControl control = new CheckControl();
        List<CheckEvent> events = new CopyOnWriteArrayList<>();
        CheckOptions options = new CheckOptions(Duration.ofSeconds(30), events::add, control);
        Outcome o = CheckRunner.run("t", options, ctx -> {
            for (int i = 0; ; i++) {
                ctx.progress("step " + i, -1);
                if (i == 3) {
                    control.cancel();
                }
                ctx.checkpoint();
            }
        }, Outcome::new);
        assertEquals(CheckStatus.CANCELLED, o.status());
        assertEquals(CheckEvent.Kind.STARTED, events.get(0).kind());
        assertEquals(CheckEvent.Kind.FINISHED, events.get(events.size() - 1).kind());
        assertTrue(events.stream().anyMatch(e -> e.message().equals("step 3")));
    }

    @Test
    void unexpectedExceptionsBecomeErrors() {
        Outcome o = CheckRunner.run("t", CheckOptions.withTimeout(Duration.ofSeconds(5)), ctx -> {
            throw new IllegalStateException("boom");
        }, Outcome::new);
        assertEquals(CheckStatus.ERROR, o.status());
        assertTrue(o.message().contains("boom"));
    }

    @Test
    void awaitSurfacesAsynchronousErrors() {
        Outcome o = CheckRunner.run("t", CheckOptions.withTimeout(Duration.ofSeconds(5)), ctx -> {
            ctx.await("collective", () -> false, () -> "ncclRemoteError");
            return new Outcome(CheckStatus.PASSED, "unreachable");
        }, Outcome::new);
        assertEquals(CheckStatus.ERROR, o.status());
        assertTrue(o.message().contains("collective: ncclRemoteError"), o.message());
    }
}
