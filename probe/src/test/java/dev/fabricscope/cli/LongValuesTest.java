package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.text.LongValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5: a long value in any field is cut in every text output ("… (N more characters)", at most
 * {@link LongValues#MAX} characters of it shown) and kept whole in the JSON outputs.
 */
class LongValuesTest {

    /** A character no output writes on its own, so its runs in an output are the planted value. */
    static final char PLANT = 'Ж';

    @TempDir
    Path tmp;

    /** The longest run of {@link #PLANT} in {@code output} once line breaks and indentation are taken out. */
    static int longestRun(String output) {
        String joined = output.replaceAll("\\s+", "");
        int best = 0;
        int run = 0;
        for (int i = 0; i < joined.length(); i++) {
            run = joined.charAt(i) == PLANT ? run + 1 : 0;
            best = Math.max(best, run);
        }
        return best;
    }

    @Test
    void everyTextCommandCutsEveryLongFieldAndTheJsonKeepsItWhole() throws Exception {
        CliTest.Run base = CliTest.run("report", "--sample", "gb200-nvl72-tray", "--framework", "sglang", "--tp", "4");
        assertEquals(0, base.code(), base.err());
        Path basePath = Files.writeString(tmp.resolve("base.json"), base.out());
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(base.out());
        List<JsonNode[]> slots = InjectionTest.plantableSlots(tree);
        assertTrue(slots.size() > 100, "free-text fields found: " + slots.size());
        String planted = String.valueOf(PLANT).repeat(3 * LongValues.MAX); // every slot: the file stays under the read limit
        for (JsonNode[] slot : slots) {
            InjectionTest.set(slot, TextNode.valueOf(InjectionTest.get(slot).textValue() + planted));
        }
        Path dir = Files.createDirectories(tmp.resolve("cluster"));
        Path file = Files.writeString(dir.resolve("node.json"), Json.write(tree));
        List<String[]> commands = List.of(
                new String[] {"show", "--snapshot", file.toString()},
                new String[] {"show", "--snapshot", file.toString(), "--wide"},
                new String[] {"advise", "--snapshot", file.toString()},
                new String[] {"advise", "--snapshot", file.toString(), "--all"},
                new String[] {"advise", "--cluster", dir.toString()},
                new String[] {"cluster", "show", dir.toString()},
                new String[] {"cluster", "show", dir.toString(), "--all"},
                new String[] {"check", "node", "--snapshot", file.toString(), "--expect", file.toString()},
                new String[] {"diff", basePath.toString(), file.toString()},
                new String[] {"diff", basePath.toString(), file.toString(), "--all"});
        for (String[] args : commands) {
            CliTest.Run r = CliTest.run(args);
            String what = String.join(" ", args).replace(file.toString(), "FILE");
            assertTrue(r.code() != ExitCodes.FAILURE, what + ": " + r.err());
            assertTrue(longestRun(r.err()) <= LongValues.MAX, what + ": " + r.err());
            if (r.code() == ExitCodes.USAGE) {
                continue; // advise refuses a machine whose compute capability reads "10.0ЖЖЖ…" (one cut line above)
            }
            int run = longestRun(r.out());
            assertTrue(run > 0, what + ": the planted value is shown");
            assertTrue(run <= LongValues.MAX, what + ": " + run + " characters of one value");
            assertTrue(r.out().contains(" more characters)"), what + ": says it was cut");
        }
        String json = CliTest.run("show", "--snapshot", file.toString(), "--json").out();
        assertTrue(json.contains(planted), "show --json keeps the whole value");
        assertTrue(CliTest.run("report", "--from", file.toString(), "--format", "json").out().contains(planted),
                "a JSON report keeps the whole value");
    }

    @Test
    void aTraceWithAHundredThousandCharacterGpuNameIsCutInProbeShowAndAdvise() throws Exception {
        String name = "N".repeat(100_000);
        Path trace = OutputTargetsTest.hostileTrace(tmp, name);
        for (String[] args : List.of(new String[] {"probe", "--replay", trace.toString()},
                new String[] {"probe", "--replay", trace.toString(), "--wide"},
                new String[] {"advise", "--snapshot", trace.toString()},
                new String[] {"check", "node", "--snapshot", trace.toString()})) {
            CliTest.Run r = CliTest.run(args);
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().length() < 20_000, String.join(" ", args) + ": " + r.out().length() + " characters");
            assertTrue(r.out().contains(" more characters)"), r.out());
        }
        String advise = CliTest.run("advise", "--snapshot", trace.toString()).out();
        assertTrue(advise.replaceAll("\\s+", "").contains("N".repeat(LongValues.MAX - 30) + "…(99030morecharacters)"), advise);
        CliTest.Run json = CliTest.run("probe", "--replay", trace.toString(), "--json");
        assertTrue(json.out().contains(name), "the JSON keeps the whole name");
    }
}
