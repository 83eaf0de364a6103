package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.samples.Samples;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 28 item 2: Eclipse ELK Layered ({@link ElkFabricLayout}) against the hand-written placement ({@link FabricLayout})
 * on the DGX / HGX / NVL72 samples, a PCIe-only one, NVLink-bridge pairs and the captured two-GPU H200 trace; ELK also
 * without our row order and with {@code mergeEdges} ({@link ElkFabricLayout.Style}). For each machine it writes the
 * hand and ELK drawings with the product's SVG writer and every graph as JSON (the app's {@code FabricSideBySideTest}
 * paints them side by side into PNGs with the app's canvas), and a table of layout time (wall and thread CPU, median
 * of 20 after 10 warm-up rounds over every machine), size, crossings, bends, overlaps and text that does not fit
 * ({@link DrawingMetrics}). It fails where ELK's graph lacks a box, connection, label or legend entry of the hand
 * placement's, or where ELK's boxes overlap.
 *
 * <p>Tagged {@code elk}, which the default build leaves out (probe/pom.xml {@code fabricscope.excludedGroups}). Run:
 * {@code mvn -B -ntp -pl probe test -Dtest=ElkVsHandComparisonTest -Dfabricscope.excludedGroups=gpu
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dfabricscope.elk.out=DIR]} (DIR defaults to probe/target/elk-vs-hand).
 */
@Tag("elk")
class ElkVsHandComparisonTest {

    private static final int WARM_UP = 10;
    private static final int TIMED = 20;

    /** The machines compared, by the name their files get. */
    static Map<String, MachineSnapshot> machines() throws Exception {
        Map<String, MachineSnapshot> m = new LinkedHashMap<>();
        for (String name : List.of("dgx-h100", "hgx-b200", "gb200-nvl72-tray", "dgx-a100", "l40s-4x", "h100-nvl-pairs")) {
            m.put(name, Samples.find(name).orElseThrow().snapshot().get());
        }
        Path trace = Path.of("src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/trace.json");
        m.put("h200-nvswitch-2gpu-captured", TraceReplay.replay(TraceIO.read(Files.readAllBytes(trace), trace.toString()), trace.toString()));
        return m;
    }

    @Test
    void bothPlacementsDrawnMeasuredAndWritten() throws Exception {
        Path out = Path.of(System.getProperty("fabricscope.elk.out", "target/elk-vs-hand"));
        Files.createDirectories(out);
        List<String> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Function<MachineSnapshot, FabricGraph>> placements = new LinkedHashMap<>();
        placements.put("hand", FabricLayout::layout);
        placements.put("elk", ElkFabricLayout::layout);
        placements.put("elk-free-order", x -> ElkFabricLayout.layout(x, ElkFabricLayout.Style.FREE_ORDER));
        placements.put("elk-merged-edges", x -> ElkFabricLayout.layout(x, ElkFabricLayout.Style.MERGED_EDGES));
        Map<String, MachineSnapshot> machines = machines();
        // every placement on every machine first, so that no machine is timed while the JIT is still warming up
        for (int i = 0; i < WARM_UP; i++) {
            for (MachineSnapshot s : machines.values()) {
                placements.values().forEach(p -> p.apply(s));
            }
        }
        for (var m : machines.entrySet()) {
            String name = m.getKey();
            MachineSnapshot s = m.getValue();
            FabricGraph hand = FabricLayout.layout(s);
            for (var p : placements.entrySet()) {
                FabricGraph g = p.getValue().apply(s);
                if (!p.getKey().equals("hand")) {
                    assertSameMachine(name, hand, g);
                }
                DrawingMetrics d = DrawingMetrics.of(g);
                double[] ms = medianMillis(() -> p.getValue().apply(s));
                rows.add(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.0f × %.0f | %d | %d | %d | %d | %d | %d | %d | %d | %d |",
                        name, p.getKey(), ms[0], ms[1], d.width(), d.height(), d.connections(), d.crossings(), d.bends(), d.curved(),
                        d.edgesOverBoxes(), d.edgeOverlaps(), d.boxOverlaps(), d.labelOverlaps(), d.labelsCut()));
                // a few examples each, the rest counted: merged edges lie on each other hundreds of times
                d.problems().stream().limit(4).forEach(x -> problems.add(name + " / " + p.getKey() + ": " + x));
                if (d.problems().size() > 4) {
                    problems.add(name + " / " + p.getKey() + ": … and " + (d.problems().size() - 4) + " more");
                }
                if (p.getKey().equals("hand") || p.getKey().equals("elk")) {
                    Files.writeString(out.resolve(name + "-" + p.getKey() + ".svg"), FabricSvg.render(g, FabricPalette.LIGHT));
                }
                Files.writeString(out.resolve(name + "-" + p.getKey() + ".json"), Json.write(g));
                if (p.getKey().equals("elk")) {
                    assertEquals(0, d.boxOverlaps(), name + ": ELK boxes overlap or leave the drawing: " + d.problems());
                }
            }
        }
        StringBuilder table = new StringBuilder();
        table.append("Text measured in ").append(TextMeasure.font()).append("; ").append(Runtime.version())
                .append(", ").append(Runtime.getRuntime().availableProcessors()).append(" CPUs.\n\n");
        table.append("| machine | placement | layout ms, wall | layout ms, thread CPU | width × height px | connections | crossings | bends | curved"
                + " | edges over boxes | edges on edges | box overlaps | label overlaps | text not fitting |\n");
        table.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        rows.forEach(r -> table.append(r).append('\n'));
        table.append("\nEach problem counted:\n\n");
        problems.forEach(p -> table.append("- ").append(p).append('\n'));
        Files.writeString(out.resolve("table.md"), table.toString());
        assertTrue(Files.size(out.resolve("table.md")) > 0);
    }

    /** ELK draws the same boxes and the same connections (ids, ends, link counts) as the hand placement. */
    private static void assertSameMachine(String name, FabricGraph hand, FabricGraph elk) {
        assertEquals(new TreeSet<>(hand.nodes().stream().map(FabricGraph.Node::id).toList()),
                new TreeSet<>(elk.nodes().stream().map(FabricGraph.Node::id).toList()), name + ": boxes");
        assertEquals(connections(hand), connections(elk), name + ": connections");
        assertEquals(hand.legend().stream().map(FabricGraph.LegendEntry::text).toList(),
                elk.legend().stream().map(FabricGraph.LegendEntry::text).toList(), name + ": legend");
        assertEquals(hand.edges().stream().filter(e -> !e.label().isEmpty()).map(Edge::label).sorted().toList(),
                elk.edges().stream().filter(e -> !e.label().isEmpty()).map(Edge::label).sorted().toList(), name + ": labels");
    }

    private static TreeSet<String> connections(FabricGraph g) {
        TreeSet<String> out = new TreeSet<>();
        for (Edge e : g.edges()) {
            out.add(e.id().replaceFirst("#\\d+$", "") + " " + e.kind() + " " + e.from() + " " + e.to() + " " + e.links());
        }
        return out;
    }

    /** Median wall time and median CPU time of this thread, in ms, of 20 layouts (the CPU time is steadier on a busy machine). */
    private static double[] medianMillis(Runnable layout) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 3; i++) {
            layout.run();
        }
        double[] wall = new double[TIMED];
        double[] own = new double[TIMED];
        for (int i = 0; i < TIMED; i++) {
            long c0 = cpu.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            layout.run();
            wall[i] = (System.nanoTime() - t0) / 1e6;
            own[i] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6;
        }
        return new double[] {median(wall), median(own)};
    }

    private static double median(double[] v) {
        Arrays.sort(v);
        return (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
