package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.ClusterFolders;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster page's state and commands without the FX toolkit: grouping, filters, opening a node, advising. */
class ClusterViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private final MainViewModel main = new MainViewModel(() -> {
        throw new IllegalStateException("no live probe in this test");
    }, Fixtures.prefs(), tasks);
    private final AdvisorViewModel advisor = new AdvisorViewModel(new dev.fabricscope.usecase.Advise(), tasks);
    private final ClusterViewModel vm = new ClusterViewModel(main, advisor);

    ClusterViewModelTest() {
        advisor.machineProperty().bind(main.machineProperty()); // as ViewModels wires them
    }

    private void open(Path dir) {
        main.openCluster(dir);
        tasks.runAll();
    }

    @Test
    void nodesAreGroupedByNvlinkDomainAndFiltered(@TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir); // one NVL72 rack (tray 07 on another driver) and two DGX H100 nodes
        open(dir);
        List<ClusterViewModel.Group> groups = vm.groups();
        assertEquals(2, groups.size(), groups.toString());
        assertTrue(groups.get(0).mnnvl());
        assertEquals(18, groups.get(0).nodes().size());
        assertEquals(1, groups.get(0).outliers());
        assertFalse(groups.get(1).mnnvl());
        assertEquals(List.of("dgx-h100-01", "dgx-h100-02"), groups.get(1).nodes().stream().map(n -> n.name()).toList());
        assertEquals(20, vm.listedProperty().get());

        vm.filterProperty().set("H100-02");
        assertEquals(1, vm.listedProperty().get(), "the filter ignores case");
        assertEquals("1 of 20 nodes listed · click a node to open its fabric view", vm.listedLineProperty().get());
        vm.filterProperty().set("");
        vm.outliersOnlyProperty().set(true);
        List<String> outliers = vm.groups().stream().flatMap(g -> g.nodes().stream()).map(n -> n.name()).toList();
        assertTrue(outliers.contains("gb200-rack1-tray07") && !outliers.contains("gb200-rack1-tray01"), outliers.toString());
        assertEquals(outliers.size(), vm.listedProperty().get());
    }

    @Test
    void aProblemEveryNodeSharesIsListedFirstAndTheDomainIsNamedAsGfdLabelsIt(@TempDir Path dir) throws Exception {
        ClusterFolders.unhealthyRack(dir);
        open(dir);
        assertEquals(1, vm.differences().size(), vm.differences().toString());
        ClusterViewModel.Difference p = vm.differences().get(0);
        assertEquals("fabric-unhealthy", p.field());
        assertEquals("GPU fabric health is UNHEALTHY.", p.title());
        assertEquals("every node", p.badge());
        assertEquals("WARNING in each node's own data: every node (18), 72 GPUs (the nodes agree, so no difference shows it)",
                p.majority());
        assertEquals(18, p.outliers().size());
        ClusterViewModel.Group rack = vm.groups().get(0);
        assertTrue(rack.detail().startsWith("nvidia.com/gpu.clique=00000000-0000-4000-8000-000000000001.32766 · 18 nodes"),
                rack.detail());
    }

    @Test
    void theDrawingIsReadOnlyWhileShownAndOncePerCluster(@TempDir Path dir) throws Exception {
        dev.fabricscope.samples.SyntheticCluster.writeNvl72Racks(dir, 1, true);
        open(dir);
        assertNull(vm.drawingProperty().get(), "not read while the tiles are shown");
        vm.drawingShownProperty().set(true);
        assertEquals("Reading 18 node reports for their links…", vm.drawingLineProperty().get());
        tasks.runAll();
        dev.fabricscope.render.rack.RackModel m = vm.drawingProperty().get();
        assertEquals(1, m.domains().size());
        assertEquals(72, m.domains().get(0).gpus());
        assertEquals("1 NVLink domain · 18 trays · 72 GPUs · 2 cliques · 2 odd trays (rack1-tray07, rack1-tray12) · 0 nodes outside"
                + " any domain", vm.drawingLineProperty().get());
        vm.drawingShownProperty().set(false);
        vm.drawingShownProperty().set(true);
        tasks.runAll();
        assertTrue(m == vm.drawingProperty().get(), "the same cluster is not read again");
        assertEquals("cluster-" + dir.getFileName() + "-drawing.svg", vm.drawingFileName(false));
    }

    @Test
    void highlightingADifferenceMarksItsOutliers(@TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        open(dir);
        ClusterViewModel.Difference driver = vm.differences().get(0);
        assertEquals("driver version", driver.field(), "the most important difference first");
        assertEquals(List.of("gb200-rack1-tray07"), driver.outliers());
        assertEquals("1 node", driver.badge());
        assertEquals("Most nodes (19): 580.126.20", driver.majority());
        assertEquals(ClusterFolders.OTHER_DRIVER + ": gb200-rack1-tray07", driver.others());
        assertFalse(driver.warning());
        assertNull(vm.firstHighlighted());
        vm.highlightedProperty().set(driver);
        assertTrue(vm.isHighlighted("gb200-rack1-tray07"));
        assertFalse(vm.isHighlighted("gb200-rack1-tray01"));
        assertEquals("gb200-rack1-tray07", vm.firstHighlighted());
        vm.filterProperty().set("dgx");
        assertNull(vm.firstHighlighted(), "the outlier is filtered out of the list");
    }

    @Test
    void openingANodeShowsItsFabricTabWithTheClusterBar(@TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        open(dir);
        vm.openNode("gb200-rack1-tray07");
        assertEquals("gb200-rack1-tray07", vm.currentNodeProperty().get());
        tasks.runAll();
        assertEquals("gb200-rack1-tray07", main.getClusterNode());
        assertEquals(MainViewModel.Page.MACHINE, main.getPage());
        assertEquals(MainViewModel.MachineTab.FABRIC, main.tabProperty().get());
        String line = vm.nodeLineProperty().get();
        assertTrue(line.startsWith("Node gb200-rack1-tray07 of cluster " + dir.getFileName() + " · differs from most nodes in "), line);

        vm.openNode("dgx-h100-01");
        tasks.runAll();
        assertTrue(vm.nodeLineProperty().get().startsWith("Node dgx-h100-01 of cluster "), vm.nodeLineProperty().get());

        main.openSample("h200-vm");
        tasks.runAll();
        assertEquals("", vm.nodeLineProperty().get(), "no cluster bar for a machine from elsewhere");
    }

    @Test
    void advisingOverTheClusterFillsTheDeploymentPanel(@TempDir Path dir) throws Exception {
        ClusterFolders.racks(dir); // two NVL72 racks and one unreadable file
        open(dir);
        var facts = main.getCluster().facts();
        vm.adviseCluster();
        tasks.runAll();
        assertEquals(facts.representative().name(), vm.currentNodeProperty().get());
        assertEquals(facts.representative().name(), main.getClusterNode());
        var expected = dev.fabricscope.usecase.DeploymentRequest.NONE.overCluster(facts);
        assertEquals(expected.nodes(), advisor.nodesProperty().get());
        assertEquals(facts.nodesUsed(), advisor.nodesProperty().get());
        assertEquals(expected.assume(), AdvisorViewModel.pairs("assume", advisor.assumeProperty().get()));
        assertFalse(advisor.verdicts().isEmpty(), "the advisor ran over the cluster's deployment");
        assertTrue(advisor.adviceProperty().get().deploymentNotes().stream().anyMatch(n -> n.contains(facts.nodesUsed() + " nodes")),
                advisor.adviceProperty().get().deploymentNotes().toString());
        assertEquals(MainViewModel.MachineTab.ADVISOR, main.tabProperty().get());
        assertTrue(main.statusProperty().get().startsWith("Advising over " + facts.nodesUsed() + " nodes of cluster "),
                main.statusProperty().get());
    }

    @Test
    void anotherClusterForgetsTheNodeAndTheHighlight(@TempDir Path a, @TempDir Path b) throws Exception {
        ClusterFolders.mixed(a);
        ClusterFolders.racks(b);
        open(a);
        vm.openNode("dgx-h100-01");
        tasks.runAll();
        vm.highlightedProperty().set(vm.differences().get(0));
        open(b);
        assertNull(vm.currentNodeProperty().get());
        assertNull(vm.highlightedProperty().get());
        assertEquals(35, vm.listedProperty().get());
        assertEquals(List.of(new ClusterViewModel.Unreadable(b.resolve("gb200-rack2-tray18.json").toString(), "gb200-rack2-tray18.json",
                vm.unreadable().get(0).why())), vm.unreadable());
        assertTrue(vm.unreadable().get(0).why().contains("gb200-rack2-tray18.json"), vm.unreadable().get(0).why());
    }

    @Test
    void tilesAndTheAdviseHintSayWhatTheNodesAre(@TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        open(dir);
        ClusterViewModel.Tile h100 = vm.groups().get(1).nodes().get(0);
        assertEquals(new ClusterViewModel.Tile("dgx-h100-01", "8 × H100 80GB HBM3", "580.126.20", dir.resolve("dgx-h100-01.json").toString()), h100);
        String hint = vm.adviseHint();
        assertTrue(hint.startsWith("Opens the Advisor tab for a deployment over all 20 nodes: GPUs as on "), hint);
        assertTrue(vm.factsLine().startsWith("Advisor view of the cluster: ") && !vm.factsLine().contains(dir.toString()), vm.factsLine());
    }

    @Test
    void failedNodeChecksAreListedWithTheirFailedExpectationsAsTheCliWordsThem(@TempDir Path dir) throws Exception {
        ClusterFolders.checked(dir); // 4 check node reports (2 failed) and one plain snapshot
        open(dir);
        assertEquals("Node checks: 2 of 4 checked node(s) failed:", vm.nodeChecksLineProperty().get());
        List<ClusterViewModel.FailedCheck> failed = vm.failedChecks();
        assertEquals(List.of("dgx-h100-02", "gb200-rack1-tray01"), failed.stream().map(ClusterViewModel.FailedCheck::node).sorted().toList());
        ClusterViewModel.FailedCheck driver = failed.stream().filter(f -> f.node().equals("dgx-h100-02")).findFirst().orElseThrow();
        assertTrue(driver.summary().startsWith("FAIL: 1 of "), driver.summary());
        assertEquals(List.of("FAIL Driver version: expected 580.126.20, measured " + ClusterFolders.OTHER_DRIVER), driver.failed());
        ClusterViewModel.FailedCheck tray = failed.stream().filter(f -> f.node().equals("gb200-rack1-tray01")).findFirst().orElseThrow();
        assertTrue(tray.failed().contains("FAIL GPU count: expected 8, measured 4"), tray.failed().toString());
        assertTrue(vm.checkFailed("dgx-h100-02") && vm.checkFailed("gb200-rack1-tray01"));
        assertFalse(vm.checkFailed("dgx-h100-01"), "its check passed");
        assertFalse(vm.checkFailed("dgx-h100-04"), "a plain snapshot has no check to fail");
    }

    @Test
    void withoutCheckReportsNoNodeChecksAreShown(@TempDir Path checked, @TempDir Path plain) throws Exception {
        ClusterFolders.checked(checked);
        open(checked);
        assertFalse(vm.failedChecks().isEmpty());
        ClusterFolders.mixed(plain);
        open(plain);
        assertEquals("", vm.nodeChecksLineProperty().get(), "no node report of the folder is a check node report");
        assertEquals(List.of(), vm.failedChecks());
        assertFalse(vm.checkFailed("dgx-h100-02"), "the last cluster's checks are forgotten");
    }
}
