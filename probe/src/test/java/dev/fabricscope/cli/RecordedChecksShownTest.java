package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 1: the live checks a report holds are shown where people look — {@code show} and the Markdown and
 * HTML reports — as tables read through the checks' own result records, on the captured reports of the real
 * machines (the 2×H200 NVSwitch VM: preflight, P2P and all-reduce PASSED, 312 measurements; the 1×H200 VMs).
 */
class RecordedChecksShownTest {

    static final Path NVSWITCH = Path.of("src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json");
    static final List<Path> CAPTURED = List.of(NVSWITCH,
            Path.of("src/test/resources/captured/h200-passthrough-1gpu-2026-12-01/report.json"),
            Path.of("src/test/resources/captured/h200-vm-2026-11-29-report/report.json"));

    @TempDir
    Path tmp;

    @Test
    void everyCapturedResultReadsAsItsCheckRecord() throws Exception {
        for (Path p : CAPTURED) {
            Report r = ReportIO.read(p);
            assertEquals(3, r.checks().results().size(), p.toString());
            for (ReportChecks.Entry e : r.checks().results()) {
                assertNotNull(e.typed(), p + " " + e.check() + ": " + e.unreadable());
                assertEquals(e.status(), e.typed().status().name());
            }
        }
        Report r = ReportIO.read(NVSWITCH);
        P2pResult p2p = assertInstanceOf(P2pResult.class, r.checks().results().get(1).typed());
        assertEquals(2, p2p.pairs().size());
        AllReduceResult ar = assertInstanceOf(AllReduceResult.class, r.checks().results().get(2).typed());
        assertEquals(312, ar.rows().size(), "26 sizes × 2 types × 3 implementations × 2 modes");
        assertInstanceOf(PreflightResult.class, r.checks().results().get(0).typed());
    }

    @Test
    void showPrintsTheReportsChecksAsTablesWithinWidth() {
        CliTest.Run run = CliTest.run("show", "--snapshot", NVSWITCH.toString());
        assertEquals(0, run.code(), run.err());
        String out = run.out();
        assertTrue(out.contains("Live checks (recorded in the report, made 2026-12-01 02:20:48 UTC on vm (2× NVIDIA H200)):"), out);
        assertTrue(Pattern.compile("(?m)^  p2p +PASSED +2 GPU\\(s\\), 2/2 ordered pairs with peer access, slowest pair 394.8 GB/s$")
                .matcher(out).find(), out);
        // the preflight's steps, the P2P matrix, the all-reduce by size per implementation and mode
        assertTrue(Pattern.compile("(?m)^  GPU0 +4 +cuMulticastGetGranularity +CUDA_SUCCESS \\(0\\) = 536870912 +query only$")
                .matcher(out).find(), out);
        assertTrue(out.contains("Unidirectional copy GB/s (row = source, written to column):\n        GPU0  GPU1\n  GPU0  X     395\n"), out);
        assertTrue(out.contains("All-reduce bf16: bus bandwidth, GB/s:\n  size  NCCL plain  NCCL graph  one-shot plain  one-shot graph"
                + "  two-shot plain  two-shot graph\n"), out);
        assertTrue(Pattern.compile("(?m)^  256M +300\\.30 +299\\.97 +268\\.46 +269\\.29 +242\\.82 +242\\.31$").matcher(out).find(), out);
        assertTrue(out.contains("All-reduce fp32: time per operation, µs:"), out);
        assertTrue(out.contains("(Arguments: --wide or the JSON report)"), out);
        for (String line : out.split("\n")) {
            assertTrue(line.codePointCount(0, line.length()) <= 120, "over 120 columns: " + line);
        }
        String wide = CliTest.run("show", "--snapshot", NVSWITCH.toString(), "--wide").out();
        assertTrue(wide.contains("   4. cuMulticastGetGranularity(numDevices=2, size=35651584, handleTypes=CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, "
                + "RECOMMENDED) → CUDA_SUCCESS (0) = 536870912  [query only]"), wide);
        // --wide: each check as 'fabricscope check NAME' prints it, nccl-tests' layout with in-place and CUDA events
        assertTrue(wide.contains("#\n# nccl, plain launches\n"), wide);
        assertTrue(wide.contains("# Out of bounds values : 0 OK"), wide);
    }

