package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.cluster.collect.MissingProgramException;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.usecase.UseCaseException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The one error path of the CLI: each failure's exit code (README's table), its one safe line and where to look. */
class CliExceptionHandlerTest {

    @TempDir
    Path tmp;

    /** What the handler prints and answers for {@code ex} thrown by {@code command} ({@code advise}, {@code diff}…). */
    private static CliTest.Run handle(String command, Exception ex) {
        CommandLine root = Main.commandLine(CliEnvironment.of(command), null);
        CommandLine sub = root.getSubcommands().get(command);
        StringWriter err = new StringWriter();
        sub.setErr(new PrintWriter(err));
        int code = new CliExceptionHandler().handleExecutionException(ex, sub, null);
        return new CliTest.Run(code, "", err.toString());
    }

    @Test
    void eachFailureHasItsExitCode() {
        assertEquals(ExitCodes.USAGE, handle("diff", new UseCaseException(UseCaseException.Reason.INVALID_REQUEST, "x")).code());
        assertEquals(ExitCodes.BAD_INPUT, handle("diff", new UseCaseException(UseCaseException.Reason.UNREADABLE_INPUT, "x")).code());
        assertEquals(ExitCodes.USAGE, handle("advise", new AdvisorInputException("--tp expects a number")).code());
        assertEquals(ExitCodes.BAD_INPUT, handle("show", new SnapshotIO.ReadException("f.json: empty file")).code());
        assertEquals(ExitCodes.ENVIRONMENT, handle("cluster", new MissingProgramException("srun not found on PATH")).code());
        assertEquals(ExitCodes.CANNOT_WRITE, handle("probe", CommandFailure.of(ExitCodes.CANNOT_WRITE, "cannot write")).code());
        assertEquals(ExitCodes.FAILURE, handle("probe", new IllegalStateException("a bug")).code());
    }

    @Test
    void aFailureIsOneSafeLine() {
        CliTest.Run r = handle("diff", new UseCaseException(UseCaseException.Reason.UNREADABLE_INPUT,
                "a.json: bad value \u001b]0;owned\u0007\nsecond line"));
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: a.json: bad value "), r.err());
        assertFalse(r.err().chars().anyMatch(c -> c < 0x20 && c != '\n'), "no control character reaches the terminal: " + r.err());
    }

    @Test
    void aUsageErrorSaysWhereToLook() {
        assertEquals("fabricscope: --expect applies to --check-node\nTry 'fabricscope diff --help'.\n",
                handle("diff", CommandFailure.usage("--expect applies to --check-node")).err());
        assertTrue(handle("advise", new AdvisorInputException("--tp expects a number")).err()
                .endsWith("Try 'fabricscope advise --help' or 'fabricscope advise --list-knobs'.\n"), "deployment options: the knob list too");
        assertEquals(1, handle("diff", new UseCaseException(UseCaseException.Reason.UNREADABLE_INPUT, "x")).err().lines().count(),
                "an unreadable input is no usage error");
    }

    @Test
    void anUnexpectedExceptionIsAnInternalError() {
        assertEquals("fabricscope: internal error: java.lang.IllegalStateException: a bug\n",
                handle("probe", new IllegalStateException("a bug")).err());
    }

    @Test
    void theCommandsUseIt() throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty.json"));
        CliTest.Run r = CliTest.run("diff", empty.toString(), empty.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: "), r.err());
        CliTest.Run collect = CliTest.run("cluster", "collect", "--pdsh", "h1", "--nodes", "2", "--out", tmp.resolve("c").toString());
        assertEquals(ExitCodes.USAGE, collect.code(), collect.err());
        assertEquals("fabricscope: --nodes, --nodelist and --partition apply to --slurm; give pdsh its hosts with --pdsh HOSTS\n"
                + "Try 'fabricscope cluster collect --help'.\n", collect.err());
    }
}
