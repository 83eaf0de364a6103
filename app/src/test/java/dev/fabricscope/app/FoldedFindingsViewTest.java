package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.ComparePage;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.json.Json;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 26 item 3 in the app: the Overview shows the same finding on several GPUs once ({@code GPU0–7}), and Compare
 * lists the same change on several GPUs once, as {@code diff} folds it.
 */
@ExtendWith(ApplicationExtension.class)
class FoldedFindingsViewTest {

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = AppHarness.withoutLiveProbe(stage);
    }

    @Test
    void theOverviewShowsDgxA100sMulticastFindingOnceOnGpu0To7(FxRobot robot) {
        robot.interact(() -> app.vm.openSample("dgx-a100"));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(0));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> rows = robot.lookup(".finding-row .label").queryAllAs(Label.class).stream().map(Label::getText)
                .filter(t -> t.contains("CUDA multicast not supported")).toList();
        assertEquals(List.of("GPU0–7: CUDA multicast not supported (attribute 132 = 0): NCCL NVLS, FlashInfer mnnvl and SGLang's "
                + "fusion preflight (cuMulticastGetGranularity) will not work."), rows);
    }

    @Test
    void compareFoldsGpusAsDiffDoes(FxRobot robot, @TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("h100.json"), Json.write(Samples.find("dgx-h100").orElseThrow().snapshot().get()));
        Path b = Files.writeString(dir.resolve("a100.json"), Json.write(Samples.find("dgx-a100").orElseThrow().snapshot().get()));
        robot.interact(() -> app.vm.compare(a, b));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getPage() == MainViewModel.Page.COMPARE);
        WaitForAsyncUtils.waitForFxEvents();
        List<ComparePage.Row> rows = app.view.comparePage().table().getRoot().getChildren().stream()
                .flatMap(g -> g.getChildren().stream()).map(TreeItem::getValue).toList();
        List<String> smRows = rows.stream().filter(r -> r.item() != null && "SMs".equals(r.item().item()))
                .map(r -> r.item().subject()).toList();
        assertEquals(List.of("GPU0–7"), smRows, "one row for the SM count of all eight GPUs");
        int models = (int) rows.stream().filter(r -> r.item() != null && r.item().subject().startsWith("GPU")).count();
        assertTrue(models < 40, "the GPU rows are folded: " + models);
    }
}
