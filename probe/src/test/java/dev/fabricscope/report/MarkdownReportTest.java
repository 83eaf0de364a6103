package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {

    @Test
    void fullReportOfAnEightGpuMachineFitsWithoutCuts() {
        String md = MarkdownReport.render(ReportFixtures.report("dgx-h100"));
        assertTrue(md.length() < MarkdownReport.GITHUB_LIMIT, "length " + md.length());
        assertFalse(md.contains("[!NOTE]"), "nothing was cut");
        assertTrue(md.startsWith("## Fabricscope report: dgx-h100-sample — 8× NVIDIA H100 80GB HBM3 (SM 9.0, 80 GiB)"), md.substring(0, 200));
        assertTrue(md.contains("GPU0  X     NV18  NV18"), "topology matrix");
        assertTrue(md.contains("- **NVLink:** 18/18 active, NVLink4, 450 GB/s per direction, 18 to NVSwitch (every GPU)"));
        assertTrue(md.contains("❌ **sglang** \\-\\-synthetic\\-backend") || md.contains("❌ **sglang** --synthetic-backend"), md);
        assertTrue(md.contains("<details><summary>GPUs (8)</summary>"));
        assertTrue(md.contains("| p2p | PASSED | synthetic: 2 pairs copied |"));
        assertTrue(md.contains("[example/synthetic@0123456789abcdef0123456789abcdef01234567:python/x.py:10\\-12]("
                + "https://github.com/example/synthetic/blob/0123456789abcdef0123456789abcdef01234567/python/x.py#L10-L12)")
                || md.contains("(https://github.com/example/synthetic/blob/0123456789abcdef0123456789abcdef01234567/python/x.py#L10-L12)"));
        HostileReportTest.checkMarkdown(md);
    }

    /**
     * Issue 15: whatever the machine, with the advice and every captured live-check result included, a report stays
     * under 60,000 characters, and the ok verdicts are folded away from the top.
     */
    @Test
    void everySampleWithAdviceAndCapturedChecksStaysUnder60000() throws Exception {
        Path dir = Path.of("src/test/resources/captured/h200-vm-2026-11-29-checks");
        List<ReportChecks.Entry> entries = new ArrayList<>();
        for (String f : List.of("preflight.json", "preflight-ws8.json", "p2p.json", "allreduce.json", "allreduce-timeout.json",
                "torch-allreduce.json")) {
            JsonNode n = Json.mapper().readTree(Files.readString(dir.resolve(f)));
            entries.add(new ReportChecks.Entry(n.path("check").asText(f), n.path("status").asText("PASSED"),
                    n.path("summary").asText(""), n));
        }
        ReportChecks checks = new ReportChecks(true, null, entries);
        for (String name : dev.fabricscope.samples.Samples.names()) {
            var s = ReportFixtures.sample(name);
            var d = new dev.fabricscope.advisor.api.Deployment(null, null, null, null, null, Map.of(), Map.of());
            var o = new dev.fabricscope.advisor.Options(List.of(), Map.of(), Map.of());
            Report r = Reports.create(s, ReportAdvice.of(dev.fabricscope.advisor.Advisor.advise(s, d, o), d, o), checks,
                    List.of("fabricscope", "report", "--sample", name, "--with-checks"), ReportFixtures.WHEN);
            String md = MarkdownReport.render(r);
            assertTrue(md.length() < MarkdownReport.TARGET, name + ": " + md.length());
            int verdicts = md.indexOf("\n### Verdicts");
            String table = md.substring(verdicts, md.indexOf("\n### ", verdicts + 5));
            assertFalse(table.contains("| ✅ |"), name + ": ok verdicts are folded below the details heading: " + table);
            assertTrue(md.contains("<details><summary>Ok verdicts ("), name);
            HostileReportTest.checkMarkdown(md);
        }
    }

    /** The summary is the first screen: about 30 lines. */
    @Test
    void summaryFitsOneScreen() {
        String md = MarkdownReport.render(ReportFixtures.report("dgx-h100"));
        String summary = md.substring(0, md.indexOf("### Topology"));
        assertTrue(summary.lines().count() <= 35, summary);
    }

    @Test
    void manyVerdictsAreCutToGithubsLimitAndSaySo() {
        List<Verdict> many = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            many.add(new Verdict("nccl", "NCCL_SYNTHETIC_" + i, "1", true, i % 3 == 0 ? Outcome.ERROR : Outcome.OK, null, null,
                    "synthetic message " + "m".repeat(200), "init", "synthetic reason " + "w".repeat(300), null, null, null));
        }
        Report r = Reports.create(ReportFixtures.sample("dgx-h100"), ReportAdvice.of(many, List.of(), Map.of()),
                ReportFixtures.checks(), List.of("fabricscope"), ReportFixtures.WHEN);
        String md = MarkdownReport.render(r);
        assertTrue(md.length() <= MarkdownReport.GITHUB_LIMIT, "length " + md.length());
        assertTrue(md.contains("> [!NOTE]\n> Shortened to stay under 60,000 characters (GitHub's limit is 65,536). Left out: "), md.substring(0, 3000));
        assertTrue(md.contains("rows cut here"));
        assertTrue(md.contains("- **Verdicts:** 1667 errors · 0 fallbacks · 3333 ok"), "the summary is complete");
        assertTrue(md.contains("### Topology"), "more important than the verdict rows");
        HostileReportTest.checkMarkdown(md);
    }

    @Test
    void smallLimitsDropTheLeastImportantBlocksFirst() {
        Report r = ReportFixtures.report("dgx-h100");
        String md = MarkdownReport.render(r, 12_000);
        assertTrue(md.length() <= 12_000, "length " + md.length());
        assertTrue(md.contains("## Fabricscope report"));
        assertTrue(md.contains("### Verdicts"));
        assertTrue(md.contains("Left out: "));
        assertTrue(md.contains("unreadable values") || !md.contains("Values the machine did not give"));
        assertFalse(md.contains("<summary>Provenance</summary>"), "a low-priority block went first");
        HostileReportTest.checkMarkdown(md);
    }
}
