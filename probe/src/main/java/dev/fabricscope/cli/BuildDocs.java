package dev.fabricscope.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Build step (Maven {@code package}): writes the bash/zsh completion script (picocli's {@link AutoComplete}) and the
 * man page {@code fabricscope.1}, both from the same picocli model as {@code --help}, so they never drift.
 */
public final class BuildDocs {

    private BuildDocs() {
    }

    public static void main(String[] args) throws IOException {
        Path target = Path.of(args.length > 0 ? args[0] : "target");
        Files.createDirectories(target.resolve("completion"));
        Files.createDirectories(target.resolve("man"));
        CommandLine cl = Main.commandLine();
        Files.writeString(target.resolve("completion/fabricscope"), completion(cl), StandardCharsets.UTF_8);
        Files.writeString(target.resolve("man/fabricscope.1"), manPage(cl), StandardCharsets.UTF_8);
    }

    /**
     * The completion script; bash sources it, and so does zsh (it turns on bashcompinit itself). picocli names each
     * option's candidate array after its parameter label, so two options labelled {@code NAME} in one command
     * ({@code --sample}, {@code --framework}) would share one array and complete each other's values: each array is
     * renamed after its option.
     */
    static String completion(CommandLine cl) {
        String script = AutoComplete.bash("fabricscope", cl);
        script = ARRAY.matcher(script).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                "local " + arrayName(m.group(3)) + "=(" + m.group(2) + ") # " + m.group(3) + " values"));
        return USE.matcher(script).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(1) + arrayName(m.group(2))));
    }

    private static final java.util.regex.Pattern ARRAY = java.util.regex.Pattern.compile(
            "local (\\w+)_option_args=\\((.*)\\) # (--[\\w-]+) values");
    private static final java.util.regex.Pattern USE = java.util.regex.Pattern.compile(
            "('(--[\\w-]+)'(?:\\|'[^']*')*\\)\n\\s+local IFS=\\$'\\\\n'\n\\s+COMPREPLY=\\( \\$\\( compReplyArray \"\\$\\{)\\w+_option_args");

    private static String arrayName(String option) {
        return option.replaceFirst("^-+", "").replace('-', '_') + "_option_args";
    }

    /** A roff man page: the name, the synopsis, every command's help as {@code --help} prints it, the exit status. */
    static String manPage(CommandLine cl) {
        StringBuilder sb = new StringBuilder();
        sb.append(".TH FABRICSCOPE 1 \"").append(dev.fabricscope.Version.built().replaceAll("T.*", "")).append("\" \"fabricscope ")
                .append(dev.fabricscope.Version.release()).append("\" \"User Commands\"\n");
        sb.append(".SH NAME\nfabricscope \\- inspect NVIDIA GPU fabrics and advise communication backends\n");
        sb.append(".SH SYNOPSIS\n.B fabricscope\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n");
        sb.append(".SH DESCRIPTION\n").append(roff(String.join(" ", cl.getCommandSpec().usageMessage().description()))).append('\n');
        sb.append(".SH COMMANDS\n");
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            section(sb, e.getValue());
            for (CommandLine sub : e.getValue().getSubcommands().values()) {
                section(sb, sub);
            }
        }
        sb.append(".SH EXIT STATUS\n.nf\n").append(roff(ExitCodes.HELP_FOOTER.strip().replaceFirst("^Exit codes:\\n", ""))).append("\n.fi\n");
        sb.append(".SH SEE ALSO\nThe README and docs/report-schema.md in the source tree.\n");
        return sb.toString();
    }

    private static void section(StringBuilder sb, CommandLine c) {
        String usage = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
        // The exit codes are said once, in their own section.
        int footer = usage.indexOf("Exit codes:");
        if (footer >= 0) {
            usage = usage.substring(0, footer).stripTrailing();
        }
        sb.append(".SS ").append(c.getCommandSpec().qualifiedName()).append("\n.nf\n").append(roff(usage.stripTrailing())).append("\n.fi\n");
    }

    /** Escapes text for roff: backslashes, and dots or quotes at the start of a line. */
    static String roff(String text) {
        return text.replace("\\", "\\e").lines().map(l -> l.startsWith(".") || l.startsWith("'") ? "\\&" + l : l)
                .reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
