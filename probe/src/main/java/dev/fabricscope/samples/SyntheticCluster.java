package dev.fabricscope.samples;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Reading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * SYNTHETIC multi-node report sets for tests, screenshots and benchmarks: each node is a copy of a bundled synthetic
 * sample with its own hostname and GPU UUIDs, optionally on another driver or in another MNNVL fabric clique.
 */
public final class SyntheticCluster {

    private SyntheticCluster() {
    }

    public static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow(() -> new IllegalArgumentException("no sample " + name)).snapshot().get();
    }

    /** {@code s} as another host: its hostname, and GPU UUIDs whose last four hex digits are the node index. */
    public static MachineSnapshot node(MachineSnapshot s, String hostname, int nodeIndex) {
        HostInfo h = s.host();
        HostInfo host = h.withHostname(Reading.of(hostname));
        MachineSnapshot renamed = new MachineSnapshot(s.schemaVersion(), s.probe(), host, s.driver(), s.gpus(), s.nvSwitches(),
                s.pairs(), s.environment(), s.findings(), s.node(), s.pythonStack());
        return mapGpus(renamed, g -> withUuid(g, g.uuid().map(u -> u.substring(0, u.length() - 4)
                + String.format(Locale.ROOT, "%04x", nodeIndex & 0xffff))));
    }

    public static MachineSnapshot withDriver(MachineSnapshot s, String version) {
        DriverInfo d = s.driver();
        return new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), new DriverInfo(d.status(), d.message(), Reading.of(version),
                d.cudaDriverVersion(), d.nvmlVersion(), d.nccl(), d.imexChannels(), d.cudaDeviceCount()),
                s.gpus(), s.nvSwitches(), s.pairs(), s.environment(), s.findings(), s.node(), s.pythonStack());
    }

    /** Every GPU of {@code s} in MNNVL fabric cluster {@code uuid} (null: keep the sample's), clique {@code clique}. */
    public static MachineSnapshot withFabric(MachineSnapshot s, String uuid, long clique) {
        return mapFabric(s, (i, f) -> new FabricInfo(f.api(), f.state(), f.status(), Reading.of(clique),
                uuid == null ? f.clusterUuid() : Reading.of(uuid), f.healthMask(), f.healthSummary()));
    }

    /** {@code s} with each GPU's fabric info replaced by {@code f(gpu index, fabric info)}. */
    public static MachineSnapshot mapFabric(MachineSnapshot s, java.util.function.BiFunction<Integer, FabricInfo, FabricInfo> f) {
        int[] i = {0};
        return mapGpus(s, g -> g.withFabric(f.apply(i[0]++, g.fabric())));
    }

    public static void write(Path dir, MachineSnapshot s, String file) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(file), Json.write(s));
    }

    private static MachineSnapshot mapGpus(MachineSnapshot s, UnaryOperator<Gpu> f) {
        List<Gpu> gpus = s.gpus().stream().map(f).toList();
        return new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(), gpus, s.nvSwitches(), s.pairs(), s.environment(), s.findings(), s.node(), s.pythonStack());
    }

    private static Gpu withUuid(Gpu g, Reading<String> uuid) {
        return g.withUuid(uuid);
    }
}
