package dev.fabricscope.app;

import dev.fabricscope.report.ReportFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.ComparePage;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Exports in every report format with the Advisor tab's deployment, the "Redact identifiers" toggle, and two
 * reports compared side by side, all through the report package.
 */
@ExtendWith(ApplicationExtension.class)
class ReportsAndCompareTest {

    private AppHarness app;

    @Start
    void start(Stage stage) {
        app = AppHarness.withoutLiveProbe(stage);
    }

    private void openDgxH100WithTwoNodes(FxRobot robot) {
        robot.interact(() -> app.vm.openSample("dgx-h100"));
        app.awaitIdle();
        robot.interact(() -> {
            app.view.tabs().getSelectionModel().select(3);
            app.advisor.nodesProperty().set(2);
        });
        AppHarness.await(() -> !app.advisor.verdicts().isEmpty() && app.advisor.adviceProperty().get() != null
                && app.advisor.adviceProperty().get().deploymentNotes().stream().anyMatch(n -> n.contains("of the 2 nodes")));
    }

    private String export(FxRobot robot, ReportFormat f, Path file) throws Exception {
        robot.interact(() -> app.exports.exportReport(f, file));
        AppHarness.await(() -> !app.reports.exportingProperty().get());
        assertTrue(app.vm.statusProperty().get().startsWith("Report written to " + file), app.vm.statusProperty().get());
        return Files.readString(file);
    }

