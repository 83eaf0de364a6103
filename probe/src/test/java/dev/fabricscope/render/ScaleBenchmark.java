package dev.fabricscope.render;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.HtmlReport;
import dev.fabricscope.report.MarkdownReport;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportAdvice;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.Reports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark: the steps of {@code show}, {@code advise} and {@code report --format md|html} on a SYNTHETIC n-GPU
 * machine ({@link BigMachine}), one JVM, timed once each. With a second argument the snapshot is also written there
 * (to time the CLI itself). Run: {@code java -cp … dev.fabricscope.render.ScaleBenchmark 256 [FILE]}.
 */
public final class ScaleBenchmark {
    private ScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        long t0 = System.nanoTime();
        String json = BigMachine.json(n);
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), json);
        }
        long t1 = System.nanoTime();
        MachineSnapshot s = SnapshotIO.parse(json, "synthetic");
        long t2 = System.nanoTime();
        String text = SnapshotText.render(s);
        long t3 = System.nanoTime();
        var advice = Advisor.advise(s, Deployment.defaults(), Options.defaults());
        long t4 = System.nanoTime();
        Report r = Reports.create(s, ReportAdvice.of(advice, Deployment.defaults(), Options.defaults()), ReportChecks.notRequested(),
                List.of("fabricscope"), Instant.EPOCH);
        String md = MarkdownReport.render(r);
        long t5 = System.nanoTime();
        String html = HtmlReport.render(r);
        long t6 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%d GPUs, %d pairs, %.1f MB JSON: make %d ms, read %d ms, show %d ms, advise %d ms, "
                        + "report md %d ms, report html %d ms; output: show %d, md %d, html %d characters%n",
                n, s.pairs().size(), json.length() / 1e6, ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t4, t5), ms(t5, t6),
                text.length(), md.length(), html.length());
    }

    private static long ms(long a, long b) {
        return (b - a) / 1_000_000;
    }
}
