package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.view.ClusterPage;
import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.render.fabric.FabricGraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The cluster page over synthetic folders of node reports ({@link ClusterFolders}): NVLink domains as groups of node
 * tiles, the difference between nodes highlighted and its outlier marked, unreadable files listed, a node's fabric
 * view one click away with a way back, and a thousand nodes without a thousand tiles in the scene.
 */
@ExtendWith(ApplicationExtension.class)
class ClusterPageTest {

    private AppHarness app;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        app = AppHarness.withoutLiveProbe(stage);
    }

    private void openCluster(FxRobot robot, Path dir) {
        robot.interact(() -> app.vm.openCluster(dir));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null);
    }

    private static List<Button> tiles(FxRobot robot) {
        return robot.lookup(".node-tile").queryAllAs(Button.class).stream().filter(Node::isVisible).toList();
    }

    private static Button tile(FxRobot robot, String node) {
        return robot.lookup("#node-" + node).queryAs(Button.class);
    }

    private static List<String> labels(FxRobot robot, String selector) {
        return robot.lookup(selector).queryAllAs(Label.class).stream().map(Label::getText).toList();
    }

    @Test
    void domainsAndTheDriverDifferenceAreShownAndTheOutlierMarked(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        openCluster(robot, dir);

        assertEquals(MainViewModel.Page.CLUSTER, app.vm.getPage());
        assertTrue(robot.lookup("#clusterPage").tryQuery().isPresent());
        assertEquals("Cluster " + dir.getFileName(), robot.lookup("#clusterTitle").queryAs(Label.class).getText());
        assertEquals("20 nodes · 88 GPUs · 3 NVLink domains", robot.lookup("#clusterCounts").queryAs(Label.class).getText()
                .replaceFirst(" · \\d+ differences?$", ""));
        assertTrue(stage.getTitle().startsWith("Fabricscope — cluster " + dir.getFileName() + " (20 nodes)"), stage.getTitle());

        // domains as groups: the NVL72 rack (18 trays, 72 GPUs) first, then the two H100 nodes, each its own domain
        List<ClusterViewModel.Group> groups = app.view.clusterViewModel().groups();
        assertEquals(2, groups.size());
        assertTrue(groups.get(0).mnnvl());
        assertEquals(18, groups.get(0).nodes().size());
        assertEquals(72, groups.get(0).gpus());
        assertFalse(groups.get(1).mnnvl());
        assertEquals(List.of(ClusterFolders.h100(1), ClusterFolders.h100(2)), groups.get(1).nodes().stream().map(n -> n.name()).toList());
        List<String> titles = labels(robot, ".domain-title");
        assertTrue(titles.contains("NVLink domain 1 · multi-node NVLink (MNNVL)"), titles.toString());
        assertTrue(titles.contains("Single-node NVLink domains"), titles.toString());
        assertTrue(labels(robot, ".domain-detail").stream().anyMatch(t -> t.contains("18 nodes · 72 GPUs")));
        assertEquals(20, tiles(robot).size(), "20 nodes fit the window");

        // the differences, most important first: the driver, with tray 07 as its only outlier
        var differences = robot.lookup("#differencesList").<ClusterViewModel.Difference>queryListView();
        ClusterViewModel.Difference first = differences.getItems().get(0);
        assertEquals("driver version", first.field());
        assertEquals(List.of(ClusterFolders.tray(1, 7)), first.outliers());
        for (int i = 1; i < differences.getItems().size(); i++) {
            assertTrue(differences.getItems().get(i - 1).rank() <= differences.getItems().get(i).rank(), "most important first");
        }
        assertTrue(labels(robot, ".difference-field").contains("driver version"));

        // the outlier's tile is marked and says how it differs; a matching node's tile is not
        Button odd = tile(robot, ClusterFolders.tray(1, 7));
        assertTrue(odd.getStyleClass().contains("node-outlier"));
        assertTrue(odd.getTooltip().getText().contains("driver version " + ClusterFolders.OTHER_DRIVER + " (most nodes: 580.126.20)"),
                odd.getTooltip().getText());
        assertTrue(((Label) odd.lookup(".node-line")).getText().equals("driver version: " + ClusterFolders.OTHER_DRIVER));
        assertFalse(tile(robot, ClusterFolders.tray(1, 6)).getStyleClass().contains("node-outlier"));

        // selecting the difference highlights exactly its outliers
        robot.interact(() -> differences.getSelectionModel().select(0));
        WaitForAsyncUtils.waitForFxEvents();
        Set<String> highlighted = robot.lookup(".node-highlight").queryAllAs(Button.class).stream().filter(Node::isVisible)
                .map(Button::getId).collect(Collectors.toSet());
        assertEquals(Set.of("node-" + ClusterFolders.tray(1, 7)), highlighted);
        robot.clickOn("#clearHighlight");
        assertNull(app.view.clusterViewModel().highlightedProperty().get());
        assertTrue(robot.lookup(".node-highlight").queryAll().stream().noneMatch(Node::isVisible));

        // outliers only, then a name filter
        robot.clickOn("#outliersOnly");
        AppHarness.await(() -> tiles(robot).size() == app.vm.getCluster().differencesByNode().size());
        assertEquals(app.vm.getCluster().differencesByNode().keySet(),
                tiles(robot).stream().map(b -> b.getId().substring("node-".length())).collect(Collectors.toSet()));
        robot.clickOn("#outliersOnly");
        robot.clickOn("#clusterFilter").write("h100");
        AppHarness.await(() -> tiles(robot).size() == 2);
        robot.interact(() -> app.view.clusterViewModel().filterProperty().set(""));
        AppHarness.await(() -> tiles(robot).size() == 20);
    }

    @Test
    void clickingANodeOpensItsFabricViewAndTheBarLeadsBack(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        openCluster(robot, dir);
        String node = ClusterFolders.tray(1, 7);

        robot.clickOn("#node-" + node);
        AppHarness.await(() -> !app.vm.isBusy() && node.equals(app.vm.getClusterNode()));
        assertEquals(MainViewModel.Page.MACHINE, app.vm.getPage());
        assertEquals("tab-fabric", app.view.tabs().getSelectionModel().getSelectedItem().getId());
        FabricGraph g = app.view.fabricView().graph();
        assertNotNull(g);
        assertEquals(4, g.nodes(FabricGraph.NodeKind.GPU).size(), "a GB200 tray has 4 GPUs");
        assertEquals(node, app.vm.getMachine().host());
        assertEquals(dir.resolve(node + ".json").toString(), app.vm.getMachine().file().toString());
        assertTrue(stage.getTitle().startsWith("Fabricscope — cluster " + dir.getFileName() + " › report from " + node), stage.getTitle());
        String where = robot.lookup("#clusterNodeLabel").queryAs(Label.class).getText();
        assertTrue(where.startsWith("Node " + node + " of cluster " + dir.getFileName()), where);
        assertTrue(where.endsWith("differs from most nodes in driver version"), where);

        robot.clickOn("#backToCluster");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(MainViewModel.Page.CLUSTER, app.vm.getPage());
        assertTrue(tile(robot, node).getStyleClass().contains("node-current"), "the node opened last is marked");
        assertTrue(robot.lookup("#backToCluster").tryQuery().isEmpty(), "the machine tabs and their bar are off screen");

        // another node; then Ctrl+7 returns to the cluster too
        robot.clickOn("#node-" + ClusterFolders.h100(2));
        AppHarness.await(() -> !app.vm.isBusy() && ClusterFolders.h100(2).equals(app.vm.getClusterNode()));
        assertEquals(8, app.view.fabricView().graph().nodes(FabricGraph.NodeKind.GPU).size());
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT7).release(
                javafx.scene.input.KeyCode.DIGIT7, javafx.scene.input.KeyCode.CONTROL);
        AppHarness.await(() -> app.vm.getPage() == MainViewModel.Page.CLUSTER);

        // a sample opened meanwhile is not a node of the cluster: no bar, but the cluster stays one shortcut away
        robot.interact(() -> app.vm.openSample("h200-vm"));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getPage() == MainViewModel.Page.MACHINE);
        assertNull(app.vm.getClusterNode());
        assertFalse(robot.lookup(".cluster-bar").query().isVisible());
        assertNotNull(app.vm.getCluster());
    }

    @Test
    void unreadableFilesAreListedAndTwoRacksAreTwoDomains(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.racks(dir);
        openCluster(robot, dir);
        var unreadable = robot.lookup("#unreadableList").<ClusterViewModel.Unreadable>queryListView();
        assertEquals(1, unreadable.getItems().size());
        assertTrue(unreadable.isVisible());
        assertTrue(labels(robot, ".unreadable-reason").stream().anyMatch(t -> t.contains(ClusterFolders.tray(2, 18) + ".json")),
                labels(robot, ".unreadable-reason").toString());
        List<ClusterViewModel.Group> groups = app.view.clusterViewModel().groups();
        assertEquals(2, groups.size());
        assertEquals(18, groups.get(0).nodes().size());
        assertEquals(17, groups.get(1).nodes().size());
        assertTrue(groups.stream().allMatch(ClusterViewModel.Group::mnnvl));
        assertTrue(robot.lookup("#clusterCounts").queryAs(Label.class).getText().endsWith("1 unreadable file"));
    }

    @Test
    void failedNodeChecksAreListedAboveTheTilesAndTheirTilesMarked(FxRobot robot, @TempDir Path dir, @TempDir Path plain) throws Exception {
        ClusterFolders.checked(dir); // dgx-h100-02 on another driver and a GB200 tray fail their check node
        openCluster(robot, dir);
        Node box = robot.lookup("#nodeChecks").query();
        assertTrue(box.isVisible());
        assertTrue(box.getStyleClass().contains("node-checks-failed"));
        assertEquals("Node checks: 2 of 4 checked node(s) failed:", robot.lookup("#nodeChecksTitle").queryAs(Label.class).getText());
        List<String> nodes = labels(robot, ".node-check-node");
        assertEquals(2, nodes.size(), nodes.toString());
        assertTrue(nodes.stream().anyMatch(t -> t.startsWith(ClusterFolders.h100(2) + ": FAIL: 1 of ")), nodes.toString());
        assertTrue(nodes.stream().anyMatch(t -> t.startsWith(ClusterFolders.tray(1, 1) + ": FAIL: ")), nodes.toString());
        List<String> expectations = labels(robot, ".node-check-expectations");
        assertTrue(expectations.contains("FAIL Driver version: expected 580.126.20, measured " + ClusterFolders.OTHER_DRIVER), expectations.toString());
        assertTrue(expectations.stream().anyMatch(t -> t.lines().anyMatch("FAIL GPU count: expected 8, measured 4"::equals)), expectations.toString());
        // the failed nodes' tiles are marked; a passed node's and a plain snapshot's are not
        assertTrue(tile(robot, ClusterFolders.h100(2)).getStyleClass().contains("node-check-failed"));
        assertTrue(tile(robot, ClusterFolders.tray(1, 1)).getStyleClass().contains("node-check-failed"));
        assertFalse(tile(robot, ClusterFolders.h100(1)).getStyleClass().contains("node-check-failed"));
        assertFalse(tile(robot, ClusterFolders.h100(4)).getStyleClass().contains("node-check-failed"));
        assertTrue(tile(robot, ClusterFolders.h100(2)).getTooltip().getText().contains("FAIL Driver version"));

        // a folder of plain probe snapshots has no node checks: nothing is shown
        ClusterFolders.mixed(plain);
        robot.interact(() -> app.vm.openCluster(plain));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null && app.vm.getCluster().dir().equals(plain));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(robot.lookup("#nodeChecks").query().isVisible());
        assertTrue(robot.lookup(".node-check-failed").queryAll().stream().noneMatch(Node::isVisible));
    }

    @Test
    void aFolderWithoutReportsIsAOneLineErrorAndKeepsWhatIsShown(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> app.vm.openSample("dgx-h100"));
        app.awaitIdle();
        var shown = app.vm.getMachine();
        Files.writeString(dir.resolve("notes.txt"), "not a report");
        robot.interact(() -> app.vm.openCluster(dir));
        AppHarness.await(() -> !app.vm.isBusy());
        assertEquals(dir + ": no node reports (*.json) in this folder", app.vm.errorProperty().get());
        assertSame(shown, app.vm.getMachine());
        assertTrue(app.vm.getCluster() == null, "no cluster shown");
        assertEquals(MainViewModel.Page.MACHINE, app.vm.getPage());
    }

    @Test
    void droppingAFolderOpensItAsACluster(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        robot.interact(() -> app.view.openDropped(List.of(dir)));
        AppHarness.await(() -> !app.vm.isBusy() && app.vm.getCluster() != null);
        assertEquals(MainViewModel.Page.CLUSTER, app.vm.getPage());
        assertEquals(List.of(dir.toAbsolutePath().normalize()), app.vm.recentFiles());
    }

    @Test
    void aCancelledReadKeepsWhatIsShown(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        robot.interact(() -> {
            app.vm.openCluster(dir);
            app.vm.cancel();
        });
        AppHarness.await(() -> !app.vm.isBusy());
        assertTrue(app.vm.getCluster() == null, "no cluster shown");
        assertTrue(app.vm.statusProperty().get().startsWith("Cancelled: Reading cluster folder"), app.vm.statusProperty().get());
    }

    /**
     * A thousand nodes: read in the background while the FX thread keeps rendering frames, and shown through a
     * virtualised list (only the tiles on screen exist in the scene graph).
     */
    @Test
    void aThousandNodesStayResponsiveAndVirtualised(FxRobot robot, @TempDir Path dir) throws Exception {
        ClusterFolders.scale(dir, 1000);
        long[] longestFrameGapNs = {0};
        long[] last = {0};
        var timer = new javafx.animation.AnimationTimer() {
            @Override
            public void handle(long now) {
                if (last[0] != 0) {
                    longestFrameGapNs[0] = Math.max(longestFrameGapNs[0], now - last[0]);
                }
                last[0] = now;
            }
        };
        double[] maxProgress = {0};
        robot.interact(() -> {
            timer.start();
            app.vm.progressProperty().addListener((o, was, p) -> maxProgress[0] = Math.max(maxProgress[0], p.doubleValue()));
            app.vm.openCluster(dir);
        });
        try {
            WaitForAsyncUtils.waitFor(120, java.util.concurrent.TimeUnit.SECONDS,
                    () -> WaitForAsyncUtils.asyncFx(() -> !app.vm.isBusy() && app.vm.getCluster() != null).get());
        } finally {
            robot.interact(timer::stop);
        }
        assertEquals(1000, app.vm.getCluster().view().readable().size());
        assertTrue(maxProgress[0] > 0.5, "progress was reported: " + maxProgress[0]);
        assertTrue(longestFrameGapNs[0] < 1_500_000_000L, "the FX thread stalled for " + longestFrameGapNs[0] / 1_000_000 + " ms");
        int inScene = robot.lookup(".node-tile").queryAll().size();
        assertTrue(inScene > 0 && inScene < 200, inScene + " tiles in the scene for 1000 nodes");

        // scrolling to the end shows the last nodes with no more tiles than before
        ClusterPage page = app.view.clusterPage();
        robot.interact(() -> page.grid().scrollTo(page.grid().getItems().size() - 1));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#node-dgx-h100-0100").tryQuery().isPresent());
        assertTrue(robot.lookup(".node-tile").queryAll().size() < 200);
        robot.clickOn("#node-dgx-h100-0100");
        AppHarness.await(() -> !app.vm.isBusy() && "dgx-h100-0100".equals(app.vm.getClusterNode()));
    }
}
