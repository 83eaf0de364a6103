package dev.fabricscope.cluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code srun --ntasks-per-node=1 --output=DIR/%N.json …}: one probe per node of the allocation, each node's
 * stdout in its own file, named by Slurm after the node.
 */
public final class SlurmCollector extends NodeCollector {

    private final Integer nodes;
    private final String nodelist;
    private final String partition;
    private final String srun;

    public SlurmCollector(Path outDir, List<String> remoteCommand, int timeoutSeconds, Integer nodes, String nodelist,
                          String partition, String srunExecutable) {
        super(outDir, remoteCommand, timeoutSeconds);
        this.nodes = nodes;
        this.nodelist = nodelist;
        this.partition = partition;
        this.srun = srunExecutable;
    }

    public List<String> command() {
        List<String> cmd = new ArrayList<>(List.of(srun, "--job-name=fabricscope-collect", "--ntasks-per-node=1",
                "--kill-on-bad-exit=0", "--open-mode=truncate",
                "--output=" + outDir.toAbsolutePath().resolve("%N.json"),
                "--error=" + outDir.toAbsolutePath().resolve("%N.err")));
        if (nodelist != null) {
            cmd.add("--nodelist=" + nodelist);
            cmd.add("--nodes=" + (nodes != null ? nodes : expectedCount()));
        } else if (nodes != null) {
            cmd.add("--nodes=" + nodes);
        }
        if (partition != null) {
            cmd.add("--partition=" + partition);
        }
        cmd.addAll(wrapped());
        return cmd;
    }

    private int expectedCount() {
        return Math.max(1, expected().size());
    }

    /** The nodes named by {@code --nodelist}, expanded by {@code scontrol show hostnames}. */
    List<String> expected() {
        if (nodelist == null) {
            return List.of();
        }
        try {
            Process p = new ProcessBuilder("scontrol", "show", "hostnames", nodelist).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() == 0) {
                return out.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
            }
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        return List.of(nodelist.split(","));
    }

    @Override
    public CollectResult collect() throws IOException, InterruptedException {
        Files.createDirectories(outDir);
        long t0 = System.nanoTime();
        String started = now();
        List<String> cmd = command();
        Path srunOut = Files.createTempFile("fabricscope-srun", ".out");
        Path srunErr = Files.createTempFile("fabricscope-srun", ".err");
        try {
            int rc = run(cmd, srunOut, srunErr, timeoutSeconds + 120L);
            TreeSet<String> seen = new TreeSet<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(outDir, "*.err")) {
                ds.forEach(p -> seen.add(p.getFileName().toString().replaceFirst("\\.err$", "")));
            }
            List<CollectResult.NodeOutcome> outcomes = new ArrayList<>();
            for (String node : seen) {
                Path err = outDir.resolve(node + ".err");
                outcomes.add(judge(node, outDir.resolve(node + ".json"), read(err)));
                Files.deleteIfExists(err);
            }
            for (String node : expected()) {
                if (!seen.contains(node)) {
                    String why = read(srunErr).lines().filter(l -> !l.isBlank()).reduce((a, b) -> b)
                            .orElse("srun exited with " + rc);
                    outcomes.add(new CollectResult.NodeOutcome(node, "missing", "no task ran on this node: " + why, null));
                }
            }
            if (outcomes.isEmpty()) {
                String why = read(srunErr).lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("srun exited with " + rc);
                throw new IOException("srun ran no task: " + why);
            }
            CollectResult r = new CollectResult("slurm", cmd, started, (System.nanoTime() - t0) / 1_000_000, outcomes);
            writeManifest(r);
            return r;
        } finally {
            Files.deleteIfExists(srunOut);
            Files.deleteIfExists(srunErr);
        }
    }
}
