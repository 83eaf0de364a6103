package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterFixtures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster read keeps memory bounded: 10,000 node reports (SYNTHETIC DGX H100 nodes, 310 KB each, 3.1 GB in all;
 * 50 distinct files, each linked 200 times) are read and merged in a JVM of its own with a 64 MiB heap, and what
 * stays after the read is a few KiB per node. Holding the nodes' full snapshots instead (the cluster view before it
 * read summaries), 10,000 of them would need several times that heap: the limit catches a reader keeping too much.
 */
class ClusterReadMemoryTest {

    private static final int NODES = 10_000;
    private static final int DISTINCT = 50;
    private static final String HEAP = "-Xmx64m";
    /** Full snapshots weighed to show what 10,000 of them would take. */
    private static final int WEIGHED = 100;

    @Test
    void tenThousandReportsAreMergedInA64MiBHeap(@TempDir Path dir) throws Exception {
        MachineSnapshot base = ClusterFixtures.sample("dgx-h100");
        for (int i = 0; i < DISTINCT; i++) {
            MachineSnapshot node = ClusterFixtures.node(base, String.format(Locale.ROOT, "node%02d", i), i);
            if (i % 7 == 0) {
                node = ClusterFixtures.withDriver(node, "550.54.15");
            }
            ClusterFixtures.write(dir, node, String.format(Locale.ROOT, "node%02d-0000.json", i));
        }
        for (int k = 1; k < NODES / DISTINCT; k++) {
            for (int i = 0; i < DISTINCT; i++) {
                Path original = dir.resolve(String.format(Locale.ROOT, "node%02d-0000.json", i));
                link(dir.resolve(String.format(Locale.ROOT, "node%02d-%04d.json", i, k)), original);
            }
        }

        Result summaries = run(dir);
        assertEquals(0, summaries.exit(), summaries.output());
        Matcher m = Pattern.compile("nodes=(\\d+) held=0 usedAfterGcKiB=(\\d+) maxMiB=\\d+ differences=1").matcher(summaries.output());
        assertTrue(m.find(), summaries.output());
        assertEquals(NODES, Integer.parseInt(m.group(1)));
        long usedKiB = Long.parseLong(m.group(2));
        assertTrue(usedKiB <= 48 << 10, "retained " + (usedKiB >> 10) + " MiB after reading " + NODES + " reports: " + summaries.output());

        // the same nodes' full snapshots, weighed on a folder of a hundred of them
        Path few = Files.createDirectory(dir.resolve("few"));
        for (int k = 0; k < WEIGHED; k++) {
            link(few.resolve(String.format(Locale.ROOT, "node%04d.json", k)),
                    dir.resolve(String.format(Locale.ROOT, "node%02d-%04d.json", k % DISTINCT, k / DISTINCT)));
        }
        Result slim = run(few);
        Result full = run(few, "--full", String.valueOf(WEIGHED));
        assertEquals(0, full.exit(), full.output());
        Matcher s = Pattern.compile("held=0 usedAfterGcKiB=(\\d+)").matcher(slim.output());
        Matcher f = Pattern.compile("held=" + WEIGHED + " usedAfterGcKiB=(\\d+) maxMiB=(\\d+)").matcher(full.output());
        assertTrue(s.find() && f.find(), slim.output() + full.output());
        double perSnapshotKiB = (Long.parseLong(f.group(1)) - Long.parseLong(s.group(1))) / (double) WEIGHED;
        assertTrue(perSnapshotKiB * NODES > 3 * (Long.parseLong(f.group(2)) << 10), "10,000 full snapshots would take "
                + Math.round(perSnapshotKiB * NODES / 1024) + " MiB: " + full.output());
    }

    /** A hard link where the file system has them, else a symbolic link (both read as the regular file). */
    private static void link(Path link, Path target) throws IOException {
        try {
            Files.createLink(link, target);
        } catch (IOException | UnsupportedOperationException e) {
            Files.createSymbolicLink(link, target);
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path dir, String... more) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ClusterMemoryProbe.class.getName(),
                dir.toString()));
        cmd.addAll(List.of(more));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the memory probe did not finish");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
