package dev.fabricscope.app.viewmodel;

import dev.fabricscope.app.viewmodel.CheckDisplay.Chart;
import dev.fabricscope.app.viewmodel.CheckDisplay.Heatmap;
import dev.fabricscope.app.viewmodel.CheckDisplay.Kind;
import dev.fabricscope.app.viewmodel.CheckDisplay.Result;
import dev.fabricscope.app.viewmodel.CheckDisplay.Series;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CallStep;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.usecase.RunCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A live check's result (the probe module's own record) as the Checks tab shows it: a table, notes with the memory
 * audit, charts and a heatmap, plus the entry an exported report records for it.
 */
final class CheckTables {

    private CheckTables() {
    }

    /** The result of a check of {@code kind} as the tab shows it. */
    static Result of(Kind kind, CheckResult r) {
        return of(kind, r, null);
    }

    /** As {@link #of(Kind, CheckResult)}; with the machine it ran on, the all-reduce charts add the predicted curves. */
    static Result of(Kind kind, CheckResult r, dev.fabricscope.model.MachineSnapshot machine) {
        return switch (kind) {
            case PREFLIGHT -> preflight((PreflightResult) r);
            case P2P -> p2p((P2pResult) r);
            case ALLREDUCE -> allReduce((AllReduceResult) r, machine);
        };
    }

    /**
     * A result read from the report on screen, as the tab shows it read-only: no entry of its own (an export keeps the
     * report's record), and the heatmap titled with where it was measured.
     */
    static Result recorded(Kind kind, CheckResult r, String provenance) {
        return recorded(kind, r, provenance, null);
    }

    static Result recorded(Kind kind, CheckResult r, String provenance, dev.fabricscope.model.MachineSnapshot machine) {
        Result x = of(kind, r, machine);
        Heatmap h = x.heatmap() == null ? null : new Heatmap(x.heatmap().title() + " — recorded in the report, " + provenance,
                x.heatmap().unit(), x.heatmap().labels(), x.heatmap().values(), x.heatmap().reference());
        return new Result(x.kind(), x.status(), x.passed(), x.summary(), x.columns(), x.rows(), x.notes(), x.charts(), h, null,
                provenance);
    }

    /** The result as {@code report --with-checks} records it, so exported reports carry the checks run here. */
    private static dev.fabricscope.report.ReportChecks.Entry entry(CheckResult r) {
        return RunCheck.entry(r);
    }

    private static boolean passed(CheckResult r) {
        return r.status() == CheckStatus.PASSED;
    }

    private static List<String> memory(CheckResult r, List<String> notes) {
        List<String> out = new ArrayList<>(notes);
        if (r.memory() != null) {
            out.add("GPU memory " + (r.memory().returned() ? "back to its starting level" : "NOT back to its starting level")
                    + (r.memory().note() == null ? "" : ": " + r.memory().note()));
            if (!r.memory().gpus().isEmpty()) {
                out.addAll(r.memory().lines());
            }
        }
        return out;
    }

    static Result preflight(PreflightResult r) {
        List<List<String>> rows = new ArrayList<>();
        for (PreflightResult.Gpu g : r.gpus()) {
            String gpu = "GPU" + g.cudaOrdinal() + " " + g.pci();
            for (CallStep s : g.steps()) {
                rows.add(List.of(gpu, s.describe(), s.ok() ? "ok" : "FAILED", s.note() == null ? "" : s.note()));
            }
            if (g.fabric() != null) {
                for (CallStep s : g.fabric().steps()) {
                    rows.add(List.of(gpu + " (fabric)", s.describe(), s.ok() ? "ok" : "FAILED", s.note() == null ? "" : s.note()));
                }
            }
            rows.add(List.of(gpu, "local vote", g.localOk() ? "PROCEED" : "SKIP", g.probeError() == null ? "" : g.probeError()));
        }
        List<String> notes = new ArrayList<>();
        r.frameworkLog().forEach(l -> notes.add("SGLang would log: " + l));
        if (r.conclusion() != null) {
            notes.add(r.conclusion());
        }
        notes.addAll(r.notes());
        return new Result(Kind.PREFLIGHT, r.status().name(), passed(r), r.summary(), List.of("GPU", "Call", "Result", "Meaning"),
                rows, memory(r, notes), List.of(), null, entry(r));
    }

