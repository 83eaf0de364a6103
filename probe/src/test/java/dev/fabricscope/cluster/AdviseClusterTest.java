package dev.fabricscope.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.cli.ExitCodes;
import dev.fabricscope.cli.Main;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code advise --cluster DIR} over synthetic multi-node report sets built from the samples. */
class AdviseClusterTest {

    @TempDir
    Path dir;

    private record Run(int code, String out) {
    }

    private static Run advise(String... args) {
        StringWriter out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        String[] all = new String[args.length + 1];
        all[0] = "advise";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Run(cl.execute(all), out.toString());
    }

    private static JsonNode verdict(String json, String framework, String knob) throws Exception {
        for (JsonNode v : Json.mapper().readTree(json).get("verdicts")) {
            if (v.get("framework").asText().equals(framework) && v.get("knob").asText().equals(knob)) {
                return v;
            }
        }
        throw new AssertionError("no verdict " + framework + " " + knob);
    }

    @Test
    void mnnvlAcrossEighteenTraysOfOneDomainHasNoKernelForSeventyTwoRanks() throws Exception {
        // flashinfer@fb28d724 include/flashinfer/comm/trtllm_mnnvl_allreduce.cuh:1251: MNNVL kernels for 2..64 ranks only
        ClusterFixtures.gb200Rack(dir);
        Run r = advise("--cluster", dir.toString(), "--framework", "sglang", "--flag", "flashinfer-allreduce-fusion-backend=mnnvl", "--json");
        assertEquals(ExitCodes.OK, r.code(), r.out());
        JsonNode v = verdict(r.out(), "sglang", "--flashinfer-allreduce-fusion-backend");
        assertEquals("error", v.get("outcome").asText());
        assertEquals("MNNVL AllReduce: unsupported world_size 72. Supported sizes: {2, 4, 8, 16, 32, 64}", v.get("message").asText());
        assertEquals(18, Json.mapper().readTree(r.out()).get("deployment").get("nodes").asInt());
        assertTrue(Json.mapper().readTree(r.out()).get("cluster").asText().contains("inside one MNNVL clique"));
    }

    /**
     * One NVLink domain of 18 trays, tray 12 in a clique of its own: a deployment over all 18 does not fit in one clique
     * (GPUs of different cliques cannot reach each other), one over 17 does: the fit is decided per clique, not per domain.
     */
    @Test
    void aDeploymentFitsOneCliqueNotMerelyOneDomain() throws Exception {
        dev.fabricscope.samples.SyntheticCluster.writeNvl72Racks(dir, 1, true);
        ClusterView v = new dev.fabricscope.usecase.InspectCluster().open(dev.fabricscope.usecase.InspectCluster.Request.of(dir)).view();
        assertEquals(1, v.domains().size());
        ClusterFacts all = ClusterFacts.of(v, null);
        assertEquals("false", all.assumptions().get("mnnvl-fabric"), all.summary());
        assertTrue(all.summary().contains("18 readable node(s) in 1 NVLink domain(s) (2 MNNVL cliques)"), all.summary());
        assertTrue(all.summary().contains("across the 2 cliques of NVLink domain 00000000-0000-4000-8000-000000000001 (no one"
                + " MNNVL clique holds them all"), all.summary());
        ClusterFacts seventeen = ClusterFacts.of(v, 17);
        assertEquals("true", seventeen.assumptions().get("mnnvl-fabric"), seventeen.summary());
        assertTrue(seventeen.summary().contains("inside one MNNVL clique (00000000-0000-4000-8000-000000000001.32766)"),
                seventeen.summary());
    }

    @Test
    void trtllmOverTwoH100NodesFailsAsSglangWould() throws Exception {
        MachineSnapshot h100 = ClusterFixtures.sample("dgx-h100");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-a", 1), "dgx-a.json");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-b", 2), "dgx-b.json");
        Run r = advise("--cluster", dir.toString(), "--framework", "sglang", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals(ExitCodes.OK, r.code(), r.out());
        JsonNode v = verdict(r.out(), "sglang", "--flashinfer-allreduce-fusion-backend");
        assertEquals("error", v.get("outcome").asText());
        assertEquals("FlashInfer allreduce fusion trtllm backend supports single-node only.", v.get("message").asText());
        Run auto = advise("--cluster", dir.toString(), "--framework", "sglang", "--flag", "flashinfer-allreduce-fusion-backend=auto", "--json");
        assertTrue(verdict(auto.out(), "sglang", "--flashinfer-allreduce-fusion-backend").get("message").asText()
                .contains("does not support multi-node on non-Blackwell systems"));
    }

    @Test
    void oneNodeOfTheClusterIsASingleNodeDeployment() throws Exception {
        MachineSnapshot h100 = ClusterFixtures.sample("dgx-h100");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-a", 1), "dgx-a.json");
        ClusterFixtures.write(dir, ClusterFixtures.node(h100, "dgx-b", 2), "dgx-b.json");
        Run r = advise("--cluster", dir.toString(), "--nodes", "1", "--framework", "sglang", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals("ok", verdict(r.out(), "sglang", "--flashinfer-allreduce-fusion-backend").get("outcome").asText(), r.out());
    }

    @Test
    void badClusterArgumentsAreClearErrors() throws Exception {
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "dgx-a", 1), "dgx-a.json");
        assertEquals(ExitCodes.USAGE, advise("--cluster", dir.toString(), "--nodes", "5").code());
        assertEquals(ExitCodes.USAGE, advise("--cluster", dir.toString(), "--sample", "dgx-h100").code());
        assertEquals(ExitCodes.BAD_INPUT, advise("--cluster", dir.resolve("missing").toString()).code());
    }
}
