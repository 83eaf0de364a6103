package dev.fabricscope.cluster;

import dev.fabricscope.cluster.read.ClusterReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.ClusterText;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 6: {@code cluster show} judges each node from its own data, so a problem every node shares is named
 * although all nodes agree; an NVLink domain is named as GPU Feature Discovery labels it, and a node whose GPUs
 * disagree is flagged as GFD would (no label). Folders written from the synthetic {@code gb200-nvl72-tray} sample
 * (SyntheticSamples: fabric COMPLETED, cluster 00000000-0000-4000-8000-000000000001, clique 0x7ffe, HEALTHY).
 */
class ClusterAbsoluteJudgmentTest {

    @TempDir
    Path dir;

    private static final String RACK_LABEL = "00000000-0000-4000-8000-000000000001.32766";

    private ClusterView view() throws Exception {
        return ClusterAnalysis.analyse(dir.toString(), ClusterReader.read(dir), dev.fabricscope.usecase.InspectCluster.JUDGE);
    }

    private static FabricInfo with(FabricInfo f, Reading<String> status, Reading<Long> clique, Reading<String> health) {
        return new FabricInfo(f.api(), f.state(), status, clique, f.clusterUuid(), f.healthMask(), health);
    }

    /** 18 trays, each from {@code tray} as {@code SyntheticCluster.node} makes them. */
    private void rack(MachineSnapshot tray) throws Exception {
        for (int i = 1; i <= 18; i++) {
            String host = String.format(Locale.ROOT, "gb200-rack1-tray%02d", i);
            ClusterFixtures.write(dir, ClusterFixtures.node(tray, host, i), host + ".json");
        }
    }

    @Test
    void eighteenUnhealthyTraysAreNamedAlthoughTheyAllAgree() throws Exception {
        MachineSnapshot tray = SyntheticCluster.mapFabric(ClusterFixtures.sample("gb200-nvl72-tray"),
                (i, f) -> with(f, f.status(), f.cliqueId(), Reading.of("UNHEALTHY")));
        rack(tray);
        ClusterView v = view();
        assertTrue(v.inconsistencies().isEmpty(), "the nodes agree: " + v.inconsistencies());
        assertEquals(1, v.problems().size(), v.problems().toString());
        NodeProblem p = v.problems().get(0);
        assertEquals("fabric-unhealthy", p.code());
        assertEquals(Finding.Severity.WARNING, p.severity());
        assertTrue(p.everyNode());
        assertEquals(18, p.nodes().size());
        assertEquals(72, p.gpus());
        String text = ClusterText.render(v);
        String answer = text.lines().findFirst().orElseThrow();
        assertFalse(answer.contains("all nodes match"), answer);
        assertEquals("18 nodes, 72 GPUs: GPU fabric health is UNHEALTHY on every node (18), 72 GPUs; no differences between nodes",
                answer);
        assertTrue(text.contains("Problems in the nodes' own data (each node judged by itself, not by comparison):\n"
                + "  WARNING: GPU fabric health is UNHEALTHY — every node (18), 72 GPUs\n"), text);
    }

    @Test
    void aHealthyRackMatchesAndIsNamedAsGfdLabelsIt() throws Exception {
        rack(ClusterFixtures.sample("gb200-nvl72-tray"));
        ClusterView v = view();
        assertTrue(v.problems().isEmpty(), v.problems().toString());
        assertEquals(1, v.domains().size());
        NvlinkDomain d = v.domains().get(0);
        assertEquals("00000000-0000-4000-8000-000000000001", d.id(), "a domain is named by its cluster UUID");
        NvlinkClique c = d.mainClique();
        assertEquals(RACK_LABEL, c.id(), "GFD: strings.Join([]string{clusterUUID, cliqueID}, \".\"), clique in decimal");
        assertEquals("nvidia.com/gpu.clique=" + RACK_LABEL, c.gfdLabel());
        assertEquals(c.gfdLabel(), d.gfdLabel(), "the domain as GFD names it");
        assertEquals("00000000-0000-4000-8000-000000000001", d.clusterUuid());
        assertEquals(0x7ffe, c.cliqueId());
        String text = ClusterText.render(v);
        assertTrue(text.startsWith("18 nodes, 72 GPUs: all nodes match"), text);
        assertTrue(text.contains("00000000-0000-4000-8000-000000000001          MNNVL domain, 1 clique  18     72"), text);
        assertTrue(text.contains("  " + RACK_LABEL + "  clique 32766            18     72"), text);
        assertTrue(text.contains("nvidia.com/gpu.clique=<ClusterUUID>.<CliqueId>"), text);
    }

    @Test
    void aTrayWhoseGpusDisagreeIsItsOwnDomainAndFlaggedAsGfdWould() throws Exception {
        rack(ClusterFixtures.sample("gb200-nvl72-tray"));
        MachineSnapshot odd = SyntheticCluster.mapFabric(ClusterFixtures.node(ClusterFixtures.sample("gb200-nvl72-tray"),
                "gb200-rack1-tray07", 7), (i, f) -> i == 3 ? with(f, f.status(), Reading.of(5L), f.healthSummary()) : f);
        ClusterFixtures.write(dir, odd, "gb200-rack1-tray07.json");
        ClusterAnalysis.DomainLabel label = ClusterAnalysis.domainLabel(NodeSummary.of(odd));
        assertNull(label.label(), "GFD leaves the label off");
        assertTrue(label.disagreement().contains("clique ids 5 on GPU3, 32766 on GPU0,GPU1,GPU2"), label.disagreement());
        ClusterView v = view();
        assertEquals(2, v.domains().size());
        NvlinkDomain own = v.domains().stream().filter(x -> x.id().equals("node:gb200-rack1-tray07")).findFirst().orElseThrow();
        assertNull(own.gfdLabel());
        assertTrue(own.note().contains("GPU Feature Discovery sets no nvidia.com/gpu.clique label"), own.note());
        NodeProblem p = v.problems().stream().filter(x -> x.code().equals("nvlink-domain-disagrees")).findFirst().orElseThrow();
        assertEquals(java.util.List.of("gb200-rack1-tray07"), p.nodes());
        String text = ClusterText.render(v);
        assertTrue(text.contains("(!) gb200-rack1-tray07: its GPUs disagree on their NVLink domain"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
    }

    @Test
    void aGpuWhoseRegistrationFailedIsNotFabricAttachedAsGfdReadsIt() throws Exception {
        MachineSnapshot tray = SyntheticCluster.mapFabric(ClusterFixtures.node(ClusterFixtures.sample("gb200-nvl72-tray"), "t", 1),
                (i, f) -> i == 0 ? with(f, Reading.of("NVML_ERROR_UNKNOWN"), Reading.of(9L), f.healthSummary()) : f);
        ClusterAnalysis.DomainLabel label = ClusterAnalysis.domainLabel(NodeSummary.of(tray));
        assertEquals(RACK_LABEL, label.label(), "GPU0 (status not success) is skipped as go-nvlib IsFabricAttached skips it");
        assertNull(label.disagreement());
    }
}
