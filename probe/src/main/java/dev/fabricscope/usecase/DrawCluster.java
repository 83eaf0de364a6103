package dev.fabricscope.usecase;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.io.ErrorText;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.render.rack.RackModel.NodeLinks;
import dev.fabricscope.render.rack.TrayLinks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The drawing of a cluster folder ({@link RackModel}): the merged view, and each readable node's per-link readings,
 * which the merged view's summary leaves out, read again from its report: only the links and switches of its JSON tree
 * (a full snapshot read costs ten times more), or the whole file where it is no snapshot or report (a native-call
 * trace, replayed). A file that cannot be read again is drawn from its summary, with why. What {@code cluster draw},
 * {@code cluster show --format html} and the app share.
 */
public final class DrawCluster {

    private DrawCluster() {
    }

    /** The drawing's model of {@code view}, each node's links read in parallel. */
    public static RackModel model(ClusterView view) {
        Map<String, NodeLinks> links = new ConcurrentHashMap<>();
        view.readable().parallelStream().forEach(n -> links.put(n.name(), linksOf(n)));
        return RackModel.of(view, n -> links.get(n.name()));
    }

    static NodeLinks linksOf(ClusterNode n) {
        try {
            if (n.held() == null) {
                NodeLinks scanned = scan(SnapshotIO.readBytes(Path.of(n.file())));
                if (scanned != null) {
                    return scanned;
                }
            }
            return NodeLinks.of(n.readSnapshot(OpenSnapshot.TRACES));
        } catch (SnapshotIO.ReadException | IOException | RuntimeException e) {
            return NodeLinks.summaryOnly(n.summary(), "per-link readings not read: " + ErrorText.oneLineSafe(e.getMessage()));
        }
    }

    /**
     * The links of a snapshot or report file as {@link TrayLinks#of} reads them from the snapshot ({@code gpus[].nvLinks},
     * {@code nvSwitches[].pci}); null when the file holds no snapshot (no {@code gpus} array).
     */
    static NodeLinks scan(byte[] json) throws IOException {
        JsonNode root = Json.mapper().readTree(json);
        JsonNode s = root.path("snapshot").isObject() ? root.get("snapshot") : root;
        if (!s.path("gpus").isArray()) {
            return null;
        }
        List<TrayLinks> gpus = new ArrayList<>();
        int index = 0;
        for (JsonNode g : s.get("gpus")) {
            int links = 0;
            int up = 0;
            int toSwitch = 0;
            Set<Double> rates = new TreeSet<>();
            Set<Integer> generations = new TreeSet<>();
            boolean rateUnknown = false;
            for (JsonNode l : g.path("nvLinks")) {
                links++;
                if (!l.path("active").path("value").asBoolean(false)) {
                    continue;
                }
                up++;
                if (NvLink.REMOTE_SWITCH.equals(l.path("remoteType").path("value").asText(null))) {
                    toSwitch++;
                }
                JsonNode rate = l.path("gbpsPerDirection").path("value");
                if (rate.isNumber() && rate.asDouble() > 0) {
                    rates.add(rate.asDouble());
                } else {
                    rateUnknown = true;
                }
                JsonNode gen = l.path("generation").path("value");
                if (gen.isInt()) {
                    generations.add(gen.asInt());
                }
            }
            gpus.add(TrayLinks.of(index++, links, up, toSwitch, rates, rateUnknown, generations));
        }
        int seen = 0;
        for (JsonNode w : s.path("nvSwitches")) {
            if (w.path("pci").has("value")) {
                seen++;
            }
        }
        return new NodeLinks(gpus, seen, null);
    }
}
