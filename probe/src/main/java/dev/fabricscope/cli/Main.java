package dev.fabricscope.cli;

import dev.fabricscope.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code fabricscope} command line. */
@Command(name = "fabricscope", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "Inspect NVIDIA GPU fabrics: probe the machine, advise communication backends, check, report.",
        footer = ExitCodes.HELP_FOOTER,
        subcommands = {ProbeCommand.class, SamplesCommand.class, ShowCommand.class, CheckCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Program name and arguments, recorded in snapshots. */
    static volatile java.util.List<String> argv = java.util.List.of();

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        argv = java.util.stream.Stream.concat(java.util.stream.Stream.of("fabricscope"), java.util.Arrays.stream(args)).toList();
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILURE);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("fabricscope: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            c.getErr().println("fabricscope: internal error: " + ex);
            return ExitCodes.FAILURE;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"fabricscope " + Version.get()};
        }
    }
}
