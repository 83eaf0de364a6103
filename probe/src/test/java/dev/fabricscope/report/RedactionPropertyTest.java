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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 17 item 4: random identifiers (host names and their variants, GPU UUIDs with and without dashes, serials,
 * IP and MAC addresses, InfiniBand GUIDs, board part numbers, user names in paths and in {@code user@host}) planted in
 * random free-text fields (missing-reading reasons included) of random samples; after redaction none is found in any
 * output, in any case, and redacting again changes nothing. The identifiers and where they go are jqwik values
 * ({@link Planted}), so a failure shrinks to the simplest identifier and field that still leak.
 */
class RedactionPropertyTest {

    private static final List<String> SAMPLES = List.of("h200-vm", "dgx-h100", "rtx-pro-6000-2x", "gb200-nvl72-tray");
    private static final Map<String, ObjectNode> TREES = new HashMap<>();
    private static final Map<String, List<String>> SLOTS = new HashMap<>();

    /** One machine's identifiers, and the free-text fields (indices into the sample's slots) their variants go to. */
    record Planted(String hostWord, int hostNumber, String domainWord, boolean fqdn, String uuidHex, List<String> uuidTails,
                   long serialTail, List<Integer> ipOctets, String macHex, String guidHex, List<Integer> partNumbers,
                   String userFirst, String userLast, List<Integer> slots) {
    }

    /** Hex that looks like an identifier: not one digit repeated (a zero UUID is in every sample on its own). */
    private static Arbitrary<String> hex(int n) {
        return Arbitraries.strings().withChars("0123456789abcdef").ofLength(n).filter(h -> h.chars().distinct().count() >= 4);
    }

    private static Arbitrary<String> word(int min, int max) {
        return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(min).ofMaxLength(max)
                .filter(w -> w.chars().distinct().count() >= 2);
    }

    @Provide
    Arbitrary<Planted> planted() {
        Arbitrary<Integer> octet = Arbitraries.integers().between(0, 255);
        var names = Combinators.combine(word(4, 9), Arbitraries.integers().between(0, 99), word(4, 8), Arbitraries.of(true, false),
                word(4, 8), word(3, 6)).as((h, n, d, f, u1, u2) -> List.<Object>of(h, n, d, f, u1, u2));
        var ids = Combinators.combine(hex(32), hex(6).list().ofSize(8), Arbitraries.longs().between(0, 0xffffffffffL),
                Combinators.combine(octet, octet, Arbitraries.integers().between(1, 254)).as((a, b, c) -> List.of(a, b, c)),
                hex(12), hex(16), Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(100, 999),
                        Arbitraries.integers().between(100, 999), Arbitraries.integers().between(100, 999)).as(List::of))
                .as((u, tails, serial, ip, mac, guid, part) -> List.<Object>of(u, tails, serial, ip, mac, guid, part));
        return Combinators.combine(names, ids, Arbitraries.integers().between(0, 100_000).list().ofSize(13))
                .as((n, i, slots) -> new Planted((String) n.get(0), (Integer) n.get(1), (String) n.get(2), (Boolean) n.get(3),
                        (String) i.get(0), castList(i.get(1)), (Long) i.get(2), castList(i.get(3)), (String) i.get(4), (String) i.get(5),
                        castList(i.get(6)), (String) n.get(4), (String) n.get(5), slots));
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> castList(Object o) {
        return (List<T>) o;
    }

    @Property(tries = 120, seed = "20261201", edgeCases = EdgeCasesMode.NONE)
    void noPlantedIdentifierSurvivesInAnyOutput(@ForAll @IntRange(min = 0, max = 3) int sample, @ForAll("planted") Planted p)
            throws Exception {
        String name = SAMPLES.get(sample);
        ObjectNode tree = base(name).deepCopy();
        List<String> slots = SLOTS.get(name);

        String host = p.hostWord() + p.hostNumber();
        String domain = p.domainWord() + ".example";
        String uuidHex = p.uuidHex();
        String uuid = uuidHex.substring(0, 8) + "-" + uuidHex.substring(8, 12) + "-" + uuidHex.substring(12, 16) + "-"
                + uuidHex.substring(16, 20) + "-" + uuidHex.substring(20);
        String serial = "1" + (100_000_000_000L + p.serialTail());
        String ip = "10." + p.ipOctets().get(0) + "." + p.ipOctets().get(1) + "." + p.ipOctets().get(2);
        String mac = String.join(":", p.macHex().split("(?<=\\G..)"));
        String guid = "0x" + p.guidHex();
        List<Integer> pn = p.partNumbers();
        String part = "69" + pn.get(0) + "-2G" + pn.get(1) + "-0" + pn.get(2) + "-" + pn.get(3);
        String user = p.userFirst() + "." + p.userLast();

        // the fields that hold identifiers
        ((ObjectNode) tree.at("/snapshot/host/hostname")).removeAll().put("value", p.fqdn() ? host + "." + domain : host);
        int gpu = 0;
        for (JsonNode g : tree.at("/snapshot/gpus")) {
            ((ObjectNode) g.get("uuid")).removeAll().put("value", "GPU-" + uuid);
            ((ObjectNode) g.get("serial")).removeAll().put("value", serial);
            uuid = uuid.substring(0, 30) + p.uuidTails().get(gpu++ % p.uuidTails().size()); // every GPU its own
        }
        String firstUuid = tree.at("/snapshot/gpus/0/uuid/value").asText().substring(4);
        // variants and patterns planted in random free-text fields
        List<String> plants = List.of(host.toUpperCase(Locale.ROOT), host + "_ib0", "bmc." + host + "." + domain,
                firstUuid.replace("-", ""), firstUuid, serial, ip, mac.toUpperCase(Locale.ROOT), guid, part,
                "/home/" + user + "/venv", "ssh " + user + "@" + host + "." + domain, "scp " + user + "@" + ip + ":/tmp");
        for (int i = 0; i < plants.size(); i++) {
            String plant = plants.get(i);
            int slot = p.slots().get(i);
            String path = slots.get(slot % slots.size());
            while (plant.contains(ip) && path.toLowerCase(Locale.ROOT).contains("version")) {
                path = slots.get(++slot % slots.size()); // documented: version strings are never read as IP addresses
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
}
