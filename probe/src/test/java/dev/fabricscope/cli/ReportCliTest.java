package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCliTest {

    @TempDir
    Path tmp;

    static CliTest.Run run(String... args) {
        return CliTest.run(args);
    }

    @Test
    void helpListsReportAndDiff() {
        CliTest.Run r = run("--help");
        assertTrue(r.out().contains("  report ") && r.out().contains("  diff "), r.out());
    }

    @Test
    void jsonReportOfASample() throws Exception {
        CliTest.Run r = run("report", "--sample", "dgx-h100");
        assertEquals(0, r.code(), r.err());
        Report rep = ReportIO.parse(r.out(), "stdout");
        assertEquals(8, rep.snapshot().gpus().size());
        assertEquals(List.of("fabricscope", "report", "--sample", "dgx-h100"), rep.commandLine());
        assertEquals(Report.FORMAT, rep.format());
        assertFalse(rep.checks().requested());
    }

    @Test
    void formatFollowsTheOutFileAndWritesOnlyTheFile() throws Exception {
        for (String ext : List.of("md", "html", "json")) {
            Path out = tmp.resolve("r." + ext);
            CliTest.Run r = run("report", "--sample", "h200-vm", "--out", out.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().startsWith("Report written to " + out + " (" + ext + ", "), r.out());
            String text = Files.readString(out);
            assertTrue(switch (ext) {
                case "md" -> text.startsWith("## Fabricscope report: vm");
                case "html" -> text.startsWith("<!DOCTYPE html>");
                default -> text.startsWith("{");
            }, ext);
        }
        CliTest.Run r = run("report", "--sample", "h200-vm", "--format", "md", "--out", tmp.resolve("x.json").toString());
        assertTrue(Files.readString(tmp.resolve("x.json")).startsWith("## "), "--format wins over the extension");
    }

    @Test
    void redactAndReRenderASavedReport() throws Exception {
        Path json = tmp.resolve("r.json");
        assertEquals(0, run("report", "--sample", "h200-vm", "--redact", "--out", json.toString()).code());
        Report rep = ReportIO.read(json);
        assertTrue(rep.redaction().applied());
        assertFalse(Files.readString(json).contains("GPU-243a1b07"));
        CliTest.Run md = run("report", "--from", json.toString(), "--format", "md");
        assertEquals(0, md.code(), md.err());
        assertTrue(md.out().contains("GPU and MIG UUIDs (1)"), md.out());
        assertEquals(ExitCodes.USAGE, run("report", "--from", json.toString(), "--sample", "h200-vm").code());
    }

    @Test
    void withChecksOnASampleExplainsTheSkip() throws Exception {
        CliTest.Run r = run("report", "--sample", "dgx-h100", "--with-checks");
        assertEquals(0, r.code(), r.err());
        Report rep = ReportIO.parse(r.out(), "stdout");
        assertTrue(rep.checks().requested());
        assertTrue(rep.checks().skipped().contains("a saved snapshot or sample cannot be checked"), rep.checks().skipped());
        assertTrue(r.err().startsWith("fabricscope: checks skipped — "), r.err());
    }

    @Test
    void withChecksWithoutDriverExplainsTheSkip() throws Exception {
        assumeFalse(CliTest.driverPresent(), "this machine has an NVIDIA driver");
        Path out = tmp.resolve("live.json");
        CliTest.Run r = run("report", "--with-checks", "--out", out.toString());
        assertEquals(ExitCodes.NO_DRIVER, r.code());
        Report rep = ReportIO.read(out);
        assertTrue(rep.checks().skipped().startsWith("no NVIDIA driver on this machine: "), rep.checks().skipped());
        assertTrue(r.err().contains("checks skipped — no NVIDIA driver"), r.err());
    }

    @Test
    void badInputLeavesTheOldReportAlone() throws Exception {
        Path out = tmp.resolve("good.md");
        Files.writeString(out, "GOOD");
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schemaVersion\": 1, \"gpus\": [");
        CliTest.Run r = run("report", "--snapshot", bad.toString(), "--out", out.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: " + bad + ": not valid JSON"), r.err());
        assertEquals("GOOD", Files.readString(out));
        assertEquals(List.of("bad.json", "good.md"), listing(tmp));
    }

    @Test
    void aFailedWriteLeavesNoPartialFile() throws Exception {
        Path notAFolder = Files.writeString(tmp.resolve("occupied"), "a file, not a folder");
        Path target = notAFolder.resolve("r.json");
        CliTest.Run r = run("report", "--sample", "h200-vm", "--out", target.toString());
        assertEquals(ExitCodes.CANNOT_WRITE, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: cannot write --out " + target), r.err());
        assertEquals("a file, not a folder", Files.readString(notAFolder));
        assertEquals(List.of("occupied"), listing(tmp), "no temporary file left behind");
    }

    private static List<String> listing(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void showAndOtherSnapshotCommandsTakeAReport() throws Exception {
        Path json = tmp.resolve("r.json");
        run("report", "--sample", "dgx-a100", "--out", json.toString());
        CliTest.Run r = run("show", "--snapshot", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("A100-SXM4-80GB"), r.out());
    }

    @Test
    void diffTwoReportsAndASnapshot() throws Exception {
        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        run("report", "--sample", "dgx-h100", "--out", a.toString());
        Files.writeString(b, Json.write(dev.fabricscope.samples.Samples.find("dgx-a100").orElseThrow().snapshot().get()));
        CliTest.Run r = run("diff", a.toString(), b.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("GPU models and compute capability:"), r.out());
        assertTrue(r.out().contains("compute capability  9.0"), r.out());
        CliTest.Run j = run("diff", a.toString(), b.toString(), "--json");
        assertEquals(0, j.code());
        assertEquals("gpus", Json.mapper().readTree(j.out()).at("/changes/0/category").asText(), j.out().substring(0, 300));
    }

    @Test
    void diffOfAnUnreadableFileIsOneLine() throws Exception {
        Path a = tmp.resolve("a.json");
        run("report", "--sample", "dgx-h100", "--out", a.toString());
        Path bad = tmp.resolve("bad.json");
        Files.write(bad, new byte[] {'{', (byte) 0xff, '}'});
        CliTest.Run r = run("diff", a.toString(), bad.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("not UTF-8"), r.err());
        assertEquals(ExitCodes.BAD_INPUT, run("diff", a.toString(), tmp.resolve("none.json").toString()).code());
    }

    @Test
    void reportOfAHostileSnapshotIsEscaped() throws Exception {
        var s = dev.fabricscope.samples.Samples.find("h200-vm").orElseThrow().snapshot().get();
        String json = Json.write(s).replace("\"Ubuntu 24.04.3 LTS\"", "\"<script>alert(1)</script>\"");
        Path f = tmp.resolve("hostile.json");
        Files.writeString(f, json);
        CliTest.Run html = run("report", "--snapshot", f.toString(), "--format", "html");
        assertEquals(0, html.code(), html.err());
        assertFalse(html.out().contains("<script>"));
        assertTrue(html.out().replace("<wbr>", "").contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertEquals(ExitCodes.OK, run("report", "--snapshot", f.toString(), "--format", "md").code());
        assertTrue(SnapshotIO.read(f).host().os().value().contains("<script>"));
    }

    @Test
    void outIsNeverAFolderAndNeverReplacesADevice() throws Exception {
        for (String dir : List.of("/", tmp.toString())) {
            CliTest.Run r = run("report", "--sample", "h200-vm", "--out", dir);
            assertEquals(ExitCodes.USAGE, r.code(), r.err());
            assertEquals(2, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("is a folder"), r.err());
        }
        if (Files.exists(Path.of("/dev/full"))) {
            CliTest.Run r = run("report", "--sample", "h200-vm", "--out", "/dev/full");
            assertEquals(ExitCodes.CANNOT_WRITE, r.code());
            assertTrue(r.err().startsWith("fabricscope: cannot write --out /dev/full: "), r.err());
            assertFalse(Files.isRegularFile(Path.of("/dev/full")));
        }
        CliTest.Run dash = run("report", "--sample", "h200-vm", "--out", "-");
        assertEquals(0, dash.code(), dash.err());
        assertTrue(dash.out().startsWith("{"), dash.out());
    }
}
