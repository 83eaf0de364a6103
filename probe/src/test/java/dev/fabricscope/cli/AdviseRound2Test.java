package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.AdviceText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 13 (deployment checked first, answer-first output, every upstream knob) and issue 17 item 2 (odd NCCL versions). */
class AdviseRound2Test {

    static final Path H200 = Path.of("src/test/resources/captured/h200-vm-2026-11-29/probe.json");

    /** The captured H200 snapshot with its NCCL version replaced by {@code version}. */
    static Path withNcclVersion(Path dir, String name, String version) throws Exception {
        ObjectNode root = (ObjectNode) Json.mapper().readTree(Files.readString(H200));
        ((ObjectNode) root.get("driver").get("nccl").get("version")).put("value", version);
        Path p = dir.resolve(name);
        Files.writeString(p, Json.mapper().writeValueAsString(root));
        return p;
    }

    static void noRawControls(String text) {
        for (char c : text.toCharArray()) {
            assertFalse(c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 && c < 0xa0, "raw control character U+" + Integer.toHexString(c));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2.x", "", "1e5", " 9.0", "99999999999.1", "2.\u001b]0;owned\u0007.1", "2.28\u202e"})
    void oddNcclVersionsNeverCrashAndAreShownEscaped(String version, @TempDir Path dir) throws Exception {
        Path snap = withNcclVersion(dir, "node.json", version);
        Path cluster = Files.createDirectory(dir.resolve("cluster"));
        withNcclVersion(cluster, "node-1.json", version);
        List<List<String>> commands = List.of(
                List.of("advise", "--snapshot", snap.toString(), "--framework", "nccl", "--framework", "sglang", "--all"),
                List.of("advise", "--snapshot", snap.toString(), "--json"),
                List.of("advise", "--cluster", cluster.toString(), "--framework", "nccl", "--all"),
                List.of("report", "--snapshot", snap.toString(), "--format", "md"));
        for (List<String> args : commands) {
            CliTest.Run r = AdviseTestSupport.run(args.toArray(String[]::new));
            assertEquals(ExitCodes.OK, r.code(), args + "\n" + r.err());
            assertFalse((r.out() + r.err()).contains("NumberFormatException") || r.err().contains("internal error"), args + r.err());
            noRawControls(r.out() + r.err());
            if (!args.contains("report")) {
                assertTrue(r.out().contains("NCCL version unreadable"), args + "\n" + r.out());
            }
        }
        // the NVLS verdict on a machine that would otherwise have NVLS depends on the version: unknown, never ok
        Path dgx = dir.resolve("dgx.json");
        CliTest.Run sample = AdviseTestSupport.run("show", "--sample", "dgx-h100", "--json");
        ObjectNode root = (ObjectNode) Json.mapper().readTree(sample.out());
        ((ObjectNode) root.get("driver").get("nccl")).set("version", Json.mapper().createObjectNode().put("value", version));
        Files.writeString(dgx, Json.mapper().writeValueAsString(root));
        CliTest.Run r = AdviseTestSupport.run("advise", "--snapshot", dgx.toString(), "--framework", "nccl", "--json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode nvls = verdict(Json.mapper().readTree(r.out()), "nccl", "NCCL_NVLS_ENABLE");
        assertEquals("unknown", nvls.get("outcome").asText(), nvls.toString());
    }

    static JsonNode verdict(JsonNode root, String fw, String knob) {
        for (JsonNode v : root.get("verdicts")) {
            if (v.get("framework").asText().equals(fw) && v.get("knob").asText().equals(knob)) {
                return v;
            }
        }
        throw new AssertionError("no verdict " + fw + " " + knob + " in " + root);
    }

    // ---- the deployment is checked against the machine first

    @Test
    void impossibleDeploymentsAreRefusedWithWhatToDo() {
        CliTest.Run vm = AdviseTestSupport.run("advise", "--sample", "h200-vm", "--tp", "8");
        assertEquals(ExitCodes.USAGE, vm.code(), vm.out());
        assertTrue(vm.err().contains("impossible deployment: TP 8 needs 8 GPUs, but 1 node × 1 GPU have 1"), vm.err());
        assertTrue(vm.err().contains("--assume gpus-per-node=8"), vm.err());
        CliTest.Run nodes = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "32", "--nodes", "2");
        assertEquals(ExitCodes.USAGE, nodes.code());
        assertTrue(nodes.err().contains("TP 32 needs 32 GPUs, but 2 nodes × 8 GPUs have 16"), nodes.err());
        CliTest.Run pcp = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "8", "--flag", "-pcp=2", "--nodes", "1");
        assertEquals(ExitCodes.USAGE, pcp.code());
        assertTrue(pcp.err().contains("TP 8 × PCP 2 = 16 ranks need 16 GPUs"), pcp.err());
    }

