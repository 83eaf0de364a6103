package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import java.util.List;
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
    @Test
    void anImpossibleDeploymentClearsTheVerdictsAndSaysWhyInTheAppsWords(FxRobot robot) {
        openOnAdvisorTab(robot, "h200-vm");
        assertFalse(app.advisor.recommendations().isEmpty());
        robot.interact(() -> app.advisor.tpProperty().set(3));
        AppHarness.await(() -> app.advisor.verdicts().isEmpty() && app.advisor.statusProperty().get().startsWith("Impossible deployment"));
        String status = app.advisor.statusProperty().get();
        assertTrue(status.startsWith("Impossible deployment: TP 3 needs 3 GPUs, but 1 node × 1 GPU have 1"), status);
        assertTrue(status.contains("set Nodes to 3") && status.contains("a smaller TP") && status.contains("the what-if gpus-per-node=3"), status);
        assertFalse(status.contains("--"), "no CLI option in the app's words: " + status);
        assertTrue(app.advisor.recommendations().isEmpty(), "no 'Defaults are fine' for a deployment that cannot run");
        assertEquals(null, app.advisor.adviceProperty().get());
        Label shown = robot.lookup("#advisorStatus").queryAs(Label.class);
        assertTrue(shown.isWrapText(), "the reason is shown whole");
        robot.interact(() -> app.advisor.tpProperty().set(1));
        AppHarness.await(() -> !app.advisor.verdicts().isEmpty() && !app.advisor.recommendations().isEmpty());
    }

    @Test
    void knobNamesAndCallsWrapAfterASeparatorNeverInsideAWord(FxRobot robot) {
        openOnAdvisorTab(robot, "dgx-h100");
        robot.interact(() -> {
            var table = robot.lookup("#verdictTable").queryTableView();
            ((javafx.scene.control.TableColumn<?, ?>) table.getColumns().get(2)).setPrefWidth(120);
        });
        WaitForAsyncUtils.waitForFxEvents();
        List<javafx.scene.text.Text> texts = new java.util.ArrayList<>();
        for (javafx.scene.control.TableCell<?, ?> c : robot.lookup("#verdictTable .table-cell").queryAllAs(javafx.scene.control.TableCell.class)) {
            if (c.getTableColumn() != null && java.util.Set.of("Knob", "Value", "Resolved", "When").contains(c.getTableColumn().getText())) {
                texts.addAll(c.lookupAll(".wrapping-cell-text").stream().map(n -> (javafx.scene.text.Text) n).toList());
            }
        }
        int names = 0;
        List<String> broken = new java.util.ArrayList<>();
        for (javafx.scene.text.Text t : texts) {
            String s = t.getText();
            if (s == null || s.isEmpty()) {
                continue;
            }
            names++;
            for (int i = 1; i < s.length(); i++) {
                if (s.charAt(i) == '\n' || s.charAt(i - 1) == '\n') {
                    continue;
                }
                if (lineStartsAt(t, i) && "-_./=(: ".indexOf(s.charAt(i - 1)) < 0 && s.charAt(i) != '(') {
                    broken.add(s.substring(0, i) + "|" + s.substring(i));
                }
            }
        }
        assertTrue(names >= 3, "knob names seen: " + names);
        assertEquals(List.of(), broken, "lines starting inside a word");
        assertTrue(texts.stream().anyMatch(t -> t.getText() != null && t.getText().startsWith("--") && t.getText().contains("-\n")),
                "a name too long for 120 px continues after a hyphen");
    }

    /** Whether character {@code i} of {@code t} begins a new visual line (its caret sits lower than the one before). */
    private static boolean lineStartsAt(javafx.scene.text.Text t, int i) {
        return caretY(t, i) > caretY(t, i - 1) + 1;
    }

    private static double caretY(javafx.scene.text.Text t, int i) {
        for (javafx.scene.shape.PathElement e : t.caretShape(i, true)) {
            if (e instanceof javafx.scene.shape.MoveTo m) {
                return m.getY();
            }
        }
        return 0;
    }
}
