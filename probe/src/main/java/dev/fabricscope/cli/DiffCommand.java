package dev.fabricscope.cli;

import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.DiffText;
import dev.fabricscope.text.Escape;
import dev.fabricscope.usecase.Compare;
import dev.fabricscope.usecase.UseCaseException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fabricscope diff A B}: what differs between two reports or snapshots, most important first. */
@Command(name = "diff", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = {"Compare two reports (or snapshots, or traces, replayed): driver, CUDA and NCCL versions, GPU models and compute capability, "
                + "NVLink links and state, NVSwitches, multicast and fabric, P2P, and every verdict that changes, most important first.",
            "Exits 0 whether or not they differ; with --exit-code, 6 when they differ (as git diff --exit-code)."})
public final class DiffCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final CliEnvironment env;

    DiffCommand(CliEnvironment env) {
        this.env = env;
    }

    @Parameters(index = "0", paramLabel = "A", description = "The first report, snapshot or trace (probe --record).")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The second report, snapshot or trace.")
    Path b;

    @Option(names = "--json", description = "Print the differences as JSON.")
    boolean json;

    @Option(names = "--exit-code", description = "Exit 6 when the two differ, 0 when they do not.")
    boolean exitCode;

    @Option(names = "--all", description = "One row per GPU and per link (default: identical changes folded into ranges, e.g. GPU0–7).")
    boolean all;

    @Override
    public Integer call() throws UseCaseException {
        ReportDiff d = env.compare().compare(Compare.Request.of(a, b)).diff();
        spec.commandLine().getOut().print(json ? Escape.jsonSafe(Json.write(d)) : DiffText.render(d, all));
        spec.commandLine().getOut().flush();
        return exitCode && !d.identical() ? ExitCodes.DIFFERENT : ExitCodes.OK;
    }
}
