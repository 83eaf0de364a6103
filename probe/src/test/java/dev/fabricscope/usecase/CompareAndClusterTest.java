package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Compare} on saved samples and {@link InspectCluster} on synthetic cluster folders built from the samples. */
class CompareAndClusterTest {

    @TempDir
    Path dir;

    private Path save(MachineSnapshot s, String name) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, Json.write(s));
        return f;
    }

    @Test
    void twoMachinesDifferAndOneMachineDoesNotDifferFromItself() throws Exception {
        Path a = save(AdviseTest.sample("dgx-h100"), "a.json");
        Path b = save(AdviseTest.sample("h200-vm"), "b.json");
        Compare compare = new Compare();
        Compare.Result ab = compare.compare(new Compare.Request(a, "left", b, "right"));
        assertFalse(ab.identical());
        assertEquals("left", ab.diff().left().name());
        assertEquals("right", ab.diff().right().name());
        assertTrue(compare.compare(Compare.Request.of(a, a)).identical());
        assertEquals(a.toString(), compare.compare(Compare.Request.of(a, a)).diff().left().name());
    }

    @Test
    void anUnreadableSideIsAOneLineInputError() throws Exception {
        Path a = save(AdviseTest.sample("dgx-h100"), "a.json");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\": ");
        UseCaseException e = assertThrows(UseCaseException.class, () -> new Compare().compare(Compare.Request.of(a, broken)));
        assertEquals(UseCaseException.Reason.UNREADABLE_INPUT, e.reason());
        assertTrue(e.getMessage().contains("broken.json"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    private void rack(int trays, String driverOfLast) throws Exception {
        MachineSnapshot tray = SyntheticCluster.sample("gb200-nvl72-tray");
        for (int i = 1; i <= trays; i++) {
            MachineSnapshot node = SyntheticCluster.node(tray, "tray" + i, i);
            if (i == trays && driverOfLast != null) {
                node = SyntheticCluster.withDriver(node, driverOfLast);
            }
            SyntheticCluster.write(dir, node, "tray" + i + ".json");
        }
    }

    @Test
    void aClusterFolderIsMergedWithItsFactsForAdvice() throws Exception {
        rack(3, "999.1.2");
        Files.writeString(dir.resolve("junk.json"), "not json");
        List<long[]> progress = new ArrayList<>();
        InspectCluster.Result r = new InspectCluster().open(new InspectCluster.Request(dir, false,
                (read, total) -> progress.add(new long[] {read, total})));
        assertEquals(3, r.view().readable().size());
        assertEquals(1, r.view().unreadable().size());
        assertFalse(r.view().inconsistencies().isEmpty(), "the last tray's driver differs");
        assertNotNull(r.facts());
        assertNull(r.factsProblem());
        assertEquals(3, r.facts().nodesUsed());
        assertFalse(progress.isEmpty());
        assertEquals(4, progress.get(progress.size() - 1)[1]);
    }

    @Test
    void aNodeCountTheFolderCannotGiveIsAnInvalidRequest() throws Exception {
        rack(2, null);
        InspectCluster clusters = new InspectCluster();
        var view = clusters.open(InspectCluster.Request.of(dir)).view();
        assertEquals(1, clusters.factsFor(view, 1).nodesUsed());
        UseCaseException e = assertThrows(UseCaseException.class, () -> clusters.factsFor(view, 3));
        assertEquals(UseCaseException.Reason.INVALID_REQUEST, e.reason());
        assertEquals("--nodes 3 but the cluster folder has 2 readable node report(s)", e.getMessage());
    }

    @Test
    void aFolderWithoutReadableReportsHasNoFactsAndAMissingFolderIsUnreadable() throws Exception {
        Files.writeString(dir.resolve("junk.json"), "not json");
        InspectCluster clusters = new InspectCluster();
        InspectCluster.Result r = clusters.open(InspectCluster.Request.of(dir));
        assertNull(r.facts());
        assertNotNull(r.factsProblem());
        assertEquals(UseCaseException.Reason.UNREADABLE_INPUT, assertThrows(UseCaseException.class,
                () -> clusters.factsFor(r.view(), null)).reason());
        assertEquals(UseCaseException.Reason.UNREADABLE_INPUT, assertThrows(UseCaseException.class,
                () -> clusters.open(InspectCluster.Request.of(dir.resolve("absent")))).reason());
    }
}