    static Result p2p(P2pResult r) {
        List<List<String>> rows = new ArrayList<>();
        for (P2pResult.Local l : r.local()) {
            rows.add(List.of("GPU" + l.gpu() + " (local)", "", num(l.copyGBps()), "", num(l.latencyNs()),
                    num(l.theoreticalGBps()), l.theoreticalSource() == null ? "" : l.theoreticalSource()));
        }
        int n = 0;
        for (P2pResult.Pair p : r.pairs()) {
            n = Math.max(n, Math.max(p.src(), p.dst()) + 1);
            rows.add(List.of("GPU" + p.src() + " → GPU" + p.dst(), p.access() ? "yes" : "no", num(p.uniGBps()), num(p.bidiGBps()),
                    num(p.latencyNs()), num(p.theoreticalUniGBps()), p.note() != null ? p.note()
                            : p.theoreticalSource() == null ? "" : p.theoreticalSource()));
        }
        for (P2pResult.Local l : r.local()) {
            n = Math.max(n, l.gpu() + 1);
        }
        Heatmap heat = null;
        if (n > 0) {
            Double[][] v = new Double[n][n];
            Double[][] ref = new Double[n][n];
            for (P2pResult.Local l : r.local()) {
                v[l.gpu()][l.gpu()] = l.copyGBps();
                ref[l.gpu()][l.gpu()] = l.theoreticalGBps();
            }
            for (P2pResult.Pair p : r.pairs()) {
                v[p.src()][p.dst()] = p.uniGBps();
                ref[p.src()][p.dst()] = p.theoreticalUniGBps();
            }
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                labels.add("GPU" + i);
            }
            heat = new Heatmap("Measured copy bandwidth, GB/s (row → column; diagonal: within the GPU)", "GB/s", labels, v, ref);
        }
        return new Result(Kind.P2P, r.status().name(), passed(r), r.summary(),
                List.of("Pair", "Access", "Uni GB/s", "Bidi GB/s", "Latency ns", "Nominal GB/s", "Note"), rows,
                memory(r, r.notes()), List.of(), heat, entry(r));
    }

    static Result allReduce(AllReduceResult r) {
        return allReduce(r, null);
    }

    /**
     * The all-reduce result; with {@code machine}, each implementation's curve as {@code fabricscope predict} prices it
     * from specs (NCCL's tuner constants, the check's kernels' one-GPU floor and the links) beside the measured ones.
     */
    static Result allReduce(AllReduceResult r, dev.fabricscope.model.MachineSnapshot machine) {
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<double[]>> busbw = new LinkedHashMap<>();
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        // the charts compare implementations and modes on one data type (the first one run)
        String chartType = r.rows().isEmpty() ? null : r.rows().get(0).dtype();
        for (AllReduceResult.Row row : r.rows()) {
            rows.add(List.of(row.impl(), row.modeName(), row.dtype(), String.valueOf(row.bytes()), String.valueOf(row.count()),
                    num(row.timeUs()), num(row.algbw()), num(row.busbw()), String.valueOf(row.wrong()),
                    num(row.inPlaceTimeUs()), num(row.inPlaceBusbw()), row.inPlaceWrong() == null ? "" : String.valueOf(row.inPlaceWrong()),
                    num(row.eventTimeUs())));
            if (!row.dtype().equals(chartType)) {
                continue;
            }
            String key = label(row.impl()) + ", " + row.modeName();
            if (row.busbw() > 0) {
                busbw.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {row.bytes(), row.busbw()});
            }
            latency.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {row.bytes(), row.timeUs()});
        }
        predicted(r, machine, chartType, latency, busbw);
        List<String> notes = new ArrayList<>();
        for (AllReduceResult.Impl impl : r.impls()) {
            notes.add(label(impl.name()) + ": " + impl.status() + " — " + impl.detail());
        }
        notes.addAll(r.notes());
        List<Chart> charts = rows.isEmpty() ? List.of() : List.of(
                new Chart("Time per all-reduce (" + chartType + ")", "message size (bytes)", "µs", series(latency), true),
                new Chart("Bus bandwidth (" + chartType + ")", "message size (bytes)", "busbw GB/s", series(busbw), true));
        return new Result(Kind.ALLREDUCE, r.status().name(), passed(r), r.summary(),
                List.of("impl", "mode", "type", "size (B)", "count", "time µs", "algbw", "busbw", "#wrong", "in-place µs",
                        "in-place busbw", "#wrong", "events µs"),
                rows, memory(r, notes), charts, null, entry(r));
    }

    /** The end of a predicted series' name. */
    static final String PREDICTED = ", predicted from specs";

    /** Adds "NCCL, predicted from specs" and the like for every implementation charted, at the sizes it ran. */
    private static void predicted(AllReduceResult r, dev.fabricscope.model.MachineSnapshot machine, String chartType,
                                  Map<String, List<double[]>> latency, Map<String, List<double[]>> busbw) {
        if (machine == null || r.params() == null || r.params().worldSize() < 2) {
            return;
        }
        int n = r.params().worldSize();
        dev.fabricscope.predict.Fabric fabric = dev.fabricscope.predict.Fabric.of(machine, n, 1, false, false);
        Map<String, java.util.TreeSet<Long>> sizes = new LinkedHashMap<>();
        for (AllReduceResult.Row row : r.rows()) {
            if (row.dtype().equals(chartType)) sizes.computeIfAbsent(row.impl(), k -> new java.util.TreeSet<>()).add(row.bytes());
        }
        sizes.forEach((impl, bytes) -> {
            var backend = dev.fabricscope.predict.Backend.of(impl).orElse(null);
            if (backend == null) return;
            var kernels = backend == dev.fabricscope.predict.Backend.NCCL ? dev.fabricscope.predict.CostModel.Kernels.NCCL
                    : dev.fabricscope.predict.CostModel.Kernels.FABRICSCOPE;
            String key = label(impl) + PREDICTED;
            for (long b : bytes) {
                var terms = dev.fabricscope.predict.CostModel.terms(backend, kernels, fabric, b);
                if (terms.unpriced() != null) return;
                double us = terms.best(b, dev.fabricscope.predict.Scale.SPECS).us();
                latency.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {b, us});
                busbw.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {b, b / (us * 1000.0) * 2.0 * (n - 1) / n});
            }
        });
    }

    static String label(String impl) {
        return dev.fabricscope.render.CheckSections.label(impl);
    }

    private static List<Series> series(Map<String, List<double[]>> m) {
        return m.entrySet().stream().map(e -> new Series(e.getKey(), e.getValue())).toList();
    }

    static String num(Double d) {
        if (d == null) {
            return "";
        }
        return d >= 100 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
