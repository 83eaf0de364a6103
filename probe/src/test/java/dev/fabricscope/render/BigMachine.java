package dev.fabricscope.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.Locale;

/**
 * SYNTHETIC: the DGX H100 sample widened to {@code n} GPUs (the documented limit is 256), every GPU a copy of GPU 0
 * on its own PCI bus and UUID, and one pair entry per unordered GPU pair (n(n-1)/2; 32,640 for 256), each a copy of
 * the sample's first pair: the shape, not a real machine, for timing the renderers.
 */
public final class BigMachine {

    private BigMachine() {
    }

    public static String json(int n) throws Exception {
        MachineSnapshot base = Samples.find("dgx-h100").orElseThrow().snapshot().get();
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(Json.write(base));
        JsonNode gpu0 = tree.get("gpus").get(0);
        JsonNode pair0 = tree.get("pairs").get(0);
        ArrayNode gpus = Json.mapper().createArrayNode();
        for (int i = 0; i < n; i++) {
            ObjectNode g = gpu0.deepCopy();
            g.put("pci", pci(i));
            ((ObjectNode) g.get("uuid")).put("value", String.format(Locale.ROOT, "GPU-%08x-0000-4000-8000-%012x", i, i));
            gpus.add(g);
        }
        ArrayNode pairs = Json.mapper().createArrayNode();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                ObjectNode p = pair0.deepCopy();
                p.put("a", pci(i));
                p.put("b", pci(j));
                pairs.add(p);
            }
        }
        tree.set("gpus", gpus);
        tree.set("pairs", pairs);
        return Json.write(tree);
    }

    public static MachineSnapshot snapshot(int n) throws Exception {
        return SnapshotIO.parse(json(n), "synthetic-" + n);
    }

    private static String pci(int i) {
        return String.format(Locale.ROOT, "%04x:%02x:00.0", i / 200, 1 + i % 200);
    }
}