    @Test
    void tpBeyondOneNodeWithoutNodesIsDerivedAndSaidFirst() throws Exception {
        CliTest.Run r = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "1024");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        String[] lines = r.out().split("\n");
        assertTrue(lines[0].startsWith("Verdict: "), lines[0]);
        int afterVerdict = 1;
        while (lines[afterVerdict].startsWith("  ")) {
            afterVerdict++; // the verdict line's own continuation
        }
        assertTrue(lines[afterVerdict].startsWith("Deployment check: TP 1024 is more than one node's 8 GPUs: assumed 128 such nodes"), r.out());
        JsonNode j = Json.mapper().readTree(AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "16", "--json").out());
        assertEquals(2, j.get("deployment").get("nodes").asInt());
        assertTrue(j.get("checks").get(0).asText().contains("assumed 2 such nodes"), j.get("checks").toString());
    }

    @Test
    void dcpThatDoesNotDivideTpIsTheFirstCheckAndAnErrorInBothFrameworks() throws Exception {
        JsonNode j = Json.mapper().readTree(AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "8", "--dcp", "3", "--json").out());
        assertTrue(j.get("checks").get(0).asText().startsWith("DCP 3 does not divide TP 8"), j.toString());
        assertEquals("error", verdict(j, "sglang", "--dcp-size").get("outcome").asText());
        assertEquals("RuntimeError", verdict(j, "sglang", "--dcp-size").get("errorClass").asText());
        assertEquals("error", verdict(j, "vllm", "--decode-context-parallel-size").get("outcome").asText());
    }

    // ---- every upstream knob

    @Test
    void vllmShortFormsAndCompilationConfig() throws Exception {
        JsonNode j = Json.mapper().readTree(AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--framework", "vllm", "--json", "--flag", "-tp=4",
                "--flag", "-dcp=2", "--flag", "-cc={\"pass_config\": {\"fuse_allreduce_rms\": false}}").out());
        assertEquals(4, j.get("deployment").get("tp").asInt());
        assertEquals(2, j.get("deployment").get("dcp").asInt());
        JsonNode fuse = verdict(j, "vllm", "fuse_allreduce_rms");
        assertEquals("false", fuse.get("value").asText());
        assertTrue(fuse.get("userSet").asBoolean());
        CliTest.Run bad = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--flag", "compilation-config={oops");
        assertEquals(ExitCodes.USAGE, bad.code());
        assertTrue(bad.err().contains("--flag compilation-config expects JSON"), bad.err());
    }

    @Test
    void rocmKnobsAreNotApplicableAndKnownKnobsAreUnknownNeverOk() throws Exception {
        JsonNode j = Json.mapper().readTree(AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--json", "--flag", "enable-aiter-allreduce-fusion=true",
                "--env", "VLLM_ROCM_USE_AITER=1", "--flag", "enable-mscclpp=true", "--env", "NCCL_P2P_DISABLE=1", "--flag", "data-parallel-size=1").out());
        assertEquals("not applicable", verdict(j, "sglang", "--enable-aiter-allreduce-fusion").get("outcome").asText());
        assertEquals("not applicable", verdict(j, "vllm", "VLLM_ROCM_USE_AITER").get("outcome").asText());
        assertEquals("unknown", verdict(j, "sglang", "--enable-mscclpp").get("outcome").asText());
        // modelled since issue 23 (NVIDIA/nccl@5067397c src/graph/paths.cc:251): P2P off, GPUs within a node use SHM
        assertEquals("fallback", verdict(j, "nccl", "NCCL_P2P_DISABLE").get("outcome").asText());
        assertEquals("unknown", verdict(j, "vllm", "--data-parallel-size").get("outcome").asText());
        CliTest.Run only = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--flag", "enable-flashinfer-allreduce-only=true");
        assertEquals(ExitCodes.OK, only.code(), only.err());
        assertTrue(only.out().matches("(?s)Verdict: 1 fallback, 1 error(, \\d+ unknown)?: drop --enable-flashinfer-allreduce-only=true.*"), only.out());
    }

    // ---- answer-first output

    @Test
    void textLeadsWithTheVerdictHidesOkRowsAndFits120Columns() {
        for (String sample : List.of("dgx-h100", "h200-vm", "gb200-nvl72-tray", "rtx-pro-6000-2x", "h100-nvl-pairs")) {
            for (List<String> extra : List.of(List.<String>of(), List.of("--all"), List.of("--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--nodes", "2"))) {
                List<String> args = new java.util.ArrayList<>(List.of("advise", "--sample", sample));
                args.addAll(extra);
                CliTest.Run r = AdviseTestSupport.run(args.toArray(String[]::new));
                if (r.code() == ExitCodes.USAGE) {
                    continue; // a sample this deployment does not fit
                }
                assertEquals(ExitCodes.OK, r.code(), args + r.err());
                assertTrue(r.out().startsWith("Verdict: "), r.out());
                for (String line : r.out().split("\n")) {
                    assertTrue(line.length() <= AdviceText.MAX_WIDTH, args + ": " + line.length() + " columns: " + line);
                }
                boolean okRow = r.out().lines().anyMatch(l -> l.startsWith("  ok "));
                assertEquals(extra.contains("--all"), okRow, args + "\n" + r.out());
                assertTrue(r.out().indexOf("Recommended:") < Math.max(r.out().indexOf("    why:"), r.out().indexOf("Recommended:") + 1), r.out());
            }
        }
    }
}
