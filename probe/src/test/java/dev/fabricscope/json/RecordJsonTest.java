package dev.fabricscope.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class RecordJsonTest {

    @Test
    void writesTheSameDocumentAsJacksonAndRoundTripsExactly() throws Exception {
        MachineSnapshot captured = SnapshotIO.read(Paths.get("src/test/resources/captured/h200-vm-2026-11-29/probe.json"));
        for (MachineSnapshot s : new java.util.ArrayList<>(java.util.List.of(captured)) {{
            Samples.list().forEach(x -> add(x.snapshot().get()));
        }}) {
            String fast = RecordJson.write(s);
            JsonNode expected = Json.mapper().readTree(Json.write(s));
            assertEquals(expected, Json.mapper().readTree(fast));
            assertEquals(s, Json.mapper().readValue(fast, MachineSnapshot.class));
        }
    }

    @Test
    void escapesControlCharactersAndQuotes() throws Exception {
        record Hostile(String text) {
        }
        String nasty = "a\"b\\c\n\u0000\u001f</script>\u2028";
        String json = RecordJson.write(new Hostile(nasty));
        assertEquals(nasty, Json.mapper().readTree(json).get("text").asText());
    }
}
