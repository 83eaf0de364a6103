package dev.fabricscope.cli;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.cluster.collect.MissingProgramException;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.usecase.UseCaseException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * The one path from a command's failure to its exit code and its line on standard error, after JabKit's
 * {@code CliExceptionHandler}: each kind of failure maps to its exit code ({@link ExitCodes}), its message is printed
 * as one safe line ({@link ErrorLine}), and a usage error says where to look. Anything else is a bug of ours: exit 1,
 * {@code fabricscope: internal error: …}.
 */
final class CliExceptionHandler implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, CommandLine.ParseResult parsed) {
        PrintWriter err = command.getErr();
        int code = exitCode(ex);
        String message = code == ExitCodes.FAILURE && !(ex instanceof CommandFailure) ? "internal error: " + ex : ex.getMessage();
        if (ex instanceof CommandFailure f && f.fitted()) {
            ErrorLine.printFitted(err, message);
        } else {
            ErrorLine.print(err, message);
        }
        if (ex instanceof CommandFailure f && f.hint() != null) {
            err.println(f.hint());
        } else if (code == ExitCodes.USAGE) {
            err.println(tryHelp(command));
        }
        err.flush();
        return code;
    }

    /** The exit code for a command's failure. */
    static int exitCode(Exception ex) {
        if (ex instanceof CommandFailure f) {
            return f.exitCode();
        }
        if (ex instanceof UseCaseException u) {
            return ExitCodes.of(u);
        }
        if (ex instanceof AdvisorInputException) {
            return ExitCodes.USAGE; // a deployment option the advisor cannot take
        }
        if (ex instanceof SnapshotIO.ReadException) {
            return ExitCodes.BAD_INPUT;
        }
        if (ex instanceof MissingProgramException) {
            return ExitCodes.ENVIRONMENT;
        }
        return ExitCodes.FAILURE;
    }

    /** Where to look after a usage error: the command's help, and the knob list where it takes deployment options. */
    static String tryHelp(CommandLine command) {
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        boolean deployment = spec.mixins().values().stream().anyMatch(m -> m.userObject() instanceof DeploymentOptions);
        return "Try '" + spec.qualifiedName() + " --help'" + (deployment ? " or 'fabricscope advise --list-knobs'" : "") + ".";
    }
}
