package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.DiffText;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.samples.Samples;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 17 item 4: random identifiers (host names and their variants, GPU UUIDs with and without dashes, serials,
 * IP and MAC addresses, InfiniBand GUIDs, board part numbers, user names in paths and in {@code user@host}) planted in
 * random free-text fields (missing-reading reasons included) of random samples; after redaction none is found in any
 * output, in any case, and redacting again changes nothing.
 */
class RedactionPropertyTest {

    private static final List<String> SAMPLES = List.of("h200-vm", "dgx-h100", "rtx-pro-6000-2x", "gb200-nvl72-tray");
    private static final Map<String, ObjectNode> TREES = new HashMap<>();
    private static final Map<String, List<String>> SLOTS = new HashMap<>();

    @Property(tries = 120, seed = "20261201")
    void noPlantedIdentifierSurvivesInAnyOutput(@ForAll @IntRange(min = 0, max = 3) int sample, @ForAll long seed) throws Exception {
        Random rnd = new Random(seed);
        String name = SAMPLES.get(sample);
        ObjectNode tree = base(name).deepCopy();
        List<String> slots = SLOTS.get(name);

        String host = word(rnd, 4, 9) + rnd.nextInt(100);
        String domain = word(rnd, 4, 8) + ".example";
        String uuidHex = hex(rnd, 32);
        String uuid = uuidHex.substring(0, 8) + "-" + uuidHex.substring(8, 12) + "-" + uuidHex.substring(12, 16) + "-"
                + uuidHex.substring(16, 20) + "-" + uuidHex.substring(20);
        String serial = "1" + (100_000_000_000L + (rnd.nextLong() & 0xffffffffffL));
        String ip = "10." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + (1 + rnd.nextInt(254));
        String mac = String.join(":", hex(rnd, 2), hex(rnd, 2), hex(rnd, 2), hex(rnd, 2), hex(rnd, 2), hex(rnd, 2));
        String guid = "0x" + hex(rnd, 16);
        String part = "69" + rnd.nextInt(10) + "-2G" + (100 + rnd.nextInt(900)) + "-0" + (100 + rnd.nextInt(900)) + "-" + (100 + rnd.nextInt(900));
        String user = word(rnd, 4, 8) + "." + word(rnd, 3, 6);

        // the fields that hold identifiers
        ((ObjectNode) tree.at("/snapshot/host/hostname")).removeAll().put("value", rnd.nextBoolean() ? host : host + "." + domain);
        for (JsonNode g : tree.at("/snapshot/gpus")) {
            ((ObjectNode) g.get("uuid")).removeAll().put("value", "GPU-" + uuid);
            ((ObjectNode) g.get("serial")).removeAll().put("value", serial);
            uuid = uuid.substring(0, 30) + hex(rnd, 6); // every GPU its own
        }
        String firstUuid = tree.at("/snapshot/gpus/0/uuid/value").asText().substring(4);
        // variants and patterns planted in random free-text fields
        List<String> plants = List.of(host.toUpperCase(Locale.ROOT), host + "_ib0", "bmc." + host + "." + domain,
                firstUuid.replace("-", ""), firstUuid, serial, ip, mac.toUpperCase(Locale.ROOT), guid, part,
                "/home/" + user + "/venv", "ssh " + user + "@" + host + "." + domain, "scp " + user + "@" + ip + ":/tmp");
        for (String plant : plants) {
            String path = slots.get(rnd.nextInt(slots.size()));
            while (plant.contains(ip) && path.toLowerCase(Locale.ROOT).contains("version")) {
                path = slots.get(rnd.nextInt(slots.size())); // documented: version strings are never read as IP addresses
            }
            ObjectNode parent = (ObjectNode) tree.at(path.substring(0, path.lastIndexOf('/')));
            String key = path.substring(path.lastIndexOf('/') + 1);
            parent.put(key, parent.get(key).asText() + " (" + plant + ")");
        }
        ArrayNode cmd = (ArrayNode) tree.get("commandLine");
        cmd.add("--remote-command").add("ssh " + user + "@" + host);

        Report original = ReportIO.parse(Json.write(tree), "planted");
        Report red = Redactor.redact(original);
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put("json", ReportIO.toJson(red));
        outputs.put("markdown", MarkdownReport.render(red));
        outputs.put("html", HtmlReport.render(red).replace("<wbr>", ""));
        outputs.put("show", SnapshotText.render(red.snapshot()));
        outputs.put("diff", DiffText.render(ReportDiffer.compare(red, "a", Redactor.redact(ReportFixtures.report("h200-vm")), "b")));
        List<String> secrets = List.of(host, domain, uuidHex, firstUuid, firstUuid.replace("-", ""), serial, ip, mac, guid.substring(2), part, user);
        for (Map.Entry<String, String> o : outputs.entrySet()) {
            String lower = o.getValue().toLowerCase(Locale.ROOT);
            for (String secret : secrets) {
                int at = lower.indexOf(secret.toLowerCase(Locale.ROOT));
                assertFalse(at >= 0, () -> "'" + secret + "' survives in the " + o.getKey() + " output: …"
                        + o.getValue().substring(Math.max(0, at - 80), Math.min(o.getValue().length(), at + 40)));
            }
        }
        assertTrue(ReportIO.toJson(original).toLowerCase(Locale.ROOT).contains(host.toLowerCase(Locale.ROOT)), "the plant proves something");
        assertEquals(ReportIO.toJson(red), ReportIO.toJson(Redactor.redact(red)), "redacting twice changes nothing");
    }

