package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import java.util.Optional;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Advisor tab over the real advisor: verdicts for a sample, and a verdict that flips with the node count. */
@ExtendWith(ApplicationExtension.class)
class AdvisorTabTest {

    private static final String KNOB = "--disable-custom-all-reduce";
    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = AppHarness.withoutLiveProbe(stage);
    }

    private Optional<AdvisorViewModel.VerdictRow> sglangCustomAllReduce() {
        return app.advisor.verdicts().stream().filter(v -> v.framework().equals("sglang") && v.knob().equals(KNOB)).findFirst();
    }

    private void openOnAdvisorTab(FxRobot robot, String sample) {
        robot.interact(() -> app.vm.openSample(sample));
        app.awaitIdle();
        robot.interact(() -> app.view.tabs().getSelectionModel().select(3));
        AppHarness.await(() -> sglangCustomAllReduce().isPresent());
    }

    @Test
    void twoNodesTurnSglangCustomAllReduceIntoAFallback(FxRobot robot) {
        openOnAdvisorTab(robot, "dgx-h100");
        assertEquals(Outcome.OK.json(), sglangCustomAllReduce().orElseThrow().outcome());
        assertEquals("custom all-reduce v2", sglangCustomAllReduce().orElseThrow().resolved()); // the newest SGLang default (issue 23)

        robot.clickOn("#advisorNodes .increment-arrow-button");
        AppHarness.await(() -> sglangCustomAllReduce().map(v -> v.outcome().equals(Outcome.FALLBACK.json())).orElse(false));
        assertEquals(2, app.advisor.nodesProperty().get());
        assertEquals("nccl", sglangCustomAllReduce().orElseThrow().resolved());

        robot.clickOn("#advisorNodes .decrement-arrow-button");
        AppHarness.await(() -> sglangCustomAllReduce().map(v -> v.outcome().equals(Outcome.OK.json())).orElse(false));
    }

    @Test
    void verdictTableShowsErrorsFirstAndDetailsOnSelection(FxRobot robot) {
        openOnAdvisorTab(robot, "h200-vm");
        var table = robot.lookup("#verdictTable").queryTableView();
        assertFalse(table.getItems().isEmpty());
        int firstNonError = 0;
        while (firstNonError < app.advisor.verdicts().size() && app.advisor.verdicts().get(firstNonError).outcome().equals(Outcome.ERROR.json())) {
            firstNonError++;
        }
        for (int i = firstNonError; i < app.advisor.verdicts().size(); i++) {
            assertTrue(!app.advisor.verdicts().get(i).outcome().equals(Outcome.ERROR.json()), "errors first");
        }
        robot.interact(() -> table.getSelectionModel().select(0));
        WaitForAsyncUtils.waitForFxEvents();
        AdvisorViewModel.VerdictRow v = app.advisor.verdicts().get(0);
        var titles = robot.lookup(".title-4").queryAllAs(Label.class).stream().map(Label::getText).toList();
        assertTrue(titles.stream().anyMatch(t -> t.startsWith(v.framework() + " · " + v.knob())), titles + " vs " + v.knob());
        String facts = robot.lookup("#advisorFacts").queryAs(Label.class).getText();
        assertTrue(facts.startsWith("Machine: "));
        // no raw placeholders: a fact the sample lacks reads "unknown", TP 0 reads "all GPUs"
        assertFalse(facts.contains("=null"), facts);
        assertTrue(facts.contains("torch-cuda=unknown"), facts);
        assertEquals("all GPUs", robot.lookup("#advisorTp").queryAs(javafx.scene.control.Spinner.class).getEditor().getText());
    }
}
