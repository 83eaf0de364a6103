package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Start-up on a machine without the NVIDIA driver (its recorded live probe), opening report files, recent files. */
@ExtendWith(ApplicationExtension.class)
class StartupAndFilesTest {

    static final Path NO_DRIVER_TRACE = Path.of("../probe/src/test/resources/captured/build-machine-no-driver-2026-12-02/trace.json");

    /** What the live probe answered on that machine, replayed. */
    static MachineSnapshot noDriverMachine() {
        try {
            return OpenSnapshot.replay(NO_DRIVER_TRACE);
        } catch (dev.fabricscope.io.SnapshotIO.ReadException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private AppHarness app;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        // a real machine without the driver, recorded (captured/build-machine-no-driver-…): this test no longer depends
        // on whether the machine it runs on has one
        app = new AppHarness(stage, StartupAndFilesTest::noDriverMachine);
    }

    @Test
    void noDriverBannerShowsOnAMachineWithoutTheDriver(FxRobot robot) {
        robot.interact(() -> app.vm.probeLive());
        app.awaitIdle();
        Label banner = robot.lookup("#noDriverBanner").queryAs(Label.class);
        assertEquals("No NVIDIA driver found on this machine.", banner.getText());
        assertTrue(isShowing(banner), "banner visible");
        Label raw = robot.lookup("#noDriverDetails").queryAs(Label.class);
        assertFalse(isShowing(raw), "the loader's error waits behind Details");
        robot.clickOn("#noDriverDetailsToggle");
        assertTrue(isShowing(raw), "Details shows the loader's error");
        assertTrue(raw.getText().contains("libnvidia-ml.so.1"), raw.getText());
        // said once: the Overview neither repeats the banner as a finding nor the loader's error in its fields
        List<String> shownTexts = robot.lookup(".overview .label").queryAllAs(Label.class).stream()
                .filter(StartupAndFilesTest::isShowing).map(Label::getText).toList();
        assertTrue(shownTexts.stream().noneMatch(t -> t.contains("libnvidia-ml") || t.contains("not found:")), String.join(" | ", shownTexts));
        assertTrue(shownTexts.contains("not found"), "the driver card's status in words: " + shownTexts);
        assertEquals("Fabricscope — live machine", stage.getTitle());
        assertTrue(robot.lookup("#bannerOpenReport").tryQuery().isPresent());
        assertTrue(robot.lookup("#bannerOpenSample").tryQuery().isPresent());
        robot.interact(() -> app.view.tabs().getSelectionModel().select(4));
        assertTrue(robot.lookup("#checksDisabledReason").queryAs(Label.class).getText().startsWith("The live checks")
                || robot.lookup("#checksDisabledReason").queryAs(Label.class).getText().startsWith("Checks need an NVIDIA GPU"));
    }

    @Test
    void aSampleIsOneClickAwayFromTheBanner(FxRobot robot) {
        robot.interact(() -> app.vm.probeLive());
        app.awaitIdle();
        robot.clickOn("#sample-h200-vm");
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getMachine().sample() != null);
        assertEquals("h200-vm", app.vm.getMachine().sample());
        assertFalse(isShowing(robot.lookup("#noDriverBanner").query()), "banner hidden once a sample is shown");
        assertTrue(stage.getTitle().startsWith("Fabricscope — sample h200-vm (captured from vm at "), stage.getTitle());
    }

    @Test
    void openingAReportFileTitlesTheWindowWithHostAndTime(FxRobot robot, @TempDir Path dir) throws Exception {
        MachineSnapshot s = Samples.find("h200-vm").orElseThrow().snapshot().get();
        Path report = dir.resolve("report.json");
        Files.writeString(report, Json.mapper().writeValueAsString(
                Map.of("format", "fabricscope-report", "reportVersion", 1, "snapshot", s, "verdicts", List.of())));
        robot.interact(() -> app.vm.openFile(report));
        app.awaitIdle();
        assertTrue(stage.getTitle().matches("Fabricscope — report from vm at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d"), stage.getTitle());
        assertEquals(List.of(report.toAbsolutePath().normalize()), app.vm.recentFiles());
        assertEquals(List.of(report.toAbsolutePath().normalize()), app.prefs.recentFiles());
        assertEquals(1, robot.lookup(".gpu-table").queryTableView().getItems().size());
    }

    @Test
    void aBrokenFileGivesOneLineAndKeepsTheMachineShown(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> app.vm.openSample("l40s-4x"));
        app.awaitIdle();
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"schemaVersion\": \"x\"}");
        robot.interact(() -> app.vm.openFile(bad));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.errorProperty().get() != null);
        Label error = robot.lookup("#errorBar").queryAs(Label.class);
        assertEquals(bad + ": no integer schemaVersion: not a Fabricscope snapshot or report", error.getText());
        assertEquals("l40s-4x", app.vm.getMachine().sample());
        assertTrue(app.vm.recentFiles().isEmpty());
    }

    @Test
    void windowSizeAndThemeAreRemembered() {
        app.prefs.saveWindow(1111, 777, false);
        app.prefs.setDark(true);
        assertEquals(1111, app.prefs.width(0));
        assertEquals(777, app.prefs.height(0));
        assertTrue(app.prefs.dark());
        app.prefs.saveWindow(5000, 5000, true);
        assertEquals(1111, app.prefs.width(0), "a maximized window keeps the last normal size");
        assertTrue(app.prefs.maximized());
    }

    private static boolean isShowing(Node n) {
        for (Node x = n; x != null; x = x.getParent()) {
            if (!x.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null;
    }

    static void unused() {
        assertNull(null);
        WaitForAsyncUtils.waitForFxEvents();
    }
}
