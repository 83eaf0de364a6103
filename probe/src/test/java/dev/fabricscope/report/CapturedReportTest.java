package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The report made with live checks on the H200 (captured 2026-11-29) reads back and says what that machine showed. */
class CapturedReportTest {

    private static final Path DIR = Paths.get("src/test/resources/captured/h200-vm-2026-11-29-report");

    @Test
    void liveChecksAreInTheReportAsTheMachineRanThem() throws Exception {
        Report r = ReportIO.read(DIR.resolve("report.json"));
        assertEquals("NVIDIA H200", r.snapshot().gpus().get(0).name().value());
        assertTrue(r.checks().requested());
        Map<String, String> status = r.checks().results().stream()
                .collect(Collectors.toMap(ReportChecks.Entry::check, ReportChecks.Entry::status));
        assertEquals(Map.of("preflight", "FAILED", "p2p", "PASSED", "allreduce", "PASSED"), status);
        String preflight = r.checks().results().stream().filter(e -> e.check().equals("preflight")).findFirst().orElseThrow()
                .result().toString();
        assertTrue(preflight.contains("cuMulticastGetGranularity"), preflight);
        assertTrue(preflight.contains("CUDA_ERROR_NOT_SUPPORTED"), preflight);
        assertTrue(preflight.contains("801"), preflight);
        String stderr = Files.readString(DIR.resolve("report.stderr.txt"));
        assertTrue(stderr.contains("rc=5"), "exit 5: a check failed");
    }

    @Test
    void markdownAndRedactedHtmlFromTheMachine() throws Exception {
        String md = Files.readString(DIR.resolve("report.md"));
        assertTrue(md.length() < 65_536);
        assertTrue(md.contains("preflight FAILED · p2p PASSED · allreduce PASSED"));
        String html = Files.readString(DIR.resolve("report-redacted.html"));
        Report r = ReportIO.read(DIR.resolve("report.json"));
        assertFalse(html.contains(r.snapshot().gpus().get(0).uuid().value()), "GPU UUID redacted");
        assertFalse(html.contains(r.snapshot().gpus().get(0).serial().value()), "serial redacted");
        assertFalse(html.contains("<script"), "no scripts");
    }

    @Test
    void adviceFromTheReportShowsSglangSkippingFusionAfterThePreflight() throws Exception {
        String advise = Files.readString(DIR.resolve("advise-h200-tp2-trtllm.txt"));
        assertTrue(advise.contains("FALLBACK  --flashinfer-allreduce-fusion-backend=trtllm"), advise);
        assertTrue(advise.contains("Skipping allreduce fusion"), advise);
    }
}
