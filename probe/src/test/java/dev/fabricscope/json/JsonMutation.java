package dev.fabricscope.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * A change to one place of a JSON file, for property tests of a fast reader against the mapper: which file (an index
 * into the test's list), which member or element (by preorder index, wrapped), and what is put there — removed, null,
 * a whole number, a fraction, a text, a flag, an empty object or list, an int, a reading's value or reason, a PCI-like
 * text. jqwik shrinks each part.
 */
public record JsonMutation(int file, int node, int kind, long number, String text) {

    private static final int KINDS = 12;

    /** Mutations of files {@code 0 … files - 1}. */
    public static Arbitrary<JsonMutation> of(int files) {
        return Combinators.combine(Arbitraries.integers().between(0, files - 1), Arbitraries.integers().between(0, 1_000_000),
                Arbitraries.integers().between(0, KINDS - 1), Arbitraries.longs().between(-5_000_000_000L, 5_000_000_000L),
                Arbitraries.strings().withChars("ab09.:-\\\"\u0001é").ofMaxLength(6)).as(JsonMutation::new);
    }

    /** {@code json} with this change made at one of its places no deeper than {@code maxDepth}, written compactly. */
    public byte[] apply(byte[] json, int maxDepth) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<JsonNode> parents = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        collect(root, parents, keys, 0, maxDepth);
        if (parents.isEmpty()) {
            return json;
        }
        int i = node % parents.size();
        JsonNode parent = parents.get(i);
        Object key = keys.get(i);
        JsonNode old = parent instanceof ObjectNode o ? o.get((String) key) : parent.get((Integer) key);
        JsonNode replacement = replacement(old);
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

    private JsonNode replacement(JsonNode old) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (kind) {
            case 0 -> null; // removed
            case 1 -> f.nullNode();
            case 2 -> f.numberNode(number);
            case 3 -> f.numberNode(number / 7.0);
            case 4 -> f.textNode(text);
            case 5 -> f.booleanNode(number % 2 == 0);
            case 6 -> f.objectNode();
            case 7 -> f.arrayNode().add(old.deepCopy());
            case 8 -> f.numberNode((int) number);
            case 9 -> f.objectNode().set("value", f.numberNode(number));
            case 10 -> f.objectNode().set("missing", f.objectNode().put("kind", text.isEmpty() ? "UNSUPPORTED" : text));
            default -> f.textNode("0000:" + text);
        };
    }

    private static void collect(JsonNode node, List<JsonNode> parents, List<Object> keys, int depth, int maxDepth) {
        if (depth > maxDepth) {
            return;
        }
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                parents.add(o);
                keys.add(e.getKey());
                collect(e.getValue(), parents, keys, depth + 1, maxDepth);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                parents.add(a);
                keys.add(i);
                collect(a.get(i), parents, keys, depth + 1, maxDepth);
            }
        }
    }
}
