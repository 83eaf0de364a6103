package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.PythonEnvironment;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Python stack read from the captured H200 machine's files, and the machines without one. */
class PythonStackProbeTest {

    @TempDir
    Path root;

    @Test
    void readsTheCapturedTorchVenvWithoutRunningPython() {
        PythonStack s = PythonEnvFixture.read(PythonEnvFixture.install(root), List.of());
        PythonEnvironment venv = s.environments().get(0);
        assertEquals(PythonEnvFixture.VENV, venv.prefix());
        assertEquals(PythonEnvironment.Kind.VENV, venv.kind());
        assertEquals(PythonEnvFixture.VENV + "/bin/python3", venv.interpreter().value());
        assertEquals(List.of("python3 on PATH", "/opt/*/.venv"), venv.foundBy());
        assertEquals("3.12.3", venv.pythonVersion().value());
        assertEquals("2.11.0", venv.version("torch").orElseThrow());
        assertEquals("3.6.0", venv.version("triton").orElseThrow());
        assertEquals("5.17.0", venv.version("transformers").orElseThrow());
        assertEquals("13.3.1", venv.version("cuda-bindings").orElseThrow());
        assertEquals("2.28.9", venv.version("nvidia-nccl-cu13").orElseThrow());
        assertFalse(venv.pkg("sglang").isPresent());
        assertFalse(venv.pkg("flashinfer-python").isPresent());
        assertEquals(PythonEnvFixture.SITE + "/torch-2.11.0.dist-info/METADATA", venv.pkg("torch").orElseThrow().metadata());
        // as pip freeze spells them, not the folder's normal form
        assertEquals("nvidia-nccl-cu13", venv.pkg("nvidia_nccl_cu13").orElseThrow().name());
        PythonEnvironment.TorchBuild torch = venv.torch().value();
        assertEquals("2.11.0+cu130", torch.version());
        assertEquals("13.0", torch.cuda().value());
        assertFalse(torch.hip().isPresent());
        assertEquals("9.19.0.56", torch.cudnn().value());
        PythonEnvironment.WheelNccl nccl = venv.nccl().value();
        assertEquals("nvidia-nccl-cu13", nccl.packageName());
        assertEquals("2.28.9", nccl.version());
        assertEquals(PythonEnvFixture.SITE + "/nvidia/nccl/lib/libnccl.so.2", nccl.library().value());
        // the system Python the venv was made from, found through /usr/bin/python3 → python3.12, has no framework
        PythonEnvironment system = s.environments().stream().filter(e -> e.prefix().equals("/usr")).findFirst().orElseThrow();
        assertEquals(PythonEnvironment.Kind.SYSTEM, system.kind());
        assertEquals("3.12", system.pythonVersion().value());
        assertTrue(system.packages().isEmpty());
        assertEquals(2, s.environments().size(), s.environments().toString());
        assertEquals(venv, s.frameworkEnvironment().orElseThrow());
    }

    @Test
    void explicitPythonComesFirstAndAMissingOneIsSaid() throws Exception {
        PythonEnvFixture.install(root);
        PythonStack s = PythonEnvFixture.read(root, List.of("/usr/bin/python3", "/nowhere/bin/python3"));
        assertEquals("/usr", s.environments().get(0).prefix());
        assertEquals("/usr/bin/python3", s.environments().get(0).interpreter().value());
        assertTrue(s.environments().get(0).foundBy().contains("--python"));
        assertEquals(1, s.notes().size(), s.notes().toString());
        assertTrue(s.notes().get(0).startsWith("--python /nowhere/bin/python3: no Python environment there"), s.notes().get(0));
        // the framework environment is still the one with torch
        assertEquals(PythonEnvFixture.VENV, s.frameworkEnvironment().orElseThrow().prefix());
    }

    @Test
    void virtualEnvAndCondaPrefixAreRead() throws Exception {
        PythonEnvFixture.install(root);
        Files.createDirectories(root.resolve("home/u/miniconda3/envs/sgl/conda-meta"));
        Files.writeString(root.resolve("home/u/miniconda3/envs/sgl/conda-meta/history"), "");
        Path sp = root.resolve("home/u/miniconda3/envs/sgl/lib/python3.11/site-packages");
        Files.createDirectories(sp.resolve("sglang-0.5.6.dist-info"));
        Files.writeString(sp.resolve("sglang-0.5.6.dist-info/METADATA"), "Metadata-Version: 2.4\nName: sglang\nVersion: 0.5.6\n\nbody\nVersion: 9\n");
        Files.createDirectories(sp.resolve("flashinfer_python-0.5.3.dist-info")); // METADATA missing: the folder name tells
        Files.createDirectories(sp.resolve("torch/"));
        Files.createDirectories(sp.resolve("torch-2.9.1+cu128.dist-info"));
        Files.writeString(sp.resolve("torch-2.9.1+cu128.dist-info/METADATA"), "Name: torch\nVersion: 2.9.1+cu128\n");
        Files.writeString(sp.resolve("torch/version.py"), "__version__ = '2.9.1+cu128'\ncuda = '12.8'\nhip = None\n");
        Map<String, String> env = Map.of("VIRTUAL_ENV", "/opt/torch/.venv", "CONDA_PREFIX", "/home/u/miniconda3/envs/sgl",
                "HOME", "/home/u", "PATH", "/usr/bin");
        PythonStack s = new PythonStackProbe(PythonEnvFixture.host(root, env), List.of()).read();
        assertEquals(List.of("VIRTUAL_ENV", "/opt/*/.venv"), s.environments().get(0).foundBy());
        PythonEnvironment conda = s.environments().get(1);
        assertEquals("/home/u/miniconda3/envs/sgl", conda.prefix());
        assertEquals(PythonEnvironment.Kind.CONDA, conda.kind());
        assertEquals(List.of("CONDA_PREFIX", "conda environments"), conda.foundBy());
        assertEquals("0.5.6", conda.version("sglang").orElseThrow());
        assertEquals("0.5.3", conda.version("flashinfer-python").orElseThrow());
        assertTrue(conda.pkg("flashinfer-python").orElseThrow().metadata().contains("folder name; METADATA: ENOENT"));
        assertEquals("12.8", conda.torchCuda().orElseThrow());
        assertFalse(conda.nccl().isPresent());
        assertEquals(conda, s.frameworkEnvironment().orElseThrow(), "SGLang's environment is the frameworks' one");
    }

