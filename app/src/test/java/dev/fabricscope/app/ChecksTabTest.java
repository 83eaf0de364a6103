package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.CheckDisplay;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.RunCheck;
import java.util.Map;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Checks tab with a stand-in for the live checks (this machine has no GPU): a running check shows progress and
 * stops on Cancel; a P2P result appears in the Checks tab and as the measured heatmap in the Matrices tab.
 */
@ExtendWith(ApplicationExtension.class)
class ChecksTabTest {

    /** Answers P2P at once with a 2-GPU matrix; the all-reduce blocks until its process is ended. */
    private final FakeCheckWorker fake = new FakeCheckWorker(Map.of(RunCheck.Kind.P2P, FakeCheckWorker.p2pOnTwoGpus()));
    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> Samples.find("dgx-h100").orElseThrow().snapshot().get(), fake.runs);
    }

    private void liveMachineOnChecksTab(FxRobot robot) {
        robot.interact(() -> app.vm.probeLive());
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(4));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void runningCheckCanBeCancelled(FxRobot robot) {
        liveMachineOnChecksTab(robot);
        assertNull(app.checks.disabledReasonProperty().get());
        robot.clickOn("#run-allreduce");
        AppHarness.await(() -> app.checks.runningProperty().get());
        Button cancel = robot.lookup("#cancel-allreduce").queryButton();
        assertFalse(cancel.isDisabled());
        robot.clickOn(cancel);
        AppHarness.await(() -> !app.checks.runningProperty().get());
        assertEquals("All-reduce: cancelled", app.checks.statusProperty().get());
        AppHarness.await(() -> fake.endedAfterStart(RunCheck.Kind.ALLREDUCE));
    }

    @Test
    void p2pResultShowsInChecksAndMatrices(FxRobot robot) {
        liveMachineOnChecksTab(robot);
        robot.clickOn("#run-p2p");
        AppHarness.await(() -> app.checks.resultProperty(CheckDisplay.Kind.P2P).get() != null);
        assertTrue(robot.lookup(".heatmap").tryQuery().isPresent());
        robot.interact(() -> app.view.tabs().getSelectionModel().select(2));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup(".matrices .heatmap").tryQuery().isPresent(), "measured heatmap in the Matrices tab");
        assertTrue(robot.lookup(".matrices .matrix-cell").queryAllAs(Label.class).stream().anyMatch(l -> l.getText().equals("390")));
    }

    /** Issue 26: the real 2×H200 NVSwitch report's checks (preflight, P2P, all-reduce PASSED) open read-only. */
    @Test
    void aReportsChecksOpenReadOnlyWithTheirDateAndMachine(FxRobot robot) {
        java.nio.file.Path report = java.nio.file.Path.of("../probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json");
        robot.interact(() -> app.vm.openFile(report));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(4));
        WaitForAsyncUtils.waitForFxEvents();
        for (String kind : new String[] {"preflight", "p2p", "allreduce"}) {
            assertTrue(robot.lookup("#run-" + kind).queryButton().isDisabled(), kind + " cannot be run on a report");
        }
        String made = "made 2026-12-01 02:20:48 UTC on vm (2× NVIDIA H200)";
        assertEquals("Read-only: the checks this report recorded (" + made + "). New checks run on this machine's GPUs: use "
                + "File ▸ Probe this machine.", robot.lookup("#checksDisabledReason").queryAs(Label.class).getText());
        for (CheckDisplay.Kind k : CheckDisplay.Kind.values()) {
            CheckDisplay.Result r = app.checks.resultProperty(k).get();
            assertEquals("PASSED", r.status(), k.name());
            assertEquals(made, r.recorded());
            assertNull(r.reportEntry(), "an export keeps the report's own record");
        }
        assertEquals(312, app.checks.resultProperty(CheckDisplay.Kind.ALLREDUCE).get().rows().size());
        assertEquals(3, robot.lookup(".check-recorded").queryAll().size(), "each card says where its result was recorded");
        assertTrue(robot.lookup(".checks-view .heatmap").tryQuery().isPresent());
        robot.interact(() -> app.view.tabs().getSelectionModel().select(2));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup(".matrices .matrix-cell").queryAllAs(Label.class).stream().anyMatch(l -> l.getText().equals("395")),
                "the recorded GPU0 → GPU1 copy, 394.8 GB/s, in the Matrices tab");
        assertTrue(robot.lookup(".matrices .details-key").queryAllAs(Label.class).stream()
                .anyMatch(l -> l.getText().endsWith("recorded in the report, " + made)));
        // another machine replaces them
        robot.interact(() -> app.vm.openSample("dgx-h100"));
        app.awaitIdle();
        assertNull(app.checks.resultProperty(CheckDisplay.Kind.P2P).get());
    }

    @Test
    void checksAreDisabledForASample(FxRobot robot) {
        robot.interact(() -> app.vm.openSample("dgx-h100"));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(4));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#run-p2p").queryButton().isDisabled());
        assertTrue(robot.lookup("#checksDisabledReason").queryAs(Label.class).getText().startsWith("Checks run on this machine's GPUs"));
    }
}
