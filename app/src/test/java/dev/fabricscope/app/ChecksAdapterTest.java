package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.ChecksPort;
import dev.fabricscope.check.AllReduceResult;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.CheckStatus;
import dev.fabricscope.check.MemoryAudit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Checks tab's adapter runs each check in a child process (a shell script stands in for the worker here, printing
 * worker lines as the real worker does) and turns the all-reduce result into one latency and one busbw chart with every
 * implementation and mode on it, plus the memory audit. Values synthetic.
 */
class ChecksAdapterTest {

    static AllReduceResult result() {
        List<AllReduceResult.Row> rows = List.of(
                new AllReduceResult.Row("nccl", "bf16", 8, 4, 13.0, 0, 0, 0, 13.1, 0.0, 0.0, 0L, "plain", 12.0, 12.1),
                new AllReduceResult.Row("nccl", "bf16", 8, 4, 9.5, 0, 0, 0, 9.6, 0.0, 0.0, 0L, "graph", 9.0, 9.1),
                new AllReduceResult.Row("oneshot", "bf16", 8, 4, 6.0, 0, 0, 0, 6.1, 0.0, 0.0, 0L, "plain", 5.0, 5.1),
                new AllReduceResult.Row("oneshot", "bf16", 8, 4, 4.0, 0, 0, 0, 4.1, 0.0, 0.0, 0L, "graph", 3.5, 3.6),
                new AllReduceResult.Row("oneshot", "fp32", 8, 2, 4.0, 0, 0, 0, 4.1, 0.0, 0.0, 0L, "graph", 3.5, 3.6));
        MemoryAudit audit = MemoryAudit.of(List.of(new MemoryAudit.Gpu(0, "0000:00:06.0", 500L << 20, 1000L << 20,
                1000L << 20, 1400L << 20, true, null, null)));
        return new AllReduceResult("allreduce", CheckStatus.PASSED, "world size 2", null,
                new AllReduceResult.Impl("nccl", CheckStatus.PASSED, "NCCL 2.28.3"),
                new AllReduceResult.Impl("oneshot", CheckStatus.PASSED, "ptx"), null, rows, List.of(), audit);
    }

    @Test
    void allReduceChartsPutEveryImplementationOnOneChart() {
        ChecksPort.Result r = ChecksAdapter.allReduce(result());
        assertEquals(2, r.charts().size());
        ChecksPort.Chart latency = r.charts().get(0);
        assertTrue(latency.logY());
        assertEquals(List.of("NCCL, plain", "NCCL, graph", "one-shot, plain", "one-shot, graph"),
                latency.series().stream().map(ChecksPort.Series::name).toList(), "bf16 only, one series per impl and mode");
        assertEquals(5, r.rows().size());
        assertEquals("graph", r.rows().get(1).get(1));
    }

    @Test
    void runsTheCheckInAChildProcessAndShowsTheMemoryAudit() throws Exception {
        String result = CheckProcess.WorkerLine.result(result());
        String memory = CheckProcess.WorkerLine.memory(Map.of("0000:00:06.0", 500L << 20), null);
        String sh = "case \"$*\" in *'check memory'*) printf '%s\\n' '" + memory + "'; exit 0;; esac; "
                + "case \"$*\" in *'check allreduce'*'--worker'*) printf '%s\\n' '" + result + "';; esac";
        ChecksAdapter adapter = new ChecksAdapter(() -> new CheckProcess.Launcher(List.of("sh", "-c", sh, "fabricscope")));
        ChecksPort.Result r = adapter.run(ChecksPort.Kind.ALLREDUCE, null, (f, m) -> { }, () -> false);
        assertEquals("PASSED", r.status());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("after the check's process exited — back to its starting level")),
                r.notes().toString());
    }
}