    @Test
    void aMachineWithoutPythonHasNoEnvironment() throws Exception {
        Files.createDirectories(root.resolve("usr/bin"));
        PythonStack s = new PythonStackProbe(PythonEnvFixture.host(root, Map.of("PATH", "/usr/bin")), List.of()).read();
        assertTrue(s.environments().isEmpty());
        assertTrue(s.notes().isEmpty());
        assertTrue(s.searched().contains("python3 on PATH"));
        assertFalse(s.frameworkEnvironment().isPresent());
    }

    @Test
    void aTraceWithoutTheseCallsLeavesTheStackUnread() {
        HostCalls none = (HostCalls) java.lang.reflect.Proxy.newProxyInstance(HostCalls.class.getClassLoader(),
                new Class<?>[] {HostCalls.class}, (p, m, a) -> NativeAnswer.failed(NativeAnswer.Fault.NOT_RECORDED, "no"));
        assertNull(new PythonStackProbe(none, List.of()).read());
    }

    @Test
    void torchVersionPyShapes() throws Exception {
        PythonEnvFixture.install(root);
        Path v = root.resolve(PythonEnvFixture.SITE.substring(1) + "/torch/version.py");
        Files.writeString(v, "__version__ = '2.8.0+cpu'\ncuda: Optional[str] = None\n");
        PythonEnvironment cpu = PythonEnvFixture.read(root, List.of()).environments().get(0);
        assertFalse(cpu.torch().value().cuda().isPresent());
        assertTrue(cpu.torch().value().cuda().missing().describe().contains("cuda = None"), cpu.torch().value().cuda().missing().describe());
        Files.writeString(v, "debug = False\n");
        PythonEnvironment broken = PythonEnvFixture.read(root, List.of()).environments().get(0);
        assertFalse(broken.torch().isPresent());
        assertTrue(broken.torch().missing().describe().contains("no __version__"), broken.torch().missing().describe());
        Files.delete(v);
        PythonEnvironment gone = PythonEnvFixture.read(root, List.of()).environments().get(0);
        assertTrue(gone.torch().missing().describe().contains("ENOENT"), gone.torch().missing().describe());
    }

    /**
     * PEP 610: a git source install's dist-info holds direct_url.json with vcs_info.commit_id; a local directory
     * (dir_info) or a wheel from an index names no commit, and an unreadable file is no commit either.
     */
    @Test
    void aSourceInstallsCommitIsReadFromDirectUrlJson() throws Exception {
        PythonEnvFixture.install(root);
        Path site = root.resolve(PythonEnvFixture.SITE.substring(1));
        String[][] dists = {{"sglang", "0.5.6", "{\"url\": \"https://github.com/sgl-project/sglang\", \"vcs_info\": {\"vcs\": \"git\", "
                + "\"commit_id\": \"01D795F8AA711691052AE277055A67F23A123B0B\", \"requested_revision\": \"main\"}, \"subdirectory\": \"python\"}"},
                {"vllm", "0.11.0", "{\"url\": \"file:///src/vllm\", \"dir_info\": {\"editable\": true}}"},
                {"flashinfer_python", "0.6.17", "{not json"}};
        for (String[] d : dists) {
            Path info = Files.createDirectories(site.resolve(d[0] + "-" + d[1] + ".dist-info"));
            Files.writeString(info.resolve("METADATA"), "Name: " + d[0].replace('_', '-') + "\nVersion: " + d[1] + "\n");
            Files.writeString(info.resolve("direct_url.json"), d[2]);
        }
        PythonEnvironment venv = PythonEnvFixture.read(root, List.of()).environments().get(0);
        assertEquals("01d795f8aa711691052ae277055a67f23a123b0b", venv.commit("sglang").orElse(null));
        assertEquals(null, venv.commit("vllm").orElse(null), "an editable local directory names no commit");
        assertEquals(null, venv.commit("flashinfer-python").orElse(null), "unreadable JSON is no commit");
        assertEquals("0.6.17", venv.version("flashinfer-python").orElseThrow());
        assertEquals(null, venv.commit("torch").orElse(null), "a wheel from an index has no direct_url.json");
    }
}
