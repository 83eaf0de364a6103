package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A verdict's source is a thing to copy: at 120 columns its file path and line are never split mid-word (the
 * repository and commit on the source line, the path and line whole on the next).
 */
class AdviceSourceLinesTest {

    @Test
    void everySourcePathAndLineIsWholeOnOneLine() throws Exception {
        for (String sample : List.of("hgx-b200", "dgx-h100", "gb200-nvl72-tray")) {
            CliTest.Run text = AdviseTestSupport.run("advise", "--sample", sample, "--all");
            CliTest.Run json = AdviseTestSupport.run("advise", "--sample", sample, "--all", "--json");
            assertEquals(0, text.code(), text.err());
            List<String> paths = new ArrayList<>();
            // the verdicts shown with their details (the ones --all lists as table rows only print no source)
            for (JsonNode v : Json.mapper().readTree(json.out()).get("verdicts")) {
                if (!"ok".equals(v.path("outcome").asText())) {
                    collect(v.path("source"), paths);
                }
            }
            assertTrue(paths.size() > 5, sample + ": " + paths.size());
            List<String> lines = text.out().lines().map(String::strip).toList();
            for (String p : paths) {
                assertTrue(lines.stream().anyMatch(l -> l.contains(p)), sample + ": " + p + " is split across lines");
            }
            assertTrue(text.out().lines().allMatch(l -> l.length() <= 120), sample);
        }
    }

    /** The path:line of each source with a commit (what a reader pastes into a browser or an editor). */
    private static void collect(JsonNode source, List<String> out) {
        if (source.isObject() && source.hasNonNull("path") && source.hasNonNull("commit") && source.get("commit").asText().length() >= 7) {
            String line = source.hasNonNull("line") ? ":" + source.get("line").asText() : "";
            out.add(source.get("path").asText() + line);
        }
    }
}
