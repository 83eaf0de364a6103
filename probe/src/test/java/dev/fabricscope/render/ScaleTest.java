package dev.fabricscope.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.HtmlReport;
import dev.fabricscope.report.MarkdownReport;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportAdvice;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.report.Reports;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 17 item 5: 256 GPUs (32,640 pairs) render in seconds, not minutes; what report writes, show reads. */
class ScaleTest {

    @Test
    void twoHundredFiftySixGpusRenderInLinearTime() throws Exception {
        MachineSnapshot s = BigMachine.snapshot(256);
        assertEquals(32_640, s.pairs().size());
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            long t0 = System.nanoTime();
            String text = SnapshotText.render(s);
            long t1 = System.nanoTime();
            assertTrue(text.contains("GPU255"));
            var advice = Advisor.advise(s, Deployment.defaults(), Options.defaults());
            Report r = Reports.create(s, ReportAdvice.of(advice, Deployment.defaults(), Options.defaults()), ReportChecks.notRequested(),
                    List.of("fabricscope"), Instant.EPOCH);
            long t2 = System.nanoTime();
            String md = MarkdownReport.render(r);
            long t3 = System.nanoTime();
            String html = HtmlReport.render(r);
            long t4 = System.nanoTime();
            System.out.printf("256 GPUs: show %d ms, advise %d ms, report md %d ms, report html %d ms; text %d, md %d, html %d chars%n",
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, (t4 - t3) / 1_000_000,
                    text.length(), md.length(), html.length());
            String json = ReportIO.toJson(r);
            assertTrue(md.length() < 8_000_000 && html.length() < 16_000_000, md.length() + " / " + html.length());
            ReportIO.parse(json, "written"); // what report writes, show reads
        });
    }
}
