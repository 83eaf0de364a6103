package dev.fabricscope.cluster;

import dev.fabricscope.cluster.read.ClusterReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterAnalysisTest {

    @TempDir
    Path dir;

    private ClusterView view() throws Exception {
        return ClusterAnalysis.analyse(dir.toString(), ClusterReader.read(dir));
    }

    @Test
    void eighteenGb200TraysFormOneNvlinkDomainOf72Gpus() throws Exception {
        ClusterFixtures.gb200Rack(dir);
        ClusterView v = view();
        assertEquals(18, v.readable().size());
        assertEquals(1, v.domains().size());
        NvlinkDomain d = v.domains().get(0);
        assertTrue(d.multiNode());
        assertEquals(72, d.gpus());
        assertEquals(18, d.nodes().size());
        assertEquals(1, d.cliques().size());
        assertTrue(d.clusterUuid() != null && d.mainClique().cliqueId() != null);
        assertEquals(d.clusterUuid(), d.id(), "a domain is named by its cluster UUID");
        assertTrue(v.inconsistencies().isEmpty(), v.inconsistencies().toString());
    }

    @Test
    void trayInAnotherCliqueIsACliqueOfTheSameDomainAndIsNamed() throws Exception {
        ClusterFixtures.gb200Rack(dir);
        MachineSnapshot odd = ClusterFixtures.withClique(ClusterFixtures.node(ClusterFixtures.sample("gb200-nvl72-tray"), "gb200-rack1-tray07", 7), 1);
        ClusterFixtures.write(dir, odd, "gb200-rack1-tray07.json");
        ClusterView v = view();
        assertEquals(1, v.domains().size(), "one cluster UUID: one NVLink domain");
        NvlinkDomain d = v.domains().get(0);
        assertEquals(18, d.nodes().size());
        assertEquals(72, d.gpus());
        assertEquals(2, d.cliques().size(), "two cliques: partitions of the domain");
        assertEquals(17, d.mainClique().nodes().size());
        assertEquals(List.of("gb200-rack1-tray07"), d.cliques().get(1).nodes());
        assertEquals(1L, d.cliques().get(1).cliqueId());
        assertEquals(d.mainClique().gfdLabel(), d.gfdLabel(), "the domain as GFD names it: its main clique's label");
        assertEquals(2, v.cliques().size());
    }

    @Test
    void twoH100NodesAreTwoSingleNodeDomains() throws Exception {
        MachineSnapshot h100 = ClusterFixtures.sample("dgx-h100");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-a", 1), "dgx-a.json");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-b", 2), "dgx-b.json");
        ClusterView v = view();
        assertEquals(2, v.domains().size());
        v.domains().forEach(d -> {
            assertFalse(d.multiNode());
            assertFalse(d.mnnvl());
            assertEquals(8, d.gpus());
            assertTrue(d.id().startsWith("node:"));
        });
    }

    @Test
    void oneNodeOnAnotherDriverIsTheFirstDifference() throws Exception {
        MachineSnapshot h100 = ClusterFixtures.sample("dgx-h100");
        for (int i = 1; i <= 4; i++) {
            MachineSnapshot n = ClusterFixtures.node(h100, "dgx-" + i, i);
            if (i == 3) {
                n = ClusterFixtures.withDriver(n, "550.54.15");
            }
            ClusterFixtures.write(dir, n, "dgx-" + i + ".json");
        }
        ClusterView v = view();
        Inconsistency first = v.inconsistencies().get(0);
        assertEquals("driver version", first.field());
        assertEquals(List.of("dgx-3"), first.outliers());
        assertEquals(ClusterFixtures.sample("dgx-h100").driver().driverVersion().value(), first.majority());
        assertEquals(1, v.inconsistencies().size(), v.inconsistencies().toString());
    }

    @Test
    void mixedClusterReportsModelCountAndLinkDifferencesInImportanceOrder() throws Exception {
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "h100-1", 1), "h100-1.json");
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "h100-2", 2), "h100-2.json");
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("l40s-4x"), "l40s-1", 3), "l40s-1.json");
        List<String> fields = view().inconsistencies().stream().map(Inconsistency::field).toList();
        assertTrue(fields.indexOf("GPU models") < fields.indexOf("GPU count"), fields.toString());
        assertTrue(fields.indexOf("GPU count") < fields.indexOf("active NVLinks per GPU"), fields.toString());
        assertTrue(fields.contains("CUDA multicast"), fields.toString());
    }

    @Test
    void unreadableFilesAreListedAndTheManifestIgnored() throws Exception {
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "ok-1", 1), "ok-1.json");
        Files.writeString(dir.resolve("broken.json"), "{\"schemaVersion\": 1, \"gpus\": [");
        Files.writeString(dir.resolve(ClusterReader.MANIFEST), "{\"scheduler\":\"slurm\"}");
        ClusterView v = view();
        assertEquals(1, v.readable().size());
        assertEquals(1, v.unreadable().size());
        assertTrue(v.unreadable().get(0).error().contains("broken.json"));
    }

    @Test
    void sameHostTwiceKeepsBothNodesApart() throws Exception {
        MachineSnapshot n = ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "same", 1);
        ClusterFixtures.write(dir, n, "a.json");
        ClusterFixtures.write(dir, n, "b.json");
        assertEquals(List.of("same", "same (b.json)"), view().nodes().stream().map(ClusterNode::name).toList());
    }

    @Test
    void manySingleNodeDomainsAreGroupedInTheTextView() throws Exception {
        MachineSnapshot h100 = ClusterFixtures.sample("dgx-h100");
        for (int i = 0; i < 25; i++) {
            ClusterFixtures.write(dir, ClusterFixtures.node(h100, "n" + i, i), "n" + i + ".json");
        }
        String text = dev.fabricscope.render.ClusterText.render(view());
        assertTrue(text.contains("(25 domains)     single node each  25     200   8 GPUs each:"), text);
        assertFalse(text.contains("node:n3 "), text);
    }
}
