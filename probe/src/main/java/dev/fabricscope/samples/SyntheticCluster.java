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

    /** The tray of a synthetic rack whose GPU2 has four links down ({@link #nvl72Rack}). */
    public static final int LINKS_DOWN_TRAY = 7;
    /** The tray of a synthetic rack in another clique of the same fabric ({@link #nvl72Rack}). */
    public static final int OTHER_CLIQUE_TRAY = 12;

    /**
     * SYNTHETIC GB200 NVL72 rack {@code rack} (0-based) as 18 compute-tray reports, each a copy of the
     * {@code gb200-nvl72-tray} sample (GB200 NVL72 datasheet: 18 compute trays of 4 GPUs): hosts
     * {@code rack<r>-tray<NN>} (NN 01–18), GPU UUIDs distinct across racks, one MNNVL cluster UUID per rack. With
     * {@code oddTrays}, tray {@value #LINKS_DOWN_TRAY} has four of GPU2's links down and tray {@value #OTHER_CLIQUE_TRAY}
     * is in another clique.
     */
    public static List<MachineSnapshot> nvl72Rack(int rack, boolean oddTrays) {
        MachineSnapshot tray = sample("gb200-nvl72-tray");
        String uuid = String.format(Locale.ROOT, "00000000-0000-4000-8000-%012x", rack + 1);
        long clique = tray.gpus().get(0).fabric().cliqueId().orElse(0L);
        List<MachineSnapshot> out = new java.util.ArrayList<>();
        for (int t = 1; t <= 18; t++) {
            String host = String.format(Locale.ROOT, "rack%d-tray%02d", rack + 1, t);
            MachineSnapshot node = withFabric(node(tray, host, rack * 18 + t), uuid, oddTrays && t == OTHER_CLIQUE_TRAY
                    ? clique + 1 : clique);
            if (oddTrays && t == LINKS_DOWN_TRAY) {
                node = withLinksDown(node, 2, 4);
            }
            out.add(node);
        }
        return out;
    }

    /** {@code racks} synthetic NVL72 racks ({@link #nvl72Rack}) written to {@code dir}, the odd trays in the first only. */
    public static void writeNvl72Racks(Path dir, int racks, boolean oddTrays) throws IOException {
        for (int r = 0; r < racks; r++) {
            for (MachineSnapshot s : nvl72Rack(r, oddTrays && r == 0)) {
                write(dir, s, s.host().hostname().value() + ".json");
            }
        }
    }

    /** {@code s} with the last {@code count} links of GPU {@code gpu} down. */
    public static MachineSnapshot withLinksDown(MachineSnapshot s, int gpu, int count) {
        int[] i = {0};
        return mapGpus(s, g -> {
            if (i[0]++ != gpu) {
                return g;
            }
            List<dev.fabricscope.model.NvLink> links = new java.util.ArrayList<>(g.nvLinks());
            for (int k = links.size() - count; k < links.size(); k++) {
                links.set(k, links.get(k).down());
            }
            return g.withLinks(links);
        });
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
