package dev.fabricscope.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * The run an application class-data archive (AppCDS) is dumped from (installers/linux/cds-archive.sh, issue 31):
 * the commands a cold start most often serves, in one JVM, their output discarded; then the class path the archive
 * was made for on standard output, which the launcher compares before it uses the archive.
 */
public final class ArchiveTraining {

    /** What the archive is trained on: a live probe (no driver: its failure path), a bundled sample, help. */
    static final List<List<String>> COMMANDS = List.of(
            List.of("probe", "--json"),
            List.of("probe"),
            List.of("show", "--sample", "h200-vm"),
            List.of("show", "--sample", "dgx-h100", "--json"),
            List.of("--help"));

    /** Starts the line that names the class path (the JVM prints its own warnings on standard output too). */
    static final String CLASS_PATH_LINE = "fabricscope-archive-classpath=";

    private ArchiveTraining() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(none);
        System.setErr(none);
        try {
            for (List<String> c : COMMANDS) {
                try {
                    Main.run(c.toArray(String[]::new));
                } catch (RuntimeException e) {
                    // a command that fails here still loaded its classes
                }
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        out.println(CLASS_PATH_LINE + System.getProperty("java.class.path"));
    }
}
