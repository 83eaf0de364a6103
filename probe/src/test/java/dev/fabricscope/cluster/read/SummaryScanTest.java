package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterFixtures;
import dev.fabricscope.cluster.NodeSummary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.JsonTrees;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportIO;
import dev.fabricscope.report.Reports;
import dev.fabricscope.samples.Samples;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The summary's fast path ({@link SummaryScan}) against the full read ({@link SummaryReader#parseFull} after the
 * UTF-8 check, as {@link SummaryReader#read} runs it): for every sample, every captured file and thousands of hostile
 * mutants (read one after the other as the files of one folder, sharing what was bound and checked before), whenever
 * the fast path answers, the full read accepts the file and gives an equal summary; and the public
 * {@link SummaryReader#parse} gives exactly the full read's summary or error line.
 */
class SummaryScanTest {

    /** What the full read says of {@code input}: its summary, or its one-line error. */
    private record Outcome(NodeSummary summary, String error) {
        static Outcome full(byte[] input, String where) {
            try {
                SnapshotIO.checkUtf8(input, where);
                return new Outcome(SummaryReader.parseFull(input, where), null);
            } catch (SnapshotIO.ReadException e) {
                return new Outcome(null, e.getMessage());
            } catch (RuntimeException e) {
                return new Outcome(null, e.toString());
            }
        }

        static Outcome viaParse(byte[] input, String where) {
            try {
                SnapshotIO.checkUtf8(input, where);
                return new Outcome(SummaryReader.parse(input, where), null);
            } catch (SnapshotIO.ReadException e) {
                return new Outcome(null, e.getMessage());
            } catch (RuntimeException e) {
                return new Outcome(null, e.toString());
            }
        }
    }

    /** Counts of what the fast path did: answered (and agreed), or left the file to the full read. */
    private final int[] answered = new int[1];
    private final int[] declined = new int[1];
    private final int[] refused = new int[1];
    private int checked;
    /** Parts bound and values checked so far, shared by the inputs of one test as a folder's files share them. */
    private final SummaryReader.Parts folder = new SummaryReader.Parts(true);

    /** The check every input goes through; returns whether the fast path answered. */
    private boolean agree(byte[] input, String what) {
        Outcome full = Outcome.full(input, "f.json");
        NodeSummary fast;
        try {
            fast = SummaryReader.parseFast(input, folder);
        } catch (Throwable t) {
            throw new AssertionError(what + ": the fast path threw " + t, t);
        }
        if (fast != null) {
            if (full.summary() == null) {
                fail(what + ": the fast path accepts what the full read refuses: " + full.error());
            }
            assertEquals(full.summary(), fast, what);
            answered[0]++;
        } else {
            declined[0]++;
        }
        if (full.summary() == null) {
            refused[0]++;
        }
        if (checked++ % 7 == 0) { // the public entry point: the fast path's summary, else the full read's own words
            assertEquals(full, Outcome.viaParse(input, "f.json"), what);
        }
        return fast != null;
    }

    @Test
    void everySampleAndEveryCapturedFileReadsAlikeAndFast() throws Exception {
        for (var sample : Samples.list()) {
            MachineSnapshot s = sample.snapshot().get();
            String json = Json.write(s);
            String report = ReportIO.toJson(Reports.fromSnapshot(s));
            for (String text : List.of(json, SummaryReaderTest.asReport(json), report, Json.mapper().writeValueAsString(s))) {
                assertTrue(agree(SummaryReaderTest.bytes(text), sample.name()), sample.name() + ": the fast path should read what Fabricscope writes");
            }
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("src/test/resources/captured"))) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        int snapshots = 0;
        for (Path f : files) {
            byte[] input = Files.readAllBytes(f);
            boolean fast = agree(input, f.toString());
            if (Outcome.full(input, "f.json").summary() != null) {
                assertTrue(fast, f + ": the full read accepts it, the fast path should too");
                snapshots++;
            }
        }
        assertTrue(snapshots >= 8, snapshots + " captured snapshots and reports");
    }

    /** Each member name and value of the JSON grammar the fast path checks itself, at its edges. */
    @Test
    void theGrammarsEdgesAreJudgedAsJacksonJudgesThem() throws Exception {
        String base = Json.write(smallSample());
        int anchor = base.indexOf("\"host\"");
        List<String> values = List.of("0", "-0", "01", "-", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-01",
                "1.5e3.2", "9".repeat(49), "9".repeat(51), "1".repeat(101), "NaN", "Infinity", "-Infinity", "+1", "0x10",
                "true", "false", "null", "tru", "True", "nul", "truex", "nullnull", "\"\"", "\"a\\\"b\"", "\"\\u0041\"",
                "\"\\u00zz\"", "\"\\x41\"", "\"\\'\"", "\"\\/\\b\\f\\n\\r\\t\"", "\"tab\tin\"", "\"nl\nin\"", "\"del\u007fin\"",
                "\"é ü 漢 😀\"", "\"\u2028\"", "[]", "[1,]", "[,1]", "[1 2]", "{}", "{,}", "{\"a\":1,}", "{\"a\" 1}",
                "{\"a\":1 \"b\":2}", "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":{\"a\":1}}", "{'a':1}", "{a:1}", "{\"\":1,\"\":2}",
                "{\"\\u0061\":1,\"a\":2}", "{\"a\\\"\":1}", "[" + "[".repeat(38) + "]".repeat(38) + "]",
                "[" + "[".repeat(62) + "]".repeat(62) + "]", "[" + "[".repeat(63) + "]".repeat(63) + "]",
                "[" + "[".repeat(70) + "]".repeat(70) + "]", "\"" + "x".repeat(99_999) + "\"",
                "\"" + "x".repeat(100_001) + "\"", "\"" + "x".repeat(1_000_001) + "\"", "/* c */ 1", "1 // c", "\f1");
        int fast = 0;
        for (String v : values) {
            String text = base.substring(0, anchor) + "\"zz\" : " + v + ",\n  " + base.substring(anchor);
            fast += agree(SummaryReaderTest.bytes(text), v.length() > 60 ? v.substring(0, 60) + "…" : v) ? 1 : 0;
        }
        for (String name : List.of("x", "", "é", "a b", "a\\\"b", "a\\u0062", "host", "gpus", "snapshot", "format",
                "reportVersion", "pairs", "schemaVersion", "y".repeat(999), "y".repeat(1001), "y".repeat(60_000))) {
            String text = base.substring(0, anchor) + "\"" + name + "\" : 1,\n  " + base.substring(anchor);
            fast += agree(SummaryReaderTest.bytes(text), "name " + name) ? 1 : 0;
        }
        for (String around : List.of(" ", "\n\n", "\t", "\r\n", "\f", "\u00a0", "\u0000", "\uFEFF", "x", "{}", "\u001a")) {
            fast += agree(SummaryReaderTest.bytes(around + base), "before: " + around) ? 1 : 0;
            fast += agree(SummaryReaderTest.bytes(base + around), "after: " + around) ? 1 : 0;
        }
        assertTrue(fast > 20, fast + " edge cases read by the fast path");
    }

    /** The host is bound apart, its plain name set aside: every other shape of it reads as the full read reads it. */
    @Test
    void hostNamesOfEveryShapeReadAlike() throws Exception {
        String base = Json.write(smallSample());
        int at = base.indexOf("\"hostname\"");
        int from = base.indexOf('{', at);
        int to = base.indexOf('}', from) + 1;
        List<String> values = List.of("{\"value\":\"n1\"}", "{ \"value\" : \"\" }", "{\"value\":\"é-漢-😀\"}",
                "{\"value\":\"a\\\"b\"}", "{\"value\":\"\\u001b[2J\"}", "{\"value\":\"tab\tin\"}", "{\"value\":1}",
                "{\"value\":null}", "{\"value\":\"x\",\"other\":1}", "{\"other\":1,\"value\":\"x\"}",
                "{\"value\":\"x\",\"value\":\"y\"}", "{\"missing\":{\"kind\":\"UNAVAILABLE\",\"detail\":\"d\"}}",
                "{\"value\":\"x\",\"missing\":{\"kind\":\"UNAVAILABLE\"}}", "{}", "null", "\"n1\"", "[\"n1\"]",
                "{\"Value\":\"n1\"}", "{\"value\":\"" + "h".repeat(5_000) + "\"}", "{\"value\":\"bad\u00ff\"}");
        int fast = 0;
        for (String v : values) {
            String text = base.substring(0, from) + v + base.substring(to);
            fast += agree(SummaryReaderTest.bytes(text), "hostname " + v) ? 1 : 0;
            fast += agree(SummaryReaderTest.bytes(SummaryReaderTest.asReport(text)), "report, hostname " + v) ? 1 : 0;
        }
        String withoutHost = base.replaceFirst("\"host\" : \\{", "\"hostX\" : {");
        agree(SummaryReaderTest.bytes(withoutHost), "no host");
        for (String host : List.of("null", "1", "[]", "\"h\"", "{}")) {
            int h = base.indexOf("\"host\" : ") + "\"host\" : ".length();
            int end = base.indexOf("\n  },", h) + 4;
            agree(SummaryReaderTest.bytes(base.substring(0, h) + host + base.substring(end)), "host " + host);
        }
        assertTrue(fast >= 10, fast + " host names read by the fast path");
    }

    /** The envelope: bare snapshots and reports, every version and format the full read may meet. */
    @Test
    void everyEnvelopeIsJudgedAsCheckEnvelopeJudgesIt() throws Exception {
        String snap = Json.write(smallSample());
        String body = snap.substring(snap.indexOf('{') + 1); // the snapshot's members and its closing brace
        String inner = body.replaceFirst("\"schemaVersion\" : 1,", "");
        List<String> versions = List.of("1", "0", "2", "-1", "1.0", "\"1\"", "null", "99999999999", "01", "1e0", "[1]");
        List<String> docs = new ArrayList<>();
        for (String v : versions) {
            docs.add("{\"schemaVersion\":" + v + "," + inner);
            docs.add("{" + inner.substring(0, inner.lastIndexOf('}')) + ",\"schemaVersion\":" + v + "}");
            docs.add(SummaryReaderTest.asReport("{\"schemaVersion\":" + v + "," + inner));
            docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":" + v + ",\"snapshot\":" + snap + "}");
            docs.add("{\"snapshot\":" + snap + ",\"reportVersion\":" + v + ",\"format\":\"fabricscope-report\"}");
        }
        for (String format : List.of("\"fabricscope-report\"", "\"fabricscope-Report\"", "\"fabricscope-report \"", "null",
                "1", "\"\\u0066abricscope-report\"", "[\"fabricscope-report\"]")) {
            docs.add("{\"format\":" + format + ",\"reportVersion\":1,\"snapshot\":" + snap + "}");
        }
        docs.add("{\"reportVersion\":1,\"snapshot\":" + snap + "}");
        docs.add("{\"format\":\"fabricscope-report\",\"snapshot\":" + snap + "}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":null}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":[]}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":{\"schemaVersion\":1}}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":{" + inner + "}");
        docs.add("{\"schemaVersion\":1,\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":" + snap + "}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":" + snap + ",\"schemaVersion\":1}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":{" + inner.substring(0, inner.lastIndexOf('}'))
                + "},\"schemaVersion\":1}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":" + snap + ",\"snapshot\":" + snap + "}");
        docs.add("{\"format\":\"fabricscope-report\",\"reportVersion\":1,\"snapshot\":{\"snapshot\":" + snap + "," + inner + "}");
        docs.add("{\"schemaVersion\":1,\"schemaVersion\":1," + inner);
        docs.add("{}");
        docs.add("{\"gpus\":[]}");
        int fast = 0;
        for (String d : docs) {
            fast += agree(SummaryReaderTest.bytes(d), d.length() > 120 ? d.substring(0, 120) + "…" : d) ? 1 : 0;
        }
        assertTrue(fast >= 5, fast + " envelopes read by the fast path");
    }

    /**
     * Seeded hostile mutants of a bare snapshot, a report and a captured node report: cuts, byte flips, inserted
     * bytes (quotes, brackets, control and invalid UTF-8 bytes), duplicated members, escaped names, and values of
     * every type swapped into every place of the tree.
     */
    @Test
    void hostileMutantsReadAlike() throws Exception {
        List<String> bases = List.of(Json.write(ClusterFixtures.sample("dgx-h100")),
                ReportIO.toJson(Reports.fromSnapshot(ClusterFixtures.sample("h200-vm"))),
                Files.readString(Path.of("src/test/resources/captured/h200-passthrough-1gpu-2026-12-01-node/node-report.json")));
        Random rnd = new Random(17_2027L);
        for (String base : bases) { // what the mutants are compared with: the valid files' parts, already seen
            assertTrue(agree(SummaryReaderTest.bytes(base), "base"));
        }
        for (int i = 0; i < 1_500; i++) {
            String base = bases.get(i % bases.size());
            byte[] input = mutate(rnd, base, i / bases.size());
            agree(input, "mutant " + i);
        }
        assertTrue(answered[0] > 300 && refused[0] > 300, answered[0] + " answered by the fast path, " + declined[0]
                + " left to the full read, " + refused[0] + " refused");
    }

    private static final byte[] INSERTS = {'"', '\\', '{', '}', '[', ']', ',', ':', 0, 0x1f, 0x7f, (byte) 0x80, (byte) 0xc0,
        (byte) 0xc3, (byte) 0xed, (byte) 0xf4, (byte) 0xff, ' ', '\t', '\f', 'e', '-', '0', '.', 'n'};

    private static byte[] mutate(Random rnd, String text, int i) throws Exception {
        byte[] b = SummaryReaderTest.bytes(text);
        switch (i % 8) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            }
            case 1 -> {
                b = b.clone();
                b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                return b;
            }
            case 2 -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int at = rnd.nextInt(b.length);
                out.write(b, 0, at);
                out.write(INSERTS[rnd.nextInt(INSERTS.length)]);
                if (rnd.nextBoolean()) {
                    out.write(INSERTS[rnd.nextInt(INSERTS.length)]);
                }
                out.write(b, at, b.length - at);
                return out.toByteArray();
            }
            case 3 -> { // a member repeated in its object, or an escaped letter in a name
                List<Integer> names = new ArrayList<>();
                for (int k = text.indexOf("\" : "); k >= 0; k = text.indexOf("\" : ", k + 1)) {
                    names.add(k);
                }
                int end = names.get(rnd.nextInt(names.size()));
                int start = text.lastIndexOf('"', end - 1);
                if (rnd.nextBoolean()) {
                    String name = text.substring(start + 1, end);
                    int brace = text.lastIndexOf('{', start);
                    return SummaryReaderTest.bytes(text.substring(0, brace + 1) + "\"" + name + "\":0," + text.substring(brace + 1));
                }
                return SummaryReaderTest.bytes(text.substring(0, start + 1) + "\\u00" + Integer.toHexString(text.charAt(start + 1))
                        + text.substring(start + 2));
            }
            default -> {
                JsonNode tree = Json.mapper().readTree(text);
                List<JsonNode[]> slots = new ArrayList<>();
                JsonTrees.collect(tree, slots);
                var f = Json.mapper().getNodeFactory();
                for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
                    JsonNode[] slot = slots.get(rnd.nextInt(slots.size()));
                    JsonNode v = switch (rnd.nextInt(11)) {
                        case 0 -> f.numberNode(-5);
                        case 1 -> f.textNode("2.x\u001b]0;t\u0007");
                        case 2 -> f.nullNode();
                        case 3 -> f.objectNode();
                        case 4 -> f.arrayNode();
                        case 5 -> f.booleanNode(rnd.nextBoolean());
                        case 6 -> f.numberNode(new java.math.BigDecimal("1e400"));
                        case 7 -> f.numberNode(1.5);
                        case 8 -> f.textNode("\"quoted\\ \u00e9 \ud83d\ude00");
                        case 9 -> f.objectNode().put("value", true);
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
                return SummaryReaderTest.bytes(rnd.nextBoolean() ? Json.write(tree) : Json.mapper().writeValueAsString(tree));
            }
        }
    }


    @Test
    void aFileTheFastPathLeavesIsReadInFull() throws Exception {
        String json = Json.write(ClusterFixtures.sample("dgx-h100"));
        String escapedName = json.replace("\"host\"", "\"\\u0068ost\"");
        assertNull(SummaryReader.parseFast(SummaryReaderTest.bytes(escapedName)), "an escaped name is left to the full read");
        assertEquals(SummaryReader.parseFull(SummaryReaderTest.bytes(json), "a"), SummaryReader.parse(SummaryReaderTest.bytes(escapedName), "b"));
        assertNotNull(SummaryReader.parseFast(SummaryReaderTest.bytes(json)));
    }

    private static MachineSnapshot smallSample() {
        return ClusterFixtures.sample("h200-vm");
    }
}