    private static synchronized ObjectNode base(String name) throws Exception {
        ObjectNode t = TREES.get(name);
        if (t == null) {
            Report r = Reports.create(Samples.find(name).orElseThrow().snapshot().get(),
                    ReportAdvice.of(ReportFixtures.verdicts(), ReportFixtures.recommendations(), Map.of("sglang", "0.0-test")),
                    ReportFixtures.checks(), List.of("fabricscope", "report", "--sample", name), ReportFixtures.WHEN);
            t = (ObjectNode) Json.mapper().readTree(ReportIO.toJson(r));
            TREES.put(name, t);
            SLOTS.put(name, freeText(t));
        }
        return t;
    }

    /** JSON pointers of the object fields holding free text: a plant there keeps the report readable. */
    private static List<String> freeText(ObjectNode tree) throws Exception {
        List<String> all = new ArrayList<>();
        collect(tree, "", all);
        Map<String, Boolean> byName = new HashMap<>();
        List<String> ok = new ArrayList<>();
        for (String path : all) {
            String key = path.substring(path.lastIndexOf('/') + 1);
            if (key.equals("hostname") || path.contains("/uuid/") || path.contains("/serial/")) {
                continue;
            }
            Boolean known = byName.get(key);
            if (known == null) {
                ObjectNode copy = tree.deepCopy();
                ObjectNode parent = (ObjectNode) copy.at(path.substring(0, path.lastIndexOf('/')));
                parent.put(key, parent.get(key).asText() + " (x)");
                try {
                    ReportIO.parse(Json.write(copy), "probe");
                    known = true;
                } catch (Exception e) {
                    known = false;
                }
                byName.put(key, known);
            }
            if (known) {
                ok.add(path);
            }
        }
        return ok;
    }

    private static void collect(JsonNode n, String path, List<String> out) {
        if (n instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().contains("/") || e.getKey().contains("~")) {
                    continue;
                }
                String p = path + "/" + e.getKey();
                if (e.getValue().isTextual() && !path.endsWith("/environment")) {
                    out.add(p);
                }
                collect(e.getValue(), p, out);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                collect(a.get(i), path + "/" + i, out);
            }
        }
    }

    private static String word(Random rnd, int min, int max) {
        StringBuilder sb = new StringBuilder();
        int n = min + rnd.nextInt(max - min + 1);
        sb.append((char) ('a' + rnd.nextInt(26)));
        for (int i = 1; i < n; i++) {
            sb.append((char) ('a' + rnd.nextInt(26)));
        }
        return sb.toString();
    }

    private static String hex(Random rnd, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(Character.forDigit(rnd.nextInt(16), 16));
        }
        return sb.toString();
    }
}
