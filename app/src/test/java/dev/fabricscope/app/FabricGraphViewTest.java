package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

@ExtendWith(ApplicationExtension.class)
class FabricGraphViewTest {

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = AppHarness.withoutLiveProbe(stage);
    }

    private void open(FxRobot robot, String sample) {
        robot.interact(() -> app.vm.openSample(sample));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(1));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void dgxH100GraphShowsEightGpusFourSwitchesAndThirtyTwoNvlinks(FxRobot robot) {
        open(robot, "dgx-h100");
        assertEquals(8, painted("gpu:"));
        assertEquals(4, painted("nvswitch:"));
        assertEquals(32, painted("nvlink:"));
        assertEquals(2, painted("cpu:"));
        assertEquals("Fabricscope — sample dgx-h100 (synthetic)", robot.window(0).getScene().getWindow() instanceof Stage st ? st.getTitle() : "");
    }

    @Test
    void gb200TrayGraphShowsFourGpusOneSwitchNodeAndItsClique(FxRobot robot) {
        open(robot, "gb200-nvl72-tray");
        assertEquals(4, painted("gpu:"));
        assertEquals(1, painted("nvswitch:"));
        assertEquals(4, painted("nvlink:"));
        assertEquals(1, painted("mnnvl:"));
    }

    @Test
    void replayedNvSwitchTraceDrawsBothGpusJoinedThroughOneHiddenSwitch(FxRobot robot) {
        java.nio.file.Path trace = java.nio.file.Path.of("../probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-11-30/trace.json");
        robot.interact(() -> app.vm.openFile(trace));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(1));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(2, painted("gpu:"));
        assertEquals(1, painted("nvswitch:"), "the switches the VM hides are one node");
        assertEquals(2, painted("nvlink:"), "one bundle of 18 links from each GPU to that node");
        var canvas = app.view.fabricView().canvas();
        robot.clickOn(canvas.localToScreen(canvas.centerOf("nvswitch:NVS0")));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(canvas.selectionProperty().get().headline().contains("NVSwitch"), canvas.selectionProperty().get().headline());
        assertTrue(robot.lookup(".details-value").queryAllAs(Label.class).stream().anyMatch(l -> l.getText().contains("36 from 2 GPU")));
    }

    @Test
    void dgxH100AndHgxB200DrawEightConnectX7UnderTheirGpusPcieSwitches(FxRobot robot) {
        for (String sample : java.util.List.of("dgx-h100", "hgx-b200")) {
            open(robot, sample);
            assertEquals(8, painted("nic:"), sample + ": NIC nodes");
            assertEquals(8, painted("nic-pcie:"), sample + ": one PCIe edge per NIC");
            var g = app.vm.getMachine().graph();
            assertEquals(8, g.edges(dev.fabricscope.render.fabric.FabricGraph.EdgeKind.PCIE).stream()
                    .filter(e -> e.id().startsWith("nic-pcie:") && e.from().startsWith("pcie:") && e.to().startsWith("nic:")).count(),
                    sample + ": each from a PCIe switch");
        }
    }

    @Test
    void gb200TrayDrawsFourNicsOnTheirCpus(FxRobot robot) {
        open(robot, "gb200-nvl72-tray");
        assertEquals(4, painted("nic:"));
        assertEquals(4, painted("nic-pcie:"));
        assertEquals(4, app.vm.getMachine().graph().edges(dev.fabricscope.render.fabric.FabricGraph.EdgeKind.PCIE).stream()
                .filter(e -> e.id().startsWith("nic-pcie:") && e.to().startsWith("cpu:")).count());
    }

    @Test
    void clickingANicShowsItsLinkRateAndState(FxRobot robot) {
        open(robot, "dgx-h100");
        var canvas = app.view.fabricView().canvas();
        robot.clickOn(canvas.localToScreen(canvas.centerOf("nic:mlx5_0")));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("mlx5_0 · 400 Gb/s IB", canvas.selectionProperty().get().headline());
        assertTrue(robot.lookup(".details-heading").queryAs(Label.class).getText().startsWith("mlx5_0"));
        var values = robot.lookup(".details-value").queryAllAs(Label.class).stream().map(Label::getText).toList();
        assertTrue(values.contains("ACTIVE (LinkUp), 400 Gb/sec (4X NDR), InfiniBand"), values.toString());
        assertTrue(values.stream().anyMatch(v -> v.startsWith("ConnectX-7")), values.toString());
        assertTrue(values.stream().anyMatch(v -> v.startsWith("GPU0 PIX")), values.toString());
    }

    @Test
    void clickingAGpuShowsItsDetails(FxRobot robot) {
        open(robot, "dgx-h100");
        var canvas = app.view.fabricView().canvas();
        robot.clickOn(canvas.localToScreen(canvas.centerOf("gpu:0000:1b:00.0")));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("GPU0 · H100 80GB HBM3", app.view.fabricView().canvas().selectionProperty().get().headline());
        assertTrue(robot.lookup(".details-heading").queryAs(Label.class).getText().startsWith("GPU0"));
        assertTrue(robot.lookup(".details-value").queryAllAs(Label.class).stream().anyMatch(l -> l.getText().equals("0000:1b:00.0")));
    }

    @Test
    void zoomShortcutsChangeTheScale(FxRobot robot) {
        open(robot, "h100-nvl-pairs");
        double before = app.view.fabricView().canvas().getZoom();
        robot.press(KeyCode.CONTROL, KeyCode.EQUALS).release(KeyCode.EQUALS, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(app.view.fabricView().canvas().getZoom() > before * 1.1, "zoomed in");
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT3).release(KeyCode.DIGIT3, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("tab-matrices", app.view.tabs().getSelectionModel().getSelectedItem().getId());
    }

    @Test
    void pngExportRendersTheGraphAtTwiceItsSize(FxRobot robot) {
        open(robot, "dgx-h100");
        var graph = app.vm.getMachine().graph();
        var image = WaitForAsyncUtils.asyncFx(() -> dev.fabricscope.app.view.FabricCanvas.render(graph,
                dev.fabricscope.render.fabric.FabricPalette.LIGHT, 2));
        var img = WaitForAsyncUtils.waitFor(image);
        assertEquals(Math.ceil(graph.width() * 2), img.getWidth(), 2);
        assertEquals(Math.ceil(graph.height() * 2), img.getHeight(), 2);
    }

    @Test
    void hoveringALinkShowsItsCountAndBandwidth(FxRobot robot) {
        open(robot, "gb200-nvl72-tray");
        var canvas = app.view.fabricView().canvas();
        String edge = app.vm.getMachine().graph().edges(dev.fabricscope.render.fabric.FabricGraph.EdgeKind.NVLINK).get(0).id();
        robot.moveTo(canvas.localToScreen(canvas.centerOf(edge)));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(canvas.hoverText().contains("NVLinks: 18 (NVLink5)"), canvas.hoverText());
        assertTrue(canvas.hoverText().contains("Bandwidth: 900 GB/s per direction"), canvas.hoverText());
    }

    private long painted(String prefix) {
        return app.view.fabricView().canvas().paintedIds().stream().filter(id -> id.startsWith(prefix)).count();
    }
}
