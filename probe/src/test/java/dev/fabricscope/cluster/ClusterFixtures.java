package dev.fabricscope.cluster;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Synthetic multi-node report sets built from the bundled synthetic samples: each node is a copy of a sample with
 * its own hostname and GPU UUIDs, and optionally another driver, fabric clique or link state.
 */
final class ClusterFixtures {
    private ClusterFixtures() {
    }

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    static MachineSnapshot node(MachineSnapshot s, String hostname, int nodeIndex) {
        HostInfo h = s.host();
        HostInfo host = new HostInfo(Reading.of(hostname), h.os(), h.kernel(), h.architecture(), h.cpuModel(), h.logicalCpus(), h.numaNodes());
        List<Gpu> gpus = s.gpus().stream().map(g -> new Gpu(g.pci(),
                g.uuid().map(u -> u.substring(0, u.length() - 4) + String.format(Locale.ROOT, "%04x", nodeIndex)), g.nvmlIndex(), g.cudaOrdinal(),
                g.name(), g.serial(), g.architecture(), g.computeCapability(), g.smCount(), g.memoryTotalBytes(), g.numaNode(),
                g.cpuAffinity(), g.migMode(), g.virtualizationMode(), g.persistenceMode(), g.cuda(), g.nvLinkCount(), g.nvLinks(),
                g.fabric())).toList();
        return new MachineSnapshot(s.schemaVersion(), s.probe(), host, s.driver(), gpus, s.nvSwitches(), s.pairs(), s.environment(), s.findings());
    }

    static MachineSnapshot withDriver(MachineSnapshot s, String version) {
        DriverInfo d = s.driver();
        return new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), new DriverInfo(d.status(), d.message(), Reading.of(version),
                d.cudaDriverVersion(), d.nvmlVersion(), d.nccl(), d.imexChannels(), d.cudaDeviceCount()),
                s.gpus(), s.nvSwitches(), s.pairs(), s.environment(), s.findings());
    }

    static MachineSnapshot withClique(MachineSnapshot s, long clique) {
        List<Gpu> gpus = s.gpus().stream().map(g -> {
            FabricInfo f = g.fabric();
            FabricInfo nf = new FabricInfo(f.api(), f.state(), f.status(), Reading.of(clique), f.clusterUuid(), f.healthMask(), f.healthSummary());
            return new Gpu(g.pci(), g.uuid(), g.nvmlIndex(), g.cudaOrdinal(), g.name(), g.serial(), g.architecture(),
                    g.computeCapability(), g.smCount(), g.memoryTotalBytes(), g.numaNode(), g.cpuAffinity(), g.migMode(),
                    g.virtualizationMode(), g.persistenceMode(), g.cuda(), g.nvLinkCount(), g.nvLinks(), nf);
        }).toList();
        return new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(), gpus, s.nvSwitches(), s.pairs(), s.environment(), s.findings());
    }

    static void write(Path dir, MachineSnapshot s, String file) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(file), Json.write(s));
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
