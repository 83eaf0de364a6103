package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.probe.LiveProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The overview shows the Python stack the probe read on the GPU machine (captured 2026-12-01). */
@ExtendWith(ApplicationExtension.class)
class StackCardTest {

    private static final Path CAPTURED = Path.of("../probe/src/test/resources/captured/h200-python-env-2026-12-01/probe.json");

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = new AppHarness(stage, () -> new LiveProbe(List.of("fabricscope-app-test"), null).probe());
    }

    @Test
    void overviewListsTheTorchVenv(FxRobot robot) {
        robot.interact(() -> app.vm.openFile(CAPTURED));
        app.awaitIdle();
        Set<String> texts = robot.lookup(".label").queryAllAs(Label.class).stream().map(Label::getText).filter(java.util.Objects::nonNull).collect(Collectors.toSet());
        assertTrue(texts.contains("Python stack"), texts.toString());
        assertTrue(texts.contains("/opt/torch/.venv (the frameworks')"), texts.toString());
        assertTrue(texts.stream().anyMatch(t -> t.startsWith("venv · Python 3.12.3\ntorch 2.11.0 (2.11.0+cu130, CUDA 13.0, cuDNN 9.19.0.56)")
                && t.contains("NCCL loaded: 2.28.9")), texts.toString());
    }
}
