package dev.fabricscope.cli;

import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.collect.CollectResult;
import dev.fabricscope.cluster.collect.MissingProgramException;
import dev.fabricscope.cluster.collect.NodeCollector;
import dev.fabricscope.cluster.collect.PdshCollector;
import dev.fabricscope.cluster.collect.SlurmCollector;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.ClusterText;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.Fit;
import dev.fabricscope.render.rack.ClusterHtml;
import dev.fabricscope.render.rack.RackLayout;
import dev.fabricscope.render.rack.RackModel;
import dev.fabricscope.render.rack.RackPng;
import dev.fabricscope.render.rack.RackScene;
import dev.fabricscope.render.rack.RackSvg;
import dev.fabricscope.usecase.DrawCluster;
import dev.fabricscope.usecase.InspectCluster;
import dev.fabricscope.usecase.OpenSnapshot;
import dev.fabricscope.usecase.UseCaseException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fabricscope cluster collect|show}: probe every node through Slurm or pdsh, then merge the reports. */
@Command(name = "cluster", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Probe every node of a cluster through Slurm or pdsh, and merge a folder of node reports.",
        subcommands = {ClusterCommand.Collect.class, ClusterCommand.Show.class, ClusterCommand.Draw.class})
public final class ClusterCommand implements Runnable {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "collect", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = "Run the headless probe once per node (srun, one task per node; or pdsh) and keep one report per node in DIR.")
    static final class Collect implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        static final class Launcher {
            @Option(names = "--slurm", required = true, description = "Run through Slurm's srun.")
            boolean slurm;
            @Option(names = "--pdsh", required = true, paramLabel = "HOSTS", description = "Run through pdsh on HOSTS (pdsh host list syntax).")
            String pdsh;
        }

        @ArgGroup(exclusive = true, multiplicity = "1")
        Launcher launcher;

        @Option(names = "--nodes", paramLabel = "N", description = "Slurm: number of nodes (default: all of --nodelist, else Slurm's default).")
        Integer nodes;

        @Option(names = "--nodelist", paramLabel = "LIST", description = "Slurm: node list, e.g. gpu[01-18].")
        String nodelist;

        @Option(names = "--partition", paramLabel = "P", description = "Slurm partition.")
        String partition;

        @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder for the per-node reports.")
        Path out;

        @Option(names = "--timeout", paramLabel = "SECONDS",
                description = "Per-node timeout (default 120 s for the probe, 900 s with --check-node).")
        Integer timeout;

        @Option(names = "--remote-command", paramLabel = "CMD",
                description = "What to run on each node (default: this Java and this jar, 'probe --json'), e.g. '/opt/fabricscope/bin/fabricscope probe --json'; "
                        + "with --check-node, only the program ('/opt/fabricscope/bin/fabricscope'): 'check node --json …' is appended.")
        String remoteCommand;

        @Option(names = "--check-node", description = "Run 'fabricscope check node --json' on every node instead of the probe: "
                + "each node's file is its node report (probe, live checks, expectations); 'cluster show' lists the nodes that fail.")
        boolean checkNode;

        @Option(names = "--expect", paramLabel = "FILE|SAMPLE", description = "With --check-node: passed to each node's "
                + "'check node --expect' (a sample name, or a report every node can read at the same path).")
        String expect;

        @Option(names = "--json", description = "Print the collect summary as JSON.")
        boolean json;

        @Option(names = "--progress", negatable = true,
                description = "Progress on stderr: node reports written so far (default: on a terminal; none when piped).")
        Boolean progress;

        @Override
        public Integer call() throws CommandFailure, MissingProgramException {
            var err = spec.commandLine().getErr();
            if (expect != null && !checkNode) {
                throw CommandFailure.usage("--expect applies to --check-node");
            }
            if (expect != null && dev.fabricscope.samples.Samples.find(expect).isEmpty()) {
                if (!java.nio.file.Files.isRegularFile(Path.of(expect))) {
                    throw CommandFailure.usage("--expect " + expect + ": neither a file nor a sample; samples: "
                            + String.join(", ", dev.fabricscope.samples.Samples.names()));
                }
                expect = Path.of(expect).toAbsolutePath().normalize().toString();
            }
            int timeout = this.timeout != null ? this.timeout : checkNode ? 900 : 120;
            if (nodes != null && nodes < 1 || timeout < 1) {
                throw CommandFailure.usage("--nodes and --timeout must be at least 1");
            }
            if (launcher.pdsh != null && (nodes != null || nodelist != null || partition != null)) {
                throw CommandFailure.usage("--nodes, --nodelist and --partition apply to --slurm; give pdsh its hosts with --pdsh HOSTS");
            }
            List<String> remote;
            if (checkNode) {
                remote = new java.util.ArrayList<>(remoteCommand != null ? Arrays.asList(remoteCommand.trim().split("\\s+"))
                        : NodeCollector.thisProgram());
                remote.addAll(NodeCollector.checkNodeArguments(expect));
            } else {
                remote = remoteCommand != null ? Arrays.asList(remoteCommand.trim().split("\\s+")) : NodeCollector.defaultRemoteCommand();
            }
            try {
                OutputFile.prepareFolder(out);
            } catch (OutputFile.CannotWriteException e) {
                throw CommandFailure.of(ExitCodes.CANNOT_WRITE, "cannot write --out " + out + ": " + e.getMessage());
            }
            NodeCollector c = launcher.slurm
                    ? new SlurmCollector(out, remote, timeout, nodes, nodelist, partition, System.getenv().getOrDefault("FABRICSCOPE_SRUN", "srun"))
                    : new PdshCollector(out, remote, timeout, launcher.pdsh, System.getenv().getOrDefault("FABRICSCOPE_PDSH", "pdsh"));
            CollectResult r;
            Progress p = Progress.of(err, progress);
            java.util.concurrent.ScheduledExecutorService ticker = null;
            if (p != null) {
                long t0 = System.nanoTime();
                ticker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(task -> {
                    Thread t = new Thread(task, "collect-progress");
                    t.setDaemon(true);
                    return t;
                });
                ticker.scheduleAtFixedRate(() -> p.update("collect", reportsIn(out) + " node report(s) in " + out + " after "
                        + (System.nanoTime() - t0) / 1_000_000_000L + " s", -1), 0, 1, java.util.concurrent.TimeUnit.SECONDS);
            }
            try {
                r = c.collect(OpenSnapshot.TRACES);
            } catch (MissingProgramException e) {
                throw e; // an IOException, but exit 7 with its own line (CliExceptionHandler)
            } catch (IOException e) {
                throw CommandFailure.of(ExitCodes.FAILURE, "cluster collect into " + out + ": " + OutputFile.reason(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CommandFailure.of(ExitCodes.FAILURE, "interrupted");
            } finally {
                if (ticker != null) {
                    ticker.shutdownNow();
                    p.done();
                }
            }
            spec.commandLine().getOut().print(json ? Json.write(r) : ClusterText.render(r, out.toString()));
            spec.commandLine().getOut().flush();
            return exitCode(r);
        }

        /** 0 when every node answered and no node check failed, else 5. */
        static int exitCode(CollectResult r) {
            return r.allPassed() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
    }

    /** How many node reports a collect has written so far. */
    static long reportsIn(Path dir) {
        try (var files = java.nio.file.Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".json") && !f.getFileName().toString().equals("collect.json")).count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The merged view of {@code dir}; a folder with no readable node report is exit 4. */
    static ClusterView readableView(CliEnvironment env, Path dir) throws CommandFailure, UseCaseException {
        ClusterView v = env.inspectCluster().open(InspectCluster.Request.of(dir)).view();
        if (v.readable().isEmpty()) {
            throw CommandFailure.of(ExitCodes.BAD_INPUT, dir + ": no readable node report (" + v.unreadable().size() + " unreadable)");
        }
        return v;
    }

    @Command(name = "show", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = {"Merge a folder of node reports: NVLink domains, GPUs per domain, and what differs between nodes.",
                "Nodes whose 'check node' report (cluster collect --check-node) failed are listed first, with each failed expectation.",
                "Exits 5 when any node failed its check or its own data shows a problem (no driver, no GPU, fabric not ready,",
                "failed or unhealthy, GPUs disagreeing on their NVLink domain), even one every node shares;",
                "4 when any file could not be read (the others are still shown),",
                "6 with --fail-on-outliers when nodes differ."})
    static final class Show implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        private final CliEnvironment env;

        Show(CliEnvironment env) {
            this.env = env;
        }

        @Parameters(paramLabel = "DIR", description = "Folder of per-node reports or snapshots (*.json).")
        Path dir;

        @Option(names = "--json", description = "Print the merged view as JSON (as --format json).")
        boolean json;

        @Option(names = "--format", paramLabel = "FORMAT", description = "text (default), json, or html: one self-contained"
                + " page with the drawing of the NVLink domains (as cluster draw) and the merged view.")
        String format;

        @Option(names = "--fail-on-outliers", description = "Exit 6 when nodes differ in anything compared (driver, GPUs, NVLink, fabric, environment…).")
        boolean failOnOutliers;

        @Option(names = "--all", description = "List every node of every difference and every domain (default: folded to fit 120 columns).")
        boolean all;

        @Override
        public Integer call() throws CommandFailure, UseCaseException {
            ClusterView v = readableView(env, dir);
            String f = format == null ? (json ? "json" : "text") : format.toLowerCase(java.util.Locale.ROOT);
            if (!List.of("text", "json", "html").contains(f) || json && !f.equals("json")) {
                throw CommandFailure.usage("--format " + format + (json ? " with --json" : "") + ": the formats are text, json and html");
            }
            spec.commandLine().getOut().print(switch (f) {
                case "json" -> Json.write(v);
                case "html" -> ClusterHtml.page(v, DrawCluster.model(v), all);
                default -> ClusterText.render(v, all);
            });
            spec.commandLine().getOut().flush();
            if (!v.failedChecks().isEmpty() || !v.problems().isEmpty()) {
                return ExitCodes.CHECK_FAILED; // a node failed its check, or its own data shows a problem (NodeProblem)
            }
            if (!v.unreadable().isEmpty()) {
                return ExitCodes.BAD_INPUT;
            }
            return failOnOutliers && !v.inconsistencies().isEmpty() ? ExitCodes.DIFFERENT : ExitCodes.OK;
        }
    }

    @Command(name = "draw", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = {"Draw a folder of node reports: one panel per NVLink domain (the trays of one MNNVL cluster UUID,",
                "named by the GPU Feature Discovery label nvidia.com/gpu.clique=<ClusterUUID>.<CliqueId> of its main",
                "clique; trays in another clique, a partition of the same domain, are marked), each tray with its",
                "GPUs and its links bundled (count and rate) to the switch plane (switch trays inferred from the links when no",
                "tray sees them, drawn dashed); trays whose links, fabric state, health or clique differ from the domain",
                "outlined, with why. Nodes outside any domain as a plain row.",
                "Writes SVG, or PNG at twice the drawing's size when FILE ends in .png (painted without a graphics library,",
                "text in DejaVu Sans). Exits 4 when the folder has no readable report or a file could not be read."})
    static final class Draw implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        private final CliEnvironment env;

        Draw(CliEnvironment env) {
            this.env = env;
        }

        @Parameters(paramLabel = "DIR", description = "Folder of per-node reports or snapshots (*.json).")
        Path dir;

        @Option(names = "--out", required = true, paramLabel = "FILE.svg|FILE.png",
                description = "The drawing: SVG, or PNG for a .png name (- for SVG on standard output).")
        Path out;

        @Option(names = "--dark", description = "Dark colours (as the app's dark theme).")
        boolean dark;

        @Override
        public Integer call() throws CommandFailure, UseCaseException {
            var err = spec.commandLine().getErr();
            String file = out.getFileName() == null ? "" : out.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
            boolean png = file.endsWith(".png");
            if (!OutputFile.isStandardOutput(out) && !file.endsWith(".svg") && !png) {
                throw CommandFailure.usage("--out " + out + ": name an .svg or a .png file (or - for SVG on standard output)");
            }
            try {
                OutputFile.checkTarget(out);
            } catch (OutputFile.NotAFileException e) {
                throw CommandFailure.usage("--out " + e.getMessage());
            }
            ClusterView v = readableView(env, dir);
            RackModel m = DrawCluster.model(v);
            RackScene scene = RackLayout.layout(m, FabricPalette.of(dark));
            try {
                if (png) {
                    OutputFile.writeBytes(out, RackPng.render(scene)); // the one writer, as the SVG and the app's export
                } else {
                    OutputFile.write(out, RackSvg.render(scene), spec.commandLine().getOut());
                }
            } catch (IOException e) {
                throw CommandFailure.cannotWrite("--out", out, e);
            }
            ErrorLine.printWrapped(err, "drew " + m.counts() + ", " + m.outside().size() + " node(s) outside any domain"
                    + (v.unreadable().isEmpty() ? "" : ", " + v.unreadable().size() + " unreadable file(s)")
                    + (OutputFile.isStandardOutput(out) ? "" : " → " + out));
            return v.unreadable().isEmpty() ? ExitCodes.OK : ExitCodes.BAD_INPUT;
        }
    }
}
