package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.FabricGraph;
import dev.fabricscope.render.FabricPalette;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.report.ReportChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The File menu's exports without the FX toolkit: what each writes, redaction, file names, failures. */
class ExportViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private final MainViewModel main = new MainViewModel(() -> Fixtures.sample("dgx-h100"), Fixtures.prefs(), tasks);
    private final List<String> problems = new ArrayList<>();
    private final List<ReportChecks> reportedChecks = new ArrayList<>();
    private final List<String> pngs = new ArrayList<>();

    /** Renders a one-line "report" naming the host (or a pseudonym when redacted) and records the checks given. */
    private final ReportPort reports = new ReportPort() {
        @Override
        public String render(LoadedMachine machine, AdvisorPort.Deployment deployment, Format format, boolean redact, ReportChecks checks) {
            if (deployment.nodes() == 3) {
                throw new IllegalArgumentException("3 nodes of 8 GPUs cannot hold tp 12");
            }
            reportedChecks.add(checks);
            return format.cli + " report of " + (redact ? "host-1" : machine.host()) + " for " + deployment.nodes() + " node(s)\n";
        }

        @Override
        public MachineSnapshot redact(MachineSnapshot s) {
            return Fixtures.sample("h200-vm"); // a different machine stands for "identifiers replaced"
        }
    };

    private final ChecksPort checksPort = new ChecksPort() {
        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) {
            return new Result(kind, "PASSED", true, "ok", List.of(), List.of(), List.of(), List.of(), null,
                    new ReportChecks.Entry("p2p", "PASSED", "ok", null));
        }
    };

    private final ViewModels vms = ViewModels.create(main, Fixtures.prefs(), tasks, AdvisorPort.notInThisBuild(), checksPort, reports,
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
        vms.reports().redactProperty().set(true);
        assertEquals("fabricscope-machine-redacted.txt", vm.suggestedName(ExportViewModel.Kind.TEXT));
        assertEquals("fabricscope-machine-report-redacted.md", vm.suggestedName(ReportPort.Format.MARKDOWN));
        Path json = dir.resolve("r.json");
        vm.export(ExportViewModel.Kind.SNAPSHOT, json, FabricPalette.LIGHT);
        assertEquals(Fixtures.sample("h200-vm"), SnapshotIO.read(json), "the redacted snapshot is written");
        assertTrue(vms.prefs().redactExports(), "the toggle is remembered");
    }

    @Test
    void aReportCarriesTheDeploymentAndTheChecksRunHere(@TempDir Path dir) throws Exception {
        main.probeLive();
        tasks.runAll();
        vms.checks().run(ChecksPort.Kind.P2P);
        tasks.runAll();
        vms.advisor().nodesProperty().set(2);
        assertEquals("fabricscope-dgx-h100-sample-report.html", vm.suggestedName(ReportPort.Format.HTML));
        Path out = dir.resolve("r.html");
        Job<String> job = vm.exportReport(ReportPort.Format.HTML, out);
        assertTrue(vms.reports().exportingProperty().get());
        assertEquals("Writing the HTML report…", main.statusProperty().get());
        tasks.runAll();
        assertEquals(Job.State.SUCCEEDED, job.state());
        assertFalse(vms.reports().exportingProperty().get());
        assertEquals("html report of dgx-h100-sample for 2 node(s)\n", Files.readString(out));
        assertEquals(List.of("p2p"), reportedChecks.get(0).results().stream().map(ReportChecks.Entry::check).toList());
        assertTrue(main.statusProperty().get().startsWith("Report written to " + out + " (HTML, 1 check result, "), main.statusProperty().get());
    }

    @Test
    void aReportOfAMachineFromAFileCarriesNoChecksOfThisMachine(@TempDir Path dir) throws Exception {
        showSample("dgx-a100");
        vm.exportReport(ReportPort.Format.JSON, dir.resolve("r.json"));
        tasks.runAll();
        assertNull(reportedChecks.get(0), "none run here: the report's own recorded checks are used");
    }

    @Test
    void aMalformedDeploymentIsSaidBeforeAnythingIsWritten(@TempDir Path dir) {
        showSample("dgx-h100");
        vms.advisor().flagsProperty().set("no-equals-sign");
        assertFalse(vm.reportReady());
        assertNull(vm.exportReport(ReportPort.Format.JSON, dir.resolve("r.json")));
        assertEquals("Export failed: The Advisor tab's deployment cannot be used: flag 'no-equals-sign' is not NAME=VALUE", problems.get(0));
        assertFalse(Files.exists(dir.resolve("r.json")));
    }

    @Test
    void failuresAreToldInOneLine(@TempDir Path dir) throws Exception {
        showSample("dgx-h100");
        vms.advisor().nodesProperty().set(3);
        vm.exportReport(ReportPort.Format.JSON, dir.resolve("r.json"));
        tasks.runAll();
        assertEquals("Export failed: Could not export the report to " + dir.resolve("r.json") + ": 3 nodes of 8 GPUs cannot hold tp 12",
                problems.get(0));
        assertEquals("Export failed: 3 nodes of 8 GPUs cannot hold tp 12", main.statusProperty().get());

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
