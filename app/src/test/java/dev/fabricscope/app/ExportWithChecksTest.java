package dev.fabricscope.app;

import dev.fabricscope.report.ReportFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.CheckDisplay;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.RunCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * A report exported from the live machine carries the checks run in the Checks tab (a stand-in for the live checks:
 * this machine has no GPU); a report re-exported from a report file keeps the check results recorded in it.
 */
@ExtendWith(ApplicationExtension.class)
class ExportWithChecksTest {

    /** The P2P check answers at once with a 2-GPU matrix (through a stand-in for its child process). */
    private final FakeCheckWorker fake = new FakeCheckWorker(Map.of(RunCheck.Kind.P2P, FakeCheckWorker.p2pOnTwoGpus()));

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> Samples.find("dgx-h100").orElseThrow().snapshot().get(), fake.runs);
    }

    private Report export(FxRobot robot, Path file) throws Exception {
        robot.interact(() -> app.exports.exportReport(ReportFormat.JSON, file));
        AppHarness.await(() -> !app.reports.exportingProperty().get() && Files.exists(file));
        return ReportIO.read(file);
    }

    @Test
    void checksRunHereAndChecksRecordedInAReportAreExported(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> app.vm.probeLive());
        app.awaitIdle();
        robot.interact(() -> app.checks.run(CheckDisplay.Kind.P2P));
        AppHarness.await(() -> app.checks.resultProperty(CheckDisplay.Kind.P2P).get() != null);

        Report live = export(robot, dir.resolve("live.json"));
        assertEquals(List.of("p2p"), live.checks().results().stream().map(ReportChecks.Entry::check).toList());
        ReportChecks.Entry p2p = live.checks().results().get(0);
        assertEquals("PASSED", p2p.status());
        assertEquals("2 GPUs measured", p2p.summary());
        assertEquals(2, p2p.result().get("pairs").size(), "the check's own result, as the child process gave it");
        assertEquals(390.0, p2p.result().get("pairs").get(0).get("uniGBps").asDouble());
        assertTrue(live.commandLine().contains("--with-checks"), live.commandLine().toString());
        assertTrue(app.vm.statusProperty().get().contains("1 check result"), app.vm.statusProperty().get());

        // opened again from that report: the recorded checks go into a new export (with the deployment of now)
        robot.interact(() -> app.vm.openFile(dir.resolve("live.json")));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getMachine().file() != null);
        robot.interact(() -> app.advisor.nodesProperty().set(2));
        Report again = export(robot, dir.resolve("again.json"));
        assertEquals(live.checks().results(), again.checks().results());
        assertEquals(2, again.advice().requested().nodes());
        assertTrue(!again.commandLine().contains("--with-checks") && again.commandLine().contains("--snapshot"), again.commandLine().toString());
    }
}
