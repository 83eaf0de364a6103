package dev.fabricscope.app.viewmodel;

import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.usecase.RunCheck;
import java.util.List;

/**
 * A check as the Checks tab shows it: which check ({@link Kind}) and its result as tables, notes, charts and a heatmap
 * ({@link Result}), made by {@link CheckTables} and held by {@link ChecksViewModel}, so the view stays independent of
 * each check's result type.
 */
public final class CheckDisplay {

    private CheckDisplay() {
    }

    /** The checks the tab offers. */
    public enum Kind {
        PREFLIGHT("Workspace preflight", "What SGLang and FlashInfer do before creating their all-reduce workspace", RunCheck.Kind.PREFLIGHT),
        P2P("P2P bandwidth", "Peer access and measured copy bandwidth and latency for every GPU pair", RunCheck.Kind.P2P),
        ALLREDUCE("All-reduce", "NCCL and the one-shot and two-shot P2P kernels, plain and CUDA-graph, timed like nccl-tests",
                RunCheck.Kind.ALLREDUCE);

        public final String title;
        public final String description;
        final RunCheck.Kind check;

        Kind(String title, String description, RunCheck.Kind check) {
            this.title = title;
            this.description = description;
            this.check = check;
        }
    }

    /** A line of a chart: x and y values (e.g. message size in bytes and busbw in GB/s). */
    public record Series(String name, List<double[]> points) {
        /** A curve from the cost model (drawn dashed, without points), not a measurement. */
        public boolean predicted() {
            return name.endsWith(CheckTables.PREDICTED);
        }
    }

    /** A chart of series against message size (x drawn on a log₂ axis; y on a log₁₀ axis when {@code logY}). */
    public record Chart(String title, String xLabel, String yLabel, List<Series> series, boolean logY) {
        public Chart {
            series = List.copyOf(series);
        }

        public Chart(String title, String xLabel, String yLabel, List<Series> series) {
            this(title, xLabel, yLabel, series, false);
        }
    }

    /** A GPU × GPU grid of figures (null = not measured), e.g. P2P bandwidth. */
    public record Heatmap(String title, String unit, List<String> labels, Double[][] values, Double[][] reference) {
    }

    /**
     * A finished check, rendered as a table, notes, charts and an optional heatmap.
     *
     * @param status the check's own status word (PASSED, FAILED, SKIPPED, …)
     * @param passed true when nothing failed
     * @param reportEntry the check's own result as a report records it ({@code report --with-checks}), or null (also
     *                    for a result read from the report on screen: an export takes the report's own record)
     * @param recorded    where a result read from a report was recorded ("made … on …"), or null for one run here
     */
    public record Result(Kind kind, String status, boolean passed, String summary, List<String> columns, List<List<String>> rows,
                         List<String> notes, List<Chart> charts, Heatmap heatmap, ReportChecks.Entry reportEntry, String recorded) {
        public Result(Kind kind, String status, boolean passed, String summary, List<String> columns, List<List<String>> rows,
                      List<String> notes, List<Chart> charts, Heatmap heatmap, ReportChecks.Entry reportEntry) {
            this(kind, status, passed, summary, columns, rows, notes, charts, heatmap, reportEntry, null);
        }

        public Result {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
            notes = notes == null ? List.of() : List.copyOf(notes);
            charts = charts == null ? List.of() : List.copyOf(charts);
        }
    }
}
