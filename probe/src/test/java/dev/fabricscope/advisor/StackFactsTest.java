package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.MachineFacts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.probe.PythonEnvFixture;
import dev.fabricscope.probe.PythonStackProbe;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The advisor's torch-cuda, flashinfer and nccl-version facts come from the read stack, and --assume still wins. */
class StackFactsTest {

    @TempDir
    Path root;

    private MachineSnapshot h200(PythonStack stack) {
        return Samples.find("h200-vm").orElseThrow().snapshot().get().withPythonStack(stack);
    }

    private MachineSnapshot h200WithTorchVenv() {
        return h200(PythonEnvFixture.read(PythonEnvFixture.install(root), List.of()));
    }

    @Test
    void factsAreReadFromTheFrameworksEnvironment() throws Exception {
        MachineFacts f = MachineFacts.derive(h200WithTorchVenv(), Map.of());
        assertEquals(Fact.Origin.PROBED, f.torchCuda().origin());
        assertEquals("13.0", f.torchCuda().value());
        assertEquals("torch/version.py of torch 2.11.0+cu130 in /opt/torch/.venv", f.torchCuda().detail());
        assertEquals(Fact.Origin.PROBED, f.flashinfer().origin());
        assertFalse(f.flashinfer().value());
        assertEquals("no flashinfer-python in /opt/torch/.venv", f.flashinfer().detail());
        assertEquals("2.28.9", f.ncclVersion().value());
        assertEquals("the nvidia-nccl-cu13 2.28.9 wheel, which torch loads and pynccl's libnccl.so.2 then finds, in /opt/torch/.venv",
                f.ncclVersion().detail());
    }

    @Test
    void verdictsSayReadNotAssumed() throws Exception {
        Deployment d = Deployment.defaults().withTp(2).withFlag("flashinfer-allreduce-fusion-backend", "trtllm");
        Options o = Options.defaults().withFrameworks(List.of("sglang")).withAssume("gpus-per-node", "2");
        String without = whys(Advisor.advise(h200WithTorchVenv(), d, o));
        assertTrue(without.contains("FlashInfer is not importable, so SGLang skips the workspace silently and uses the normal "
                + "all-reduce. Read: flashinfer false (no flashinfer-python in /opt/torch/.venv)."), without);
        assertTrue(without.contains("Read: nccl-version 2.28.9 (the nvidia-nccl-cu13 2.28.9 wheel, which torch loads and "
                + "pynccl's libnccl.so.2 then finds, in /opt/torch/.venv)."), without);
        // with FlashInfer installed there, the fusion verdict reads torch's CUDA too
        Path sp = root.resolve(PythonEnvFixture.SITE.substring(1));
        Files.createDirectories(sp.resolve("flashinfer_python-0.5.3.dist-info"));
        Files.writeString(sp.resolve("flashinfer_python-0.5.3.dist-info/METADATA"), "Name: flashinfer-python\nVersion: 0.5.3\n");
        MachineSnapshot withFi = h200(PythonEnvFixture.read(root, List.of()));
        String with = whys(Advisor.advise(withFi, d, o));
        assertTrue(with.contains("Read: torch-cuda 13.0 (torch/version.py of torch 2.11.0+cu130 in /opt/torch/.venv); "
                + "flashinfer true (flashinfer-python 0.5.3 in /opt/torch/.venv)."), with);
        assertFalse(with.contains("torch-cuda unknown"), with);
        assertFalse(with.contains("flashinfer unknown"), with);
        // a snapshot without the stack assumes, as before
        String old = whys(Advisor.advise(Samples.find("h200-vm").orElseThrow().snapshot().get(), d, o));
        assertTrue(old.contains("torch-cuda unknown, taken as new enough"), old);
        assertTrue(old.contains("flashinfer unknown, taken as installed"), old);
    }

    private static String whys(AdviceResult r) {
        return String.join("\n", r.verdicts().stream().map(v -> String.valueOf(v.why())).toList());
    }

    @Test
    void assumeStillOverridesTheReadFacts() throws Exception {
        MachineFacts f = MachineFacts.derive(h200WithTorchVenv(), Map.of("torch-cuda", "12.1", "flashinfer", "true"));
        assertEquals(Fact.Origin.ASSUMED, f.torchCuda().origin());
        assertEquals("12.1", f.torchCuda().value());
        assertTrue(f.flashinfer().value());
    }

    @Test
    void noPythonKeepsTheAssumptionAndSaysWhy() throws Exception {
        Files.createDirectories(root.resolve("usr/bin"));
        PythonStack none = new PythonStackProbe(PythonEnvFixture.host(root, Map.of("PATH", "/usr/bin")), List.of()).read();
        MachineFacts f = MachineFacts.derive(h200(none), Map.of());
        assertEquals(Fact.Origin.UNKNOWN, f.torchCuda().origin());
        assertTrue(f.torchCuda().detail().startsWith("no Python environment found on the machine; taken as new enough"), f.torchCuda().detail());
    }

    @Test
    void ruleSetsFromInstalledReleases() throws Exception {
        PythonEnvFixture.install(root);
        // a second environment (SGLang's, with its own NCCL wheel) beside the captured torch venv
        Files.createDirectories(root.resolve("opt/sgl/.venv"));
        Files.writeString(root.resolve("opt/sgl/.venv/pyvenv.cfg"), "home = /usr/bin\nversion = 3.12.3\n");
        Path sp = root.resolve("opt/sgl/.venv/lib/python3.12/site-packages");
        for (String[] p : new String[][] {{"sglang", "0.5.6"}, {"torch", "2.9.1"}, {"nvidia_nccl_cu12", "2.19.3"}}) {
            Files.createDirectories(sp.resolve(p[0] + "-" + p[1] + ".dist-info"));
            Files.writeString(sp.resolve(p[0] + "-" + p[1] + ".dist-info/METADATA"), "Name: " + p[0].replace('_', '-') + "\nVersion: " + p[1] + "\n");
        }
        Files.createDirectories(sp.resolve("torch"));
        Files.writeString(sp.resolve("torch/version.py"), "__version__ = '2.9.1+cu128'\ncuda = '12.8'\n");
        MachineSnapshot s = h200(PythonEnvFixture.read(root, List.of()));
        assertEquals("/opt/sgl/.venv", s.pythonStack().frameworkEnvironment().orElseThrow().prefix());
        AdviceResult r = Advisor.advise(s, Deployment.defaults().withTp(1), Options.defaults());
        assertEquals("2.19", r.versions().get("nccl"), "NCCL 2.19.3 loaded: the 2.19 rules");
        assertEquals("newest", r.versions().get("sglang"));
        assertTrue(r.ruleNotes().stream().anyMatch(n -> n.startsWith("sglang 0.5.6 installed (read): which rule set that release "
                + "matches is not recorded")), r.ruleNotes().toString());
        AdviceResult asked = Advisor.advise(s, Deployment.defaults().withTp(1), Options.defaults().withVersion("nccl", "newest"));
        assertEquals("newest", asked.versions().get("nccl"), "--framework-version still wins");
    }
}
