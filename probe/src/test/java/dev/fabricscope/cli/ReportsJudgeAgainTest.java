package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Finding;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 6, the rest of "absolute judgments": {@code report --from} (JSON, Markdown, HTML, redacted or not) and
 * {@code diff} speak with the findings this version makes of a saved report's readings, never with the ones it stored.
 * On the real two-GPU NVSwitch report, with its stored findings planted wrong and one reading edited (fabric health
 * UNHEALTHY on GPU1) that the stored findings do not mention.
 */
class ReportsJudgeAgainTest {

    private static final Path NVSWITCH_REPORT = CapturedTraces.ROOT.resolve("h200-nvswitch-2gpu-2026-12-01/report.json");
    private static final String PLANTED = "a finding only the file holds";
    private static final String UNHEALTHY = "GPU fabric health is UNHEALTHY";

    @TempDir
    Path dir;
    private Path stale;
    private Path original;

    @BeforeEach
    void plant() throws Exception {
        ObjectNode report = (ObjectNode) Json.mapper().readTree(NVSWITCH_REPORT.toFile());
        ObjectNode fabric = (ObjectNode) report.get("snapshot").get("gpus").get(1).get("fabric");
        ((ObjectNode) fabric.get("healthSummary")).put("value", "UNHEALTHY");
        ArrayNode planted = Json.mapper().createArrayNode();
        planted.addObject().put("severity", "ERROR").put("code", "stale").put("message", PLANTED);
        ((ObjectNode) report.get("snapshot")).set("findings", planted);
        stale = dir.resolve("stale.json");
        Files.writeString(stale, Json.write(report));
        original = dir.resolve("original.json");
        Files.copy(NVSWITCH_REPORT, original);
    }

    private static String run(String... args) {
        CliTest.Run r = CliTest.run(args);
        assertTrue(r.code() == 0 || r.code() == 6, String.join(" ", args) + ": " + r.code() + "\n" + r.err());
        return r.out();
    }

    private List<String> recomputedCodes() throws Exception {
        return SnapshotAnalyzer.findings(OpenSnapshot.read(stale)).stream().map(Finding::code).toList();
    }

    @Test
    void reportFromJsonHoldsTheRecomputedFindings() throws Exception {
        JsonNode out = Json.mapper().readTree(run("report", "--from", stale.toString(), "--format", "json"));
        List<String> codes = Json.mapper().convertValue(out.path("snapshot").path("findings"), ArrayNode.class).findValuesAsText("code");
        assertEquals(recomputedCodes(), codes);
        assertTrue(codes.contains("fabric-unhealthy"), codes.toString());
        assertFalse(out.toString().contains(PLANTED));
    }

    @Test
    void markdownAndHtmlShowTheRecomputedFindings() {
        for (String format : List.of("md", "html")) {
            for (boolean redact : List.of(false, true)) {
                String out = redact ? run("report", "--from", stale.toString(), "--format", format, "--redact")
                        : run("report", "--from", stale.toString(), "--format", format);
                assertFalse(out.contains(PLANTED), format + (redact ? " redacted" : "") + " prints a stored finding");
                assertTrue(out.contains(UNHEALTHY), format + (redact ? " redacted" : "") + " lacks the recomputed finding");
                assertTrue(out.contains("Services") && out.contains("nvidia-fabricmanager"), format + ": the services, as show says them");
            }
        }
    }

    @Test
    void diffComparesTheRecomputedFindings() {
        String text = run("diff", original.toString(), stale.toString(), "--all");
        assertFalse(text.contains(PLANTED), text);
        assertTrue(text.contains(UNHEALTHY), "the edited reading's finding is a difference:\n" + text);
        String json = run("diff", original.toString(), stale.toString(), "--json");
        assertFalse(json.contains(PLANTED) || json.contains("\"stale\""), json);
    }

    @Test
    void aStaleRecordAloneIsNoDifference() throws Exception {
        ObjectNode report = (ObjectNode) Json.mapper().readTree(NVSWITCH_REPORT.toFile());
        ArrayNode planted = Json.mapper().createArrayNode();
        planted.addObject().put("severity", "ERROR").put("code", "stale").put("message", PLANTED);
        ((ObjectNode) report.get("snapshot")).set("findings", planted);
        Path onlyStale = dir.resolve("only-stale.json");
        Files.writeString(onlyStale, Json.write(report));
        String text = run("diff", original.toString(), onlyStale.toString(), "--all");
        assertFalse(text.contains(PLANTED) || text.toLowerCase(java.util.Locale.ROOT).contains("finding"),
                "the same readings judge the same:\n" + text);
    }
}
