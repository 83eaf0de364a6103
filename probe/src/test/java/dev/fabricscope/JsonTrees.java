package dev.fabricscope;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Walks a JSON tree for the mutation tests. */
public final class JsonTrees {
    private JsonTrees() {
    }

    /** Adds every slot of the tree as {parent, key}: a member name (text) of an object or an index (number) of a list. */
    public static void collect(JsonNode n, List<JsonNode[]> out) {
        var f = Json.mapper().getNodeFactory();
        if (n instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(new JsonNode[] {o, f.textNode(e.getKey())});
                collect(e.getValue(), out);
            }
        } else if (n instanceof ArrayNode a) {
            for (int k = 0; k < a.size(); k++) {
                out.add(new JsonNode[] {a, f.numberNode(k)});
                collect(a.get(k), out);
            }
        }
    }
}
