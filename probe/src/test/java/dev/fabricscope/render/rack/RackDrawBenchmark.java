package dev.fabricscope.render.rack;

import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.samples.SyntheticCluster;
import dev.fabricscope.usecase.DrawCluster;
import dev.fabricscope.usecase.InspectCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Times the cluster drawing ({@code bench/cluster-draw-bench.sh}) over SYNTHETIC GB200 NVL72 racks written from the
 * gb200-nvl72-tray sample: the reports read again for their links ({@link DrawCluster}), the layout and SVG alone, and
 * the PNG ({@link RackPng}, at scale 2) painted from the same layout, first run (cold JVM) and the median of the runs
 * after it. Args: racks (1), runs (9).
 */
public final class RackDrawBenchmark {

    private RackDrawBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int racks = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        Path dir = Files.createTempDirectory("fabricscope-rack-bench");
        SyntheticCluster.writeNvl72Racks(dir, racks, true);
        ClusterView v = new InspectCluster().open(InspectCluster.Request.of(dir)).view();
        double[] model = new double[runs];
        double[] draw = new double[runs];
        double[] png = new double[runs];
        int svgChars = 0;
        int pngBytes = 0;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            RackModel m = DrawCluster.model(v);
            long t1 = System.nanoTime();
            String svg = RackSvg.render(RackLayout.layout(m, FabricPalette.LIGHT));
            long t2 = System.nanoTime();
            byte[] image = RackPng.render(RackLayout.layout(m, FabricPalette.LIGHT));
            long t3 = System.nanoTime();
            model[i] = (t1 - t0) / 1e6;
            draw[i] = (t2 - t1) / 1e6;
            png[i] = (t3 - t2) / 1e6;
            svgChars = svg.length();
            pngBytes = image.length;
        }
        System.out.printf(Locale.ROOT, "%d rack(s), %d trays, SVG %,d chars, %d runs, %d CPUs%n", racks, racks * 18,
                svgChars, runs, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "reports re-read for links (DrawCluster.model): first %.1f ms, median after %.1f ms%n",
                model[0], median(model));
        System.out.printf(Locale.ROOT, "layout + SVG (RackLayout, RackSvg): first %.1f ms, median after %.1f ms%n",
                draw[0], median(draw));
        System.out.printf(Locale.ROOT, "drawing in all: first %.1f ms, median after %.1f ms%n", model[0] + draw[0],
                median(model) + median(draw));
        System.out.printf(Locale.ROOT, "layout + PNG at scale 2 (RackLayout, RackPng, %,d bytes): first %.1f ms, median after"
                + " %.1f ms%n", pngBytes, png[0], median(png));
    }

    private static double median(double[] all) {
        double[] rest = Arrays.copyOfRange(all, Math.min(1, all.length - 1), all.length);
        Arrays.sort(rest);
        return rest[rest.length / 2];
    }
}
