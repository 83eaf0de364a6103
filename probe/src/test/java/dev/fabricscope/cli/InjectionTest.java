package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.report.ReportIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17 item 2: every string field of a report (snapshot, advice, checks, provenance) carries each invisible or
 * terminal-driving character through every reading command and output format; none reaches the output raw.
 */
class InjectionTest {

    /** ESC, BEL, CR, NUL, BS, DEL, C1 CSI and NEL, bidi overrides and isolates, RLM, zero-width space, line separator. */
    static final String HOSTILE = "\u001b\u0007\r\u0000\b\u007f\u009b\u0085\u202e\u2066\u200f\u200b\u2028";

    @TempDir
    Path tmp;

    /** Every textual value of the tree whose change keeps the report readable (enums and formats cannot change). */
    static List<JsonNode[]> plantableSlots(ObjectNode tree) throws Exception {
        List<JsonNode[]> all = new ArrayList<>();
        collect(tree, all);
        List<JsonNode[]> ok = new ArrayList<>();
        Map<String, Boolean> byName = new java.util.HashMap<>(); // a field name is free text everywhere or nowhere
        for (JsonNode[] slot : all) {
            String name = slot[1].isTextual() ? slot[1].textValue() : "[]";
            Boolean known = byName.get(name);
            if (known != null) {
                if (known) {
                    ok.add(slot);
                }
                continue;
            }
            JsonNode before = get(slot);
            set(slot, TextNode.valueOf(before.textValue() + "x"));
            try {
                ReportIO.parse(Json.write(tree), "probe");
                ok.add(slot);
                byName.put(name, true);
            } catch (Exception e) {
                byName.put(name, false); // an enum, a PCI address, a version: not free text
            }
            set(slot, before);
        }
        return ok;
    }

    static void collect(JsonNode n, List<JsonNode[]> out) {
        if (n instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isTextual()) {
                    out.add(new JsonNode[] {o, TextNode.valueOf(e.getKey())});
                }
                collect(e.getValue(), out);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) {
                    out.add(new JsonNode[] {a, Json.mapper().getNodeFactory().numberNode(i)});
                }
                collect(a.get(i), out);
            }
        }
    }

    static JsonNode get(JsonNode[] slot) {
        return slot[0] instanceof ObjectNode o ? o.get(slot[1].textValue()) : ((ArrayNode) slot[0]).get(slot[1].intValue());
    }

    static void set(JsonNode[] slot, JsonNode v) {
        if (slot[0] instanceof ObjectNode o) {
            o.set(slot[1].textValue(), v);
        } else {
            ((ArrayNode) slot[0]).set(slot[1].intValue(), v);
        }
    }

    @Test
    void noFieldDrivesTheTerminalInAnyCommandOrFormat() throws Exception {
        CliTest.Run base = CliTest.run("report", "--sample", "gb200-nvl72-tray", "--framework", "sglang", "--tp", "4");
        assertEquals(0, base.code(), base.err());
        Path basePath = Files.writeString(tmp.resolve("base.json"), base.out());
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(base.out());
        List<JsonNode[]> slots = plantableSlots(tree);
        assertTrue(slots.size() > 100, "free-text fields found: " + slots.size());
        for (char c : HOSTILE.toCharArray()) {
            for (JsonNode[] slot : slots) {
                set(slot, TextNode.valueOf("v" + c + get(slot).textValue()));
            }
            String text = Json.write(tree);
            Path dir = Files.createDirectories(tmp.resolve("c" + (int) c));
            Path file = Files.writeString(dir.resolve("node.json"), text);
            Path md = dir.resolve("r.md");
            Path html = dir.resolve("r.html");
            List<String[]> commands = List.of(
                    new String[] {"show", "--snapshot", file.toString()},
                    new String[] {"show", "--snapshot", file.toString(), "--json"},
                    new String[] {"advise", "--snapshot", file.toString()},
                    new String[] {"advise", "--snapshot", file.toString(), "--json"},
                    new String[] {"advise", "--cluster", dir.toString()},
                    new String[] {"cluster", "show", dir.toString()},
                    new String[] {"cluster", "show", dir.toString(), "--json"},
                    new String[] {"report", "--from", file.toString(), "--format", "md"},
                    new String[] {"report", "--from", file.toString(), "--format", "html"},
                    new String[] {"report", "--from", file.toString(), "--format", "json"},
                    new String[] {"report", "--from", file.toString(), "--format", "md", "--out", md.toString()},
                    new String[] {"report", "--from", file.toString(), "--format", "html", "--out", html.toString()},
                    new String[] {"report", "--snapshot", file.toString(), "--format", "md"},
                    new String[] {"report", "--snapshot", file.toString(), "--format", "html"},
                    new String[] {"diff", basePath.toString(), file.toString()},
                    new String[] {"diff", basePath.toString(), file.toString(), "--json"},
                    new String[] {"show", "--snapshot", dir + "/no\u001b[2Jsuch" + (c == 0 ? "" : String.valueOf(c)) + ".json"});
            boolean escapedSomewhere = false;
            for (String[] args : commands) {
                CliTest.Run r = CliTest.run(args);
                String what = String.join(" ", args).replace(String.valueOf(c), "<U+" + Integer.toHexString(c) + ">");
                assertTrue(r.code() != ExitCodes.FAILURE, what + ": " + r.err());
                noRaw(c, r.out(), what + " (stdout)");
                noRaw(c, r.err(), what + " (stderr)");
                escapedSomewhere |= r.out().contains(String.format("\\u%04x", (int) c));
            }
            noRaw(c, Files.readString(md), "Markdown file");
            noRaw(c, Files.readString(html), "HTML file");
            assertTrue(escapedSomewhere, "the planted character reached the output (escaped) for U+" + Integer.toHexString(c));
            for (JsonNode[] slot : slots) {
                set(slot, TextNode.valueOf(get(slot).textValue().substring(2)));
            }
        }
    }

    /** {@code c} never appears raw; the zero-width space only as Markdown's own mention guard after '@'. */
    static void noRaw(char c, String output, String what) {
        for (int i = output.indexOf(c); i >= 0; i = output.indexOf(c, i + 1)) {
            if (c == '\u200b' && i > 0 && output.charAt(i - 1) == '@') {
                continue;
            }
            fail(what + ": raw U+" + Integer.toHexString(c) + " at " + i + ": "
                    + output.substring(Math.max(0, i - 60), Math.min(output.length(), i + 20)).replace(c, '¤'));
        }
    }
}
