package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportIOTest {

    @TempDir
    Path tmp;

    static String json() {
        return ReportIO.toJson(ReportFixtures.report("h200-vm"));
    }

    static String error(byte[] input) {
        SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> ReportIO.parse(input, "r.json"));
        assertTrue(e.getMessage().startsWith("r.json: "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    static String error(String input) {
        return error(input.getBytes(StandardCharsets.UTF_8));
    }

    static Report read(String input) throws Exception {
        return ReportIO.parse(input, "r.json");
    }

    static String edited(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode t = (ObjectNode) Json.mapper().readTree(json());
        edit.accept(t);
        return Json.write(t);
    }

    @Test
    void roundTripsAndReadsFromAFile() throws Exception {
        Report r = ReportFixtures.report("gb200-nvl72-tray");
        Path f = tmp.resolve("r.json");
        ReportIO.write(f, ReportIO.toJson(r));
        assertEquals(r, ReportIO.read(f));
        assertEquals(r.snapshot(), SnapshotIO.read(f), "every --snapshot FILE takes a report");
    }

    @Test
    void aBareSnapshotOpensAsAReport() throws Exception {
        var s = ReportFixtures.sample("dgx-a100");
        Report r = ReportIO.parse(dev.fabricscope.json.RecordJson.write(s), "s.json");
        assertEquals(s, r.snapshot());
        assertTrue(r.advice().verdicts().isEmpty());
        assertTrue(r.advice().blocked().contains("bare snapshot"));
    }

    @Test
    void newerAndUnknownVersions() throws Exception {
        assertTrue(error(edited(t -> t.put("reportVersion", 2))).contains("reportVersion 2 is newer than this Fabricscope reads (1); update Fabricscope"));
        assertTrue(error(edited(t -> t.put("reportVersion", 0))).contains("at $.reportVersion: 0 is not a known version"));
        assertTrue(error(edited(t -> t.put("reportVersion", "1"))).contains("at $.reportVersion: missing or not an integer"));
        assertTrue(error(edited(t -> ((ObjectNode) t.get("snapshot")).put("schemaVersion", 7))).contains("schemaVersion 7 is newer"));
        assertTrue(error(edited(t -> t.put("format", "other-tool"))).contains("at $.format: not \"fabricscope-report\""));
    }

    @Test
    void truncatedAndNotUtf8() throws Exception {
        String j = json();
        assertTrue(error(j.substring(0, j.length() / 3)).matches("r\\.json: not valid JSON: .*\\(line \\d+, column \\d+\\)"),
                error(j.substring(0, j.length() / 3)));
        byte[] b = j.getBytes(StandardCharsets.UTF_8);
        b[200] = (byte) 0xC3;
        b[201] = (byte) 0x28;
        assertTrue(error(b).contains("not UTF-8"), error(b));
    }

    @Test
    void wrongTypesAndMissingFieldsNameTheirPlace() throws Exception {
        assertEquals("r.json: at $.snapshot.gpus: not a list",
                error(edited(t -> ((ObjectNode) t.get("snapshot")).put("gpus", "eight"))));
        assertEquals("r.json: at $.snapshot.gpus[0].name: missing (required)",
                error(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0")).remove("name"))));
        assertEquals("r.json: at $.advice.verdicts[0].outcome: missing (required)",
                error(edited(t -> ((ObjectNode) t.at("/advice/verdicts/0")).remove("outcome"))));
        assertEquals("unreadable ({\"value\":132,\"missing\":\"x\"}: both a value and why it is missing)",
                read(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0/smCount")).put("missing", "x"))).snapshot().gpus().get(0).smCount().missing().detail());
        assertTrue(error(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0")).put("pci", "<script>")))
                .contains("not a PCI address: '<script>'"));
        assertEquals("unreadable (\"nine\": not a compute capability (major.minor))",
                read(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0/computeCapability")).put("value", "nine"))).snapshot().gpus().get(0).computeCapability().missing().detail());
        String hostileKey = error(edited(t -> ((ObjectNode) t.at("/snapshot/environment")).putObject("A\nB\u001b[2J" + "k".repeat(1000))));
        assertTrue(hostileKey.contains("\\u000a") && hostileKey.contains("…"), hostileKey);
    }

    @Test
    void sizeAndNestingLimits() throws Exception {
        byte[] big = new byte[(int) SnapshotIO.MAX_BYTES + 1];
        assertTrue(error(big).contains("over the 67108864-byte limit"));
        String deep = "{\"reportVersion\":1,\"snapshot\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        assertTrue(error(deep).contains("nesting depth"), error(deep));
        String huge = error(edited(t -> t.put("createdAt", "x".repeat(1_000_001))));
        assertEquals("r.json: at $.createdAt: a text value of 1,000,001 characters, over the 1,000,000-character limit", huge);
    }

    @Test
    void notAnObject() {
        assertEquals("r.json: expected a JSON object at the top level", error("[1,2]"));
        assertTrue(error("").contains("r.json: "));
        assertTrue(error(json() + "{}").contains("trailing content"));
    }
}
