package dev.fabricscope.cluster;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Synthetic multi-node report sets built from the bundled synthetic samples: each node is a copy of a sample with
 * its own hostname and GPU UUIDs, and optionally another driver, fabric clique or link state.
 */
public final class ClusterFixtures {
    private ClusterFixtures() {
    }

    public static MachineSnapshot sample(String name) {
        return SyntheticCluster.sample(name);
    }

    public static MachineSnapshot node(MachineSnapshot s, String hostname, int nodeIndex) {
        return SyntheticCluster.node(s, hostname, nodeIndex);
    }

    public static MachineSnapshot withDriver(MachineSnapshot s, String version) {
        return SyntheticCluster.withDriver(s, version);
    }

    public static MachineSnapshot withClique(MachineSnapshot s, long clique) {
        return SyntheticCluster.withFabric(s, null, clique);
    }

    public static void write(Path dir, MachineSnapshot s, String file) throws Exception {
        SyntheticCluster.write(dir, s, file);
    }

    /** 18 GB200 compute trays of one NVL72 rack: one MNNVL domain. */
    public static void gb200Rack(Path dir) throws Exception {
        MachineSnapshot tray = sample("gb200-nvl72-tray");
        for (int i = 1; i <= 18; i++) {
            String host = String.format(Locale.ROOT, "gb200-rack1-tray%02d", i);
            write(dir, node(tray, host, i), host + ".json");
        }
    }
}
