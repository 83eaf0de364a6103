package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckListener;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.PreflightResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parent side of a check run in a child process, with a shell script standing in for the worker (the real
 * worker's lines are made with {@link CheckProcess.WorkerLine}, as the worker makes them).
 */
class CheckProcessTest {

    /** A launcher whose "worker" is {@code script}; {@code check memory} answers with {@code memory}. */
    static CheckProcess.Launcher fake(String script, String memory) {
        String sh = "case \"$*\" in *'check memory'*) printf '%s\\n' '" + memory + "'; exit 0;; esac; " + script;
        return new CheckProcess.Launcher(List.of("sh", "-c", sh, "fabricscope"));
    }

    static CheckOptions options(Duration timeout, List<CheckEvent> events) {
        return new CheckOptions(timeout, events::add, new CheckControl());
    }

    static PreflightResult failed(CheckStatus s, String m, MemoryAudit a) {
        return new PreflightResult("preflight", s, m, null, List.of(), null, List.of(), null, List.of(), a);
    }

    @Test
    void eventsAndResultComeBackWithTheParentsMemoryReading() {
        MemoryAudit inChild = MemoryAudit.of(List.of(new MemoryAudit.Gpu(0, "0000:00:06.0", 500L << 20, 1000L << 20,
                1000L << 20, 1400L << 20, true, null, null)));
        PreflightResult r = failed(CheckStatus.PASSED, "ok", inChild);
        String event = CheckProcess.WorkerLine.event(new CheckEvent("preflight", CheckEvent.Kind.PROGRESS, "GPU0", 0.5));
        String script = "printf '%s\\n' '" + event + "' 'stray output' '" + CheckProcess.WorkerLine.result(r) + "'";
        String memory = CheckProcess.WorkerLine.memory(Map.of("0000:00:06.0", 500L << 20), null);
        List<CheckEvent> events = new ArrayList<>();
        PreflightResult back = CheckProcess.run(fake(script, memory), "preflight", List.of(), PreflightResult.class,
                options(Duration.ofSeconds(20), events), CheckProcessTest::failed);
        assertEquals(CheckStatus.PASSED, back.status());
        assertTrue(events.stream().anyMatch(e -> e.message().equals("GPU0") && e.fraction() == 0.5), events.toString());
        MemoryAudit.Gpu g = back.memory().gpus().get(0);
        assertEquals(500L << 20, g.afterExitBytes());
        // in the child the context stayed held (+400 MiB); once the child exited the GPU is back at its starting level
        assertTrue(back.memory().returned(), back.memory().note());
        assertTrue(back.memory().lines().get(0).contains("500.0 MiB after the check's process exited"),
                back.memory().lines().get(0));
    }

    @Test
    void aCrashIsAFailedCheckWithTheLastOutput() {
        String memory = CheckProcess.WorkerLine.memory(Map.of("0000:00:06.0", 100L << 20), null);
        PreflightResult back = CheckProcess.run(fake("echo 'SIGSEGV in libcuda' >&2; exit 134", memory), "preflight",
                List.of(), PreflightResult.class, options(Duration.ofSeconds(20), new ArrayList<>()), CheckProcessTest::failed);
        assertEquals(CheckStatus.ERROR, back.status());
        assertTrue(back.summary().contains("exited with code 134 without a result"), back.summary());
        assertTrue(back.summary().contains("SIGSEGV in libcuda"), back.summary());
        assertNotNull(back.memory());
        assertEquals(100L << 20, back.memory().gpus().get(0).afterExitBytes());
    }

    @Test
    void aHungWorkerIsEndedAtTheTimeLimit() {
        long grace = CheckProcess.graceMillis;
        CheckProcess.graceMillis = 200;
        try {
            long t0 = System.nanoTime();
            PreflightResult back = CheckProcess.run(fake("exec sleep 60", "{}"), "preflight", List.of(),
                    PreflightResult.class, options(Duration.ofSeconds(1), new ArrayList<>()), CheckProcessTest::failed);
            assertEquals(CheckStatus.TIMED_OUT, back.status(), back.summary());
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "ended well before the worker's own sleep");
        } finally {
            CheckProcess.graceMillis = grace;
        }
    }

    @Test
    void cancelEndsTheWorker() {
        CheckControl control = new CheckControl();
        control.cancel();
        PreflightResult back = CheckProcess.run(fake("exec sleep 60", "{}"), "preflight", List.of(), PreflightResult.class,
                new CheckOptions(Duration.ofSeconds(30), CheckListener.NONE, control), CheckProcessTest::failed);
        assertEquals(CheckStatus.CANCELLED, back.status(), back.summary());
    }

    @Test
    void workerLinesRoundTrip() {
        assertEquals(null, CheckProcess.WorkerLine.parse("not json"));
        CheckProcess.WorkerLine m = CheckProcess.WorkerLine.parse(CheckProcess.WorkerLine.memory(Map.of("a", 5L), "x"));
        assertEquals(Map.of("a", 5L), m.memory());
        assertEquals("x", m.memoryFailure());
    }
}
