package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterAnalysis;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Run by {@link ClusterReadMemoryTest} in a JVM of its own with a small heap: reads a cluster folder as
 * {@code cluster show} does and prints what it kept and the heap it took; with {@code --full N}, holds the full
 * snapshots of N nodes as well (what the cluster view did before it read summaries), to weigh them.
 */
public final class ClusterMemoryProbe {
    private ClusterMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int full = args.length > 2 && args[1].equals("--full") ? Integer.parseInt(args[2]) : 0;
        List<ClusterNode> nodes = ClusterReader.read(dir);
        List<MachineSnapshot> held = new ArrayList<>();
        for (ClusterNode n : nodes.subList(0, Math.min(full, nodes.size()))) {
            held.add(n.readSnapshot(dev.fabricscope.io.SnapshotIO.OtherFormats.NONE));
        }
        ClusterView view = ClusterAnalysis.analyse(dir.toString(), nodes);
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long used = rt.totalMemory() - rt.freeMemory();
        System.out.println("nodes=" + view.readable().size() + " held=" + held.size() + " usedAfterGcKiB=" + (used >> 10)
                + " maxMiB=" + (rt.maxMemory() >> 20) + " differences=" + view.inconsistencies().size());
    }
}
