package dev.fabricscope.app;

import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.check.api.NodeCheckResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * SYNTHETIC cluster folders for the cluster page's tests and screenshots, built like the probe module's
 * {@code dev.fabricscope.cluster.ClusterFixtures}: each node report is a copy of a bundled synthetic sample
 * ({@code gb200-nvl72-tray}: one compute tray of a GB200 NVL72 rack, 18 trays sharing one NVLink domain as NVIDIA's
 * NVL72 specification describes; {@code dgx-h100}: an 8-GPU DGX H100) with its own hostname and GPU UUIDs, and
 * optionally another driver or another fabric cluster/clique.
 *
 * <p>{@code main(kind, dir)} writes one of the folders (for the screenshot tour): {@code mixed}, {@code racks},
 * {@code checked}, {@code scale [N]}.
 */
public final class ClusterFolders {

    /** A driver release other than the samples' 580.126.20. */
    public static final String OTHER_DRIVER = "575.57.08";

    private ClusterFolders() {
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

    static MachineSnapshot withFabric(MachineSnapshot s, String uuid, long clique) {
        return SyntheticCluster.withFabric(s, uuid, clique);
    }

    static void write(Path dir, MachineSnapshot s, String file) throws Exception {
        SyntheticCluster.write(dir, s, file);
    }

    static String tray(int rack, int tray) {
        return String.format(Locale.ROOT, "gb200-rack%d-tray%02d", rack, tray);
    }

    /** The 18 compute trays of one NVL72 rack: one MNNVL domain (fabric cluster {@code uuid}; null: the sample's). */
    static void rack(Path dir, int rack, String uuid) throws Exception {
        MachineSnapshot base = sample("gb200-nvl72-tray");
        if (uuid != null) {
            base = withFabric(base, uuid, base.gpus().get(0).fabric().cliqueId().orElse(0L));
        }
        for (int i = 1; i <= 18; i++) {
            write(dir, node(base, tray(rack, i), rack * 100 + i), tray(rack, i) + ".json");
        }
    }

    static String h100(int i) {
        return String.format(Locale.ROOT, "dgx-h100-%02d", i);
    }

    /**
     * 18 GB200 trays in one NVLink domain, two DGX H100 nodes (each its own domain), and one node — tray 07 — on
     * another driver.
     */
    public static void mixed(Path dir) throws Exception {
        rack(dir, 1, null);
        MachineSnapshot h100 = sample("dgx-h100");
        write(dir, node(h100, h100(1), 1001), h100(1) + ".json");
        write(dir, node(h100, h100(2), 1002), h100(2) + ".json");
        write(dir, withDriver(node(sample("gb200-nvl72-tray"), tray(1, 7), 107), OTHER_DRIVER), tray(1, 7) + ".json");
    }

    /**
     * One NVL72 rack whose 72 GPUs all report fabric health UNHEALTHY: every node agrees, so only a judgment of each
     * node's own data shows it (issue 24).
     */
    public static void unhealthyRack(Path dir) throws Exception {
        MachineSnapshot base = SyntheticCluster.mapFabric(sample("gb200-nvl72-tray"), (i, f) -> new dev.fabricscope.model.FabricInfo(
                f.api(), f.state(), f.status(), f.cliqueId(), f.clusterUuid(), f.healthMask(), dev.fabricscope.model.Reading.of("UNHEALTHY")));
        for (int i = 1; i <= 18; i++) {
            write(dir, node(base, tray(1, i), 100 + i), tray(1, i) + ".json");
        }
    }

    /** Two NVL72 racks (two NVLink domains), tray 07 of rack 1 on another driver, one truncated report. */
    public static void racks(Path dir) throws Exception {
        rack(dir, 1, null);
        rack(dir, 2, "5c0f3b1e-8a41-4d2b-9e7a-2b7d4c9a1f62");
        write(dir, withDriver(node(sample("gb200-nvl72-tray"), tray(1, 7), 107), OTHER_DRIVER), tray(1, 7) + ".json");
        String whole = Json.write(node(sample("gb200-nvl72-tray"), tray(2, 18), 218));
        Files.writeString(dir.resolve(tray(2, 18) + ".json"), whole.substring(0, whole.length() / 3));
    }

    /**
     * {@code n} nodes: NVL72 racks of 18 trays (each rack its own fabric cluster) for about 90 % of them, the rest
     * DGX H100 nodes; every 97th node on another driver.
     */
    static void scale(Path dir, int n) throws Exception {
        MachineSnapshot tray = sample("gb200-nvl72-tray");
        MachineSnapshot h100 = sample("dgx-h100");
        int racks = n * 9 / 10 / 18;
        int i = 0;
        for (int r = 1; r <= racks; r++) {
            MachineSnapshot base = withFabric(tray, String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", r), r);
            for (int t = 1; t <= 18; t++, i++) {
                MachineSnapshot s = node(base, tray(r, t), i);
                write(dir, i % 97 == 0 ? withDriver(s, OTHER_DRIVER) : s, tray(r, t) + ".json");
            }
        }
        for (int k = 1; i < n; k++, i++) {
            String name = String.format(Locale.ROOT, "dgx-h100-%04d", k);
            MachineSnapshot s = node(h100, name, i);
            write(dir, i % 97 == 0 ? withDriver(s, OTHER_DRIVER) : s, name + ".json");
        }
    }

    /**
     * {@code check node} reports as {@code cluster collect --check-node --expect dgx-h100} leaves them, made the way
     * {@code check node --expect dgx-h100 --no-live --snapshot F} makes them (no live checks): three DGX H100 nodes, of
     * which dgx-h100-02 runs another driver (its check fails on the driver version), a GB200 tray put in the wrong
     * place (its check fails on GPU count and model), and dgx-h100-04 collected with the plain probe (no check).
     */
    public static void checked(Path dir) throws Exception {
        MachineSnapshot h100 = sample("dgx-h100");
        NodeAcceptance.Profile expected = NodeAcceptance.profileOf(h100, "sample dgx-h100", NodeAcceptance.DEFAULT_MIN_BUSBW_FRACTION);
        checkedNode(dir, expected, node(h100, h100(1), 1001), h100(1));
        checkedNode(dir, expected, withDriver(node(h100, h100(2), 1002), OTHER_DRIVER), h100(2));
        checkedNode(dir, expected, node(h100, h100(3), 1003), h100(3));
        checkedNode(dir, expected, node(sample("gb200-nvl72-tray"), tray(1, 1), 101), tray(1, 1));
        write(dir, node(h100, h100(4), 1004), h100(4) + ".json");
    }

    private static void checkedNode(Path dir, NodeAcceptance.Profile expected, MachineSnapshot node, String name) throws Exception {
        var live = new NodeAcceptance.LiveResults(null, null, null, "--no-live");
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(expected, node, live);
        var result = new NodeCheckResult(NodeCheckResult.NAME, NodeAcceptance.passed(e) ? CheckStatus.PASSED : CheckStatus.FAILED,
                NodeAcceptance.summary(e), expected.source(), expected, e, null, null, null, node);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".json"), Json.write(result));
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "mixed" -> mixed(dir);
            case "racks" -> racks(dir);
            case "checked" -> checked(dir);
            case "scale" -> scale(dir, args.length > 2 ? Integer.parseInt(args[2]) : 1000);
            default -> throw new IllegalArgumentException("kinds: mixed, racks, checked, scale [N]");
        }
    }
}
