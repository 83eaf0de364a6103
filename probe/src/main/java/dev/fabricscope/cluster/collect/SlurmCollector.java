package dev.fabricscope.cluster.collect;

import dev.fabricscope.io.SnapshotIO;
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

    @Override
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
    protected String scheduler() {
        return "slurm";
    }

    @Override
    protected List<CollectResult.NodeOutcome> outcomes(int rc, Path srunOut, Path srunErr, SnapshotIO.OtherFormats others)
            throws IOException {
        TreeSet<String> seen = new TreeSet<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(outDir, "*.err")) {
            ds.forEach(p -> seen.add(p.getFileName().toString().replaceFirst("\\.err$", "")));
        }
        List<CollectResult.NodeOutcome> outcomes = new ArrayList<>();
        for (String node : seen) {
            Path err = outDir.resolve(node + ".err");
            outcomes.add(judge(node, outDir.resolve(node + ".json"), read(err), others));
            Files.deleteIfExists(err);
        }
        String srunSays = lastLine(srunErr, "srun exited with " + rc);
        for (String node : expected()) {
            if (!seen.contains(node)) {
                outcomes.add(new CollectResult.NodeOutcome(node, "missing", "no task ran on this node: " + srunSays, null));
            }
        }
        if (outcomes.isEmpty()) {
            throw new IOException("srun ran no task: " + srunSays);
        }
        return outcomes;
    }
}
