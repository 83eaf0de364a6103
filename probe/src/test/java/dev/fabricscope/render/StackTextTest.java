package dev.fabricscope.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.probe.PythonEnvFixture;
import dev.fabricscope.probe.PythonStackProbe;
import dev.fabricscope.samples.Samples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack section of the text view, its JSON round trip, and snapshots from before it. */
class StackTextTest {

    @TempDir
    Path root;

    static MachineSnapshot h200WithStack(Path root) {
        MachineSnapshot s = Samples.find("h200-vm").orElseThrow().snapshot().get();
        return s.withPythonStack(PythonEnvFixture.read(PythonEnvFixture.install(root), List.of()));
    }

    @Test
    void listsTheTorchVenvWithItsCudaAndTheNcclItLoads() {
        String text = SnapshotText.render(h200WithStack(root), true);
        assertTrue(text.contains("Python environments (read from their files; nothing was run):"), text);
        assertTrue(text.contains("  /opt/torch/.venv  venv · Python 3.12.3 · found as python3 on PATH, /opt/*/.venv · the frameworks' environment\n"), text);
        assertTrue(text.contains("    torch 2.11.0 (2.11.0+cu130, CUDA 13.0, cuDNN 9.19.0.56) · nvidia-nccl-cu13 2.28.9 · nvidia-nvshmem-cu13 3.4.5 · "
                + "cuda-bindings 13.3.1 · triton 3.6.0 · transformers 5.17.0\n"), text);
        assertTrue(text.contains("    NCCL loaded: 2.28.9 (" + PythonEnvFixture.SITE + "/nvidia/nccl/lib/libnccl.so.2) — the nvidia-nccl-cu13 2.28.9 wheel, which torch loads"), text);
        assertTrue(text.contains("    not installed: sglang, vllm, flashinfer-python\n"), text);
        assertTrue(text.contains("  /usr  system · Python 3.12 · found as python3 on PATH\n    no framework packages\n"), text);
    }

    @Test
    void aMachineWithoutPythonSaysSoInOneLine() throws Exception {
        Files.createDirectories(root.resolve("usr/bin"));
        PythonStack none = new PythonStackProbe(PythonEnvFixture.host(root, Map.of("PATH", "/usr/bin")), List.of()).read();
        MachineSnapshot s = Samples.find("h200-vm").orElseThrow().snapshot().get().withPythonStack(none);
        String section = StackText.section(s);
        assertEquals("Python:  no Python environment found (looked at VIRTUAL_ENV, CONDA_PREFIX, python3 on PATH, "
                + "/opt/*/.venv and /opt/*, conda environments)\n", section);
        assertEquals("no Python", StackText.summary(none, Map.of(), null));
    }

    @Test
    void roundTripsThroughJsonAndOldSnapshotsStillRead() throws Exception {
        MachineSnapshot s = h200WithStack(root);
        String json = RecordJson.write(s);
        MachineSnapshot back = SnapshotIO.parse(json.getBytes(StandardCharsets.UTF_8), "stack");
        assertEquals(s.pythonStack(), back.pythonStack());
        assertEquals(SnapshotText.render(s, true), SnapshotText.render(back, true));
        MachineSnapshot old = Samples.find("h200-vm").orElseThrow().snapshot().get();
        assertNull(old.pythonStack());
        String oldJson = RecordJson.write(old);
        assertFalse(oldJson.contains("pythonStack"));
        assertNull(SnapshotIO.parse(oldJson.getBytes(StandardCharsets.UTF_8), "old").pythonStack());
        assertEquals("", StackText.section(old));
    }

    @Test
    void summaryNamesTorchCudaAndNccl() {
        MachineSnapshot s = h200WithStack(root);
        assertEquals("torch 2.11.0+cu130 / CUDA 13.0 / NCCL 2.28.9", StackText.summary(s.pythonStack(), s.environment(), s.driver().nccl()));
    }
}
