package dev.fabricscope.usecase;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.render.rack.RackModel.NodeLinks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The drawing of a cluster folder ({@link RackModel}): the merged view, and each readable node's per-link readings
 * read again from its full report (the merged view keeps only a summary). A report that cannot be read again is drawn
 * from its summary, with why. What {@code cluster draw}, {@code cluster show --format html} and the app share.
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
            return NodeLinks.of(n.readSnapshot(OpenSnapshot.TRACES));
        } catch (SnapshotIO.ReadException | RuntimeException e) {
            return NodeLinks.summaryOnly(n.summary(), "per-link readings not read: " + e.getMessage());
        }
    }
}
