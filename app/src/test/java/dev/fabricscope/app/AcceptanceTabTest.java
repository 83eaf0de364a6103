package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.AcceptanceView;
import dev.fabricscope.app.viewmodel.AcceptanceViewModel;
import dev.fabricscope.samples.Samples;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Acceptance tab: the DGX H100 sample against itself passes; against the HGX B200 sample it fails, naming why. */
@ExtendWith(ApplicationExtension.class)
class AcceptanceTabTest {

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> Samples.find("dgx-h100").orElseThrow().snapshot().get());
    }

    @Test
    void expectationsAndResultsOfTheMachineShown(FxRobot robot) {
        robot.interact(() -> app.vm.openSample("dgx-h100"));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(
                app.view.tabs().getTabs().stream().filter(t -> "tab-acceptance".equals(t.getId())).findFirst().orElseThrow()));
        WaitForAsyncUtils.waitForFxEvents();
        AcceptanceView v = app.view.acceptanceView();
        Label summary = robot.lookup("#acceptance-summary").queryAs(Label.class);
        assertTrue(summary.getText().startsWith("PASS"), summary.getText());
        assertTrue(v.rows().stream().anyMatch(e -> e.expectation().equals("RDMA NICs") && e.result().equals("PASS")));

        robot.interact(() -> v.reference().getSelectionModel().select("hgx-b200"));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(summary.getText().startsWith("FAIL") && summary.getText().contains("GPU model"), summary.getText());
        AcceptanceViewModel.Row model = v.rows().stream().filter(e -> e.expectation().equals("GPU model")).findFirst().orElseThrow();
        assertEquals("FAIL", model.result());
        assertEquals("NVIDIA B200", model.expected());
    }
    @Test
    void theViewMenuOpensItWithCtrl6(FxRobot robot) {
        robot.interact(() -> app.vm.openSample("h200-vm"));
        app.awaitIdle();
        javafx.scene.control.MenuBar bar = robot.lookup(".menu-bar").queryAs(javafx.scene.control.MenuBar.class);
        javafx.scene.control.Menu view = bar.getMenus().stream().filter(m -> m.getText().replace("_", "").equals("View")).findFirst().orElseThrow();
        java.util.Map<String, String> keys = new java.util.LinkedHashMap<>();
        view.getItems().stream().filter(i -> i.getAccelerator() != null && i.getText() != null)
                .forEach(i -> keys.put(i.getText().replace("_", ""), i.getAccelerator().getName()));
        assertEquals("Ctrl+6", keys.get("Acceptance"), keys.toString());
        assertEquals("Ctrl+7", keys.get("Cluster"), keys.toString());
        assertEquals("Ctrl+8", keys.get("Comparison"), keys.toString());
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT6)
                .release(javafx.scene.input.KeyCode.DIGIT6, javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("tab-acceptance", app.view.tabs().getSelectionModel().getSelectedItem().getId());
    }
}
