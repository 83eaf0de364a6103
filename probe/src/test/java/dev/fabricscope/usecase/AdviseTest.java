package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.cluster.ClusterFacts;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Advise} and the deployment request on the bundled samples and synthetic cluster folders built from them. */
class AdviseTest {

    private final Advise advise = new Advise();

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    static DeploymentRequest tp(int tp, String... frameworks) {
        return new DeploymentRequest(List.of(frameworks), tp, null, null, null, null, Map.of(), Map.of(), Map.of(), Map.of());
    }

    @Test
    void advisesTheDeploymentOnTheMachine() throws Exception {
        Advise.Result r = advise.advise(Advise.Request.of(sample("dgx-h100"), tp(8, "nccl")));
        assertNull(r.advice().blocked());
        assertEquals(8, r.advice().deployment().tp());
        assertFalse(r.advice().verdicts().isEmpty());
        assertTrue(r.advice().verdicts().stream().allMatch(v -> v.framework().equals("nccl")), "only the framework asked for");
        assertNull(r.cluster());
        assertFalse(r.jsonTree().containsKey("cluster"));
    }

    @Test
    void aWhatIfChangesTheVerdicts() throws Exception {
        DeploymentRequest plain = tp(8, "sglang");
        DeploymentRequest noMulticast = plain.withAssume(Map.of("multicast", "false"));
        var before = advise.advise(Advise.Request.of(sample("dgx-h100"), plain)).advice().verdicts();
        var after = advise.advise(Advise.Request.of(sample("dgx-h100"), noMulticast)).advice().verdicts();
        assertTrue(!before.equals(after), "assuming no multicast must change some verdict");
    }

    @Test
    void aDeploymentTheAdvisorRejectsIsAnInvalidRequest() {
        DeploymentRequest bad = new DeploymentRequest(List.of(), 8, null, null, null, null, Map.of("compilation-config", "{oops"),
                Map.of(), Map.of(), Map.of());
        UseCaseException e = assertThrows(UseCaseException.class, () -> advise.advise(Advise.Request.of(sample("dgx-h100"), bad)));
        assertEquals(UseCaseException.Reason.INVALID_REQUEST, e.reason());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void aMachineWithoutGpusIsBlockedNotAnError() throws Exception {
        MachineSnapshot empty = sample("h200-vm").withGpus(List.of());
        Advise.Result r = advise.advise(Advise.Request.of(empty, DeploymentRequest.NONE));
        assertNotNull(r.advice().blocked());
        assertTrue(r.blockedForLackOfDriver());
    }

    @Test
    void overAClusterTheRepresentativeNodeIsAdvisedWithTheClusterFacts(@TempDir Path dir) throws Exception {
        MachineSnapshot tray = SyntheticCluster.sample("gb200-nvl72-tray");
        for (int i = 1; i <= 4; i++) {
            SyntheticCluster.write(dir, SyntheticCluster.node(tray, "tray" + i, i), "tray" + i + ".json");
        }
        InspectCluster clusters = new InspectCluster();
        ClusterFacts facts = clusters.factsFor(clusters.open(InspectCluster.Request.of(dir)).view(), null);
        Advise.Result r = advise.advise(Advise.Request.overCluster(facts, tp(16, "nccl")));
        assertEquals(4, r.deployment().nodes());
        assertEquals("4", r.deployment().assume().get("nodes"));
        assertEquals(facts.summary(), r.cluster());
        assertEquals(facts.summary(), r.jsonTree().get("cluster"));
        assertTrue(r.machine().host().hostname().orElse("").startsWith("tray"), "the representative node's own snapshot");
        assertTrue(r.advice().verdicts().stream().noneMatch(v -> v.outcome() == null));
        assertTrue(r.advice().count(Outcome.OK) + r.advice().count(Outcome.FALLBACK) + r.advice().count(Outcome.ERROR) > 0);
        // over 4 nodes the cost model prices nothing (no network term): the cost line says so and gives no number
        String cost = r.predicted().lines().get("nccl");
        assertTrue(cost.startsWith("predicted: no prediction: ") || cost.contains(" no prediction: "), cost);
        assertFalse(cost.matches(".*\\d us.*"), cost);
    }

    @Test
    void theRequestsOwnAssumptionsAndNodesWinOverTheClusters() {
        ClusterFacts facts = new ClusterFacts(null, 18, Map.of("nodes", "18", "multicast", "true"), "rack");
        DeploymentRequest own = new DeploymentRequest(List.of(), null, 2, null, null, null, Map.of(), Map.of(),
                Map.of("multicast", "false"), Map.of());
        DeploymentRequest merged = own.overCluster(facts);
        assertEquals(2, merged.nodes());
        assertEquals(Map.of("nodes", "18", "multicast", "false"), merged.assume());
        assertEquals(18, DeploymentRequest.NONE.overCluster(facts).nodes());
        assertEquals(facts.assumptions(), DeploymentRequest.NONE.overCluster(facts).assume());
    }

    @Test
    void theRequestSpellsItselfAsCommandLineOptions() {
        DeploymentRequest d = new DeploymentRequest(List.of("vllm"), 4, 1, 2, "DeepseekV3ForCausalLM", 512,
                Map.of("fuse_allreduce_rms", "true"), Map.of("VLLM_ALLREDUCE_USE_SYMM_MEM", "0"), Map.of("sm", "10.0"),
                Map.of("vllm", "older"));
        assertEquals(List.of("--framework", "vllm", "--tp", "4", "--nodes", "1", "--dcp", "2", "--model", "DeepseekV3ForCausalLM",
                "--tokens", "512", "--flag", "fuse_allreduce_rms=true", "--env", "VLLM_ALLREDUCE_USE_SYMM_MEM=0", "--assume", "sm=10.0",
                "--framework-version", "vllm=older"), d.arguments());
        assertEquals(List.of(), DeploymentRequest.NONE.arguments());
        assertFalse(DeploymentRequest.NONE.given());
        assertTrue(d.given());
    }
}
