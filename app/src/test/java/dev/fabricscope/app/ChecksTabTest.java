package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.AdvisorPort;
import dev.fabricscope.app.viewmodel.ChecksPort;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
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

    private final AtomicBoolean sawCancel = new AtomicBoolean();
    private AppHarness app;

    /** Blocks the all-reduce until cancelled; answers P2P at once with a 2-GPU matrix. */
    private final ChecksPort fake = new ChecksPort() {
        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) throws Exception {
            if (kind == Kind.P2P) {
                Double[][] v = {{2800.0, 390.0}, {388.0, 2790.0}};
                return new Result(kind, "PASSED", true, "2 GPUs measured", List.of("Pair", "Uni GB/s"),
                        List.of(List.of("GPU0 → GPU1", "390")), List.of(), List.of(),
                        new Heatmap("Measured copy bandwidth", "GB/s", List.of("GPU0", "GPU1"), v, null));
            }
            progress.update(0.25, "size 8 B");
            try {
                while (!cancelled.getAsBoolean()) {
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                // Task.cancel(true) interrupts; the flag is set as well
            }
            sawCancel.set(cancelled.getAsBoolean());
            throw new InterruptedException("cancelled");
        }
    };

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> Samples.find("dgx-h100").orElseThrow().snapshot().get(), AdvisorPort.notInThisBuild(), fake);
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
        AppHarness.await(sawCancel::get);
    }

    @Test
    void p2pResultShowsInChecksAndMatrices(FxRobot robot) {
        liveMachineOnChecksTab(robot);
        robot.clickOn("#run-p2p");
        AppHarness.await(() -> app.checks.resultProperty(ChecksPort.Kind.P2P).get() != null);
        assertTrue(robot.lookup(".heatmap").tryQuery().isPresent());
        robot.interact(() -> app.view.tabs().getSelectionModel().select(2));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup(".matrices .heatmap").tryQuery().isPresent(), "measured heatmap in the Matrices tab");
        assertTrue(robot.lookup(".matrices .matrix-cell").queryAllAs(Label.class).stream().anyMatch(l -> l.getText().equals("390")));
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
