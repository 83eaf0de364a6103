package dev.fabricscope.app;

import dev.fabricscope.io.ErrorText;
import dev.fabricscope.render.Fit;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Command-line options of the desktop app ({@code fabricscope gui [options]}), parsed by picocli as every other
 * command is: a missing value, an unknown option or a size out of bounds is one line and {@link Invalid}, never an
 * exception out of JavaFX's start method.
 * {@code --sample a,b,c} opens the first; all of them are in {@link #samples()} (the screenshot tour takes each).
 */
public record AppOptions(String sample, Path snapshot, Path cluster, List<Path> compare, boolean noProbe, String theme, double[] size,
                         List<String> samples) {

    /** The smallest and largest window sides {@code --size} takes, in pixels. */
    static final int MIN_SIDE = 320;
    static final int MAX_SIDE = 16384;

    /** Options that cannot open a window: the message is one line for the user. */
    public static final class Invalid extends IllegalArgumentException {
        public Invalid(String message) {
            super(message);
        }
    }

    /** {@code gui --help} was asked for: the message is the help text. */
    public static final class HelpAsked extends RuntimeException {
        public HelpAsked(String help) {
            super(help, null, false, false);
        }
    }

    /** The picocli model of {@code fabricscope gui}. */
    @Command(name = "fabricscope gui", mixinStandardHelpOptions = false, sortOptions = false,
            description = "Open the desktop app (also what plain 'fabricscope' does where there is a display).",
            footer = "Without --sample, --snapshot, --cluster, --compare or --no-probe the app probes this machine.")
    static final class GuiCommand {
        @Option(names = "--sample", paramLabel = "NAME[,NAME…]", description = "Open a bundled sample instead of probing.")
        String sample;
        @Option(names = "--snapshot", paramLabel = "FILE", description = "Open a report, snapshot or trace instead of probing.")
        Path snapshot;
        @Option(names = "--cluster", paramLabel = "DIR", description = "Open a folder of node reports (a cluster).")
        Path cluster;
        @Option(names = "--compare", paramLabel = "A,B", description = "Compare two reports side by side.")
        String compare;
        @Option(names = "--no-probe", description = "Start without probing this machine.")
        boolean noProbe;
        @Option(names = "--theme", paramLabel = "light|dark", description = "Override the remembered theme.")
        String theme;
        @Option(names = "--size", paramLabel = "WxH", description = "Window size in pixels, each side " + MIN_SIDE + "–"
                + MAX_SIDE + " (overrides the remembered one).")
        String size;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;
    }

    /** Parses the desktop app's arguments; {@link Invalid} or {@link HelpAsked} instead of a window. */
    public static AppOptions parse(List<String> args) {
        if (args.isEmpty()) {
            // the plain double-click start: no picocli model built on the way to the first frame
            return new AppOptions(null, null, null, null, false, null, null, List.of());
        }
        GuiCommand c = new GuiCommand();
        CommandLine cl = new CommandLine(c);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new Invalid(oneLine(e.getMessage()));
        }
        if (cl.isUsageHelpRequested()) {
            throw new HelpAsked(help());
        }
        List<String> shots = new ArrayList<>();
        String sample = null;
        if (c.sample != null) {
            for (String s : c.sample.split(",")) {
                if (!s.isBlank()) {
                    shots.add(s.strip());
                }
            }
            if (shots.isEmpty()) {
                throw new Invalid("--sample needs a sample name");
            }
            sample = shots.get(0);
        }
        List<Path> compare = null;
        if (c.compare != null) {
            String[] ab = c.compare.split(",", -1);
            if (ab.length != 2 || ab[0].isBlank() || ab[1].isBlank()) {
                throw new Invalid("--compare takes two files: A.json,B.json");
            }
            try {
                compare = List.of(Path.of(ab[0]), Path.of(ab[1]));
            } catch (java.nio.file.InvalidPathException e) {
                throw new Invalid("--compare " + visible(c.compare) + ": " + visible(e.getReason()));
            }
        }
        String theme = null;
        if (c.theme != null) {
            theme = c.theme.toLowerCase(Locale.ROOT);
            if (!theme.equals("light") && !theme.equals("dark")) {
                throw new Invalid("--theme takes light or dark, not '" + visible(c.theme) + "'");
            }
        }
        double[] size = c.size == null ? null : size(c.size);
        return new AppOptions(sample, c.snapshot, c.cluster, compare, c.noProbe, theme,
                size, List.copyOf(shots));
    }

    /** The help of {@code fabricscope gui}, as {@code --help} prints it. */
    public static String help() {
        StringWriter w = new StringWriter();
        new CommandLine(new GuiCommand()).usage(new PrintWriter(w, true));
        return w.toString();
    }

    /** The long names of every option, for the launcher's routing ({@link LaunchMode#APP_OPTIONS}). */
    static List<String> optionNames() {
        return new CommandLine(new GuiCommand()).getCommandSpec().options().stream().map(o -> o.longestName())
                .filter(n -> !n.equals("--help")).sorted().toList();
    }

    private static double[] size(String text) {
        String[] wh = text.toLowerCase(Locale.ROOT).split("x", -1);
        if (wh.length != 2) {
            throw new Invalid("--size takes WIDTHxHEIGHT in pixels, e.g. 1320x860, not '" + visible(text) + "'");
        }
        int[] v = new int[2];
        for (int i = 0; i < 2; i++) {
            try {
                v[i] = Integer.parseInt(wh[i].strip());
            } catch (NumberFormatException e) {
                throw new Invalid("--size takes WIDTHxHEIGHT in pixels, e.g. 1320x860, not '" + visible(text) + "'");
            }
            if (v[i] < MIN_SIDE || v[i] > MAX_SIDE) {
                throw new Invalid("--size " + visible(text) + ": each side must be " + MIN_SIDE + " to " + MAX_SIDE + " pixels");
            }
        }
        return new double[] {v[0], v[1]};
    }

    private static String oneLine(String message) {
        return visible(message == null ? "invalid options" : message.lines().findFirst().orElse(message));
    }

    /** Text from the command line as every error shows it: control characters as escapes, one short line. */
    private static String visible(String s) {
        return Fit.atWord(ErrorText.oneLineSafe(s), 100);
    }
}
