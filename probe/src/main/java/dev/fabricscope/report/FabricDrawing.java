package dev.fabricscope.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.fabric.FabricSvg;
import dev.fabricscope.text.Escape;
import java.util.Iterator;
import java.util.Map;

/**
 * The fabric graph ({@link FabricLayout}, {@link FabricSvg}) as an inline SVG element for the HTML report. A report
 * is untrusted, so the graph is drawn from a copy of the snapshot whose strings are cut to {@value #MAX} characters
 * and have invisible characters shown as escapes; {@link FabricSvg} escapes markup itself.
 */
final class FabricDrawing {

    /** Longest string drawn: a label that long already runs off its box. */
    static final int MAX = 120;

    private FabricDrawing() {
    }

    /** The {@code <svg>} element (no XML prolog), or null when the machine has no GPUs to draw. */
    static String svg(MachineSnapshot s) {
        if (s.gpus().isEmpty()) {
            return null;
        }
        String svg = FabricSvg.render(FabricLayout.layout(tame(s)), FabricPalette.LIGHT);
        int at = svg.indexOf("<svg");
        return at < 0 ? null : svg.substring(at);
    }

    /** The snapshot with every string cut and made visible. */
    static MachineSnapshot tame(MachineSnapshot s) {
        JsonNode tree = Json.mapper().valueToTree(s);
        try {
            return Json.mapper().treeToValue(strings(tree), MachineSnapshot.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot copy the snapshot for drawing: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode strings(JsonNode n) {
        if (n.isTextual()) {
            String v = n.asText();
            String t = Escape.visible(Escape.cut(v, MAX), false);
            return t.equals(v) ? n : TextNode.valueOf(t);
        }
        if (n.isObject()) {
            ObjectNode o = (ObjectNode) n;
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                e.setValue(strings(e.getValue()));
            }
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = (ArrayNode) n;
            for (int i = 0; i < a.size(); i++) {
                a.set(i, strings(a.get(i)));
            }
        }
        return n;
    }
}
