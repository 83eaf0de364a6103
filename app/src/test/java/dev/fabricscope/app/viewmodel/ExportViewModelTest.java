package dev.fabricscope.app.viewmodel;

import dev.fabricscope.report.ReportFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.FakeCheckWorker;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricGraph;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The File menu's exports without the FX toolkit, over the real report use case: what each export writes, redaction,
 * the checks run in the Checks tab, file names, failures.
 */
class ExportViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private final MainViewModel main = new MainViewModel(() -> Fixtures.sample("dgx-h100"), Fixtures.prefs(), tasks);
    private final List<String> problems = new ArrayList<>();
    private final List<String> pngs = new ArrayList<>();
    private final RunCheck runs = new FakeCheckWorker(Map.of(RunCheck.Kind.P2P, FakeCheckWorker.p2pOnTwoGpus())).runs;
    private final ViewModels vms = ViewModels.create(main, Fixtures.prefs(), tasks, new Advise(), runs,
            new MakeReport(new Advise(), runs, Clock.systemUTC()),
            (FabricGraph g, FabricPalette p, double scale, Path file) -> {
                pngs.add(g.nodes().size() + " nodes at " + scale + "x");
                Files.writeString(file, "png");
            });
    private final ExportViewModel vm = vms.exports();

    ExportViewModelTest() {
        vm.setOnProblem((title, text) -> problems.add(title + ": " + text));
    }

    private void showSample(String name) {
        main.openSample(name);
        tasks.runAll();
    }

    @Test
    void theSnapshotAndTheTextAreWhatTheMachineHolds(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        assertEquals("fabricscope-dgx-h100.json", vm.suggestedName(ExportViewModel.Kind.SNAPSHOT));
        Path json = dir.resolve("s.json");
        vm.export(ExportViewModel.Kind.SNAPSHOT, json, FabricPalette.LIGHT);
        assertEquals(main.getMachine().snapshot(), SnapshotIO.read(json));
        assertEquals("Saved " + json, main.statusProperty().get());

        Path txt = dir.resolve("s.txt");
        vm.export(ExportViewModel.Kind.TEXT, txt, FabricPalette.LIGHT);
        assertEquals(SnapshotText.render(main.getMachine().snapshot()), Files.readString(txt));
        assertTrue(problems.isEmpty(), problems.toString());
    }

    /** Issue 25: a machine opened from a trace saves that trace, redacted with the toggle, else saying what it holds. */
    @Test
    void aMachineOpenedFromATraceSavesTheTraceRedactedWhenAsked(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        vm.export(ExportViewModel.Kind.TRACE, dir.resolve("none.trace.json"), FabricPalette.LIGHT);
        assertEquals(1, problems.size(), "a sample has no trace: " + problems);
        assertFalse(Files.exists(dir.resolve("none.trace.json")));
        problems.clear();

        Path planted = Path.of("../probe/src/test/resources/planted/h200-nvswitch-2gpu-planted/trace.json");
        main.openFile(planted);
        tasks.runAll();
        assertTrue(vm.traceAvailable());
        Path plain = dir.resolve("plain.trace.json");
        vm.export(ExportViewModel.Kind.TRACE, plain, FabricPalette.LIGHT);
        assertTrue(Files.readString(plain).contains("gpu-node17"), "unredacted: the machine's own names");
        assertTrue(main.statusProperty().get().contains("trace not redacted: host names"), main.statusProperty().get());

        vms.reports().redactProperty().set(true);
        assertEquals("fabricscope-machine-redacted.trace.json", vm.suggestedName(ExportViewModel.Kind.TRACE));
        Path red = dir.resolve("red.trace.json");
        vm.export(ExportViewModel.Kind.TRACE, red, FabricPalette.LIGHT);
        String text = Files.readString(red);
        for (String id : List.of("gpu-node17", "alice.smith", "3f2a9c1e", "1654422003245", "10.17.3.41")) {
            assertFalse(text.contains(id), id + " survives");
        }
        assertTrue(text.contains("GPU-redacted-1"), "the pseudonyms of the other exports");
        assertTrue(main.statusProperty().get().contains("trace redacted: host names"), main.statusProperty().get());
        assertTrue(problems.isEmpty(), problems.toString());
    }

    /**
     * Issue 25: the live probe records its native calls, and Save Trace saves that recording. The recording probe here
     * is the planted NVSwitch trace (synthetic, labelled in its folder) and the snapshot its replay: what
     * {@code TraceReplay.record} hands the app on a machine with that trace's answers.
     */
    @Test
    void aLiveMachineSavesTheTraceItsProbeRecorded(@TempDir Path dir) throws Exception {
        Path planted = Path.of("../probe/src/test/resources/planted/h200-nvswitch-2gpu-planted/trace.json");
        String recorded = Files.readString(planted);
        MachineSnapshot replayed = dev.fabricscope.usecase.OpenSnapshot.replay(planted);
        MainViewModel live = MainViewModel.recording(() -> new MainViewModel.LiveReading(replayed, recorded), Fixtures.prefs(), tasks);
        ViewModels liveVms = ViewModels.create(live, Fixtures.prefs(), tasks, new Advise(), runs,
                new MakeReport(new Advise(), runs, Clock.systemUTC()), (g, p, scale, file) -> { });
        ExportViewModel exports = liveVms.exports();
        exports.setOnProblem((title, text) -> problems.add(title + ": " + text));
        live.probeLive();
        tasks.runAll();
        assertEquals(LoadedMachine.Source.LIVE, live.getMachine().source());
        assertTrue(exports.traceAvailable());

        Path plain = dir.resolve("plain.trace.json");
        exports.export(ExportViewModel.Kind.TRACE, plain, FabricPalette.LIGHT);
        assertTrue(Files.readString(plain).contains("gpu-node17"), "unredacted: the machine's own names");
        assertTrue(Files.readString(plain).contains("\"format\" : \"fabricscope-native-trace\""));
        assertTrue(live.statusProperty().get().contains("trace not redacted: host names"), live.statusProperty().get());

        liveVms.reports().redactProperty().set(true);
        Path red = dir.resolve("red.trace.json");
        exports.export(ExportViewModel.Kind.TRACE, red, FabricPalette.LIGHT);
        String text = Files.readString(red);
        for (String id : List.of("gpu-node17", "alice.smith", "3f2a9c1e", "1654422003245", "10.17.3.41")) {
            assertFalse(text.contains(id), id + " survives");
        }
        assertTrue(text.contains("GPU-redacted-1"), "the pseudonyms of the other exports");
        assertTrue(live.statusProperty().get().contains("trace redacted: host names"), live.statusProperty().get());
        // the saved trace replays to the fabric shown: two GPUs, as the live machine
        assertEquals(replayed.gpus().size(), dev.fabricscope.usecase.OpenSnapshot.replay(red).gpus().size());
        assertTrue(problems.isEmpty(), problems.toString());
    }

    /** A live probe that records nothing (tests, or a build without recording seams) has no trace to save. */
    @Test
    void aLiveMachineWithoutARecordingHasNoTrace(@TempDir Path dir) {
        main.probeLive();
        tasks.runAll();
        assertFalse(vm.traceAvailable());
        vm.export(ExportViewModel.Kind.TRACE, dir.resolve("none.trace.json"), FabricPalette.LIGHT);
        assertEquals(1, problems.size(), problems.toString());
        assertFalse(Files.exists(dir.resolve("none.trace.json")));
    }

    @Test
    void theGraphExportsDrawTheLaidOutGraph(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        Path svg = dir.resolve("g.svg");
        vm.export(ExportViewModel.Kind.SVG, svg, FabricPalette.DARK);
        String text = Files.readString(svg);
        assertTrue(text.contains("<svg") && text.contains("GPU0"), text.substring(0, Math.min(200, text.length())));
        vm.export(ExportViewModel.Kind.PNG, dir.resolve("g.png"), FabricPalette.LIGHT);
        assertEquals(List.of(main.getMachine().graph().nodes().size() + " nodes at 2.0x"), pngs);
    }

    @Test
    void redactionChangesWhatIsWrittenAndTheNameOffered(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        String host = main.getMachine().host();
        vms.reports().redactProperty().set(true);
        assertEquals("fabricscope-machine-redacted.txt", vm.suggestedName(ExportViewModel.Kind.TEXT));
        assertEquals("fabricscope-machine-report-redacted.md", vm.suggestedName(ReportFormat.MARKDOWN));
        Path json = dir.resolve("r.json");
        vm.export(ExportViewModel.Kind.SNAPSHOT, json, FabricPalette.LIGHT);
        MachineSnapshot written = SnapshotIO.read(json);
        assertEquals(main.getMachine().snapshot().gpus().size(), written.gpus().size());
        assertFalse(Files.readString(json).contains(host), "the host name " + host + " is replaced");
        Path report = dir.resolve("r.md");
        vm.exportReport(ReportFormat.MARKDOWN, report);
        tasks.runAll();
        assertFalse(Files.readString(report).contains(host));
        assertTrue(main.statusProperty().get().contains("identifiers redacted"), main.statusProperty().get());
        assertTrue(vms.prefs().redactExports(), "the toggle is remembered");
    }

    @Test
    void aReportCarriesTheDeploymentAndTheChecksRunHere(@TempDir Path dir) throws Exception {
        main.probeLive();
        tasks.runAll();
        vms.checks().run(CheckDisplay.Kind.P2P);
        tasks.runAll();
        vms.advisor().nodesProperty().set(2);
        assertEquals("fabricscope-dgx-h100-sample-report.json", vm.suggestedName(ReportFormat.JSON));
        Path out = dir.resolve("r.json");
        Job<String> job = vm.exportReport(ReportFormat.JSON, out);
        assertTrue(vms.reports().exportingProperty().get());
        assertEquals("Writing the JSON report…", main.statusProperty().get());
        tasks.runAll();
        assertEquals(Job.State.SUCCEEDED, job.state());
        assertFalse(vms.reports().exportingProperty().get());
        Report r = ReportIO.read(out);
        assertEquals(2, r.advice().requested().nodes());
        assertEquals(List.of("p2p"), r.checks().results().stream().map(ReportChecks.Entry::check).toList());
        assertTrue(r.commandLine().contains("--with-checks"), r.commandLine().toString());
        assertTrue(main.statusProperty().get().startsWith("Report written to " + out + " (JSON, 1 check result, "), main.statusProperty().get());
    }

    /** Issue 25 item 3: the exports write through the CLI's one writer, and an unwritable target says which and why. */
    @Test
    void anUnwritableTargetIsOneSentenceNamingItAndWhy(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        Path missing = dir.resolve("no-such-folder/fabric.json");
        vm.export(ExportViewModel.Kind.SNAPSHOT, missing, FabricPalette.LIGHT);
        assertEquals(List.of("Export failed: Could not write " + missing + ": folder " + missing.getParent() + " does not exist"), problems);
        assertFalse(Files.exists(missing.getParent()));
        problems.clear();
        if (Files.exists(Path.of("/dev/full"))) {
            vm.export(ExportViewModel.Kind.TEXT, Path.of("/dev/full"), FabricPalette.LIGHT);
            assertEquals(List.of("Export failed: Could not write /dev/full: No space left on device"), problems);
            problems.clear();
            vm.exportReport(ReportFormat.HTML, Path.of("/dev/full"));
            tasks.runAll();
            assertEquals(List.of("Export failed: Could not export the report to /dev/full: No space left on device"), problems);
        }
    }

    @Test
    void aReportOfASampleCarriesNoChecks(@TempDir Path dir) throws Exception {
        showSample("dgx-a100");
        vm.exportReport(ReportFormat.JSON, dir.resolve("r.json"));
        tasks.runAll();
        Report r = ReportIO.read(dir.resolve("r.json"));
        assertTrue(r.checks() == null || r.checks().results().isEmpty(), String.valueOf(r.checks()));
        assertTrue(r.commandLine().contains("--sample") && !r.commandLine().contains("--with-checks"), r.commandLine().toString());
    }

    @Test
    void aMalformedDeploymentIsSaidBeforeAnythingIsWritten(@TempDir Path dir) {
        showSample("dgx-h100");
        vms.advisor().flagsProperty().set("no-equals-sign");
        assertFalse(vm.reportReady());
        assertNull(vm.exportReport(ReportFormat.JSON, dir.resolve("r.json")));
        assertEquals("Export failed: The Advisor tab's deployment cannot be used: flag 'no-equals-sign' is not NAME=VALUE", problems.get(0));
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    @Test
    void failuresAreToldInOneLine(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        vms.advisor().flagsProperty().set("no-such-flag=1");
        Path out = dir.resolve("r.json");
        vm.exportReport(ReportFormat.JSON, out);
        tasks.runAll();
        assertTrue(problems.get(0).startsWith("Export failed: Could not export the report to " + out + ": ")
                && problems.get(0).contains("no-such-flag") && !problems.get(0).contains("\n"), problems.get(0));
        assertTrue(main.statusProperty().get().startsWith("Export failed: "), main.statusProperty().get());
        assertFalse(Files.exists(out));

        Path nowhere = Files.writeString(dir.resolve("a-file"), "").resolve("s.txt"); // under a file, not a folder
        vm.export(ExportViewModel.Kind.TEXT, nowhere, FabricPalette.LIGHT);
        assertTrue(problems.get(1).startsWith("Export failed: Could not write " + nowhere + ": "), problems.get(1));
    }

    @Test
    void withoutAMachineNothingIsExported(@TempDir Path dir) {
        assertFalse(vm.reportReady());
        vm.export(ExportViewModel.Kind.TEXT, dir.resolve("t.txt"), FabricPalette.LIGHT);
        assertFalse(Files.exists(dir.resolve("t.txt")));
        assertEquals("fabricscope-machine.txt", vm.suggestedName(ExportViewModel.Kind.TEXT));
    }
}
