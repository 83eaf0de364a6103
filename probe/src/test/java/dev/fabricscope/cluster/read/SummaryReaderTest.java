package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterFixtures;
import dev.fabricscope.cluster.NodeSummary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.JsonTrees;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cluster view's slim read gives what the full read gives, for every sample and for mutated files. */
class SummaryReaderTest {

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String asReport(String snapshotJson) {
        return "{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"advice\":{\"x\":[1,2]},\"snapshot\":" + snapshotJson + "}";
    }

    @Test
    void everySampleSummarisesAsItsFullRead() throws Exception {
        for (var sample : Samples.list()) {
            MachineSnapshot s = sample.snapshot().get();
            String json = Json.write(s);
            for (String text : List.of(json, asReport(json))) {
                NodeSummary full = NodeSummary.of(SnapshotIO.parse(text, sample.name()));
                assertEquals(full, SummaryReader.parse(bytes(text), sample.name()), sample.name());
            }
        }
    }

    @Test
    void skippedPartsAreStillCheckedForSyntaxAndDuplicateKeys() throws Exception {
        String json = Json.write(ClusterFixtures.sample("dgx-h100"));
        int pairs = json.indexOf("\"pairs\"");
        int brace = json.indexOf('{', pairs);
        String dup = json.substring(0, brace + 1) + "\"x\": 1, \"x\": 2, " + json.substring(brace + 1);
        SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> SummaryReader.parse(bytes(dup), "n.json"));
        assertTrue(e.getMessage().contains("Duplicate field 'x'"), e.getMessage());
        String truncated = json.substring(0, json.length() - 40);
        assertThrows(SnapshotIO.ReadException.class, () -> SummaryReader.parse(bytes(truncated), "n.json"));
        ObjectNode t = (ObjectNode) Json.mapper().readTree(json);
        t.put("nvSwitches", "many");
        e = assertThrows(SnapshotIO.ReadException.class, () -> SummaryReader.parse(bytes(Json.write(t)), "n.json"));
        assertTrue(e.getMessage().startsWith("n.json: at $.nvSwitches"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void anUnreadableLinkStateIsAReadingNotAnError() throws Exception {
        ObjectNode t = (ObjectNode) Json.mapper().readTree(Json.write(ClusterFixtures.sample("dgx-h100")));
        ArrayNode gpus = (ArrayNode) t.get("gpus");
        for (JsonNode link : gpus.get(0).get("nvLinks")) {
            ((ObjectNode) link.get("active")).put("value", "\u001b[2Jyes");
        }
        NodeSummary s = SummaryReader.parse(bytes(Json.write(t)), "n.json");
        assertFalse(s.gpus().get(0).linkStateReadable());
        assertEquals(NodeSummary.of(SnapshotIO.parse(Json.write(t), "n.json")), s);
    }

    /** Seeded mutants: whenever the full read accepts a file, the slim read accepts it and agrees; it never throws else. */
    @Test
    void mutantsTheFullReadAcceptsSummariseAlike() throws Exception {
        String base = Json.write(ClusterFixtures.sample("dgx-h100"));
        Random rnd = new Random(17_2026L);
        int accepted = 0;
        int refused = 0;
        for (int i = 0; i < 600; i++) {
            byte[] input = mutate(rnd, base, i);
            MachineSnapshot full;
            try {
                full = SnapshotIO.parse(input, "m.json");
            } catch (SnapshotIO.ReadException e) {
                full = null;
            }
            try {
                NodeSummary slim = SummaryReader.parse(input, "m.json");
                if (full != null) {
                    assertEquals(NodeSummary.of(full), slim, "case " + i);
                    accepted++;
                }
            } catch (SnapshotIO.ReadException e) {
                if (full != null) {
                    fail("case " + i + ": the full read accepts it, the slim read says " + e.getMessage());
                }
                refused++;
                assertFalse(e.getMessage().contains("\n"));
            } catch (RuntimeException e) {
                fail("case " + i + ": " + e);
            }
        }
        assertTrue(accepted > 120 && refused > 60, accepted + " accepted, " + refused + " refused");
    }

    private static byte[] mutate(Random rnd, String text, int i) throws Exception {
        byte[] b = bytes(text);
        switch (i % 5) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            }
            case 1 -> {
                b = b.clone();
                b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                return b;
            }
            default -> {
                JsonNode tree = Json.mapper().readTree(text);
                List<JsonNode[]> slots = new ArrayList<>();
                JsonTrees.collect(tree, slots);
                var f = Json.mapper().getNodeFactory();
                for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
                    JsonNode[] slot = slots.get(rnd.nextInt(slots.size()));
                    JsonNode v = switch (rnd.nextInt(8)) {
                        case 0 -> f.numberNode(-5);
                        case 1 -> f.textNode("2.x\u001b]0;t\u0007");
                        case 2 -> f.nullNode();
                        case 3 -> f.objectNode();
                        case 4 -> f.arrayNode();
                        case 5 -> f.booleanNode(true);
                        case 6 -> f.numberNode(new java.math.BigDecimal("1e400"));
                        default -> f.textNode("\u202e");
                    };
                    if (slot[0] instanceof ObjectNode o) {
                        if (rnd.nextInt(6) == 0) {
                            o.remove(slot[1].textValue());
                        } else {
                            o.set(slot[1].textValue(), v);
                        }
                    } else {
                        ((ArrayNode) slot[0]).set(slot[1].intValue(), v);
                    }
                }
                return bytes(Json.write(tree));
            }
        }
    }

}
