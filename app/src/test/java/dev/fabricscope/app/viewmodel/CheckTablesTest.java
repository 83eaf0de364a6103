package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.P2pResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Checks tab shows the all-reduce result as one latency and one busbw chart with every implementation and mode
 * on it, the P2P result as a heatmap, and the memory audit in the notes; plain JUnit, no FX toolkit. Values synthetic.
 */
class CheckTablesTest {

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
        CheckDisplay.Result r = CheckTables.allReduce(result());
        assertEquals(2, r.charts().size());
        CheckDisplay.Chart latency = r.charts().get(0);
        assertTrue(latency.logY());
        assertEquals(List.of("NCCL, plain", "NCCL, graph", "one-shot, plain", "one-shot, graph"),
                latency.series().stream().map(CheckDisplay.Series::name).toList(), "bf16 only, one series per impl and mode");
        assertEquals(5, r.rows().size());
        assertEquals("graph", r.rows().get(1).get(1));
    }

    @Test
    void withTheMachineThePredictedCurvesStandBesideTheMeasuredOnes() throws Exception {
        // the real two-GPU NVSwitch H200 sweep of 2026-12-01 on the machine its trace recorded
        java.nio.file.Path dir = java.nio.file.Path.of("../probe/src/test/resources/captured");
        AllReduceResult sweep = dev.fabricscope.json.Json.mapper().readValue(java.nio.file.Files.readString(
                dir.resolve("h200-nvswitch-2gpu-2026-12-01-checks/allreduce.json")), AllReduceResult.class);
        dev.fabricscope.model.MachineSnapshot machine = dev.fabricscope.usecase.OpenSnapshot.read(
                dir.resolve("h200-nvswitch-2gpu-2026-12-01/trace.json"));
        CheckDisplay.Result r = CheckTables.allReduce(sweep, machine);
        List<String> names = r.charts().get(0).series().stream().map(CheckDisplay.Series::name).toList();
        assertTrue(names.containsAll(List.of("NCCL, predicted from specs", "one-shot, predicted from specs",
                "two-shot, predicted from specs")), names.toString());
        CheckDisplay.Series nccl = r.charts().get(0).series().stream()
                .filter(s -> s.name().equals("NCCL, predicted from specs")).findFirst().orElseThrow();
        assertEquals(26, nccl.points().size(), "one point per size the check ran");
        assertEquals(7.8, nccl.points().get(0)[1], 0.01, "NCCL's Ring LL floor at 2 ranks, 8 B");
        assertTrue(r.charts().get(1).series().stream().anyMatch(s -> s.name().equals("one-shot, predicted from specs")));
        assertEquals(List.of("NCCL, plain", "NCCL, graph", "one-shot, plain", "one-shot, graph"),
                CheckTables.allReduce(result()).charts().get(0).series().stream().map(CheckDisplay.Series::name).toList(),
                "no machine: measured curves only");
    }

    @Test
    void theMemoryAuditIsInTheNotes() {
        CheckDisplay.Result r = CheckTables.of(CheckDisplay.Kind.ALLREDUCE, result());
        // the fixture's GPU0 holds 900 MiB more after the check than before it (no reading after the process exited)
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("GPU memory NOT back to its starting level")), r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("GPU0: 500.0 MiB before")), r.notes().toString());
        assertEquals("allreduce", r.reportEntry().check());
        assertEquals("PASSED", r.status());
        assertTrue(r.passed());
    }

    @Test
    void p2pBecomesAHeatmapWithTheLocalCopiesOnTheDiagonal() {
        P2pResult p = new P2pResult("p2p", CheckStatus.FAILED, "1 pair failed", null,
                List.of(new P2pResult.Local(0, "GPU0", 2800.0, null, 3000.0, "HBM3e", null)),
                List.of(new P2pResult.Pair(0, 1, true, 390.0, 700.0, 1500.0, 450.0, "NVLink 4", null),
                        new P2pResult.Pair(1, 0, false, null, null, null, null, null, "no peer access")),
                List.of(), MemoryAudit.none("test"));
        CheckDisplay.Result r = CheckTables.of(CheckDisplay.Kind.P2P, p);
        assertFalse(r.passed());
        CheckDisplay.Heatmap h = r.heatmap();
        assertEquals(List.of("GPU0", "GPU1"), h.labels());
        assertEquals(2800.0, h.values()[0][0]);
        assertEquals(390.0, h.values()[0][1]);
        assertEquals(null, h.values()[1][0]);
        assertEquals(450.0, h.reference()[0][1]);
        assertEquals(List.of("GPU0 → GPU1", "yes", "390", "700", "1500", "450", "NVLink 4"), r.rows().get(1));
        assertEquals("no peer access", r.rows().get(2).get(6));
    }
}
