package dev.fabricscope.cli;

import dev.fabricscope.samples.Samples;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code fabricscope samples}: one bundled sample per line, its name first. */
@Command(name = "samples", mixinStandardHelpOptions = true, description = "List the bundled sample machines (name, then description).")
public final class SamplesCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        int w = Samples.names().stream().mapToInt(String::length).max().orElse(0);
        for (Samples.Sample s : Samples.list()) {
            spec.commandLine().getOut().println(s.name() + " ".repeat(w - s.name().length() + 2) + s.description());
        }
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
