package dev.fabricscope.cluster;

import dev.fabricscope.cluster.read.ClusterReader;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;

/**
 * Benchmark: merge N node reports (synthetic DGX H100 nodes, 8 GPUs × 18 links each) with {@code cluster show}'s
 * code path, cold and warm. Run with {@code bench/cluster-merge-bench.sh [N] [RUNS] [KEEP_DIR]}; with RUNS 0 it only
 * writes the folder ({@code bench/cluster-show-bench.sh} times the CLI on it).
 */
public final class ClusterMergeBenchmark {
    private ClusterMergeBenchmark() {
    }

    private static long countJson(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".json")).count();
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        boolean keep = args.length > 2;
        Path dir = keep ? Files.createDirectories(Path.of(args[2])) : Files.createTempDirectory("fabricscope-cluster-bench");
        MachineSnapshot base = ClusterFixtures.sample("dgx-h100");
        boolean reuse = keep && countJson(dir) == n; // a kept folder of the same size is timed again as it is
        if (!reuse) { // written on all cores: a 16-core machine makes 10,000 reports in seconds
            java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
                MachineSnapshot node = ClusterFixtures.node(base, String.format(Locale.ROOT, "node%04d", i), i);
                if (i % 97 == 0) {
                    node = ClusterFixtures.withDriver(node, "550.54.15");
                }
                try {
                    ClusterFixtures.write(dir, node, String.format(Locale.ROOT, "node%04d.json", i));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        long bytes;
        try (var files = Files.list(dir)) {
            bytes = files.mapToLong(p -> p.toFile().length()).sum();
        }
        System.out.printf(Locale.ROOT, "%d node reports, %.1f MB, %d cores%n", n, bytes / 1e6, Runtime.getRuntime().availableProcessors());
        if (runs == 0) { // only make the folder (a Java runtime without java.management can run this)
            System.out.println("reports kept in " + dir);
            return;
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long[] ms = new long[runs];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long cpu0 = os.getProcessCpuTime();
            ClusterView v = ClusterAnalysis.analyse(dir.toString(), ClusterReader.read(dir));
            ms[r] = (System.nanoTime() - t0) / 1_000_000;
            double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
            System.out.printf(Locale.ROOT, "run %d: %d ms, %.1f CPU s (%.2f CPU ms per report; %d nodes, %d domains, %d differences)%n",
                    r + 1, ms[r], cpu, cpu * 1000 / n, v.readable().size(), v.domains().size(), v.inconsistencies().size());
        }
        long[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "first (cold JVM) %d ms, median %d ms%n", ms[0], sorted[runs / 2]);
        if (keep) {
            System.out.println("reports kept in " + dir + " (time the CLI with: fabricscope cluster show " + dir + ")");
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
