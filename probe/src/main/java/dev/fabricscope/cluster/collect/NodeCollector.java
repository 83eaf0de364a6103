package dev.fabricscope.cluster.collect;

import dev.fabricscope.cluster.NodeCheckSummary;
import dev.fabricscope.cluster.read.ClusterReader;
import dev.fabricscope.cluster.read.NodeCheckReader;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the headless probe once per node through the cluster's own launcher (Slurm's {@code srun} or
 * {@code pdsh}) and keeps one report per node; nodes that fail or time out are listed with the reason.
 */
public abstract class NodeCollector {

    protected final Path outDir;
    protected final List<String> remoteCommand;
    protected final int timeoutSeconds;

    protected NodeCollector(Path outDir, List<String> remoteCommand, int timeoutSeconds) {
        this.outDir = outDir;
        this.remoteCommand = List.copyOf(remoteCommand);
        this.timeoutSeconds = timeoutSeconds;
    }

    /** The command that this JVM would run on a node: the same Java and the same jar (or class path), {@code probe --json}. */
    public static List<String> defaultRemoteCommand() {
        List<String> cmd = new ArrayList<>(thisProgram());
        cmd.addAll(List.of("probe", "--json"));
        return cmd;
    }

    /**
     * What {@code cluster collect --check-node} runs on each node after the program: {@code check node --json}, with
     * {@code --expect} passed through (a sample name, or a file the nodes can read at that path).
     */
    public static List<String> checkNodeArguments(String expect) {
        List<String> args = new ArrayList<>(List.of("check", "node", "--json"));
        if (expect != null) {
            args.addAll(List.of("--expect", expect));
        }
        return args;
    }

    /** This Java and this jar (or class path), without arguments. */
    public static List<String> thisProgram() {
        String javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Djava.io.tmpdir=/tmp"));
        if (cp != null && cp.endsWith(".jar") && !cp.contains(java.io.File.pathSeparator)) {
            cmd.addAll(List.of("-jar", Paths.get(cp).toAbsolutePath().toString()));
        } else {
            cmd.addAll(List.of("-cp", cp, "dev.fabricscope.cli.Main"));
        }
        return cmd;
    }

    /** {@code slurm} or {@code pdsh}. */
    protected abstract String scheduler();

    /** The local command that launches the probe on every node. */
    public abstract List<String> command();

    /**
     * Turns the launcher's finished run into one outcome per node (throws when no node ran at all).
     *
     * @param rc     the launcher's exit code (124 when it outlived its deadline)
     * @param stdout the launcher's own standard output
     * @param stderr the launcher's own standard error
     */
    protected abstract List<CollectResult.NodeOutcome> outcomes(int rc, Path stdout, Path stderr, SnapshotIO.OtherFormats others)
            throws IOException;

    /** Runs the launcher once, judges every node's snapshot or report and writes the {@code collect.json} manifest. */
    public final CollectResult collect() throws IOException, InterruptedException {
        return collect(SnapshotIO.OtherFormats.NONE);
    }

    /** As {@link #collect()}; a node's output of one of {@code others} (a native-call trace) is accepted too. */
    public final CollectResult collect(SnapshotIO.OtherFormats others) throws IOException, InterruptedException {
        List<String> launcher = command();
        MissingProgramException.requireRunnable(launcher.get(0), scheduler().equals("slurm")
                ? "run this on a Slurm login node (or set FABRICSCOPE_SRUN), or use --pdsh HOSTS"
                : "install pdsh (or set FABRICSCOPE_PDSH), or use --slurm");
        Files.createDirectories(outDir);
        long t0 = System.nanoTime();
        String started = now();
        List<String> cmd = launcher;
        Path out = Files.createTempFile("fabricscope-" + scheduler(), ".out");
        Path err = Files.createTempFile("fabricscope-" + scheduler(), ".err");
        try {
            int rc = run(cmd, out, err, timeoutSeconds + 120L);
            CollectResult r = new CollectResult(scheduler(), cmd, started, (System.nanoTime() - t0) / 1_000_000, outcomes(rc, out, err, others));
            writeManifest(r);
            return r;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The last non-blank line of a file, or {@code fallback}. */
    protected static String lastLine(Path p, String fallback) throws IOException {
        return read(p).lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse(fallback);
    }

    /** Runs a local command (srun / pdsh) with an overall deadline; output to the given files. */
    protected static int run(List<String> command, Path stdout, Path stderr, long deadlineSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot run " + command.get(0) + ": " + e.getMessage());
        }
        if (!p.waitFor(deadlineSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            return 124;
        }
        return p.exitValue();
    }

    /** Checks a node's output file and classifies it; bad output is renamed to {@code .failed} so only reports remain. */
    protected CollectResult.NodeOutcome judge(String node, Path json, String stderrText, SnapshotIO.OtherFormats others)
            throws IOException {
        String exitLine = stderrText.lines().filter(l -> l.startsWith("fabricscope-exit=")).reduce((a, b) -> b).orElse(null);
        int exit = exitLine == null ? -1 : Integer.parseInt(exitLine.substring("fabricscope-exit=".length()).trim());
        String err = stderrText.lines().filter(l -> !l.startsWith("fabricscope-exit=") && !l.isBlank()).reduce((a, b) -> b).orElse("");
        if (!Files.exists(json) || Files.size(json) == 0) {
            Files.deleteIfExists(json);
            if (exit == 124) {
                return new CollectResult.NodeOutcome(node, "timeout", "probe did not finish within " + timeoutSeconds + " s", null);
            }
            return new CollectResult.NodeOutcome(node, "failed", err.isEmpty() ? "no output (exit " + exit + ")" : err, null);
        }
        try {
            MachineSnapshot s = SnapshotIO.read(json, others);
            NodeCheckSummary check = NodeCheckReader.read(node, json);
            String note = check != null && check.failedCheck() ? "check failed: " + check.summary() : null;
            if (!s.driver().driverPresent()) {
                return new CollectResult.NodeOutcome(node, "no-driver", s.driver().message() + (note == null ? "" : "; " + note),
                        json.toString(), note != null);
            }
            return new CollectResult.NodeOutcome(node, "ok", note, json.toString(), note != null);
        } catch (SnapshotIO.ReadException e) {
            Path failed = json.resolveSibling(json.getFileName() + ".failed");
            Files.move(json, failed, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            String why = exit == 124 ? "timed out after " + timeoutSeconds + " s" : e.getMessage();
            return new CollectResult.NodeOutcome(node, exit == 124 ? "timeout" : "failed",
                    why + (err.isEmpty() ? "" : "; stderr: " + err), null);
        }
    }

    /** The remote command wrapped so each node enforces the timeout and reports its exit code on stderr. */
    protected List<String> wrapped() {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "timeout " + timeoutSeconds + " \"$@\"; echo \"fabricscope-exit=$?\" >&2", "fabricscope"));
        cmd.addAll(remoteCommand);
        return cmd;
    }

    protected void writeManifest(CollectResult r) throws IOException {
        OutputFile.write(outDir.resolve(ClusterReader.MANIFEST), Json.write(r));
    }

    protected static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    }

    protected static String now() {
        return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString();
    }
}
