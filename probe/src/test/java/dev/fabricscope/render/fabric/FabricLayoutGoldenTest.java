package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.BigMachine;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fabric drawing of every bundled sample, every captured snapshot, report and trace replay, and the synthetic
 * test machines is byte-for-byte what it was when {@code FabricLayoutGoldenTest.txt} was last written (on purpose,
 * for issue 26 item 4: one label per NVLink bundle, the legend in the graph, NVLink-C2C as an edge kind of its own;
 * the move to {@code render.fabric} before it left every digest as it was): one SHA-256 of the laid-out graph and
 * one of each palette's SVG per machine. To accept an intended change of the drawing, run with
 * {@code -Dfabricscope.golden.write=true} and review the diff of the digest file.
 */
class FabricLayoutGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/render/fabric/FabricLayoutGoldenTest.txt");
    private static final Path CAPTURED = Path.of("src/test/resources/captured");

    @Test
    void everyMachineDrawsAsBeforeTheSplit() throws Exception {
        StringBuilder now = new StringBuilder();
        for (Map.Entry<String, MachineSnapshot> e : machines().entrySet()) {
            FabricGraph g = FabricLayout.layout(e.getValue());
            now.append(e.getKey()).append(' ').append(sha(g.toString()))
                    .append(' ').append(sha(FabricSvg.render(g, FabricPalette.LIGHT)))
                    .append(' ').append(sha(FabricSvg.render(g, FabricPalette.DARK))).append('\n');
        }
        if (Boolean.getBoolean("fabricscope.golden.write")) {
            Files.writeString(GOLDEN, now.toString());
        }
        assertEquals(Files.readString(GOLDEN), now.toString());
    }

    private static Map<String, MachineSnapshot> machines() throws Exception {
        Map<String, MachineSnapshot> m = new LinkedHashMap<>();
        for (Samples.Sample s : Samples.list()) {
            m.put("sample:" + s.name(), s.snapshot().get());
            m.put("cluster-node:" + s.name(), SyntheticCluster.withFabric(SyntheticCluster.node(s.snapshot().get(), "node-7", 7),
                    "7a3c1e52-0d4b-4f8e-9b21-5c6d7e8f9a01", 4242));
        }
        for (Path f : captured()) {
            String name = "captured:" + CAPTURED.relativize(f).toString().replace('\\', '/');
            if (f.getFileName().toString().equals("trace.json")) {
                m.put(name, TraceReplay.replay(TraceIO.read(Files.readAllBytes(f), f.toString()), name));
            } else {
                m.put(name, SnapshotIO.read(f));
            }
        }
        m.put("test:dgx-h100", TestMachines.dgxH100());
        m.put("test:gb200-tray", TestMachines.gb200Tray());
        m.put("test:h100-nvl-pairs", TestMachines.h100NvlPairs());
        m.put("test:l40s", TestMachines.l40s());
        m.put("test:vm", TestMachines.vm());
        for (int n : new int[] {16, 72, 256}) {
            m.put("big:" + n, BigMachine.snapshot(n));
        }
        return m;
    }

    /** Every probe.json, report.json, node-report.json and trace.json under the captured fixtures, in a fixed order. */
    private static List<Path> captured() throws IOException {
        try (Stream<Path> files = Files.walk(CAPTURED)) {
            return files.filter(p -> List.of("probe.json", "report.json", "node-report.json", "trace.json")
                    .contains(p.getFileName().toString())).sorted().toList();
        }
    }

    private static String sha(String text) throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(d, 0, 16);
    }
}
