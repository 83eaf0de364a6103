package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.render.rack.RackModel.NodeLinks;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DrawCluster} reads each node's links from its JSON tree; what it reads equals what the full snapshot gives
 * ({@link NodeLinks#of}) for every bundled sample (SYNTHETIC and captured), as a snapshot and as a report, and a node
 * whose file went away is drawn from its summary with why.
 */
class DrawClusterTest {

    @Test
    void theLinkScanEqualsTheFullSnapshotForEverySample(@TempDir Path dir) throws Exception {
        int checked = 0;
        for (Samples.Sample sample : Samples.list()) {
            MachineSnapshot s = sample.snapshot().get();
            NodeLinks full = NodeLinks.of(s);
            assertEquals(full, DrawCluster.scan(Json.write(s).getBytes(java.nio.charset.StandardCharsets.UTF_8)), sample.name());
            String report = "{\"format\": \"fabricscope-report\", \"snapshot\": " + Json.write(s) + "}";
            assertEquals(full, DrawCluster.scan(report.getBytes(java.nio.charset.StandardCharsets.UTF_8)), sample.name());
            checked++;
        }
        assertTrue(checked >= 6, "samples checked: " + checked);
        MachineSnapshot down = SyntheticCluster.withLinksDown(SyntheticCluster.sample("gb200-nvl72-tray"), 2, 4);
        assertEquals(NodeLinks.of(down), DrawCluster.scan(Json.write(down).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertNull(DrawCluster.scan("{\"format\": \"fabricscope-trace\", \"calls\": []}".getBytes()), "no snapshot: read in full");
    }

    @Test
    void aReportGoneSinceTheMergeIsDrawnFromItsSummary(@TempDir Path dir) throws Exception {
        SyntheticCluster.writeNvl72Racks(dir, 1, false);
        ClusterView v = new InspectCluster().open(InspectCluster.Request.of(dir)).view();
        ClusterNode first = v.readable().get(0);
        Files.delete(Path.of(first.file()));
        RackModel m = DrawCluster.model(v);
        RackModel.Tray t = m.domains().get(0).trays().get(0);
        assertEquals(first.name(), t.name());
        assertTrue(t.note().startsWith("per-link readings not read: "), t.note());
        assertEquals(new RackModel.Bundle(72, -1, null), t.bundle());
        assertEquals("72 links up · rate unknown", t.bundle().label());
        assertTrue(t.odd().isEmpty(), "as many links up as the others: not odd for what could not be read");
        assertEquals(17, m.domains().get(0).trays().stream().filter(x -> x.note() == null).count());
    }
}
