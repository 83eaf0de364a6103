package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Issue 26: opening a sample shows no intermediate state that is not true: no "Probing this machine…", no "No content in table". */
@ExtendWith(ApplicationExtension.class)
class FirstFrameTest {

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = AppHarness.withoutLiveProbe(stage);
    }

    @Test
    void theFirstFrameSaysWhatIsBeingOpened() {
        assertEquals("Opening sample dgx-h100…", FabricscopeApp.opening(AppOptions.parse(List.of("--sample", "dgx-h100"))));
        assertEquals("Opening report.json…", FabricscopeApp.opening(AppOptions.parse(List.of("--snapshot", "/tmp/x/report.json"))));
        assertEquals("Opening cluster racks…", FabricscopeApp.opening(AppOptions.parse(List.of("--cluster", "/data/racks"))));
        assertEquals("Probing this machine…", FabricscopeApp.opening(AppOptions.parse(List.of())));
        assertEquals("", FabricscopeApp.opening(AppOptions.parse(List.of("--no-probe"))));
    }

    @Test
    void noEmptyTableWhileTheMachineIsOnItsWay(FxRobot robot) {
        var table = app.view.overviewView().gpuTable();
        assertFalse(table.isVisible(), "no GPU table before there is a machine");
        assertTrue(table.getPlaceholder() instanceof Label l && l.getText().isEmpty(), "no 'No content in table'");
        robot.interact(() -> app.vm.openSample("h200-vm"));
        app.awaitIdle();
        assertTrue(table.isVisible());
        assertEquals(1, table.getItems().size());
    }
}
