package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster show}'s exit code judges each node by itself (issue 24 item 6): 18 GB200 trays whose GPUs all report
 * fabric health UNHEALTHY exit 5 (README: a node's own data shows a problem), a healthy rack exits 0. Folders written
 * from the synthetic gb200-nvl72-tray sample.
 */
class ClusterShowJudgesNodesTest {

    private static void rack(Path dir, String health) throws Exception {
        MachineSnapshot tray = SyntheticCluster.mapFabric(SyntheticCluster.sample("gb200-nvl72-tray"), (i, f) -> new FabricInfo(
                f.api(), f.state(), f.status(), f.cliqueId(), f.clusterUuid(), f.healthMask(), Reading.of(health)));
        for (int i = 1; i <= 18; i++) {
            String host = String.format(Locale.ROOT, "gb200-rack1-tray%02d", i);
            SyntheticCluster.write(dir, SyntheticCluster.node(tray, host, i), host + ".json");
        }
    }

    @Test
    void unhealthyEverywhereExitsFiveAndSaysSo(@TempDir Path dir) throws Exception {
        rack(dir, "UNHEALTHY");
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(ExitCodes.CHECK_FAILED, r.code(), r.out() + r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertFalse(first.contains("all nodes match"), first);
        assertTrue(first.contains("GPU fabric health is UNHEALTHY on every node (18), 72 GPUs"), first);
        CliTest.Run json = CliTest.run("cluster", "show", dir.toString(), "--json");
        assertEquals(ExitCodes.CHECK_FAILED, json.code());
        assertTrue(json.out().contains("\"problems\"") && json.out().contains("\"fabric-unhealthy\""), json.out());
    }

    @Test
    void aHealthyRackExitsZero(@TempDir Path dir) throws Exception {
        rack(dir, "HEALTHY");
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(ExitCodes.OK, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("18 nodes, 72 GPUs: all nodes match"), r.out());
        assertTrue(r.out().contains("00000000-0000-4000-8000-000000000001.32766"), r.out());
    }
}