    @Test
    void everyFormatCarriesTheVerdictsOfTheAdvisorTabsDeployment(FxRobot robot, @TempDir Path dir) throws Exception {
        openDgxH100WithTwoNodes(robot);
        String json = export(robot, ReportFormat.JSON, dir.resolve("r.json"));
        String md = export(robot, ReportFormat.MARKDOWN, dir.resolve("r.md"));
        String html = export(robot, ReportFormat.HTML, dir.resolve("r.html"));

        Report r = ReportIO.read(dir.resolve("r.json"));
        assertEquals(2, r.advice().requested().nodes());
        assertEquals(app.vm.getMachine().snapshot(), r.snapshot());
        // the same verdicts as the Advisor tab shows for that deployment
        Set<String> shown = new HashSet<>();
        app.advisor.verdicts().forEach(v -> shown.add(v.framework() + " " + v.knob() + " " + v.outcome()));
        Set<String> reported = new HashSet<>();
        r.advice().verdicts().forEach(v -> reported.add(v.framework() + " " + v.knob() + " " + v.outcome().json()));
        assertEquals(shown, reported);
        assertTrue(reported.contains("sglang --disable-custom-all-reduce fallback"), "two nodes: custom all-reduce falls back");
        assertEquals(List.of("fabricscope", "report", "--sample", "dgx-h100", "--nodes", "2", "--format", "json"), r.commandLine());
        assertFalse(r.redaction().applied());

        assertTrue(md.contains("dgx-h100-sample") && md.contains("--disable-custom-all-reduce"), "Markdown names host and knob");
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("<svg") && html.contains("dgx-h100-sample"), "HTML with the graph");
        assertTrue(json.contains("\"format\" : \"fabricscope-report\"") || json.contains("\"format\":\"fabricscope-report\""), "a report");
    }

    @Test
    void redactIdentifiersReplacesThemInEveryExport(FxRobot robot, @TempDir Path dir) throws Exception {
        openDgxH100WithTwoNodes(robot);
        MachineSnapshot s = app.vm.getMachine().snapshot();
        List<String> identifiers = List.of(s.host().hostname().value(), s.gpus().get(3).uuid().value(), s.gpus().get(3).serial().value());
        robot.interact(() -> app.reports.redactProperty().set(true));
        for (ReportFormat f : ReportFormat.values()) {
            String text = export(robot, f, dir.resolve("r." + f.extension()));
            for (String id : identifiers) {
                assertFalse(text.contains(id), f + " still holds " + id);
            }
            assertTrue(app.vm.statusProperty().get().contains("identifiers redacted"));
        }
        Report r = ReportIO.read(dir.resolve("r.json"));
        assertTrue(r.redaction().applied());
        assertEquals(r.commandLine().get(r.commandLine().size() - 1), "--redact");
        // the snapshot, text and graph exports use the redacted snapshot too
        MachineSnapshot forExport = app.reports.forExport(s);
        assertFalse(forExport.host().hostname().value().equals(s.host().hostname().value()));
        assertEquals(s.gpus().size(), forExport.gpus().size());
        assertTrue(app.prefs.redactExports(), "the toggle is remembered");
    }

    private static Path pair(Path dir, String which) throws Exception {
        return which.equals("before") ? ReportFiles.write(dir.resolve("before.json"), ReportFiles.before())
                : ReportFiles.write(dir.resolve("after.json"), ReportFiles.after());
    }

    private List<String> cells(FxRobot robot, String cls) {
        return robot.lookup("." + cls).queryAllAs(TreeTableCell.class).stream()
                .map(c -> c.getGraphic() instanceof javafx.scene.text.Text t ? t.getText() : c.getText()).toList();
    }

    @Test
    void twoReportsSideBySideMostImportantFirst(FxRobot robot, @TempDir Path dir) throws Exception {
        Path a = pair(dir, "before");
        Path b = pair(dir, "after");
        robot.interact(() -> app.vm.openSample("h200-vm"));
        app.awaitIdle();
        robot.interact(() -> app.view.openDropped(List.of(a, b)));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getPage() == MainViewModel.Page.COMPARE);

        ReportDiff d = app.vm.getComparison().diff();
        ComparePage page = app.view.comparePage();
        List<TreeItem<ComparePage.Row>> groups = page.table().getRoot().getChildren();
        assertEquals(d.byCategory().keySet().stream().map(Enum::name).toList(), groups.stream().map(g -> g.getValue().group().kind()).toList());
        assertEquals(ReportDiff.Category.VERSIONS.name(), groups.get(0).getValue().group().kind(), "versions first");
        Set<ReportDiff.Category> kinds = d.byCategory().keySet();
        assertTrue(kinds.containsAll(List.of(ReportDiff.Category.NVLINK, ReportDiff.Category.FABRIC, ReportDiff.Category.VERDICTS)), kinds.toString());
        // coloured by meaning: another driver version is neither better nor worse; multicast yes → no is worse
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(cells(robot, "diff-neutral").contains("580.126.20"), cells(robot, "diff-neutral").toString());
        assertTrue(cells(robot, "diff-neutral").contains(ClusterFolders.OTHER_DRIVER), cells(robot, "diff-neutral").toString());
        assertTrue(cells(robot, "diff-worse").contains("no"), "multicast lost: " + cells(robot, "diff-worse"));
        assertFalse(cells(robot, "diff-better").contains("no"), "a regression is never green: " + cells(robot, "diff-better"));
        assertTrue(robot.lookup(".diff-category").queryAllAs(TreeTableCell.class).stream()
                .anyMatch(c -> ("Driver, CUDA and NCCL versions (" + groups.get(0).getChildren().size() + ")").equals(c.getText())));
        assertEquals("Fabricscope — compare before.json ↔ after.json", app.vm.titleProperty().get());

        // swap: B's value now on the left
        robot.clickOn("#compareSwap");
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getComparison().left().equals(b));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(cells(robot, "diff-neutral").contains(ClusterFolders.OTHER_DRIVER));
        assertTrue(cells(robot, "diff-better").contains("yes"), "swapped, multicast no → yes is better: " + cells(robot, "diff-better"));

        // back to the machine that was shown
        robot.clickOn("#compareBack");
        assertEquals(MainViewModel.Page.MACHINE, app.vm.getPage());
        assertEquals("h200-vm", app.vm.getMachine().sample());
    }

    @Test
    void aBrokenReportIsAOneLineErrorAndNothingChanges(FxRobot robot, @TempDir Path dir) throws Exception {
        Path a = pair(dir, "before");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\": \"fabricscope-report\", \"reportVersion\": 1, \"snapshot\": {\"schemaVersion\": 1, \"gpus\": [");
        robot.interact(() -> app.vm.openSample("h200-vm"));
        app.awaitIdle();
        robot.interact(() -> app.vm.compare(a, broken));
        AppHarness.await(() -> !app.vm.isBusy());
        String error = app.vm.errorProperty().get();
        assertTrue(error != null && error.startsWith(broken.toString()) && !error.contains("\n"), String.valueOf(error));
        assertEquals(MainViewModel.Page.MACHINE, app.vm.getPage());
        assertTrue(app.vm.getComparison() == null);
    }
}
