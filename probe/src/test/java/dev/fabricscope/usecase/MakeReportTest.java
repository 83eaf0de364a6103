package dev.fabricscope.usecase;

import dev.fabricscope.report.ReportFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cli.CliEnvironment;
import dev.fabricscope.cli.Main;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MakeReport} on the bundled samples, with a fixed clock; no check process is ever started. */
class MakeReportTest {

    static final Instant WHEN = Instant.parse("2026-11-29T10:00:00Z");
    static final Clock CLOCK = Clock.fixed(WHEN, ZoneOffset.UTC);

    /** Checks must not run in these tests: any attempt to start a check process fails the test. */
    static RunCheck noChecks() {
        return new RunCheck(() -> {
            throw new AssertionError("no check process may start");
        }, () -> "no NVIDIA driver: test", () -> {
            throw new AssertionError("no live probe");
        });
    }

    private final MakeReport reports = new MakeReport(new Advise(), noChecks(), CLOCK);

    static MakeReport.Request request(MachineSnapshot m, MakeReport.Origin origin, DeploymentRequest d, MakeReport.Checks checks,
                                      ReportFormat f, boolean redact) {
        return new MakeReport.Request(m, origin, d, checks, null, f, redact);
    }

    @Test
    void aReportOfASampleWithTheVerdictsAndTheCommandThatReproducesIt() throws Exception {
        MakeReport.Result r = reports.make(request(AdviseTest.sample("dgx-h100"), MakeReport.Origin.sample("dgx-h100"),
                AdviseTest.tp(8, "nccl"), MakeReport.Checks.notRequested(), ReportFormat.JSON, false));
        assertEquals(WHEN.toString(), r.report().createdAt());
        assertEquals(List.of("fabricscope", "report", "--sample", "dgx-h100", "--framework", "nccl", "--tp", "8", "--format", "json"),
                r.report().commandLine());
        assertFalse(r.report().advice().verdicts().isEmpty());
        assertFalse(r.report().redaction().applied());
        assertEquals(r.report(), ReportIO.parse(r.text(), "made"), "the JSON text is the report");
    }

