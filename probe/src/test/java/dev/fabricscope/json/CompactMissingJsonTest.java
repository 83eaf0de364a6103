package dev.fabricscope.json;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: a missing reading takes one line of JSON, not five, and the document stays the same: what Jackson's
 * plain serialisation gives, read back to the same snapshot; reports written before (five lines each) still read.
 */
class CompactMissingJsonTest {

    /** Jackson as it writes without the compact form (what reports were before). */
    private static final com.fasterxml.jackson.databind.ObjectMapper PLAIN = new com.fasterxml.jackson.databind.ObjectMapper()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

    @Test
    void aMissingReadingIsOneLineOfTheSameDocument() throws Exception {
        List<MachineSnapshot> all = new ArrayList<>();
        Samples.list().forEach(x -> all.add(x.snapshot().get()));
        // written before the compact form: "missing" and each of its fields on lines of their own
        Path old = Path.of("src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/probe.json");
        assertTrue(Files.readString(old).lines().anyMatch(l -> l.strip().equals("\"missing\" : {")), "the old form");
        all.add(SnapshotIO.read(old));
        for (MachineSnapshot s : all) {
            String json = Json.write(s);
            assertTrue(PLAIN.readTree(PLAIN.writeValueAsString(s)).equals(Json.mapper().readTree(json)), "the same document");
            assertTrue(s.equals(Json.mapper().readValue(json, MachineSnapshot.class)), "reads back the same");
            String fast = RecordJson.write(s);
            assertTrue(Json.mapper().readTree(fast).equals(Json.mapper().readTree(json)), "the fast writer writes the same document");
            for (String text : List.of(json, fast)) {
                assertFalse(text.lines().anyMatch(l -> l.strip().equals("\"missing\" : {")), "no missing reading spread over lines");
            }
        }
        String h100 = Json.write(Samples.find("dgx-h100").orElseThrow().snapshot().get());
        assertTrue(h100.contains("\"speedMbps\" : { \"missing\" : { \"kind\" : \"NOT_APPLICABLE\", \"detail\" : \"link speed not read\" } }"));
        long before = PLAIN.writerWithDefaultPrettyPrinter().writeValueAsString(Samples.find("dgx-h100").orElseThrow().snapshot().get())
                .lines().count();
        assertTrue(h100.lines().count() * 2 < before, h100.lines().count() + " lines, were " + before);
    }
}
