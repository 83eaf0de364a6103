package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.ClusterFolders;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window's state without the FX toolkit: loads, failures, cancelling, clusters, comparisons, pages and tabs. */
class MainViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private final AppPreferences prefs = Fixtures.prefs();

    private MainViewModel vm(Supplier<MachineSnapshot> liveProbe) {
        return new MainViewModel(liveProbe, prefs, tasks);
    }

    private MainViewModel vm() {
        return vm(() -> {
            throw new IllegalStateException("no live probe in this test");
        });
    }

    @Test
    void aSampleLoadsInTheBackgroundAndIsShown() {
        MainViewModel vm = vm();
        vm.openSample("dgx-h100");
        assertTrue(vm.isBusy(), "busy until the work has run");
        assertEquals("Opening sample dgx-h100…", vm.statusProperty().get());
        assertEquals(-1, vm.progressProperty().get(), "cannot tell how far while loading");
        assertNull(vm.getMachine());

        tasks.runAll();
        assertFalse(vm.isBusy());
        assertEquals(0, vm.progressProperty().get());
        LoadedMachine m = vm.getMachine();
        assertEquals("dgx-h100", m.sample());
        assertEquals(LoadedMachine.Source.SAMPLE, m.source());
        assertEquals(8, m.snapshot().gpus().size());
        assertFalse(m.graph().nodes().isEmpty(), "laid out in the background");
        assertTrue(vm.statusProperty().get().equals("Opened sample dgx-h100 (synthetic)"), vm.statusProperty().get());
        assertEquals("Fabricscope — sample dgx-h100 (synthetic)", vm.titleProperty().get());
        assertEquals("sample dgx-h100 (synthetic)", vm.sourceProperty().get());
        assertNull(vm.errorProperty().get());
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
    }

    @Test
    void aFailedLoadIsOneLineAndKeepsWhatIsShown() {
        MainViewModel vm = vm();
        vm.openSample("l40s-4x");
        tasks.runAll();
        LoadedMachine shown = vm.getMachine();

        vm.openSample("no-such-machine");
        tasks.runAll();
        assertSame(shown, vm.getMachine());
        assertTrue(vm.errorProperty().get().startsWith("unknown sample 'no-such-machine'; valid: "), vm.errorProperty().get());
        assertFalse(vm.errorProperty().get().contains("\n"));
        assertEquals("Failed: " + vm.errorProperty().get(), vm.statusProperty().get());
        assertFalse(vm.isBusy());

        vm.openSample("dgx-h100");
        tasks.runAll();
        assertNull(vm.errorProperty().get(), "a success clears the error");
    }

    @Test
    void anUnreadableFileSaysWhyAndIsNotRemembered(@TempDir Path dir) throws Exception {
        MainViewModel vm = vm();
        Path bad = Files.writeString(dir.resolve("bad.json"), "{ not json");
        vm.openFile(bad);
        tasks.runAll();
        assertNull(vm.getMachine());
        assertTrue(vm.errorProperty().get() != null && vm.errorProperty().get().contains("bad.json"), vm.errorProperty().get());
        assertTrue(vm.recentFiles().isEmpty());

        Path good = Files.writeString(dir.resolve("good.json"), Json.write(Fixtures.sample("dgx-a100")));
        vm.openFile(good);
        tasks.runAll();
        assertEquals(LoadedMachine.Source.FILE, vm.getMachine().source());
        assertEquals(List.of(good.toAbsolutePath().normalize()), vm.recentFiles());
        assertEquals("Opened " + good, vm.statusProperty().get());
    }

    @Test
    void cancellingBeforeTheWorkRunsDropsIt() {
        MainViewModel vm = vm();
        vm.openSample("dgx-h100");
        vm.cancel();
        assertFalse(vm.isBusy());
        assertEquals("Cancelled: Opening sample dgx-h100", vm.statusProperty().get());
        tasks.runAll();
        assertNull(vm.getMachine(), "the cancelled load never shows");
        assertEquals("Cancelled: Opening sample dgx-h100", vm.statusProperty().get());
    }

    @Test
    void cancellingWhileTheWorkRunsInterruptsItAndDropsItsResult() {
        AtomicBoolean interrupted = new AtomicBoolean();
        MainViewModel[] vm = new MainViewModel[1];
        vm[0] = vm(() -> {
            vm[0].cancel(); // the user presses Cancel while the probe runs
            interrupted.set(Thread.currentThread().isInterrupted());
            return Fixtures.sample("dgx-h100");
        });
        vm[0].probeLive();
        tasks.runAll();
        assertTrue(interrupted.get(), "the work was interrupted");
        assertFalse(Thread.interrupted(), "the interrupt does not outlive the work");
        assertNull(vm[0].getMachine());
        assertEquals("Cancelled: Probing this machine (NVML, CUDA, NCCL)", vm[0].statusProperty().get());
    }

    @Test
    void aNewLoadSupersedesTheOneInFlight() {
        int[] probes = {0};
        MainViewModel vm = vm(() -> {
            probes[0]++;
            return Fixtures.sample("dgx-h100");
        });
        vm.probeLive();
        vm.openSample("h200-vm");
        assertEquals("Opening sample h200-vm…", vm.statusProperty().get());
        assertTrue(vm.isBusy());
        tasks.runAll();
        assertEquals(0, probes[0], "the superseded probe never ran");
        assertEquals("h200-vm", vm.getMachine().sample());
        assertFalse(vm.isBusy());
    }

    @Test
    void aLiveMachineWithoutTheDriverSaysSoInWords() {
        MainViewModel vm = vm(Fixtures::withoutDriver);
        vm.probeLive();
        tasks.runAll();
        assertEquals("No NVIDIA driver found on this machine.", vm.noDriverMessageProperty().get());
        assertTrue(vm.noDriverDetailsProperty().get().startsWith("libnvidia-ml.so.1"), vm.noDriverDetailsProperty().get());
        assertEquals("Fabricscope — live machine", vm.titleProperty().get());

        vm.openSample("dgx-h100");
        tasks.runAll();
        assertNull(vm.noDriverMessageProperty().get(), "a sample is not the live machine");
    }

    @Test
    void aClusterFolderWithAnUnreadableFileOpensWithTheOthers(@TempDir Path dir) throws Exception {
        ClusterFolders.racks(dir);
        MainViewModel vm = vm();
        List<String> said = new ArrayList<>();
        vm.statusProperty().addListener((o, was, now) -> said.add(now));
        vm.openCluster(dir);
        tasks.runAll();
        LoadedCluster c = vm.getCluster();
        assertEquals(MainViewModel.Page.CLUSTER, vm.getPage());
        assertEquals(35, c.view().readable().size(), "two racks of 18 trays, one of them truncated");
        assertEquals(1, c.view().unreadable().size());
        assertTrue(c.summary().endsWith("1 unreadable file"), c.summary());
        assertTrue(vm.statusProperty().get().startsWith("Opened cluster " + dir.getFileName() + " in "), vm.statusProperty().get());
        assertTrue(said.contains("Comparing 36 nodes…"), "the work's progress reached the status line: " + said);
        assertEquals(List.of(dir.toAbsolutePath().normalize()), vm.recentFiles());
        assertTrue(vm.titleProperty().get().startsWith("Fabricscope — cluster "), vm.titleProperty().get());
    }

    @Test
    void aFolderWithoutReportsIsAnError(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "not a report");
        MainViewModel vm = vm();
        vm.openCluster(dir);
        tasks.runAll();
        assertEquals(dir + ": no node reports (*.json) in this folder", vm.errorProperty().get());
        assertNull(vm.getCluster());
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
    }

    @Test
    void aNodeOfTheClusterOpensOnlyWhenReadable(@TempDir Path dir) throws Exception {
        ClusterFolders.racks(dir);
        MainViewModel vm = vm();
        vm.openCluster(dir);
        tasks.runAll();
        String unreadable = vm.getCluster().view().unreadable().get(0).name();
        assertThrows(IllegalArgumentException.class, () -> vm.openClusterNode(unreadable, () -> { }));

        String node = vm.getCluster().view().readable().get(0).name();
        boolean[] shown = {false};
        vm.openClusterNode(node, () -> shown[0] = true);
        tasks.runAll();
        assertTrue(shown[0]);
        assertEquals(node, vm.getClusterNode());
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
        assertEquals(node, vm.getMachine().host());
        vm.showCluster();
        assertEquals(MainViewModel.Page.CLUSTER, vm.getPage());
    }

    @Test
    void aComparisonShowsAndLeavesForThePageBefore(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a.json"), Json.write(Fixtures.sample("dgx-h100")));
        Path b = Files.writeString(dir.resolve("b.json"), Json.write(Fixtures.sample("dgx-a100")));
        MainViewModel vm = vm();
        vm.openSample("h200-vm");
        tasks.runAll();
        vm.compare(a, b);
        tasks.runAll();
        assertEquals(MainViewModel.Page.COMPARE, vm.getPage());
        LoadedComparison c = vm.getComparison();
        assertEquals(a, c.left());
        assertFalse(c.diff().identical());
        assertTrue(vm.statusProperty().get().startsWith("Compared a.json with b.json: "), vm.statusProperty().get());
        assertEquals("comparing a.json with b.json", vm.sourceProperty().get()); // the status bar: names; the page: whole paths
        // as the page shows it: the two cards, every difference once under its kind, the count
        assertEquals(new LoadedComparison.Side("a.json", c.diff().left().machine(), c.diff().left().taken(), a.toString()), c.side(true));
        assertEquals(b.toString(), c.side(false).path());
        // the same change on GPU0…GPU7 is one item, as diff folds it (issue 26)
        int rows = dev.fabricscope.render.DiffText.fold(c.diff().changes()).size();
        assertTrue(rows < c.diff().changes().size());
        assertEquals(rows, c.groups().stream().mapToInt(g -> g.items().size()).sum());
        assertEquals(c.diff().changes().size() + " differences in " + rows + " rows, most important first", c.summary());
        assertTrue(c.groups().stream().flatMap(g -> g.items().stream()).noneMatch(i -> i.subject().equals("GPU0") && i.item().equals("SMs")));
        LoadedComparison.Item sms = c.groups().stream().flatMap(g -> g.items().stream())
                .filter(i -> i.subject().equals("GPU0–7") && i.item().equals("SMs")).findFirst().orElseThrow();
        assertEquals("132", sms.before());
        assertEquals("108", sms.after());
        vm.closeComparison();
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
        vm.showComparison();
        assertEquals(MainViewModel.Page.COMPARE, vm.getPage());
    }

    /**
     * Issue 24 item 6: a report whose stored findings are stale (planted here) opens, and compares, with the findings
     * this version makes of its readings; the stored ones appear nowhere.
     */
    @Test
    void aReportWithStaleFindingsOpensAndComparesWithThemRecomputed(@TempDir Path dir) throws Exception {
        Path real = Path.of("../probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json");
        com.fasterxml.jackson.databind.node.ObjectNode report = (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(real.toFile());
        com.fasterxml.jackson.databind.node.ArrayNode planted = Json.mapper().createArrayNode();
        planted.addObject().put("severity", "ERROR").put("code", "stale").put("message", "a finding only the file holds");
        ((com.fasterxml.jackson.databind.node.ObjectNode) report.get("snapshot")).set("findings", planted);
        Path stale = Files.writeString(dir.resolve("stale.json"), Json.write(report));
        MainViewModel vm = vm();
        vm.openFile(stale);
        tasks.runAll();
        MachineSnapshot s = vm.getMachine().snapshot();
        assertEquals(dev.fabricscope.topology.SnapshotAnalyzer.findings(s), s.findings());
        assertTrue(s.findings().stream().noneMatch(f -> f.code().equals("stale")), s.findings().toString());
        assertFalse(s.findings().isEmpty());
        vm.compare(real, stale);
        tasks.runAll();
        LoadedComparison c = vm.getComparison();
        assertTrue(c.diff().identical(), "the same readings, the same findings: " + c.diff().changes());
    }

    /** Issue 25 item 4: Compare (and a drop of two files) takes traces, replayed, as it takes snapshots. */
    @Test
    void twoTracesAreComparedAsTheirReplays(@TempDir Path dir) throws Exception {
        Path captured = Path.of("../probe/src/test/resources/captured");
        Path a = Files.copy(captured.resolve("h200-passthrough-1gpu-2026-12-01/trace.json"), dir.resolve("one.trace.json"));
        Path b = Files.copy(captured.resolve("h200-nvswitch-2gpu-2026-12-01/trace.json"), dir.resolve("two.trace.json"));
        MainViewModel vm = vm();
        vm.openSample("h200-vm");
        tasks.runAll();
        vm.compare(a, b);
        tasks.runAll();
        assertEquals(null, vm.errorProperty().get());
        assertEquals(MainViewModel.Page.COMPARE, vm.getPage());
        LoadedComparison c = vm.getComparison();
        assertFalse(c.diff().identical());
        assertTrue(vm.statusProperty().get().startsWith("Compared one.trace.json with two.trace.json: "), vm.statusProperty().get());
        assertTrue(c.side(true).machine().contains("1× NVIDIA H200"), c.side(true).machine());
        assertTrue(c.side(false).machine().contains("2× NVIDIA H200"), c.side(false).machine());
        vm.closeComparison();
        vm.openDropped(List.of(b, a));
        tasks.runAll();
        assertEquals(MainViewModel.Page.COMPARE, vm.getPage());
        assertEquals(b, vm.getComparison().left());
        assertEquals(null, vm.errorProperty().get());
    }

    @Test
    void droppedFilesAreComparedAndADroppedFolderOpensAsACluster(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a.json"), Json.write(Fixtures.sample("dgx-h100")));
        Path b = Files.writeString(dir.resolve("b.json"), Json.write(Fixtures.sample("dgx-a100")));
        MainViewModel vm = vm();
        vm.openDropped(List.of(a, b));
        tasks.runAll();
        assertEquals(MainViewModel.Page.COMPARE, vm.getPage());
        vm.swapComparison();
        tasks.runAll();
        assertEquals(b, vm.getComparison().left());
        assertEquals(a, vm.getComparison().right());

        vm.openDropped(List.of(a));
        tasks.runAll();
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
        assertEquals(a, vm.getMachine().file());

        Path cluster = Files.createDirectory(dir.resolve("cluster"));
        ClusterFolders.mixed(cluster);
        vm.openDropped(List.of(cluster, a));
        tasks.runAll();
        assertEquals(MainViewModel.Page.CLUSTER, vm.getPage(), "a folder first: the folder, as a cluster");
        assertEquals(20, vm.getCluster().view().readable().size());
    }

    @Test
    void showingATabShowsTheMachinePage(@TempDir Path dir) throws Exception {
        ClusterFolders.mixed(dir);
        MainViewModel vm = vm();
        vm.openSample("dgx-h100");
        tasks.runAll();
        vm.openCluster(dir);
        tasks.runAll();
        assertEquals(MainViewModel.Page.CLUSTER, vm.getPage());
        vm.showTab(MainViewModel.MachineTab.MATRICES);
        assertEquals(MainViewModel.Page.MACHINE, vm.getPage());
        assertEquals(MainViewModel.MachineTab.MATRICES, vm.tabProperty().get());
    }

    @Test
    void recentFilesCanBeCleared(@TempDir Path dir) throws Exception {
        Path good = Files.writeString(dir.resolve("good.json"), Json.write(Fixtures.sample("dgx-a100")));
        MainViewModel vm = vm();
        vm.openFile(good);
        tasks.runAll();
        assertEquals(1, vm.recentFiles().size());
        vm.clearRecent();
        assertTrue(vm.recentFiles().isEmpty());
        assertTrue(prefs.recentFiles().isEmpty(), "forgotten for the next run too");
    }
}
