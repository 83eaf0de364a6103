package dev.fabricscope.cli;

import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.ErrorText;
import dev.fabricscope.text.Escape;
import dev.fabricscope.usecase.Redact;
import dev.fabricscope.usecase.UseCaseException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fabricscope redact FILE}: a trace, report or snapshot with its identifiers replaced by stable pseudonyms. */
@Command(name = "redact", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = {"Replace host names, GPU UUIDs and serials, cluster UUIDs, user names in paths, IP and MAC "
                + "addresses, InfiniBand GUIDs and board part numbers in a native-call trace (probe --record), a report or a "
                + "snapshot with the stable pseudonyms of 'report --redact', and print what was replaced (on stderr).",
            "A redacted trace still replays to the same GPUs, links, switches and fabric state; redacting twice changes nothing."})
public final class RedactCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    RedactCommand(CliEnvironment env) {
        // no environment needed: the file is all the input
    }

    @Parameters(index = "0", paramLabel = "FILE", description = "A trace, report or snapshot (JSON).")
    Path file;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the redacted file here (default: standard output).")
    Path out;

    @Override
    public Integer call() throws CommandFailure, UseCaseException {
        var err = spec.commandLine().getErr();
        if (out != null) {
            try {
                OutputFile.checkTarget(out);
            } catch (OutputFile.NotAFileException e) {
                throw CommandFailure.usage("--out " + e.getMessage());
            }
        }
        Redact.Result r = Redact.file(file);
        String what = switch (r.kind()) {
            case TRACE -> "trace";
            case REPORT -> "report";
            case SNAPSHOT -> "snapshot";
        };
        if (out != null) {
            try {
                OutputFile.write(out, r.text(), spec.commandLine().getOut()); // "-" and devices through the sanitiser
            } catch (IOException e) {
                throw CommandFailure.cannotWrite("--out", out, e);
            }
        } else {
            spec.commandLine().getOut().print(Escape.jsonSafe(r.text()));
            spec.commandLine().getOut().flush();
        }
        // the summary names every kind replaced; at 120 columns it wraps at a comma's space, indented
        ErrorLine.printWrapped(err, what + " " + r.redaction().describe()
                + (out != null && !OutputFile.isStandardOutput(out) ? " → " + ErrorText.oneLineSafe(out.toString()) : ""));
        return ExitCodes.OK;
    }
}
