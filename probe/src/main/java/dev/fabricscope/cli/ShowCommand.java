package dev.fabricscope.cli;

import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.Fit;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.report.RecordedChecks;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fabricscope show}: the probe's text view of a saved snapshot, report or sample; a report's live checks
 * follow, as tables, with their date and machine.
 */
@Command(name = "show", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Show a saved snapshot, report or bundled sample as 'probe' would; a report's live checks follow.")
public final class ShowCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SnapshotSource source;

    @Option(names = "--json", description = "Print the snapshot as JSON.")
    boolean json;

    @Option(names = {"--wide", "--all"}, description = "One row per GPU, the UUID column, the full P2P matrix and a report's checks as 'check' prints them, however wide (default: fits 120 columns).")
    boolean wide;

    @Override
    public Integer call() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
        spec.commandLine().getOut().print(text());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }

    /** What the command prints (also {@link ShowFastPath}'s). */
    String text() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
        MachineSnapshot s = source.load(null);
        String text = json ? Json.write(s) : SnapshotText.render(s, wide);
        RecordedChecks checks = json ? null : source.recordedChecks();
        if (checks != null) {
            text += "\n" + checks.text(wide ? Integer.MAX_VALUE : Fit.WIDTH);
        }
        return text;
    }
}
