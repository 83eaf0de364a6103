package dev.fabricscope.nativeapi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.fabricscope.json.JsonMutation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link TraceIO#read} reads a plainly well-formed trace token by token ({@link TraceStream}; issue 31: databind's
 * record creator was most of a 256-GPU trace's read). Held here: every captured, planted and synthetic trace takes that
 * path and reads equal to the mapper's binding, and mutations of them (a member changed, removed, nulled or retyped;
 * the text cut) read exactly as the mapper-only reading does: the same trace, or the same one-line error.
 */
class TraceStreamTest {

    private static final Map<String, byte[]> TRACES = traces();

    private static Map<String, byte[]> traces() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(Path.of("src", "test", "resources"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith("trace.json")).sorted().toList()) {
                out.put(f.toString(), Files.readAllBytes(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Test
    void everyTraceWeHoldReadsTokenByTokenAndEqualToTheMapper() throws Exception {
        assertEquals(true, TRACES.size() >= 10, "traces found: " + TRACES.keySet());
        for (Map.Entry<String, byte[]> f : TRACES.entrySet()) {
            NativeTrace streamed = TraceStream.read(f.getValue());
            assertNotNull(streamed, f.getKey() + " took the mapper's path");
            assertEquals(TraceIO.bound(f.getValue(), f.getKey()), streamed, f.getKey());
        }
    }

    @Provide
    Arbitrary<JsonMutation> mutations() {
        return JsonMutation.of(TRACES.size());
    }

    /** Mutations of the envelope and the calls' members (not deep inside a recorded snapshot: too many places). */
    @Property(tries = 300)
    void aMutatedTraceReadsAsTheMapperReadsIt(@ForAll("mutations") JsonMutation m) {
        String name = new ArrayList<>(TRACES.keySet()).get(m.file());
        byte[] mutated = m.apply(TRACES.get(name), 4);
        assertEquals(mapperOnly(mutated), viaRead(mutated), name + " " + m);
    }

    @Property(tries = 100)
    void aCutTraceReadsAsTheMapperReadsIt(@ForAll @IntRange(min = 0, max = 20) int file,
                                         @ForAll @IntRange(min = 0, max = 1_000_000) int at) {
        byte[] whole = new ArrayList<>(TRACES.values()).get(file % TRACES.size());
        byte[] cut = java.util.Arrays.copyOf(whole, at % (whole.length + 1));
        assertEquals(mapperOnly(cut), viaRead(cut));
    }

    /** The reader gives up on a member named twice or not known (the parser's own detector is off for it). */
    @Test
    void aMemberNamedTwiceOrUnknownReadsAsTheMapperReadsIt() {
        String name = TRACES.keySet().stream().filter(k -> k.contains("h200-nvswitch")).findFirst()
                .orElse(TRACES.keySet().iterator().next());
        String whole;
        try {
            whole = dev.fabricscope.json.Json.mapper().readTree(TRACES.get(name)).toString(); // compact, so the edits below find their places
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int call = whole.indexOf("{\"seq\":");
        assertEquals(true, call > 0, name);
        Map<String, String> variants = new LinkedHashMap<>();
        variants.put("seq twice in a call", whole.substring(0, call + 1) + "\"seq\":7," + whole.substring(call + 1));
        variants.put("lib twice in a call", whole.substring(0, call + 1) + "\"lib\":\"nvml\"," + whole.substring(call + 1));
        variants.put("source twice", "{\"source\":\"a\"," + whole.substring(1).replaceFirst("\"source\":", "\"source\":"));
        variants.put("format twice", "{\"format\":\"x\"," + whole.substring(1));
        variants.put("a key twice inside args", whole.substring(0, call + 1) + "\"args\":[{\"k\":1,\"k\":2}]," + whole.substring(call + 1)
                .replaceFirst("\"args\":", "\"argsOld\":"));
        variants.put("an unknown member in a call", whole.substring(0, call + 1) + "\"extra\":1," + whole.substring(call + 1));
        variants.put("an unknown member of the trace", "{\"extra\":{\"a\":1}," + whole.substring(1));
        for (Map.Entry<String, String> v : variants.entrySet()) {
            byte[] json = v.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(null, TraceStream.read(json), v.getKey() + ": the token reader must give up");
            assertEquals(mapperOnly(json), viaRead(json), v.getKey());
        }
        assertEquals(true, String.valueOf(viaRead(variants.get("seq twice in a call").getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .startsWith("error: "), "the mapper refuses a member named twice");
    }

    private static Object mapperOnly(byte[] json) {
        try {
            return TraceIO.checked(TraceIO.bound(json, "f"), "f");
        } catch (TraceIO.TraceFormatException e) {
            return "error: " + e.getMessage();
        }
    }

    private static Object viaRead(byte[] json) {
        try {
            return TraceIO.read(json, "f");
        } catch (TraceIO.TraceFormatException e) {
            return "error: " + e.getMessage();
        }
    }
}
