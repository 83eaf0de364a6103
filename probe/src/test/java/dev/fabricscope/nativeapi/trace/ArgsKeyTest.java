package dev.fabricscope.nativeapi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The direct key text is Jackson's compact text, for live arguments and for recorded ones alike. */
class ArgsKeyTest {

    private static final Object[][] ARGS = {
        {},
        {0},
        {255, 3},
        {7, -1L, Long.MAX_VALUE, Integer.MIN_VALUE},
        {0, new int[][] {{91, 0}, {164, 17}}},
        {3, new int[] {1, 2, 3}},
        {true, false, null},
        {"/sys/bus/pci/devices/0000:00:06.0"},
        {"tab\there", "quote\"back\\slash", "\u0001\u001f", "GPU ünïcødé €", ""},
        {List.of(6666, 50000)},
        {List.of("nv-fabricmanage", "nvidia-imex")},
        {null, List.of(), new int[0][]},
        {1.5, 'c'},
    };

    @Test
    void liveArgumentsKeyAsJacksonWritesThem() {
        for (Object[] a : ARGS) {
            assertEquals(Json.mapper().valueToTree(a).toString(), ArgsKey.of(a), java.util.Arrays.deepToString(a));
        }
    }

    @Test
    void recordedArgumentsKeyAsTheirTreePrints() throws Exception {
        for (Object[] a : ARGS) {
            JsonNode recorded = Json.mapper().readTree(Json.mapper().valueToTree(a).toString());
            assertEquals(recorded.toString(), ArgsKey.of(recorded));
            assertEquals(ArgsKey.of(a), ArgsKey.of(recorded), java.util.Arrays.deepToString(a));
        }
    }
}
