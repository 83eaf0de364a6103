package dev.fabricscope.nativeapi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
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

    /** A change to one place of a trace: which trace, which node (by preorder index), what is done there. */
    record Mutation(int file, int node, int kind, long number, String text) {
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        return Combinators.combine(Arbitraries.integers().between(0, TRACES.size() - 1), Arbitraries.integers().between(0, 1_000_000),
                Arbitraries.integers().between(0, 9), Arbitraries.longs().between(-5_000_000_000L, 5_000_000_000L),
                Arbitraries.strings().withChars("ab09.:-\\\"\u0001").ofMaxLength(6)).as(Mutation::new);
    }

    @Property(tries = 300)
    void aMutatedTraceReadsAsTheMapperReadsIt(@ForAll("mutations") Mutation m) {
        String name = new ArrayList<>(TRACES.keySet()).get(m.file());
        byte[] mutated = mutate(TRACES.get(name), m);
        assertEquals(mapperOnly(mutated), viaRead(mutated), name + " " + m);
    }

    @Property(tries = 100)
    void aCutTraceReadsAsTheMapperReadsIt(@ForAll @IntRange(min = 0, max = 20) int file,
                                         @ForAll @IntRange(min = 0, max = 1_000_000) int at) {
        byte[] whole = new ArrayList<>(TRACES.values()).get(file % TRACES.size());
        byte[] cut = java.util.Arrays.copyOf(whole, at % (whole.length + 1));
        assertEquals(mapperOnly(cut), viaRead(cut));
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

    private static byte[] mutate(byte[] json, Mutation m) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<JsonNode> parents = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        collect(root, parents, keys, 0);
        int i = m.node() % parents.size();
        JsonNodeFactory f = JsonNodeFactory.instance;
        JsonNode replacement = switch (m.kind()) {
            case 0 -> null; // removed
            case 1 -> f.nullNode();
            case 2 -> f.numberNode(m.number());
            case 3 -> f.numberNode(m.number() / 7.0);
            case 4 -> f.textNode(m.text());
            case 5 -> f.booleanNode(m.number() % 2 == 0);
            case 6 -> f.objectNode();
            case 7 -> f.arrayNode();
            case 8 -> f.numberNode((int) m.number());
            default -> f.textNode("THREW");
        };
        JsonNode parent = parents.get(i);
        Object key = keys.get(i);
        if (parent instanceof ObjectNode o) {
            if (replacement == null) {
                o.remove((String) key);
            } else {
                o.set((String) key, replacement);
            }
        } else if (parent instanceof ArrayNode a) {
            if (replacement == null) {
                a.remove((Integer) key);
            } else {
                a.set((Integer) key, replacement);
            }
        }
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The places of the trace's envelope and its calls' members (not deep inside a recorded snapshot: too many). */
    private static void collect(JsonNode node, List<JsonNode> parents, List<Object> keys, int depth) {
        if (depth > 4) {
            return;
        }
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                parents.add(o);
                keys.add(e.getKey());
                collect(e.getValue(), parents, keys, depth + 1);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                parents.add(a);
                keys.add(i);
                collect(a.get(i), parents, keys, depth + 1);
            }
        }
    }
}
