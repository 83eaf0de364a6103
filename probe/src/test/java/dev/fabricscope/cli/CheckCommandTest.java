package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class CheckCommandTest {

    /** Synthetic: what opening the CUDA driver answers where libcuda.so.1 cannot be loaded. */
    private Supplier<Opened<CudaOps>> driver = () -> Opened.notLoaded(
            "libcuda.so.1 not loadable: libcuda.so.1: cannot open shared object file: No such file or directory");
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    int run(String... args) {
        var cl = Main.commandLine(CliEnvironment.of(args).withDriverOpener(() -> driver.get()), args[0]);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void everyCheckSkipsWithExitThreeWithoutADriver() {
        for (String check : new String[] {"preflight", "p2p", "allreduce"}) {
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            assertEquals(ExitCodes.NO_DRIVER, run("check", check), check);
            assertEquals("fabricscope: check " + check + " skipped — no NVIDIA driver: libcuda.so.1 not loadable: "
                    + "libcuda.so.1: cannot open shared object file: No such file or directory", err.toString().strip());
            assertEquals("", out.toString());
        }
    }

    @Test
    void outIntoAFolderIsAUsageErrorBeforeAnyCheckRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        driver = () -> {
            throw new AssertionError("the check must not start");
        };
        for (String check : new String[] {"preflight", "p2p", "allreduce"}) {
            err.getBuffer().setLength(0);
            assertEquals(ExitCodes.USAGE, run("check", check, "--out", dir.toString()), check);
            assertTrue(err.toString().startsWith("fabricscope: --out " + dir + ": is a folder"), err.toString());
            assertEquals(2, err.toString().strip().lines().count(), err.toString());
        }
    }

    @Test
    void jsonStillGetsARecord() throws Exception {
        assertEquals(ExitCodes.NO_DRIVER, run("check", "allreduce", "--json"));
        JsonNode n = Json.mapper().readTree(out.toString());
        assertEquals("allreduce", n.get("check").asText());
        assertEquals("SKIPPED", n.get("status").asText());
        assertTrue(n.get("summary").asText().startsWith("no NVIDIA driver"));
    }

    @Test
    void badOptionsAreUsageErrorsBeforeAnyNativeCall() {
        driver = () -> {
            throw new AssertionError("must not probe the driver for bad options");
        };
        assertEquals(ExitCodes.USAGE, run("check", "allreduce", "--dtype", "int8"));
        assertTrue(err.toString().contains("unknown dtype 'int8'"), err.toString());
        assertEquals(ExitCodes.USAGE, run("check", "allreduce", "--impl", "mpi"));
        assertEquals(ExitCodes.USAGE, run("check", "allreduce", "-b", "1K", "-e", "8"));
        assertEquals(ExitCodes.USAGE, run("check", "preflight", "--world-size", "0"));
        assertEquals(ExitCodes.USAGE, run("check", "preflight", "--dtype", "fp8"));
        assertEquals(ExitCodes.USAGE, run("check", "p2p", "--buffer", "12X"));
    }

    @Test
    void sizesTakeBinarySuffixes() {
        SizeConverter c = new SizeConverter();
        assertEquals(8L, c.convert("8"));
        assertEquals(65_536L, c.convert("64K"));
        assertEquals(268_435_456L, c.convert("256M"));
        assertEquals(1L << 30, c.convert("1G"));
    }

    @Test
    void statusesMapToExitCodes() {
        assertEquals(ExitCodes.OK, ExitCodes.of(dev.fabricscope.check.api.CheckStatus.PASSED));
        assertEquals(ExitCodes.CHECK_FAILED, ExitCodes.of(dev.fabricscope.check.api.CheckStatus.FAILED));
        assertEquals(ExitCodes.CHECK_FAILED, ExitCodes.of(dev.fabricscope.check.api.CheckStatus.TIMED_OUT));
        assertEquals(ExitCodes.FAILURE, ExitCodes.of(dev.fabricscope.check.api.CheckStatus.ERROR));
    }

    @Test
    void realNoDriverPath() {
        driver = CudaOps::open;
        Assumptions.assumeTrue(dev.fabricscope.nativeapi.cuda.CudaLoader.noDriver(CudaOps.open()),
                "this machine has an NVIDIA driver");
        assertEquals(ExitCodes.NO_DRIVER, run("check", "preflight"));
        assertTrue(err.toString().contains("skipped — no NVIDIA driver"), err.toString());
    }

    static final String SYNTHETIC = "src/test/resources/synthetic/check-allreduce-ws1.trace.json";

    @Test
    void aRecordedCheckReplaysWithoutADriver() throws Exception {
        driver = () -> {
            throw new AssertionError("a replay opens no driver");
        };
        assertEquals(ExitCodes.OK, run("check", "allreduce", "--replay", SYNTHETIC, "--json"), err.toString());
        JsonNode n = Json.mapper().readTree(out.toString());
        JsonNode recorded = Json.mapper().readTree(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(SYNTHETIC)))
                .get("check").get("result");
        assertEquals(recorded, n, "the replay gives the recorded result");
        out.getBuffer().setLength(0);
        assertEquals(ExitCodes.OK, run("check", "allreduce", "--replay", SYNTHETIC));
        assertTrue(out.toString().startsWith("PASSED: world size 1: nccl passed, oneshot passed, twoshot passed"), out.toString());
    }

    @Test
    void anotherChecksTraceOrBothFlagsAreOneLine() {
        driver = () -> {
            throw new AssertionError("no driver for a refused replay");
        };
        assertEquals(ExitCodes.BAD_INPUT, run("check", "preflight", "--replay", SYNTHETIC));
        assertEquals("fabricscope: " + SYNTHETIC + ": a trace of check allreduce, not of preflight; replay it with "
                + "'fabricscope check allreduce --replay " + SYNTHETIC + "'", err.toString().strip());
        err.getBuffer().setLength(0);
        assertEquals(ExitCodes.USAGE, run("check", "allreduce", "--replay", SYNTHETIC, "--record", "x.json"));
        assertTrue(err.toString().startsWith("fabricscope: give either --record or --replay, not both"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(ExitCodes.BAD_INPUT, run("probe", "--replay", SYNTHETIC));
        assertTrue(err.toString().contains("a trace of the live check allreduce, not of a probe; replay it with "
                + "'fabricscope check allreduce --replay"), err.toString());
    }
}
