package dev.fabricscope.cli;

import dev.fabricscope.Version;
import dev.fabricscope.text.SafeTerminalWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code fabricscope} command line. */
@Command(name = "fabricscope", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "Inspect NVIDIA GPU fabrics: probe the machine, advise communication backends, check, report.",
        footer = ExitCodes.HELP_FOOTER)
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Every subcommand, in the order help lists them. */
    static final java.util.List<Class<?>> SUBCOMMANDS = java.util.List.of(
            ProbeCommand.class, SamplesCommand.class, ShowCommand.class, ClusterCommand.class, CheckCommand.class,
            AdviseCommand.class, PredictCommand.class,
            ReportCommand.class,
            DiffCommand.class,
            RedactCommand.class,
            CommandLine.HelpCommand.class);

    public static int run(String... args) {
        dev.fabricscope.Trace.mark("main");
        if (needsLiveProbe(args)) {
            dev.fabricscope.probe.NativePrefetch.start();
        }
        if (isVersionOnly(args)) { // picocli's model is not needed to print the version (~0.1 s of class loading)
            java.io.PrintWriter out = SafeTerminalWriter.wrap(new java.io.PrintWriter(System.out));
            printVersion(out);
            return out.checkError() ? ExitCodes.FAILURE : ExitCodes.OK;
        }
        java.util.Optional<ShowCommand> show = ShowFastPath.parse(args);
        if (show.isPresent()) { // plain show arguments: no picocli model either, unless the run fails
            java.io.PrintWriter out = SafeTerminalWriter.wrap(new java.io.PrintWriter(System.out));
            java.util.Optional<Integer> code = ShowFastPath.run(show.get(), out);
            if (code.isPresent()) {
                return code.get();
            }
        }
        return commandLine(CliEnvironment.of(args), args.length > 0 ? args[0] : null).execute(args);
    }

    /** {@code fabricscope --version} (or {@code -V}) alone. */
    static boolean isVersionOnly(String... args) {
        return args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
    }

    /** What picocli's {@code --version} prints (CliVersionTest holds the two equal), without building its model. */
    static void printVersion(java.io.PrintWriter out) {
        for (String line : Version.describe()) {
            out.println(line);
        }
        out.flush();
    }

    /** Live commands (no saved machine given): start loading the driver libraries while the arguments are parsed. */
    static boolean needsLiveProbe(String... args) {
        if (args.length == 0 || !java.util.Set.of("probe", "check", "advise", "report").contains(args[0])) {
            return false;
        }
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h") || a.startsWith("--snapshot") || a.startsWith("--sample") || a.startsWith("--from")
                    || a.startsWith("--record") || a.startsWith("--replay")
                    || a.startsWith("--cluster") || a.startsWith("--assume")) {
                return false;
            }
        }
        return true;
    }

    /** Every command, on this machine, with no arguments recorded (help, completion, the man page). */
    public static CommandLine commandLine() {
        return commandLine(CliEnvironment.of(), null);
    }

    /**
     * The command line; when {@code first} names a subcommand only that one is introspected (picocli's
     * reflection over every subcommand costs start-up time on every run), else all are. Every command gets
     * {@code env} through its constructor.
     */
    public static CommandLine commandLine(CliEnvironment env, String first) {
        CommandLine cl = new CommandLine(new Main(), new CliFactory(env));
        Class<?> only = SUBCOMMANDS.stream().filter(c -> {
            Command a = c.getAnnotation(Command.class);
            return a != null && a.name().equals(first) && c != CommandLine.HelpCommand.class;
        }).findFirst().orElse(null);
        for (Class<?> c : only != null ? java.util.List.<Class<?>>of(only) : SUBCOMMANDS) {
            cl.addSubcommand(c);
        }
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF)); // no escape codes, ever
        // Whatever writers the caller set, every command prints through the one terminal sanitiser.
        cl.setExecutionStrategy(parseResult -> {
            CommandLine root = parseResult.commandSpec().root().commandLine();
            root.setOut(SafeTerminalWriter.wrap(root.getOut()));
            root.setErr(SafeTerminalWriter.wrap(root.getErr()));
            try {
                return new CommandLine.RunLast().execute(parseResult);
            } catch (OutOfMemoryError e) {
                return outOfMemory(root.getErr());
            }
        });
        cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILURE);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            ErrorLine.print(c.getErr(), ex.getMessage());
            c.getErr().println(CliExceptionHandler.tryHelp(c));
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler(new CliExceptionHandler());
        return cl;
    }

    /** An {@link OutOfMemoryError} as one line and exit 4: the input was too big for this heap. */
    static int outOfMemory(java.io.PrintWriter err) {
        ErrorLine.print(err, "not enough memory (" + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB heap) for this input; give Java more with -Xmx or use a smaller input");
        return ExitCodes.BAD_INPUT;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return Version.describe();
        }
    }
}