    @Test
    void theReproducingCommandMakesTheSameReport() throws Exception {
        DeploymentRequest d = new DeploymentRequest(List.of("sglang"), 8, null, null, null, null,
                Map.of("flashinfer-allreduce-fusion-backend", "trtllm"), Map.of(), Map.of("multicast", "false"), Map.of());
        MakeReport.Result made = reports.make(request(AdviseTest.sample("dgx-h100"), MakeReport.Origin.sample("dgx-h100"), d,
                MakeReport.Checks.notRequested(), ReportFormat.MARKDOWN, true));
        List<String> argv = made.report().commandLine();
        String[] args = argv.subList(1, argv.size()).toArray(String[]::new);
        StringWriter out = new StringWriter();
        var cl = Main.commandLine(CliEnvironment.of(args).withClock(CLOCK), args[0]);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute(args));
        assertEquals(made.text(), out.toString());
    }

    @Test
    void redactionIsDecidedOnceForTheReportAndForOtherExports() throws Exception {
        MachineSnapshot m = AdviseTest.sample("h200-vm");
        String host = m.host().hostname().orElse(null);
        MakeReport.Result plain = reports.make(request(m, MakeReport.Origin.live(), DeploymentRequest.NONE,
                MakeReport.Checks.notRequested(), ReportFormat.HTML, false));
        MakeReport.Result redacted = reports.make(request(m, MakeReport.Origin.live(), DeploymentRequest.NONE,
                MakeReport.Checks.notRequested(), ReportFormat.HTML, true));
        String pseudonym = redacted.report().snapshot().host().hostname().orElse(null);
        assertEquals(host, plain.report().snapshot().host().hostname().orElse(null));
        assertNotEquals(host, pseudonym);
        assertTrue(redacted.text().contains(pseudonym) && !plain.text().contains(pseudonym), pseudonym);
        assertTrue(redacted.report().redaction().applied());
        assertEquals(redacted.report().snapshot().host().hostname(), reports.forExport(m, true).host().hostname(),
                "a snapshot export gets the report's pseudonym");
        assertEquals(m, reports.forExport(m, false));
        assertEquals(List.of("fabricscope", "report", "--format", "html", "--redact"), redacted.report().commandLine());
    }

    @Test
    void checksRecordedWithTheOpenedReportAreCarriedOnlyWhileTheFileIsThatReport(@TempDir Path dir) throws Exception {
        ReportChecks checks = new ReportChecks(true, null, List.of(new ReportChecks.Entry("p2p", "PASSED", "all 1 pairs", null)));
        MachineSnapshot m = AdviseTest.sample("dgx-h100");
        Path file = dir.resolve("r.json");
        Files.writeString(file, reports.make(request(m, MakeReport.Origin.sample("dgx-h100"), DeploymentRequest.NONE,
                MakeReport.Checks.given(checks), ReportFormat.JSON, false)).text());
        MachineSnapshot opened = SnapshotIO.read(file);
        MakeReport.Result again = reports.make(request(opened, MakeReport.Origin.file(file), DeploymentRequest.NONE,
                MakeReport.Checks.recorded(), ReportFormat.JSON, false));
        assertEquals(checks, again.report().checks());
        assertFalse(again.report().commandLine().contains("--with-checks"), "recorded results are not run again");
        MachineSnapshot other = AdviseTest.sample("h200-vm");
        assertEquals(ReportChecks.notRequested(), reports.make(request(other, MakeReport.Origin.file(file), DeploymentRequest.NONE,
                MakeReport.Checks.recorded(), ReportFormat.JSON, false)).report().checks());
    }

    @Test
    void checksOfASavedMachineAreSkippedWithTheReasonWithoutStartingAnything() throws Exception {
        MakeReport.Result r = reports.make(request(AdviseTest.sample("dgx-h100"), MakeReport.Origin.sample("dgx-h100"),
                DeploymentRequest.NONE, MakeReport.Checks.run(e -> { }, new dev.fabricscope.check.api.CheckControl()), ReportFormat.JSON, false));
        assertTrue(r.report().checks().requested());
        assertTrue(r.report().checks().skipped().contains("saved snapshot"), r.report().checks().skipped());
    }

    @Test
    void aSavedReportIsRerenderedAsItWas(@TempDir Path dir) throws Exception {
        MakeReport.Result made = reports.make(request(AdviseTest.sample("dgx-h100"), MakeReport.Origin.sample("dgx-h100"),
                AdviseTest.tp(8), MakeReport.Checks.notRequested(), ReportFormat.JSON, false));
        Path file = dir.resolve("saved.json");
        Files.writeString(file, made.text());
        MakeReport later = new MakeReport(new Advise(), noChecks(), Clock.fixed(WHEN.plusSeconds(3600), ZoneOffset.UTC));
        MakeReport.Result md = later.rerender(file, ReportFormat.MARKDOWN, false);
        assertEquals(made.report(), md.report(), "nothing advised or dated again");
        assertNotEquals(made.text(), md.text());
        // the recommendations' predicted costs are recorded in words and shown again as recorded
        var predicted = made.report().advice().predicted();
        Advise.Result advised = new Advise().advise(Advise.Request.of(AdviseTest.sample("dgx-h100"), AdviseTest.tp(8)));
        assertEquals(advised.predicted().lines(), predicted.recommendations());
        assertEquals(advised.predicted().heading(), predicted.heading());
        for (String line : predicted.recommendations().values()) {
            assertTrue(md.text().contains(line), line);
        }
        UseCaseException e = assertThrows(UseCaseException.class, () -> later.rerender(dir.resolve("missing.json"),
                ReportFormat.JSON, false));
        assertEquals(UseCaseException.Reason.UNREADABLE_INPUT, e.reason());
    }

    @Test
    void theFormatFollowsTheFileName() {
        assertEquals(ReportFormat.MARKDOWN, ReportFormat.forFile(Path.of("a/b.MD")));
        assertEquals(ReportFormat.MARKDOWN, ReportFormat.forFile(Path.of("x.markdown")));
        assertEquals(ReportFormat.HTML, ReportFormat.forFile(Path.of("x.htm")));
        assertEquals(ReportFormat.JSON, ReportFormat.forFile(Path.of("x.txt")));
        assertEquals(ReportFormat.JSON, ReportFormat.forFile(null));
    }
}
