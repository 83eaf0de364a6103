package dev.fabricscope.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The strict JSON byte check on its own: what it accepts Jackson's {@code Json.mapper()} parses, and what Jackson
 * refuses it gives up on (the caller then runs the full read). Its use by the cluster's fast path is
 * {@code cluster.read.SummaryScanTest}.
 */
class JsonByteCheckerTest {

    /** Whether the checker accepts {@code json} as one value and nothing after it. */
    private static boolean accepts(byte[] json, SeenValues seen) {
        try {
            JsonByteChecker check = new JsonByteChecker(json, seen);
            int p = JsonByteChecker.ws(json, json.length, 0);
            p = check.skipValue(p, 1, 0);
            return JsonByteChecker.ws(json, json.length, p) == json.length;
        } catch (RuntimeException e) { // GiveUp, or an index past the end of a cut input
            return false;
        }
    }

    private static boolean accepts(String json) {
        return accepts(json.getBytes(StandardCharsets.UTF_8), null);
    }

    private static boolean jacksonParses(byte[] json) {
        try {
            Json.mapper().readTree(json);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "[]", " {\"a\" : 1 } ", "{\"a\":[true,false,null,\"x\\u00e9\\n\"],\"b\":{\"c\":-0.5e+3}}",
        "{\"name\":\"é — 日本 \uD83D\uDE00\"}", "[0, -0, 1.25, 1E9, 12345678901234567890]", "{\"\":\"\"}"})
    void acceptsWhatJacksonParses(String json) {
        assertTrue(accepts(json), json);
        assertTrue(jacksonParses(json.getBytes(StandardCharsets.UTF_8)), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1,\"a\":2}", "{\"a\":01}", "{\"a\":\"\u0001\"}", "{\"a\":1,}", "{\"a\":tru}", "{\"a\":1x}",
        "{\"a\":NaN}", "{\"a\":\"\\q\"}", "{\"a\":.5}", "{\"a\":-}", "{\"a\" 1}", "[1 2]", "{\"a\":1", "{'a':1}", "{\"a\":\"x}"})
    void givesUpOnWhatJacksonRefuses(String json) {
        assertFalse(jacksonParses(json.getBytes(StandardCharsets.UTF_8)), "Jackson refuses " + json);
        assertFalse(accepts(json), json);
    }

    @Test
    void malformedUtf8GivesUp() {
        byte[][] bad = {
            {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'}, // overlong
            {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}, // a surrogate
            {'{', '"', 'a', '"', ':', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'}, // past U+10FFFF
            {'{', '"', 'a', '"', ':', '"', (byte) 0xE2, (byte) 0x82, '"', '}'}, // cut
        };
        for (byte[] b : bad) {
            assertFalse(accepts(b, null), new String(b, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void stricterNeverLooser() {
        String deep = "[".repeat(JsonByteChecker.MAX_DEPTH + 1) + "]".repeat(JsonByteChecker.MAX_DEPTH + 1);
        assertTrue(jacksonParses(deep.getBytes(StandardCharsets.UTF_8)), "Jackson takes 41 levels");
        assertFalse(accepts(deep), "nesting near Jackson's limit is left to the full read");
        assertFalse(accepts("{\"a\\u0062\":1}"), "an escape in a member name is left to the full read");
        assertThrows(JsonByteChecker.GiveUp.class, () -> JsonByteChecker.nameEnd(new byte[] {'"', 'a'}, 2, 0));
    }

    @Test
    void aValueSeenBeforeDoesNotHideAnErrorAfterItsPrefix() {
        SeenValues seen = new SeenValues();
        String good = "{\"k\":[1,2,3,4,5,6,7,8,9,10,11]}";
        String bad = "{\"k\":[1,2,3,4,5,6,7,8,9,10,1x]}"; // the same first 16 bytes
        assertTrue(accepts(good.getBytes(StandardCharsets.UTF_8), seen));
        assertTrue(accepts(good.getBytes(StandardCharsets.UTF_8), seen), "the same bytes again");
        assertFalse(accepts(bad.getBytes(StandardCharsets.UTF_8), seen));
    }
}
