package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU in MIG mode (audit 2026-12-02b S81: MIG could not be expressed): NVML's links, P2P status and CUDA's multicast
 * attribute are the whole GPU's, but a framework's rank runs in a MIG instance, which has no CUDA IPC, no peer access
 * and so no NVLink (RAPIDS' MIG guide; NVIDIA's vGPU P2P notes). Nothing that needs peer access may then read
 * {@code ok}: the advisor takes those facts as unknown (false) and says MIG is why.
 */
class MigAdviceTest {

    @TempDir
    Path tmp;

    @Test
    void aDgxH100WithMigOnGpu0HasNoOkThatNeedsPeerAccess() throws Exception {
        ObjectNode snap = (ObjectNode) Json.mapper().readTree(RecordJson.write(Samples.find("dgx-h100").orElseThrow().snapshot().get()));
        ((ObjectNode) snap.get("gpus").get(0)).set("migMode", Json.mapper().readTree("{\"value\":\"Enabled\"}"));
        Path file = tmp.resolve("dgx-h100-mig.json");
        Files.writeString(file, snap.toString());

        CliTest.Run plain = CliTest.run("advise", "--sample", "dgx-h100", "--tp", "8", "--json");
        CliTest.Run mig = CliTest.run("advise", "--snapshot", file.toString(), "--tp", "8", "--json");
        assertEquals(0, mig.code(), mig.err());
        JsonNode before = Json.mapper().readTree(plain.out());
        JsonNode after = Json.mapper().readTree(mig.out());
        List<String> wrongOk = new ArrayList<>();
        int turned = 0;
        for (JsonNode v : before.get("verdicts")) {
            if (!"ok".equals(v.get("outcome").asText())) {
                continue;
            }
            JsonNode same = find(after, v);
            boolean needsPeers = v.path("why").asText().matches("(?s).*(NVLink|P2P|peer|multicast|NVLS|custom all-reduce|one-shot|mnnvl|trtllm|symm).*");
            if (same != null && !"ok".equals(same.get("outcome").asText())) {
                turned++;
                assertTrue(same.path("why").asText().contains("MIG"), "the verdict says MIG is why: " + same);
            } else if (same != null && needsPeers && v.path("why").asText().matches("(?s).*(every GPU pair|NVLink-connected|peer-accessible|multicast).*")) {
                wrongOk.add(v.get("framework").asText() + " " + v.get("knob").asText() + "=" + v.get("value").asText());
            }
        }
        assertTrue(turned >= 5, "verdicts that read peer access turn from ok: " + turned);
        assertTrue(wrongOk.isEmpty(), "still ok although they read the GPUs' peer access: " + wrongOk);
        assertTrue(after.get("machine").toString().contains("MIG mode is enabled on GPU 0"), after.get("machine").toString());
    }

    private static JsonNode find(JsonNode result, JsonNode v) {
        for (JsonNode w : result.get("verdicts")) {
            if (w.get("framework").equals(v.get("framework")) && w.get("knob").equals(v.get("knob")) && w.get("value").equals(v.get("value"))) {
                return w;
            }
        }
        return null;
    }
}
