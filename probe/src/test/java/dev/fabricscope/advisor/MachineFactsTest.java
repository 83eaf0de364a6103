package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.nccl.NcclMessage;
import dev.fabricscope.advisor.sglang.SglangMessage;
import dev.fabricscope.advisor.vllm.VllmMessage;
import static dev.fabricscope.advisor.What.fallback;
import static dev.fabricscope.advisor.What.ok;
import static dev.fabricscope.advisor.What.whyMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Effective machine facts from snapshots and --assume, and how unknown facts reach the verdicts. */
class MachineFactsTest {

    static MachineSnapshot h200vm() {
        return Samples.find("h200-vm").orElseThrow().snapshot().get();
    }

    /**
     * The TP-group facts (GroupLinks) say for the first k GPUs exactly what the machine-wide scan says of a node of k
     * GPUs: the first pair, in (i, j) order, that fails, else the first unread one, else every pair connected.
     */
    @Test
    void groupLinksAgreeWithAScanOfTheFirstKGpus() throws Exception {
        int compared = 0;
        for (dev.fabricscope.samples.Samples.Sample sample : dev.fabricscope.samples.Samples.list()) {
            MachineSnapshot s = sample.snapshot().get();
            var gpus = s.gpus();
            var links = MachineFacts.derive(s, java.util.Map.of()).groupLinks();
            for (int k = 2; k < gpus.size(); k++) {
                String nvl = null, nvlUnread = null, p2p = null, p2pUnread = null;
                for (int i = 0; i < k; i++) {
                    for (int j = i + 1; j < k; j++) {
                        var pair = s.pair(gpus.get(i).pci(), gpus.get(j).pci()).orElse(null);
                        Boolean n = pair == null ? null : pair.p2pNvlink().isPresent()
                                ? "OK".equals(pair.p2pNvlink().value()) || (pair.nvLinks().isPresent() && pair.nvLinks().value() > 0)
                                : pair.nvLinks().isPresent() ? (Boolean) (pair.nvLinks().value() > 0) : null;
                        Boolean q = pair == null ? null : pair.cudaCanAccessPeer().value();
                        String at = "GPU " + i + " and GPU " + j;
                        if (Boolean.FALSE.equals(n) && nvl == null) nvl = at;
                        if (n == null && nvlUnread == null) nvlUnread = "GPU " + i + "–" + j;
                        if (Boolean.FALSE.equals(q) && p2p == null) p2p = at;
                        if (q == null && p2pUnread == null) p2pUnread = "GPU " + i + "–" + j;
                    }
                }
                assertEquals(expected(nvl, nvlUnread, "NVLink-connected"), describe(links.nvlink().get(k - 2)), sample.name() + " k=" + k);
                assertEquals(expected(p2p, p2pUnread, "peer-accessible (cuDeviceCanAccessPeer)"), describe(links.p2p().get(k - 2)),
                        sample.name() + " k=" + k);
                compared++;
            }
        }
        assertTrue(compared > 20, "compared " + compared);
    }

    private static String expected(String failing, String unread, String what) {
        return failing != null ? "false: " + failing + " are not " + what : unread != null ? "null: " + unread + " not read"
                : "true: every GPU pair is " + what;
    }

    private static String describe(Fact<Boolean> f) {
        return f.value() + ": " + f.detail();
    }

    @Test
    void capturedH200VmFacts() throws Exception {
        MachineFacts f = MachineFacts.derive(h200vm(), Map.of());
        assertEquals("cuda", f.platform().value());
        assertEquals("9.0", f.sm().value());
        assertTrue(f.sm().probed());
        assertEquals(1, f.gpusPerNode().value());
        assertEquals(false, f.multicast().value());
        assertTrue(f.multicast().probed());
        assertEquals(true, f.fabricHandles().value());
        assertEquals(false, f.mnnvlFabric().value());
        assertTrue(f.mnnvlFabric().probed());
        assertEquals(Fact.Origin.UNKNOWN, f.nvswitch().origin(), "NVLink hidden in the VM");
        assertTrue(f.nvswitch().detail().contains("NVML_ERROR_NOT_SUPPORTED"), f.nvswitch().detail());
        assertEquals(Fact.Origin.UNKNOWN, f.p2p().origin(), "one GPU: no pair");
        assertEquals(Fact.Origin.UNKNOWN, f.torchCuda().origin());
        assertEquals("2.28.9", f.ncclVersion().value());
        assertEquals("x86_64", f.hostArch().value());
        assertEquals("GPU 0 is SM 9.0 (Hopper)", f.smPhrase());
        assertNull(f.insufficient());
    }

