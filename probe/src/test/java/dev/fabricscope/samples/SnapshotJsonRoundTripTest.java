package dev.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bundled sample, captured and synthetic, survives JSON write → read unchanged. */
class SnapshotJsonRoundTripTest {

    static Stream<String> sampleNames() {
        return Samples.names().stream();
    }

    @ParameterizedTest
    @MethodSource("sampleNames")
    void sampleRoundTripsExactly(String name) throws Exception {
        MachineSnapshot original = Samples.find(name).orElseThrow().snapshot().get();
        ObjectMapper mapper = Json.mapper();
        String json = mapper.writeValueAsString(original);
        MachineSnapshot read = mapper.readValue(json, MachineSnapshot.class);
        assertEquals(original, read);
        assertEquals(json, mapper.writeValueAsString(read));
    }
}
