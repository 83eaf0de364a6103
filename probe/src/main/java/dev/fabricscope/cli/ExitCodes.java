package dev.fabricscope.cli;

/** Process exit codes, documented in {@code --help}. */
public final class ExitCodes {
    private ExitCodes() {
    }

    public static final int OK = 0;
    /** Unexpected failure (a bug, an I/O error writing output). */
    public static final int FAILURE = 1;
    /** Bad flags or arguments. */
    public static final int USAGE = 2;
    /** No NVIDIA driver on this machine (a live command could not run). */
    public static final int NO_DRIVER = 3;
    /** An input file (snapshot, report) could not be read. */
    public static final int BAD_INPUT = 4;
    /** A check ran and found a failure (issue-level problem on the machine). */
    public static final int CHECK_FAILED = 5;
    /** The compared inputs differ ({@code diff --exit-code}, {@code cluster show --fail-on-outliers}). */
    public static final int DIFFERENT = 6;
    /** A program the command needs is not installed (srun, pdsh). */
    public static final int ENVIRONMENT = 7;
    /** An output (--out, --record) could not be written: one line names it and why; the command's work is not lost. */
    public static final int CANNOT_WRITE = 8;

    /** What an output that could not be written says: {@code cannot write --out /dev/full: No space left on device}. */
    static String cannotWrite(String option, java.nio.file.Path target, Exception e) {
        String what = e instanceof dev.fabricscope.io.OutputFile.NotAFileException ? e.getMessage() // names the target
                : dev.fabricscope.io.ErrorText.oneLineSafe(target + ": " + dev.fabricscope.io.OutputFile.reason(e));
        return "cannot write " + (option == null ? "" : option + " ") + what;
    }

    /** The exit code for a check's status: 0 passed or skipped, 5 failed, timed out or cancelled, 1 an error. */
    public static int of(dev.fabricscope.check.api.CheckStatus s) {
        return switch (s) {
            case PASSED, SKIPPED -> OK;
            case FAILED, TIMED_OUT, CANCELLED -> CHECK_FAILED;
            case ERROR -> FAILURE;
        };
    }

    /** The exit code for a use case's refusal: 2 for a wrong request, 4 for an input that cannot be read. */
    public static int of(dev.fabricscope.usecase.UseCaseException e) {
        return e.reason() == dev.fabricscope.usecase.UseCaseException.Reason.INVALID_REQUEST ? USAGE : BAD_INPUT;
    }

    public static final String HELP_FOOTER = """

            Exit codes:
              0  success
              1  unexpected failure
              2  usage error (unknown flag, bad value)
              3  no NVIDIA driver found (live probe/check could not run)
              4  input file could not be read (snapshot or report; cluster show: any node file)
              5  a live check ran and failed (cluster collect: a node failed or failed
                 its node check; cluster show: a node's check failed or its own data
                 shows a problem)
              6  the inputs differ (diff --exit-code, cluster show --fail-on-outliers)
              7  a program the command needs is missing (srun, pdsh)
              8  an output file could not be written (--out, --record; one line names it and why)""";
}