    @Test
    void everyCapturedReportsChecksFit120Columns() {
        for (Path p : CAPTURED) {
            CliTest.Run run = CliTest.run("show", "--snapshot", p.toString());
            assertEquals(0, run.code(), run.err());
            String checks = run.out().substring(run.out().indexOf("Live checks (recorded in the report, made "));
            assertTrue(checks.contains("Preflight steps") && checks.contains("Device-local") && checks.contains("All-reduce bf16: "
                    + "bus bandwidth, GB/s:"), p + ":\n" + checks);
            for (String line : checks.split("\n")) {
                assertTrue(line.codePointCount(0, line.length()) <= 120, p + ": over 120 columns: " + line);
            }
        }
    }

    @Test
    void showOfASampleOrAReportWithoutChecksPrintsNoCheckSection() throws Exception {
        assertFalse(CliTest.run("show", "--sample", "dgx-h100").out().contains("Live checks"));
        Path noChecks = tmp.resolve("no-checks.json");
        CliTest.Run made = CliTest.run("report", "--from", NVSWITCH.toString(), "--out", noChecks.toString());
        assertEquals(0, made.code(), made.err());
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(Files.readString(noChecks));
        tree.putObject("checks").put("requested", false);
        Files.writeString(noChecks, Json.write(tree));
        assertFalse(CliTest.run("show", "--snapshot", noChecks.toString()).out().contains("Live checks"));
    }

    @Test
    void markdownAndHtmlDrawTheTablesNotTheRawJson() throws Exception {
        Path md = tmp.resolve("r.md");
        Path html = tmp.resolve("r.html");
        assertEquals(0, CliTest.run("report", "--from", NVSWITCH.toString(), "--format", "md", "--out", md.toString()).code());
        assertEquals(0, CliTest.run("report", "--from", NVSWITCH.toString(), "--format", "html", "--out", html.toString()).code());
        String m = Files.readString(md);
        assertTrue(m.contains("| size | NCCL plain | NCCL graph | one-shot plain | one-shot graph | two-shot plain | two-shot graph |"), m);
        assertTrue(m.contains("| 256M | 300.30 | 299.97 | 268.46 | 269.29 | 242.82 | 242.31 |"), m);
        assertTrue(m.contains("| GPU0 | X | 395 |"), m);
        assertTrue(m.contains("| GPU0 | 4 | cuMulticastGetGranularity | numDevices=2, size=35651584, "), m);
        assertTrue(m.contains("Run when this report was made 2026-12-01 02:20:48 UTC on vm (2× NVIDIA H200)."), m);
        assertTrue(m.contains("Out of bounds values: 0 OK (every result exact)"), "the all-reduce's correctness: " + m);
        assertFalse(m.contains("\"uniGBps\"") || m.contains("\"busbw\"") || m.contains("```json"),
                "no raw JSON block of the results");
        assertFalse(m.contains("Left out:"), "nothing of the report cut: " + m.lines().filter(l -> l.contains("Left out")).toList());
        String h = Files.readString(html);
        assertTrue(h.contains("<th>size</th><th>NCCL plain</th><th>NCCL graph</th>"), h);
        assertTrue(h.contains("<tr><td>256M</td><td>300.30</td><td>299.97</td>"), h);
        assertTrue(h.contains("<h4>Unidirectional copy GB/s (row = source, written to column)</h4>"), h);
        assertTrue(h.contains("Out of bounds values: 0 OK (every result exact)"), "the all-reduce's correctness: " + h);
        assertFalse(h.contains("\"uniGBps\"") || h.contains("\"busbw\""), "no raw JSON block of the results");
    }

    @Test
    void aResultThatDoesNotReadAsItsRecordIsShownAsRecordedWithWhy() throws Exception {
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(Files.readString(NVSWITCH));
        ((ObjectNode) tree.get("checks").get("results").get(1).get("result")).put("pairs", "not a list");
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, Json.write(tree));
        Report r = ReportIO.read(bad);
        ReportChecks.Entry p2p = r.checks().results().get(1);
        assertNull(p2p.typed());
        assertTrue(p2p.unreadable().startsWith("the result does not read as a p2p result: "), p2p.unreadable());
        String shown = CliTest.run("show", "--snapshot", bad.toString()).out();
        assertTrue(shown.contains("p2p: the result cannot be shown: the result does not read as a p2p result"), shown);
        assertTrue(shown.contains("All-reduce bf16: bus bandwidth, GB/s:"), "the other checks still shown");
        Path md = tmp.resolve("bad.md");
        assertEquals(0, CliTest.run("report", "--from", bad.toString(), "--format", "md", "--out", md.toString()).code());
        String m = Files.readString(md);
        assertTrue(m.contains("The result cannot be shown as tables: the result does not read as a p2p result"), m);
        assertTrue(m.contains("\"pairs\" : \"not a list\""), "kept as recorded: " + m);
    }
}
