package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.read.ClusterReader;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.ProbeInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native-call trace opens as the snapshot its replay produces wherever a snapshot file is opened above the probe
 * ({@link OpenSnapshot}), and a cluster folder's node may be one, read through {@link OpenSnapshot#TRACES}; io alone
 * reads snapshots and reports only.
 */
class OpenSnapshotTracesTest {

    static final Path TRACE = Path.of("src/test/resources/captured/h200-passthrough-1gpu-2026-12-01/trace.json");

    @Test
    void aTraceOpensAsItsReplay() throws Exception {
        MachineSnapshot s = OpenSnapshot.read(TRACE);
        assertEquals(ProbeInfo.Origin.REPLAYED, s.probe().origin());
        assertEquals(1, s.gpus().size());
        SnapshotIO.ReadException plain = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(TRACE));
        assertTrue(plain.getMessage().startsWith(TRACE.toString()), plain.getMessage());
    }

    @Test
    void aClusterNodeThatIsATraceIsReadThroughOpenSnapshot(@TempDir Path dir) throws Exception {
        Files.copy(TRACE, dir.resolve("node01.json"));
        MachineSnapshot replayed = OpenSnapshot.read(dir.resolve("node01.json"));

        InspectCluster.Result r = new InspectCluster().open(new InspectCluster.Request(dir, false, null));
        assertEquals(1, r.view().readable().size(), () -> r.view().nodes().toString());
        ClusterNode node = r.view().readable().get(0);
        assertNull(node.error());
        assertEquals(replayed.host().hostname().value(), node.summary().hostname());
        assertEquals(replayed.gpus(), node.readSnapshot(OpenSnapshot.TRACES).gpus());

        List<ClusterNode> plain = ClusterReader.read(dir);
        assertNotNull(plain.get(0).error(), "without OpenSnapshot.TRACES a trace is no snapshot");
    }
}
