package dev.fabricscope.cluster;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Synthetic multi-node report sets built from the bundled synthetic samples: each node is a copy of a sample with
 * its own hostname and GPU UUIDs, and optionally another driver, fabric clique or link state.
 */
final class ClusterFixtures {
    private ClusterFixtures() {
    }

    static MachineSnapshot sample(String name) {
        return SyntheticCluster.sample(name);
    }

    static MachineSnapshot node(MachineSnapshot s, String hostname, int nodeIndex) {
        return SyntheticCluster.node(s, hostname, nodeIndex);
    }

    static MachineSnapshot withDriver(MachineSnapshot s, String version) {
        return SyntheticCluster.withDriver(s, version);
    }

    static MachineSnapshot withClique(MachineSnapshot s, long clique) {
        return SyntheticCluster.withFabric(s, null, clique);
    }

    static void write(Path dir, MachineSnapshot s, String file) throws Exception {
        SyntheticCluster.write(dir, s, file);
    }

    /** 18 GB200 compute trays of one NVL72 rack: one MNNVL domain. */
    static void gb200Rack(Path dir) throws Exception {
        MachineSnapshot tray = sample("gb200-nvl72-tray");
        for (int i = 1; i <= 18; i++) {
            String host = String.format(Locale.ROOT, "gb200-rack1-tray%02d", i);
            write(dir, node(tray, host, i), host + ".json");
        }
    }
}