    @Test
    void syntheticHgxBoardFacts() throws Exception {
        MachineFacts f = MachineFacts.derive(SyntheticMachines.board(8, "9.0", true, true, true, "COMPLETED"), Map.of());
        assertEquals(8, f.gpusPerNode().value());
        assertEquals(true, f.nvswitch().value());
        assertEquals(true, f.allNvlink().value());
        assertEquals(true, f.p2p().value());
        assertEquals(true, f.multicast().value());
        assertEquals(false, f.mnnvlFabric().value(), "zero cluster UUID");
        assertTrue(f.allNvlink().probed() && f.p2p().probed() && f.nvswitch().probed());
        assertEquals("GPU 0–7 are SM 9.0 (Hopper)", f.smPhrase());

        MachineFacts pcie = MachineFacts.derive(SyntheticMachines.board(4, "8.9", false, false, false, "NOT_SUPPORTED"), Map.of());
        assertEquals(false, pcie.nvswitch().value());
        assertTrue(pcie.nvswitch().probed());
        assertEquals(false, pcie.allNvlink().value());
        assertEquals(false, pcie.p2p().value());
        assertTrue(pcie.p2p().detail().contains("GPU 0 and GPU 1"), pcie.p2p().detail());
    }

    @Test
    void fabricNotReadyIsRead() throws Exception {
        MachineFacts f = MachineFacts.derive(SyntheticMachines.board(8, "9.0", true, true, true, "IN_PROGRESS"), Map.of());
        assertEquals(false, f.fabricReady().value());
        // the board's NCCL (2.27.3-2.28.9 rules): a failed multicast bind stops init only with NCCL_NVLS_ENABLE=1, otherwise
        // NCCL proceeds without NVLS (helper s6-nccl, audit 2026-12-02c); never ok either way
        Verdict forced = What.snapshot(SyntheticMachines.board(8, "9.0", true, true, true, "IN_PROGRESS")).env("NCCL_NVLS_ENABLE", "1")
                .verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.ERROR, forced.outcome(), forced::toString);
        assertTrue(forced.message().startsWith("Failed to bind NVLink SHARP (NVLS) Multicast memory"), forced.message());
        Verdict auto = What.snapshot(SyntheticMachines.board(8, "9.0", true, true, true, "IN_PROGRESS")).verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, auto.outcome(), auto::toString);
    }

    @Test
    void assumptionsOverrideTheSnapshot() throws Exception {
        MachineFacts f = MachineFacts.derive(h200vm(), Map.of("multicast", "true", "sm", "10.0", "gpus-per-node", "8"));
        assertEquals(true, f.multicast().value());
        assertEquals(Fact.Origin.ASSUMED, f.multicast().origin());
        assertEquals("the GPUs are SM 10.0 (Blackwell, B200/GB200 class)", f.smPhrase());
        assertEquals(8, f.gpusPerNode().value());
    }

    @Test
    void badAssumptionsNameTheValidOnes() {
        AdvisorInputException e = assertThrows(AdvisorInputException.class, () -> MachineFacts.derive(null, Map.of("cores", "8")));
        assertTrue(e.getMessage().contains("unknown --assume key 'cores'"), e.getMessage());
        assertTrue(e.getMessage().contains("sm, platform, nodes, gpus-per-node, multicast, fabric-handles"), e.getMessage());
        assertTrue(assertThrows(AdvisorInputException.class, () -> MachineFacts.derive(null, Map.of("sm", "hopper"))).getMessage().contains("9.0"));
        assertTrue(assertThrows(AdvisorInputException.class, () -> MachineFacts.derive(null, Map.of("multicast", "maybe"))).getMessage().contains("true or false"));
        assertTrue(assertThrows(AdvisorInputException.class, () -> MachineFacts.derive(null, Map.of("platform", "tpu"))).getMessage().contains("cuda, rocm, cpu"));
    }

    @Test
    void withoutFactsTheAdvisorIsBlocked() throws Exception {
        AdviceResult r = Advisor.advise(null, Deployment.defaults(), Options.defaults());
        assertNotNull(r.blocked());
        assertTrue(r.verdicts().isEmpty());
        assertNull(Advisor.advise(null, Deployment.defaults(), Options.defaults().withAssume("platform", "cpu")).blocked());
        assertNull(Advisor.advise(null, Deployment.defaults(), Options.defaults().withAssume("sm", "9.0")).blocked());
        assertNotNull(Advisor.advise(null, Deployment.defaults(), Options.defaults().withAssume("platform", "cuda")).blocked());
    }

    @Test
    void tpBeyondTheSnapshotIsRefusedUnlessTheMachineIsAssumedLarger() throws Exception {
        // issue 13: TP 2 on the one-GPU VM is impossible as given; the old answer silently assumed 2 GPUs per node
        AdvisorInputException refused = org.junit.jupiter.api.Assertions.assertThrows(AdvisorInputException.class,
                () -> Advisor.advise(h200vm(), Deployment.defaults().withTp(2), Options.defaults()));
        assertTrue(refused.getMessage().startsWith("impossible deployment: TP 2 needs 2 GPUs, but 1 node × 1 GPU have 1"), refused.getMessage());
        assertTrue(refused.getMessage().contains("--nodes 2") && refused.getMessage().contains("--assume gpus-per-node=2"), refused.getMessage());
        // the classic kernel (middle rule set) takes two GPUs without NVLink; the newest's CustomAllReduceV2 needs NVLink
        AdviceResult r = What.snapshot(h200vm(), "gpus-per-node=2").tp(2).version("sglang", "middle").advise();
        assertEquals(2, r.deployment().gpusPerNode());
        assertEquals(Fact.Origin.ASSUMED, r.machine().gpusPerNode().origin());
        Verdict v = r.verdict("sglang", "--disable-custom-all-reduce").orElseThrow();
        assertEquals("custom", v.resolved(), v::toString);
        AdviceResult defaults = What.snapshot(h200vm()).advise();
        assertEquals(1, defaults.deployment().tp());
        assertTrue(defaults.deployment().notes().get("tp").contains("no --tp"));
    }

    @Test
    void capturedH200SkipsSglangFusionAfterThePreflight() {
        // the captured machine reports multicast 0: SGLang resolves trtllm, then its preflight votes fusion off
        Verdict auto = What.snapshot(h200vm(), "gpus-per-node=8").tp(2).model("DeepseekV3ForCausalLM").verdict("sglang", "--flashinfer-allreduce-fusion-backend");
        fallback(auto, null, SglangMessage.PREFLIGHT_VOTE.text());
        whyMentions(auto, "GPU 0 is SM 9.0 (Hopper)", "'auto' picks trtllm", "attribute 132 = 0");
        fallback(What.snapshot(h200vm(), "gpus-per-node=8").tp(8).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", "--flashinfer-allreduce-fusion-backend"),
                null, SglangMessage.PREFLIGHT_VOTE.text());
        // and vLLM retries with trtllm
        fallback(What.snapshot(h200vm(), "gpus-per-node=2").tp(2).verdict("vllm", "VLLM_FLASHINFER_ALLREDUCE_BACKEND"), "trtllm", VllmMessage.MNNVL_FALLBACK.text());
        ok(What.snapshot(h200vm()).verdict("sglang", "--flashinfer-allreduce-fusion-backend"), null);
    }

    @Test
    void everyVerdictOnEverySampleIsComplete() throws Exception {
        for (Samples.Sample s : Samples.list()) {
            MachineSnapshot snap = s.snapshot().get();
            AdviceResult r = Advisor.advise(snap, Deployment.defaults(), Options.defaults());
            if (r.blocked() != null) {
                continue;
            }
            assertFalse(r.verdicts().isEmpty(), s.name());
            for (Verdict v : r.verdicts()) {
                assertNotNull(v.when(), s.name() + " " + v);
                assertNotNull(v.why(), s.name() + " " + v);
                assertNotNull(v.source(), s.name() + " " + v);
                if (v.outcome() == Outcome.ERROR) {
                    assertNotNull(v.fix(), s.name() + " " + v);
                }
            }
            assertEquals(4, r.recommendations().size(), s.name());
        }
    }
}
