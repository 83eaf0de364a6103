package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.viewmodel.MainViewModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * No text in the window is cut short with an ellipsis, at the default window size (1320×860) and at 1024×700: every
 * tab of every bundled sample, the cluster page (with a node opened from it: its bar and "← Back to cluster") and the
 * compare page — the whole scene each time, so buttons, tab headers and the status bar too. The check reads what
 * JavaFX actually drew: a {@link Labeled}'s skin puts the shortened string into its {@link Text} child.
 */
@ExtendWith(ApplicationExtension.class)
class NoClippedTextTest {

    /** The small size first: a pane that keeps its width when the window grows (the cluster page's side) is tested narrow. */
    private static final double[][] SIZES = {{1024, 700}, {1320, 860}};

    private AppHarness app;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        app = AppHarness.withoutLiveProbe(stage);
    }

    @Test
    void everyTabOfEverySampleShowsItsTextWhole(FxRobot robot) {
        Set<String> clipped = new LinkedHashSet<>();
        List<MainViewModel.SampleChoice> samples = app.vm.samples();
        assertTrue(samples.size() >= 8, "the bundled samples: " + samples.size());
        for (double[] size : SIZES) {
            resize(robot, size);
            for (MainViewModel.SampleChoice s : samples) {
                robot.interact(() -> app.vm.openSample(s.name()));
                app.awaitIdle();
                for (int tab = 0; tab < app.view.tabs().getTabs().size(); tab++) {
                    int t = tab;
                    robot.interact(() -> app.view.tabs().getSelectionModel().select(t));
                    if (t == 3) {
                        AppHarness.await(() -> !app.advisor.verdicts().isEmpty());
                    }
                    settle(robot);
                    String where = s.name() + " · " + app.view.tabs().getTabs().get(t).getText() + " at " + (int) size[0] + "×" + (int) size[1];
                    robot.interact(() -> clipped.addAll(clippedIn(stage.getScene().getRoot(), where)));
                }
            }
        }
        assertTrue(clipped.isEmpty(), clipped.size() + " clipped texts:\n" + String.join("\n", clipped));
    }

    @Test
    void clusterAndComparePagesShowTheirTextWhole(FxRobot robot, @TempDir Path dir) throws Exception {
        Set<String> clipped = new LinkedHashSet<>();
        Path racks = dir.resolve("racks");
        ClusterFolders.racks(racks);
        Path mixed = dir.resolve("mixed");
        ClusterFolders.mixed(mixed);
        Path checked = dir.resolve("checked");
        ClusterFolders.checked(checked);
        Path before = ReportFiles.write(dir.resolve("before.json"), ReportFiles.before());
        Path after = ReportFiles.write(dir.resolve("after.json"), ReportFiles.after());
        for (double[] size : SIZES) {
            resize(robot, size);
            String at = " at " + (int) size[0] + "×" + (int) size[1];
            for (Path cluster : List.of(racks, mixed, checked)) {
                robot.interact(() -> app.vm.openCluster(cluster));
                AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null && app.vm.pageProperty().get() == MainViewModel.Page.CLUSTER);
                settle(robot);
                robot.interact(() -> clipped.addAll(clippedIn(stage.getScene().getRoot(), "cluster " + cluster.getFileName() + at)));
                robot.interact(() -> {
                    var list = app.view.clusterPage().differences();
                    if (!list.getItems().isEmpty()) {
                        list.getSelectionModel().select(0);
                    }
                });
                settle(robot);
                robot.interact(() -> clipped.addAll(clippedIn(stage.getScene().getRoot(), "cluster " + cluster.getFileName() + ", first difference" + at)));
                String node = app.vm.getCluster().view().nodes().stream().filter(dev.fabricscope.cluster.ClusterNode::ok).findFirst()
                        .orElseThrow().name();
                robot.interact(() -> app.vm.openClusterNode(node, () -> { }));
                AppHarness.await(() -> !app.vm.isBusy() && node.equals(app.vm.getClusterNode()));
                settle(robot);
                assertTrue(robot.lookup("#backToCluster").tryQuery().isPresent(), "the cluster bar shows");
                robot.interact(() -> clipped.addAll(clippedIn(stage.getScene().getRoot(), "node " + node + " of " + cluster.getFileName() + at)));
            }
            robot.interact(() -> app.vm.compare(before, after));
            AppHarness.await(() -> !app.vm.isBusy() && app.vm.getComparison() != null);
            settle(robot);
            robot.interact(() -> clipped.addAll(clippedIn(stage.getScene().getRoot(), "compare" + at)));
        }
        assertTrue(clipped.isEmpty(), clipped.size() + " clipped texts:\n" + String.join("\n", clipped));
    }

    private void resize(FxRobot robot, double[] size) {
        robot.interact(() -> {
            stage.setWidth(size[0]);
            stage.setHeight(size[1]);
        });
        settle(robot);
    }

    /** Two layout passes: tables size their columns one pulse after their content arrives. */
    private static void settle(FxRobot robot) {
        for (int i = 0; i < 3; i++) {
            robot.interact(() -> { });
            org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
        }
    }

    /** Every visible Labeled under {@code root} whose drawn text is its text shortened with its ellipsis. */
    static List<String> clippedIn(Node root, String where) {
        List<String> out = new ArrayList<>();
        walk(root, out, where);
        return out;
    }

    private static void walk(Node n, List<String> out, String where) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            for (Node c : l.getChildrenUnmodifiable()) {
                if (c instanceof Text t && t.isVisible() && t.getText() != null && !t.getText().equals(l.getText())
                        && !l.getEllipsisString().isEmpty() && t.getText().contains(l.getEllipsisString())
                        && !l.getText().contains(l.getEllipsisString())) {
                    out.add(where + ": " + l.getClass().getSimpleName() + (l.getId() == null ? "" : "#" + l.getId())
                            + " \"" + t.getText() + "\" of \"" + l.getText() + "\"");
                }
            }
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                walk(c, out, where);
            }
        }
    }
}
