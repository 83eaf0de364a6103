package dev.fabricscope.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.probe.PythonEnvFixture;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule sets chosen by release, commit prefix and installed version. The releases are the tags read in the mirrors:
 * FlashInfer 2deed6c1 (TRT-LLM for SM 12) first in v0.6.17; NCCL's 2.17–2.20 set read at 48bb7fec = v2.20.5-1.
 */
class RuleSetSelectionTest {

    @TempDir
    Path root;

    private static String pick(String fw, String what) throws AdvisorInputException {
        return VersionChoice.resolve(Map.of(fw, what)).id(fw);
    }

    @Test
    void aReleasePicksTheSetThatCoversIt() throws AdvisorInputException {
        assertEquals("sm12-trtllm", pick("flashinfer", "0.6.17"), "no release has PcieIpcAllReduceWorkspace (299e6d11)");
        assertEquals("sm12-trtllm", pick("flashinfer", "0.6.18rc2"));
        assertEquals("newest", pick("flashinfer", "newest"));
        assertEquals("pre-sm12-trtllm", pick("flashinfer", "0.6.17rc1"), "a pre-release sorts before its release");
        assertEquals("pre-sm12-trtllm", pick("flashinfer", "0.6.16.post4"));
        assertEquals("pre-sm12-trtllm", pick("flashinfer", "0.6.15rc2"), "SymmDeviceMemory(enable_multicast=False) again from 0.6.15rc2");
        assertEquals("torch-symm-trtllm", pick("flashinfer", "0.6.15rc1"));
        assertEquals("torch-symm-trtllm", pick("flashinfer", "0.6.10rc1"));
        assertEquals("trtllm-multicast", pick("flashinfer", "0.6.9"), "SymmDeviceMemory checks multicast unconditionally up to 0.6.9");
        assertEquals("trtllm-multicast", pick("flashinfer", "0.6.0rc2"));
        assertEquals("2.20.5", pick("nccl", "2.20.5"));
        assertEquals("2.20.3", pick("nccl", "v2.20.3-1"));
        assertEquals("2.18", pick("nccl", "v2.18.1-1"));
        assertEquals("2.19", pick("nccl", "2.19.3"));
        assertEquals("2.21-2.24", pick("nccl", "2.21.5"));
        assertEquals("2.28.7-2.28.9", pick("nccl", "2.28.7"));
        assertEquals("newest", pick("nccl", "2.29.2"));
        assertEquals("older", pick("sglang", "older"), "the old ids stay");
        assertEquals("middle", pick("sglang", "middle"));
        assertEquals("newest", pick("vllm", "newest"));
    }

    @Test
    void aCommitPrefixPicksTheSetReadAtIt() throws AdvisorInputException {
        assertEquals("2.20.5", pick("nccl", "48bb7fec"));
        assertEquals("fabric-attr-only", pick("flashinfer", "07d8568688e7"));
        assertEquals("newest", pick("sglang", "00f6ebe5"), "a commit several sets were read at picks the newest of them");
        assertEquals("newest", pick("sglang", "01D795F8"), "exec_.py of the newest argument surface; case does not matter");
        assertEquals("newest", pick("vllm", "00545a8a"));
    }

    @Test
    void anUnknownReleaseListsWhatIsKnown() {
        AdvisorInputException e = assertThrows(AdvisorInputException.class, () -> pick("flashinfer", "0.5.3"));
        assertTrue(e.getMessage().startsWith("unknown flashinfer version '0.5.3'; known: newest (releases no release read; commits "),
                e.getMessage());
        assertTrue(e.getMessage().contains("pre-sm12-trtllm (releases 0.6.15rc2 up to 0.6.17 (not included)"), e.getMessage());
        AdvisorInputException s = assertThrows(AdvisorInputException.class, () -> pick("sglang", "0.5.6"));
        assertTrue(s.getMessage().contains("older (releases no release read; commits "), s.getMessage());
        assertThrows(AdvisorInputException.class, () -> pick("nccl", "deadbeef"), "a commit no set was read at");
        assertThrows(AdvisorInputException.class, () -> pick("nccl", "2.16.5"));
    }

    @Test
    void releasesOrderAsPipDoes() {
        assertTrue(Pedigree.compare("0.6.17rc1", "0.6.17") < 0);
        assertTrue(Pedigree.compare("0.6.16.post4", "0.6.16") > 0);
        assertTrue(Pedigree.compare("0.6.10", "0.6.9") > 0);
        assertTrue(Pedigree.compare("0.6.15rc1", "0.6.15rc2") < 0, "pre-releases by their number");
        assertTrue(Pedigree.compare("0.6.15b3", "0.6.15rc1") < 0, "b before rc");
        assertTrue(Pedigree.compare("0.6.16.post1", "0.6.16.post4") < 0);
        assertEquals(0, Pedigree.compare("v2.20.5-1", "2.20.5"));
        assertEquals(0, Pedigree.compare("0.6.17+cu130", "0.6.17"));
        assertTrue(!Pedigree.isRelease("newest") && !Pedigree.isCommitPrefix("0.6.17") && Pedigree.isCommitPrefix("48bb7fe"));
    }

    private MachineSnapshot withFlashInfer(String version) throws Exception {
        return withStack(version, null);
    }

