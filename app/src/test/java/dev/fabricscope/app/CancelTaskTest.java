package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A probe that hangs can be cancelled from the status bar; the machine on screen stays and the late result is dropped. */
@ExtendWith(ApplicationExtension.class)
class CancelTaskTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            return Samples.find("dgx-h100").orElseThrow().snapshot().get();
        });
    }

    @Test
    void cancellingAHangingProbeKeepsTheMachineShown(FxRobot robot) throws Exception {
        robot.interact(() -> app.vm.openSample("l40s-4x"));
        app.awaitIdle();
        MachineSnapshot shown = app.vm.getMachine().snapshot();

        robot.interact(() -> app.vm.probeLive());
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(app.vm.isBusy());
        Button cancel = robot.lookup("#cancelButton").queryButton();
        assertTrue(cancel.isVisible(), "Cancel shows while the probe runs");

        robot.clickOn(cancel);
        AppHarness.await(() -> !app.vm.isBusy());
        assertTrue(app.vm.statusProperty().get().startsWith("Cancelled"), app.vm.statusProperty().get());
        assertFalse(cancel.isVisible());
        AppHarness.await(interrupted::get);

        release.countDown();
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(shown, app.vm.getMachine().snapshot(), "the cancelled probe's late result is not shown");
        assertEquals("l40s-4x", app.vm.getMachine().sample());
    }

    @Test
    void escapeCancelsToo(FxRobot robot) {
        robot.interact(() -> app.vm.probeLive());
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(app.vm.isBusy());
        robot.press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE);
        AppHarness.await(() -> !app.vm.isBusy());
        assertTrue(app.vm.statusProperty().get().startsWith("Cancelled"));
    }
}
