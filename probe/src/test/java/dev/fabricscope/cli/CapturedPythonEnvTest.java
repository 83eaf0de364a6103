package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonEnvironment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The H200's Python stack as the GPU machine recorded it: the replay, the text and the advice read it back. */
class CapturedPythonEnvTest {

    private static final Path DIR = CapturedTraces.PYTHON_ENV_1GPU;

    @Test
    void replayReproducesTheRecordedStack() throws Exception {
        MachineSnapshot recorded = SnapshotIO.read(DIR.resolve("probe.json"));
        MachineSnapshot replayed = CapturedTraces.replay(DIR);
        assertEquals(recorded.pythonStack(), replayed.pythonStack());
        PythonEnvironment venv = replayed.pythonStack().frameworkEnvironment().orElseThrow();
        assertEquals("/opt/torch/.venv", venv.prefix());
        assertEquals("2.11.0+cu130", venv.torch().value().version());
        assertEquals("13.0", venv.torchCuda().orElseThrow());
        assertEquals("2.28.9", venv.nccl().value().version());
        assertEquals("/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", venv.nccl().value().library().value());
        // the probe's own ncclGetVersion opened the same file and agrees
        assertEquals(venv.nccl().value().library().value(), replayed.driver().nccl().path().value());
        assertEquals("2.28.9", replayed.driver().nccl().version().value());
        assertEquals(2, replayed.pythonStack().environments().size());
        assertEquals("/usr", replayed.pythonStack().environments().get(1).prefix());
    }

    @Test
    void theTextOnTheGpuMachineListedTheEnvironment() {
        String probe = CapturedTraces.read(DIR, "probe.txt");
        assertTrue(probe.contains("  /opt/torch/.venv  venv · Python 3.12.3 · found as python3 on PATH, /opt/*/.venv · the frameworks' environment\n"
                + "    torch 2.11.0 (2.11.0+cu130, CUDA 13.0, cuDNN 9.19.0.56) · nvidia-nccl-cu13 2.28.9"), probe);
        CliTest.Run here = CliTest.run("probe", "--replay", DIR.resolve("trace.json").toString(), "--wide");
        String stackHere = section(here.out());
        String stackThere = section(probe);
        assertEquals(stackThere, stackHere, "the replay here prints what the GPU machine printed");
    }

    /** The stack section: from its heading to the next empty line. */
    private static String section(String text) {
        int from = text.indexOf("Python environments");
        int to = text.indexOf("\n\n", from);
        return text.substring(from, to < 0 ? text.length() : to);
    }

    @Test
    void adviceFromTheCapturedProbeSaysReadNotAssumed() throws Exception {
        String advise = CapturedTraces.read(DIR, "advise.txt");
        assertFalse(advise.contains("torch-cuda unknown"), advise);
        assertFalse(advise.contains("flashinfer unknown"), advise);
        CliTest.Run r = CliTest.run("advise", "--snapshot", DIR.resolve("probe.json").toString(), "--framework", "sglang",
                "--assume", "gpus-per-node=2", "--tp", "2", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--json");
        assertEquals(0, r.code(), r.err());
        String all = r.out();
        assertTrue(all.contains("Read: flashinfer false (no flashinfer-python in /opt/torch/.venv)"), all);
        assertTrue(all.contains("probed: torch/version.py of torch 2.11.0+cu130 in /opt/torch/.venv"), all);
        assertFalse(all.contains("taken as installed with its comm module"), all);
        String text = CliTest.run("advise", "--snapshot", DIR.resolve("probe.json").toString(), "--framework", "sglang").out();
        assertTrue(text.contains("torch CUDA 13.0 (read) · FlashInfer not installed (read)"), text);
    }
}
