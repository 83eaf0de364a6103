package dev.fabricscope.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code fabricscope show} with plain arguments, without building picocli's model (~35 ms of every show's start-up on
 * the GPU machine): {@code --sample NAME} or {@code --snapshot FILE}, each as one or two arguments, and {@code --json},
 * {@code --wide} or {@code --all}, each at most once. Anything else, and any run that fails, goes through picocli, so
 * help, errors and their exit codes are picocli's own ({@code ShowFastPathTest} holds the two equal).
 */
final class ShowFastPath {

    private ShowFastPath() {
    }

    /** The parsed command, or empty when the arguments are not of the plain kind. */
    static Optional<ShowCommand> parse(String... args) {
        if (args.length < 2 || !"show".equals(args[0])) {
            return Optional.empty();
        }
        ShowCommand c = new ShowCommand();
        c.source = new SnapshotSource();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean inline = a.contains("=");
            switch (name) {
                case "--sample", "--snapshot" -> {
                    if (c.source.given() || !inline && i + 1 >= args.length) {
                        return Optional.empty();
                    }
                    String value = inline ? a.substring(a.indexOf('=') + 1) : args[++i];
                    if (value.isEmpty() || value.startsWith("-")) {
                        return Optional.empty(); // picocli's own reading of such a value
                    }
                    if (name.equals("--sample")) {
                        c.source.sample = value;
                    } else {
                        c.source.snapshot = Path.of(value);
                    }
                }
                case "--json" -> {
                    if (inline || c.json) {
                        return Optional.empty();
                    }
                    c.json = true;
                }
                case "--wide", "--all" -> {
                    if (inline || c.wide) {
                        return Optional.empty();
                    }
                    c.wide = true;
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        return c.source.given() ? Optional.of(c) : Optional.empty();
    }

    /** Runs it: exit 0 with the text written, or empty (nothing written) where picocli must run the command instead. */
    static Optional<Integer> run(ShowCommand c, PrintWriter out) {
        String text;
        try {
            text = c.text();
        } catch (CommandFailure | dev.fabricscope.io.SnapshotIO.ReadException | RuntimeException e) {
            return Optional.empty();
        }
        out.print(text);
        out.flush();
        return Optional.of(out.checkError() ? ExitCodes.FAILURE : ExitCodes.OK);
    }
}
