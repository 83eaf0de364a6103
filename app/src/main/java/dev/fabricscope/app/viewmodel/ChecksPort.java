package dev.fabricscope.app.viewmodel;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportChecks;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the Checks tab needs from the live checks. Results come back as tables (and optional chart series) so the
 * tab stays independent of each check's own result types.
 */
public interface ChecksPort {

    enum Kind {
        PREFLIGHT("Workspace preflight", "What SGLang and FlashInfer do before creating their all-reduce workspace"),
        P2P("P2P bandwidth", "Peer access and measured copy bandwidth and latency for every GPU pair"),
        ALLREDUCE("All-reduce", "NCCL and the one-shot and two-shot P2P kernels, plain and CUDA-graph, timed like nccl-tests");

        public final String title;
        public final String description;

        Kind(String title, String description) {
            this.title = title;
            this.description = description;
        }
    }

    /** Progress from a running check: 0..1 (negative: unknown) and one line. */
    interface Progress {
        void update(double fraction, String message);
    }

    /** A line of a chart: x and y values (e.g. message size in bytes and busbw in GB/s). */
    record Series(String name, List<double[]> points) {
    }

    /** A chart of series against message size (x drawn on a log₂ axis; y on a log₁₀ axis when {@code logY}). */
    record Chart(String title, String xLabel, String yLabel, List<Series> series, boolean logY) {
        public Chart {
            series = List.copyOf(series);
        }

        public Chart(String title, String xLabel, String yLabel, List<Series> series) {
            this(title, xLabel, yLabel, series, false);
        }
    }

    /** A GPU × GPU grid of figures (null = not measured), e.g. P2P bandwidth. */
    record Heatmap(String title, String unit, List<String> labels, Double[][] values, Double[][] reference) {
    }

    /**
     * A finished check, rendered as a table, notes, charts and an optional heatmap.
     *
     * @param status the check's own status word (PASSED, FAILED, SKIPPED, …)
     * @param passed true when nothing failed
     * @param reportEntry the check's own result as a report records it ({@code report --with-checks}), or null
     */
    record Result(Kind kind, String status, boolean passed, String summary, List<String> columns, List<List<String>> rows,
                  List<String> notes, List<Chart> charts, Heatmap heatmap, ReportChecks.Entry reportEntry) {
        public Result {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
            notes = notes == null ? List.of() : List.copyOf(notes);
            charts = charts == null ? List.of() : List.copyOf(charts);
        }

        /** A result with nothing for reports. */
        public Result(Kind kind, String status, boolean passed, String summary, List<String> columns, List<List<String>> rows,
                      List<String> notes, List<Chart> charts, Heatmap heatmap) {
            this(kind, status, passed, summary, columns, rows, notes, charts, heatmap, null);
        }
    }

    /** Null when the checks can run; otherwise one line saying why not. */
    String unavailableReason();

    /** Runs one check on the live machine; must poll {@code cancelled} and stop soon after it turns true. */
    Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) throws Exception;

    static ChecksPort notInThisBuild() {
        return new ChecksPort() {
            @Override
            public String unavailableReason() {
                return "The live checks (dev.fabricscope.check) are not part of this build yet.";
            }

            @Override
            public Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) {
                throw new IllegalStateException(unavailableReason());
            }
        };
    }
}
