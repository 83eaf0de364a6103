package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.ChecksPort;
import dev.fabricscope.app.viewmodel.ReportPort;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
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

    private static final ReportChecks.Entry P2P_ENTRY = new ReportChecks.Entry("p2p", "PASSED", "2 GPUs measured",
            Json.mapper().valueToTree(Map.of("check", "p2p", "status", "PASSED", "pairs", 1)));

    private final ChecksPort fake = new ChecksPort() {
        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) {
            return new Result(kind, "PASSED", true, "2 GPUs measured", List.of("Pair", "Uni GB/s"),
                    List.of(List.of("GPU0 → GPU1", "390")), List.of(), List.of(), null, P2P_ENTRY);
        }
    };

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> Samples.find("dgx-h100").orElseThrow().snapshot().get(), new AdvisorAdapter(), fake);
    }

    private Report export(FxRobot robot, Path file) throws Exception {
        robot.interact(() -> app.exports.exportReport(ReportPort.Format.JSON, file));
        AppHarness.await(() -> !app.reports.exportingProperty().get() && Files.exists(file));
        return ReportIO.read(file);
    }

    @Test
    void checksRunHereAndChecksRecordedInAReportAreExported(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> app.vm.probeLive());
        app.awaitIdle();
        robot.interact(() -> app.checks.run(ChecksPort.Kind.P2P));
        AppHarness.await(() -> app.checks.resultProperty(ChecksPort.Kind.P2P).get() != null);

        Report live = export(robot, dir.resolve("live.json"));
        assertEquals(List.of(P2P_ENTRY.check()), live.checks().results().stream().map(ReportChecks.Entry::check).toList());
        assertEquals(P2P_ENTRY.result(), live.checks().results().get(0).result());
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
