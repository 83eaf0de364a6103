package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.report.ReportChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunCheck} with a shell script standing in for the check's child process (it prints worker lines as the real
 * worker does, and records its arguments); results synthetic.
 */
class RunCheckTest {

    @TempDir
    Path dir;

    static final String NO_DRIVER = "no NVIDIA driver: libcuda.so.1: cannot open shared object file";

    static AllReduceResult passed() {
        return new AllReduceResult("allreduce", CheckStatus.PASSED, "world size 2", null,
                new AllReduceResult.Impl("nccl", CheckStatus.PASSED, "NCCL 2.28.3"), null, null, List.of(), List.of(),
                MemoryAudit.none("test"));
    }

    /** A launcher whose worker prints {@code result} for every check and writes its arguments to {@code args.txt}. */
    private RunCheck fakeWorker(String result) {
        String memory = CheckProcess.WorkerLine.memory(Map.of("0000:00:06.0", 500L << 20), null);
        String sh = "case \"$*\" in *'check memory'*) printf '%s\\n' '" + memory + "'; exit 0;; esac; "
                + "echo \"$*\" >> '" + dir.resolve("args.txt") + "'; printf '%s\\n' '" + result + "'";
        return new RunCheck(() -> new CheckProcess.Launcher(List.of("sh", "-c", sh, "fabricscope")), () -> NO_DRIVER, () -> {
            throw new AssertionError("no live probe");
        });
    }

    private String args() throws Exception {
        return Files.readString(dir.resolve("args.txt"));
    }

    @Test
    void aCheckRunsInAChildProcessWithItsArgumentsAndTimeLimit() throws Exception {
        RunCheck runs = fakeWorker(CheckProcess.WorkerLine.result(passed()));
        CheckResult r = runs.inChildProcess(new RunCheck.Request(RunCheck.Kind.ALLREDUCE, List.of("--impl", "nccl"), null,
                new dev.fabricscope.check.api.CheckOptions(java.time.Duration.ofSeconds(42), e -> { }, new CheckControl())));
        assertEquals(CheckStatus.PASSED, r.status());
        assertTrue(r instanceof AllReduceResult);
        assertTrue(args().contains("check allreduce --impl nccl --worker --timeout 42"), args());
    }

    @Test
    void aWorkerThatGivesNoResultBecomesAFailedResultOfTheChecksOwnType() {
        RunCheck runs = fakeWorker("this is not a worker line");
        CheckResult r = runs.inChildProcess(RunCheck.Request.defaults(RunCheck.Kind.P2P, null, e -> { }, new CheckControl()));
        assertTrue(r instanceof P2pResult, r.getClass().toString());
        assertTrue(r.status() != CheckStatus.PASSED && r.status() != CheckStatus.SKIPPED, r.status().toString());
    }

    @Test
    void theP2pChildGetsTheMachineInATemporaryFileThatIsRemovedAfterwards() throws Exception {
        RunCheck runs = fakeWorker(CheckProcess.WorkerLine.result(passed()));
        runs.inChildProcess(RunCheck.Request.defaults(RunCheck.Kind.P2P, AdviseTest.sample("h200-vm"), e -> { }, new CheckControl()));
        String a = args();
        int at = a.indexOf("--snapshot ");
        assertTrue(at > 0, a);
        Path file = Path.of(a.substring(at + "--snapshot ".length()).split(" ")[0]);
        assertTrue(!Files.exists(file), file + " left behind");
    }

    @Test
    void withoutADriverNothingRunsAndEveryCheckSaysSkipped() {
        RunCheck runs = fakeWorker("unused");
        assertEquals("no NVIDIA driver: libcuda.so.1: cannot open shared object file", runs.driverMissing());
        var node = runs.forNode(1 << 20, e -> { }, check -> {
            throw new AssertionError("no check may start");
        });
        assertEquals(runs.driverMissing(), node.notRunBecause());
        for (RunCheck.Kind k : RunCheck.Kind.values()) {
            CheckResult r = RunCheck.skipped(k, "no driver");
            assertEquals(k.check, r.check());
            assertEquals(CheckStatus.SKIPPED, r.status());
        }
        assertEquals("no driver", ((PreflightResult) RunCheck.skipped(RunCheck.Kind.PREFLIGHT, "no driver")).conclusion());
    }

    @Test
    void aReportRunsTheThreeChecksOnlyOnALiveMachineWithGpus() throws Exception {
        RunCheck runs = fakeWorker(CheckProcess.WorkerLine.result(passed()));
        MachineSnapshot saved = AdviseTest.sample("h200-vm");
        ReportChecks skipped = runs.forReport(saved, null, e -> { }, new CheckControl());
        assertTrue(skipped.skipped().contains("saved snapshot"), skipped.skipped());
        assertTrue(skipped.results().isEmpty());

        MachineSnapshot live = saved.withProbe(new ProbeInfo("test", "2026-11-29T00:00:00Z", List.of(), 1L, ProbeInfo.Origin.LIVE, null));
        ReportChecks ran = runs.forReport(live, 1, e -> { }, new CheckControl());
        assertNull(ran.skipped());
        assertEquals(3, ran.results().size());
        assertEquals(CheckStatus.PASSED, RunCheck.worst(ran));
        assertTrue(args().contains("check preflight --world-size 1 --worker"), args());
        CheckControl cancelled = new CheckControl();
        cancelled.cancel();
        assertEquals(1, runs.forReport(live, null, e -> { }, cancelled).results().size(), "a cancel stops after the check in flight");
    }

    @Test
    void theWorstStatusDecides() {
        ReportChecks c = new ReportChecks(true, null, List.of(new ReportChecks.Entry("a", "PASSED", "", null),
                new ReportChecks.Entry("b", "TIMED_OUT", "", null), new ReportChecks.Entry("c", "weird", "", null)));
        assertEquals(CheckStatus.ERROR, RunCheck.worst(c));
        assertNull(RunCheck.worst(ReportChecks.notRequested()));
    }
}