    /** The stack with an SGLang source install at {@code sglangCommit} (direct_url.json, PEP 610), or a wheel when null. */
    private MachineSnapshot withStack(String version, String sglangCommit) throws Exception {
        Path root = Files.createTempDirectory(this.root, "stack");
        PythonEnvFixture.install(root);
        Files.createDirectories(root.resolve("opt/fi/.venv"));
        Files.writeString(root.resolve("opt/fi/.venv/pyvenv.cfg"), "home = /usr/bin\nversion = 3.12.3\n");
        Path sp = root.resolve("opt/fi/.venv/lib/python3.12/site-packages");
        for (String[] p : new String[][] {{"sglang", "0.4.1"}, {"flashinfer_python", version}, {"torch", "2.9.1"}}) {
            Files.createDirectories(sp.resolve(p[0] + "-" + p[1] + ".dist-info"));
            Files.writeString(sp.resolve(p[0] + "-" + p[1] + ".dist-info/METADATA"), "Name: " + p[0].replace('_', '-') + "\nVersion: " + p[1] + "\n");
        }
        if (sglangCommit != null) {
            Files.writeString(sp.resolve("sglang-0.4.1.dist-info/direct_url.json"), "{\"url\": \"https://github.com/sgl-project/sglang\", "
                    + "\"vcs_info\": {\"vcs\": \"git\", \"commit_id\": \"" + sglangCommit + "\"}, \"subdirectory\": \"python\"}");
        }
        Files.createDirectories(sp.resolve("torch"));
        Files.writeString(sp.resolve("torch/version.py"), "__version__ = '2.9.1+cu128'\ncuda = '12.8'\n");
        return Samples.find("h200-vm").orElseThrow().snapshot().get().withPythonStack(PythonEnvFixture.read(root, List.of()));
    }

    @Test
    void theInstalledReleasePicksItsSet() throws Exception {
        AdviceResult r = Advisor.advise(withFlashInfer("0.6.12"), Deployment.defaults().withTp(1), Options.defaults());
        assertEquals("torch-symm-trtllm", r.versions().get("flashinfer"));
        assertTrue(r.ruleNotes().contains("flashinfer 0.6.12 installed (read): rules torch-symm-trtllm (releases 0.6.10rc1 up to 0.6.15rc2 "
                + "(not included))"), r.ruleNotes().toString());
        assertTrue(r.ruleNotes().stream().anyMatch(n -> n.startsWith("sglang 0.4.1 installed (read): which rule set that release "
                + "matches is not recorded")), "no SGLang release was read upstream: " + r.ruleNotes());
        AdviceResult asked = Advisor.advise(withFlashInfer("0.6.12"), Deployment.defaults().withTp(1),
                Options.defaults().withVersion("flashinfer", "0.6.17"));
        assertEquals("sm12-trtllm", asked.versions().get("flashinfer"), "--framework-version wins over the installed release");
    }

    /** A source install's commit (direct_url.json) picks the set read at it; sglang@01d795f8 is exec_.py of the newest set. */
    @Test
    void aSourceInstallsCommitPicksItsSet() throws Exception {
        AdviceResult r = Advisor.advise(withStack("0.6.12", "01d795f8aa711691052ae277055a67f23a123b0b"), Deployment.defaults().withTp(1),
                Options.defaults().withVersion("sglang", "older"));
        assertEquals("older", r.versions().get("sglang"), "--framework-version still wins");
        AdviceResult fromCommit = Advisor.advise(withStack("0.6.12", "01d795f8aa711691052ae277055a67f23a123b0b"),
                Deployment.defaults().withTp(1), Options.defaults());
        assertEquals("newest", fromCommit.versions().get("sglang"));
        assertTrue(fromCommit.ruleNotes().contains("sglang 0.4.1 (source install at 01d795f8, direct_url.json) installed (read): rules newest "
                + "(read at that commit)"), fromCommit.ruleNotes().toString());
        AdviceResult elsewhere = Advisor.advise(withStack("0.6.12", "1234567890abcdef1234567890abcdef12345678"),
                Deployment.defaults().withTp(1), Options.defaults());
        assertTrue(elsewhere.ruleNotes().stream().anyMatch(n -> n.startsWith("sglang 0.4.1 (source install at 12345678, direct_url.json) "
                + "installed (read): outside every modelled rule set, whose commits are newest ") && n.contains("; middle ")
                && n.endsWith("; newest rules used")), elsewhere.ruleNotes().toString());
    }

    @Test
    void anInstalledReleaseOutsideEverySetIsSaid() throws Exception {
        AdviceResult r = Advisor.advise(withFlashInfer("0.5.3"), Deployment.defaults().withTp(1), Options.defaults());
        assertEquals("newest", r.versions().get("flashinfer"));
        assertTrue(r.ruleNotes().contains("flashinfer 0.5.3 installed (read): older than every modelled rule set (sm12-trtllm 0.6.17 up to "
                + "0.6.18 (not included), pre-sm12-trtllm 0.6.15rc2 up to 0.6.17 (not included), torch-symm-trtllm 0.6.10rc1 up to 0.6.15rc2 (not included), "
                + "trtllm-multicast 0.6.0rc2 up to 0.6.10rc1 (not included)); newest rules used"), r.ruleNotes().toString());
    }

    @Test
    void everySetListsItsFilesWithCommits() {
        for (RuleSet s : RuleSet.all()) {
            assertTrue(!s.files().isEmpty(), s.framework() + "=" + s.id() + " names no file");
            assertTrue(s.files().stream().anyMatch(f -> f.commit() != null), s.framework() + "=" + s.id() + " names no commit");
            assertTrue(s.lines().get(1).startsWith("    releases: "), s.lines().toString());
        }
    }
}
