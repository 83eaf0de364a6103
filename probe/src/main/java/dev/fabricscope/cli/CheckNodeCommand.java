package dev.fabricscope.cli;

import dev.fabricscope.check.api.CheckListener;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.check.api.NodeCheckResult;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.CheckText;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope check node}: probe, preflight, P2P matrix and an NCCL all-reduce sweep (each check in its child
 * process, as the single checks run), compared with what the node should be. Summary line first; exit 0 or 5, or 3
 * in one line when the node has no driver (nothing would be accepted; with {@code --json} its failing report is printed).
 */
@Command(name = "node", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Accept a node: probe it, run the preflight, the P2P matrix and an NCCL all-reduce sweep, and compare "
                + "with an expected profile (a report or a bundled sample): PASS/FAIL per expectation with the measured value.")
public final class CheckNodeCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliEnvironment env;

    CheckNodeCommand(CliEnvironment env) {
        this.env = env;
    }

    @Option(names = "--expect", paramLabel = "FILE|SAMPLE", description = "What the node should be: a report or snapshot "
            + "of a good node, or a bundled sample (e.g. dgx-h100). Default: this node itself (health and checks only).")
    String expect;

    @Option(names = "--min-busbw", paramLabel = "FRACTION", defaultValue = "0.5",
            description = "NCCL busbw must reach this fraction of the NVLink data bandwidth (default ${DEFAULT-VALUE}).")
    double minBusbw;

    @Option(names = "--no-live", description = "Compare the probe only; run no live check.")
    boolean noLive;

    @Option(names = "--max-bytes", paramLabel = "B", defaultValue = "256M", converter = SizeConverter.class,
            description = "Largest all-reduce size (default ${DEFAULT-VALUE}).")
    long maxBytes;

    @CommandLine.Mixin
    SnapshotSource source = new SnapshotSource();

    @Option(names = "--json", description = "Print the node report as JSON.")
    boolean json;

    @Option(names = "--wide", description = "Print measured values the table cuts in full after it.")
    boolean wide;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the node report (JSON) to FILE, to attach.")
    Path out;

    @Override
    public Integer call() throws CommandFailure, SnapshotIO.ReadException {
        var o = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        if (minBusbw < 0 || minBusbw > 1 || Double.isNaN(minBusbw)) {
            throw CommandFailure.usage("--min-busbw takes a fraction between 0 and 1");
        }
        MachineSnapshot node = source.load(env::probeLive);
        NodeAcceptance.Profile profile = profile(node);
        boolean noDriver = !node.driver().driverPresent();
        NodeAcceptance.LiveResults live = null;
        if (noDriver) {
            live = new NodeAcceptance.LiveResults(null, null, null, "no NVIDIA driver");
        } else if (source.given()) {
            live = new NodeAcceptance.LiveResults(null, null, null, "a saved machine, not this one");
        } else if (noLive) {
            live = new NodeAcceptance.LiveResults(null, null, null, "--no-live");
        } else {
            live = runChecks(err);
        }
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(profile, node, live);
        boolean pass = NodeAcceptance.passed(e);
        NodeCheckResult r = new NodeCheckResult(NodeCheckResult.NAME, pass ? CheckStatus.PASSED : CheckStatus.FAILED,
                NodeAcceptance.summary(e), profile.source(), profile, e, live.preflight(), live.p2p(), live.allReduce(), node);
        String text = Json.write(r);
        boolean unwritten = false;
        if (out != null) {
            try {
                dev.fabricscope.io.OutputFile.write(out, text, o);
            } catch (java.io.IOException ex) {
                ErrorLine.print(err, ExitCodes.cannotWrite("--out", out, ex)); // the result still shown below
                unwritten = true;
            }
        }
        if (noDriver) {
            // nothing to accept: one line and exit 3, as probe says it (README exit codes); --json still gives the
            // node report, whose expectations fail, for cluster collect --check-node to file
            if (json) {
                o.print(text);
                o.flush();
            }
            // one line within 120 columns: the cause first; what check node needs where there is room
            String cause = (source.given() ? "the saved machine: " : "")
                    + (node.driver().message() == null ? "driver " + node.driver().status() : node.driver().message());
            String needs = ": check node needs its driver loaded";
            boolean room = ErrorLine.of(cause + needs).length() <= dev.fabricscope.render.Fit.WIDTH;
            ErrorLine.printFitted(err, room ? cause + needs : cause);
            return ExitCodes.NO_DRIVER;
        }
        o.print(json ? text : CheckText.render(r, wide));
        o.flush();
        return unwritten ? ExitCodes.CANNOT_WRITE : pass ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    private NodeAcceptance.Profile profile(MachineSnapshot node) throws CommandFailure, SnapshotIO.ReadException {
        if (expect == null) {
            return NodeAcceptance.profileOf(node, "this node itself (no --expect: structure compared with itself)", minBusbw);
        }
        var sample = Samples.find(expect);
        if (sample.isPresent()) {
            return NodeAcceptance.profileOf(sample.get().snapshot().get(), "sample " + expect, minBusbw);
        }
        Path file = Path.of(expect);
        if (!Files.exists(file)) {
            throw CommandFailure.usage("--expect " + expect + ": neither a file nor a sample; samples: "
                    + String.join(", ", Samples.names()));
        }
        return NodeAcceptance.profileOf(OpenSnapshot.read(file), file.getFileName().toString(), minBusbw);
    }

    /** The three checks with their command's defaults, each in its own child process; the sweep NCCL-only, plain, bf16. */
    private NodeAcceptance.LiveResults runChecks(java.io.PrintWriter err) {
        CheckListener listener = ev -> {
            err.println(String.format(Locale.ROOT, "[%s] %s", ev.check(), ev.message()));
            err.flush();
        };
        return env.runCheck().forNode(maxBytes, listener, check -> err.println("[node] " + check));
    }
}
