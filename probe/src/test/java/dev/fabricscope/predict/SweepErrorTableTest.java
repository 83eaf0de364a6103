package dev.fabricscope.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.json.Json;
import dev.fabricscope.usecase.Predict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The model held against the real two-GPU NVSwitch H200 sweep of 2026-12-01 (graph mode, bf16, out of place, CUDA events;
 * the host clock beside them; calibrated on both placements, as predict fits a check): from
 * specs within 25 %, calibrated (fitted to the whole sweep) within 10 %, at 8 B, 64 KiB, 1 MiB, 8 MiB and 256 MiB.
 * Where the model misses, the miss is asserted as it is (the set of misses below) and docs/benchmarks.md carries the
 * table this test computes, so neither a new miss nor a fixed one goes unnoticed.
 */
class SweepErrorTableTest {

    static final Path CHECKS = CapturedTraces.ROOT.resolve("h200-nvswitch-2gpu-2026-12-01-checks/allreduce.json");
    static final long[] SIZES = {8, 64 << 10, 1 << 20, 8 << 20, 256 << 20};
    static final Backend[] BACKENDS = {Backend.NCCL, Backend.ONESHOT, Backend.TWOSHOT};

    /** Cells (backend size basis) outside their bound, against the CUDA events, as this model stands. */
    static final Set<String> KNOWN_MISSES = Set.of(
            "nccl 8 B specs", "nccl 64 KiB specs", "nccl 8 MiB specs", "twoshot 64 KiB specs",
            "oneshot 8 B calibrated", "twoshot 64 KiB calibrated");

    /** The same against the host clock of the same operations (docs/benchmarks.md says so beside the table). */
    static final Set<String> KNOWN_HOST_CLOCK_MISSES = Set.of(
            "nccl 8 B specs", "nccl 64 KiB specs", "nccl 1 MiB specs", "nccl 8 MiB specs", "twoshot 64 KiB specs",
            "nccl 64 KiB calibrated", "nccl 1 MiB calibrated", "oneshot 8 B calibrated", "twoshot 64 KiB calibrated");

    /**
     * @param measured the CUDA-event time, out of place: the time on the GPU's stream, what the model prices
     * @param host     the host-clock time of the same operations (nccl-tests' figure), shown beside it
     */
    record Cell(Backend backend, long bytes, double measured, double host, double specs, double calibrated) {
        double specsError() {
            return (specs - measured) / measured;
        }

        double calibratedError() {
            return (calibrated - measured) / measured;
        }
    }

    static List<Cell> cells() throws IOException {
        AllReduceResult sweep = Json.mapper().readValue(Files.readString(CHECKS), AllReduceResult.class);
        Fabric fabric = Fabric.of(CapturedTraces.replay(CapturedTraces.NVSWITCH_2GPU_RECORDED), 2, 1, true, false);
        assertEquals(18, fabric.nvlinks());
        List<Cell> out = new ArrayList<>();
        for (Backend b : BACKENDS) {
            CostModel.Kernels k = b == Backend.NCCL ? CostModel.Kernels.NCCL : CostModel.Kernels.FABRICSCOPE;
            Map<Long, AllReduceResult.Row> measured = new LinkedHashMap<>();
            for (AllReduceResult.Row r : sweep.rows()) {
                if (r.impl().equals(b.id) && "graph".equals(r.modeName()) && "bf16".equals(r.dtype())) {
                    measured.put(r.bytes(), r);
                }
            }
            assertEquals(26, measured.size(), b.id + ": the sweep's graph-mode bf16 rows, 8 B .. 256 MiB");
            // the fit predict itself makes of this check: CUDA events, out of place and in place
            Predict.Points points = Predict.points(sweep, b.id, "graph", true);
            assertEquals("CUDA events, out of place and in place", points.what());
            assertEquals(52, points.points().size());
            Calibration.Fit fit = Calibration.fit(bytes -> CostModel.terms(b, k, fabric, bytes), points.points());
            if (b == Backend.NCCL) {
                // as docs/benchmarks.md says: NCCL's tuner gives Ring LL 8 B .. 1 MiB and Ring Simple 2 .. 256 MiB
                assertEquals(List.of("Ring LL", "Ring Simple"), List.copyOf(fit.terms().keySet()));
                assertEquals(36, fit.terms().get("Ring LL").points(), "18 sizes, each in place and out of place");
                assertEquals(1L << 20, fit.terms().get("Ring LL").toBytes());
                assertEquals(2L << 20, fit.terms().get("Ring Simple").fromBytes());
            } else {
                assertTrue(fit.terms().isEmpty(), b.id + " is one term: one pair of factors");
            }
            for (long s : SIZES) {
                Terms t = CostModel.terms(b, k, fabric, s);
                AllReduceResult.Row r = measured.get(s);
                out.add(new Cell(b, s, r.eventTimeUs(), r.timeUs(), t.best(s, Scale.SPECS).us(), fit.estimate(t, s).us()));
            }
        }
        return out;
    }

    static String table(List<Cell> cells) {
        StringBuilder sb = new StringBuilder("| backend | size | measured µs (CUDA events) | host clock µs | from specs µs | error "
                + "| calibrated µs | error |\n|---|---|---|---|---|---|---|---|\n");
        for (Cell c : cells) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.2f | %+.0f %% | %.2f | %+.0f %% |%n", c.backend().id,
                    size(c.bytes()), c.measured(), c.host(), c.specs(), 100 * c.specsError(), c.calibrated(), 100 * c.calibratedError()));
        }
        return sb.toString();
    }

    static String size(long b) {
        return b >= 1 << 20 ? (b >> 20) + " MiB" : b >= 1 << 10 ? (b >> 10) + " KiB" : b + " B";
    }

    @Test
    void fromSpecsWithin25AndCalibratedWithin10PercentExceptTheKnownMisses() throws IOException {
        Set<String> misses = new TreeSet<>();
        for (Cell c : cells()) {
            String at = c.backend().id + " " + size(c.bytes());
            if (Math.abs(c.specsError()) > 0.25) misses.add(at + " specs");
            if (Math.abs(c.calibratedError()) > 0.10) misses.add(at + " calibrated");
        }
        assertEquals(new TreeSet<>(KNOWN_MISSES), misses, "cells outside 25 % (specs) / 10 % (calibrated):\n" + table(cells()));
        Set<String> host = new TreeSet<>();
        for (Cell c : cells()) {
            String at = c.backend().id + " " + size(c.bytes());
            if (Math.abs((c.specs() - c.host()) / c.host()) > 0.25) host.add(at + " specs");
            if (Math.abs((c.calibrated() - c.host()) / c.host()) > 0.10) host.add(at + " calibrated");
        }
        assertEquals(new TreeSet<>(KNOWN_HOST_CLOCK_MISSES), host, "against the host clock");
    }

    @Test
    void benchmarksDocCarriesTheTable() throws IOException {
        String doc = Files.readString(Path.of("../docs/benchmarks.md"));
        String table = table(cells());
        assertTrue(doc.contains(table), "docs/benchmarks.md should hold:\n" + table);
    }
}
