package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.DiffText;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 10,000 malformed reports generated from a valid one (seeded, so failures reproduce): truncations, byte
 * flips and invalid UTF-8, every node's type swapped, fields dropped, nesting bombs, huge numbers and strings, wrong
 * and newer versions. Each must either read (and then render in every format) or fail with one short line naming
 * the file; never another exception, a hang or running out of memory.
 */
class MalformedReportCorpusTest {

    private static final int CASES = 10_000;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** One valid report to mutate: its bytes, its tree, and every place in the tree. */
    private record Base(Report report, byte[] bytes, ObjectNode tree, List<JsonNode[]> slots, List<String> paths, String[] docs) {
        static Base of(String sample) throws Exception {
            Report r = ReportFixtures.report(sample);
            String text = ReportIO.toJson(r);
            ObjectNode tree = (ObjectNode) Json.mapper().readTree(text);
            List<JsonNode[]> slots = new ArrayList<>(); // {parent, key or index}
            List<String> paths = new ArrayList<>();
            collect(tree, "$", slots, paths);
            String[] docs = {"", " ", "null", "[]", "\"report\"", "42", "{}", "{\"reportVersion\":1}", "\uFEFF" + text, text + " {}",
                text + "garbage", "{\"snapshot\":{\"schemaVersion\":1}}", "{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":[]}",
                "{\"a\":" + "1".repeat(5_000) + "}", "{\"schemaVersion\":1,\"gpus\":[" + "{},".repeat(300) + "{}]}"};
            return new Base(r, text.getBytes(StandardCharsets.UTF_8), tree, slots, paths, docs);
        }
    }

    @Test
    void everyMalformedReportReadsOrFailsInOneLine() throws Exception {
        // a one-GPU VM with hidden NVLinks (every kind of missing reading) and a two-GPU PCIe machine (pairs)
        List<Base> bases = List.of(Base.of("h200-vm"), Base.of("rtx-pro-6000-2x"));
        Random rnd = new Random(20261129L);
        int[] outcome = new int[3]; // read, rejected, rendered
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < CASES; i++) {
                String where = "case" + i;
                String[] what = new String[1];
                Base b = bases.get((i / 10) % 2);
                byte[] input = mutate(i, rnd, b, what);
                try {
                    Report r = ReportIO.parse(input, where);
                    outcome[0]++;
                    if (i % 50 == 0) {
                        MarkdownReport.render(r);
                        HtmlReport.render(r);
                        ReportIO.toJson(r);
                        DiffText.render(ReportDiffer.compare(b.report(), "base", r, where));
                        outcome[2]++;
                    }
                } catch (SnapshotIO.ReadException e) {
                    outcome[1]++;
                    String m = e.getMessage();
                    if (!m.startsWith(where + ": ") || m.contains("\n") || m.contains("\r") || m.length() > 700) {
                        fail(what[0] + ": bad error line: " + m);
                    }
                } catch (Throwable t) {
                    fail(what[0] + ": " + t, t);
                }
            }
        });
        assertTrue(outcome[0] > 500 && outcome[1] > 5_000, "read " + outcome[0] + ", rejected " + outcome[1]);
    }

    private static void collect(JsonNode n, String path, List<JsonNode[]> slots, List<String> paths) {
        if (n instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                slots.add(new JsonNode[] {o, F.textNode(e.getKey())});
                paths.add(path + "." + e.getKey());
                collect(e.getValue(), path + "." + e.getKey(), slots, paths);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                slots.add(new JsonNode[] {a, F.numberNode(i)});
                paths.add(path + "[" + i + "]");
                collect(a.get(i), path + "[" + i + "]", slots, paths);
            }
        }
    }

    private static byte[] mutate(int i, Random rnd, Base b, String[] what) {
        byte[] bytes = b.bytes();
        ObjectNode tree = b.tree();
        List<JsonNode[]> slots = b.slots();
        List<String> paths = b.paths();
        int kind = i % 10;
        switch (kind) {
            case 0 -> { // truncated
                int at = rnd.nextInt(bytes.length);
                what[0] = "truncated at " + at;
                return java.util.Arrays.copyOf(bytes, at);
            }
            case 1 -> { // random bytes replaced, often invalid UTF-8
                byte[] flipped = bytes.clone();
                int n = 1 + rnd.nextInt(4);
                StringBuilder sb = new StringBuilder("bytes changed at");
                for (int k = 0; k < n; k++) {
                    int at = rnd.nextInt(flipped.length);
                    flipped[at] = (byte) rnd.nextInt(256);
                    sb.append(' ').append(at);
                }
                what[0] = sb.toString();
                return flipped;
            }
            case 2, 3, 4 -> { // one node's value replaced by another type
                int s = rnd.nextInt(slots.size());
                JsonNode replacement = hostileValue(rnd);
                what[0] = "value at " + paths.get(s) + " replaced by " + cut(replacement.toString());
                return withSlot(tree, slots.get(s), replacement);
            }
            case 5 -> { // a field or element removed
                int s = rnd.nextInt(slots.size());
                what[0] = "removed " + paths.get(s);
                return withSlot(tree, slots.get(s), null);
            }
            case 6 -> { // versions and markers
                ObjectNode t = tree.deepCopy();
                JsonNode v = List.<JsonNode>of(F.numberNode(2), F.numberNode(0), F.numberNode(-1), F.textNode("1"), F.numberNode(1.5),
                        F.numberNode(99_999_999_999L), F.nullNode(), F.booleanNode(true), F.arrayNode()).get(rnd.nextInt(9));
                String field = List.of("reportVersion", "format", "schemaVersion").get(rnd.nextInt(3));
                if (field.equals("schemaVersion")) {
                    ((ObjectNode) t.get("snapshot")).set(field, v);
                } else {
                    t.set(field, v);
                }
                what[0] = field + " = " + v;
                return write(t);
            }
            case 7 -> { // nesting bomb inside a random container
                int depth = 50 + rnd.nextInt(2_000);
                String bomb = "[".repeat(depth) + "]".repeat(depth);
                String s = new String(bytes, StandardCharsets.UTF_8);
                int at = s.indexOf(':', rnd.nextInt(s.length()));
                what[0] = "nesting " + depth + " at " + at;
                if (at < 0) {
                    return bomb.getBytes(StandardCharsets.UTF_8);
                }
                int end = at + 1;
                while (end < s.length() && s.charAt(end) != ',' && s.charAt(end) != '}') {
                    end++;
                }
                return (s.substring(0, at + 1) + bomb + s.substring(end)).getBytes(StandardCharsets.UTF_8);
            }
            case 8 -> { // whole-document oddities
                String[] docs = b.docs();
                int d = rnd.nextInt(docs.length);
                what[0] = "document " + d;
                return docs[d].getBytes(StandardCharsets.UTF_8);
            }
            default -> { // a duplicated or foreign field, or a huge string
                ObjectNode t = tree.deepCopy();
                int s = rnd.nextInt(slots.size());
                JsonNode[] slot = slots.get(s);
                what[0] = "huge or foreign at " + paths.get(s);
                return withSlot(t, slot, i % 500 == 9 ? F.textNode("x".repeat(1_000_001)) : F.objectNode().put("unexpected", true));
            }
        }
    }

    private static JsonNode hostileValue(Random rnd) {
        return switch (rnd.nextInt(12)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(rnd.nextBoolean());
            case 2 -> F.numberNode(rnd.nextInt());
            case 3 -> F.numberNode(Long.MAX_VALUE);
            case 4 -> F.numberNode(new java.math.BigInteger("9".repeat(60)));
            case 5 -> F.numberNode(-1.5e300);
            case 6 -> F.textNode(ReportFixtures.HOSTILE.get(rnd.nextInt(ReportFixtures.HOSTILE.size())));
            case 7 -> F.textNode("not:a:pci");
            case 8 -> F.arrayNode().add(F.nullNode()).add(1);
            case 9 -> F.objectNode();
            case 10 -> F.objectNode().put("value", "x").put("missing", "y");
            default -> F.textNode("");
        };
    }

    /** The tree with the slot set to {@code value}, or removed when null; the tree itself is left as it was. */
    private static byte[] withSlot(ObjectNode tree, JsonNode[] slot, JsonNode value) {
        ContainerNode<?> parent = (ContainerNode<?>) slot[0];
        if (parent instanceof ObjectNode o) {
            String key = slot[1].asText();
            JsonNode old = o.get(key);
            if (value == null) {
                o.remove(key);
            } else {
                o.set(key, value);
            }
            byte[] out = write(tree);
            o.set(key, old);
            return out;
        }
        ArrayNode a = (ArrayNode) parent;
        int idx = slot[1].asInt();
        JsonNode old = a.get(idx);
        if (value == null) {
            a.remove(idx);
        } else {
            a.set(idx, value);
        }
        byte[] out = write(tree);
        if (value == null) {
            a.insert(idx, old);
        } else {
            a.set(idx, old);
        }
        return out;
    }

    private static byte[] write(JsonNode n) {
        try {
            return Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsBytes(n);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String cut(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
