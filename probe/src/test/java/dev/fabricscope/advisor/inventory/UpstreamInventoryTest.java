package dev.fabricscope.advisor.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.samples.Samples;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The inventory's data, its checks and which not-modelled branches could apply (issue 23, item 3). */
class UpstreamInventoryTest {

    static final String FI = "fb28d7242b3506a2348265962041acc1fb56cca4";
    static final String PIN = "{\"repo\":\"flashinfer-ai/flashinfer\",\"commit\":\"" + FI + "\",\"date\":\"2026-08-22T04:34:52-07:00\",\"read\":\"mirror\"}";
    static final String GOOD = "{\"id\":\"flashinfer.x.1\",\"framework\":\"flashinfer\",\"repo\":\"flashinfer-ai/flashinfer\",\"commit\":\"" + FI
            + "\",\"path\":\"flashinfer/comm/x.py\",\"line\":1,\"kind\":\"raise\",\"condition\":\"c\",\"message\":\"m\",";

    @Test
    void theBundledInventoryIsSound() {
        UpstreamInventory inv = UpstreamInventory.bundled();
        assertEquals(List.of(), inv.problems());
        assertTrue(inv.entries().size() >= 200, "entries: " + inv.entries().size());
        Set<String> frameworks = inv.entries().stream().map(InventoryEntry::framework).collect(Collectors.toSet());
        assertEquals(AppliesWhen.FRAMEWORKS, frameworks);
        assertTrue(inv.entries().stream().filter(InventoryEntry::modelled).count() >= 40);
    }

    @Test
    void aSoundEntryPasses() throws IOException {
        assertEquals(List.of(), read(GOOD + "\"modelledBy\":\"FlashInferMessage.NO_BACKEND\"}").problems());
    }

    @Test
    void eachDefectIsNamed() throws IOException {
        assertProblem(GOOD + "\"function\":null}", "exactly one of modelledBy and notModelled");
        assertProblem(GOOD + "\"modelledBy\":\"A.B\",\"notModelled\":\"x\",\"appliesWhen\":{\"tp\":\">1\"}}", "exactly one of modelledBy and notModelled");
        assertProblem(GOOD.replace(FI + "\",\"path", "fb28d724\",\"path") + "\"modelledBy\":\"A.B\"}", "is not 40 hex digits");
        assertProblem(GOOD.replace("\"commit\":\"" + FI, "\"commit\":\"" + "0".repeat(40)) + "\"modelledBy\":\"A.B\"}", "is not among the pins");
        assertProblem(GOOD + "\"notModelled\":\"why\"}", "needs appliesWhen");
        assertProblem(GOOD + "\"modelledBy\":\"FlashInferMessage\"}", "is not SimpleClassName.MEMBER");
        assertProblem(GOOD + "\"notModelled\":\"why\",\"appliesWhen\":{\"facts\":{\"nvswich\":\"true\"}}}", "unknown fact key 'nvswich'");
        assertProblem(GOOD + "\"notModelled\":\"why\",\"appliesWhen\":{\"tp\":\">eight\"}}", "needs a number or version");
        assertProblem(GOOD.replace("\"flashinfer\",\"repo", "\"trtllm\",\"repo") + "\"modelledBy\":\"A.B\"}", "framework 'trtllm'");
        String one = GOOD + "\"modelledBy\":\"A.B\"}";
        assertTrue(read(one + "," + one).problems().stream().anyMatch(p -> p.contains("repeated id")));
    }

    @Test
    void aMisspeltMemberIsAnErrorNotIgnored() {
        assertThrows(IOException.class, () -> read(GOOD + "\"notModelled\":\"why\",\"appliesWhn\":{\"tp\":\">1\"}}"));
        assertThrows(IOException.class, () -> read(GOOD + "\"notModelled\":\"why\",\"appliesWhen\":{\"tpSize\":\">1\"}}"));
    }

    @Test
    void predicates() {
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("not in 2,4,8,16,32,64").test("6"));
        assertEquals(Predicate.Truth.FALSE, Predicate.parse("not in 2,4,8,16,32,64").test("8"));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse(">=9.0").test("10.0"));
        assertEquals(Predicate.Truth.FALSE, Predicate.parse(">=9.0").test("8.9"));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("<9.0").test("8.6"));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("true").test("1"));
        assertEquals(Predicate.Truth.FALSE, Predicate.parse("false").test("true"));
        assertEquals(Predicate.Truth.UNKNOWN, Predicate.parse("true").test(null));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("in mnnvl,auto").test("AUTO"));
        // an environment variable not given: absent, which differs from every value
        assertEquals(Predicate.Truth.FALSE, Predicate.parse("1").testGiven(null));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("!=0").testGiven(null));
        assertEquals(Predicate.Truth.TRUE, Predicate.parse("unset").testGiven(null));
        assertEquals(Predicate.Truth.FALSE, Predicate.parse("*").testGiven(null));
        assertEquals(Predicate.Truth.FALSE, Predicate.parse("!=0").testGiven("0"));
        assertThrows(IllegalArgumentException.class, () -> Predicate.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> Predicate.parse("in 2,,4"));
    }

    // ---- which not-modelled branches could apply

    @Test
    void pcieIpcAllReduceIsNotApplicableOnAnNvswitchMachine() throws Exception {
        List<String> ids = applicable("dgx-h100", Deployment.defaults().withTp(8), "sglang");
        assertFalse(ids.contains("flashinfer.pcie_ipc_ar.221"), ids.toString());
        assertFalse(ids.contains("nccl.mnnvl.74"), ids.toString());
        assertFalse(ids.contains("flashinfer.trtllm_mnnvl_allreduce.1251"), "TP 8 is an MNNVL kernel size: " + ids);
    }

    @Test
    void pcieIpcAllReduceCouldApplyOnPcieOnlyGpus() throws Exception {
        MachineFacts f = facts("rtx-pro-6000-2x");
        assertTrue(couldApply(f, Deployment.defaults().withTp(2), "sglang").contains("flashinfer.pcie_ipc_ar.221"));
        assertFalse(couldApply(f, Deployment.defaults().withTp(2), "nccl").contains("flashinfer.pcie_ipc_ar.221"),
                "NCCL's own advice does not reach FlashInfer");
        assertFalse(applicable("rtx-pro-6000-2x", Deployment.defaults().withTp(2), "sglang").contains("flashinfer.pcie_ipc_ar.221"),
                "modelled now (FlashInferWorldSizes.PCIE_IPC): no longer shown as not modelled");
    }


    @Test
    void theImexCheckCouldApplyAcrossMnnvlTrays() throws Exception {
        MachineFacts f = facts("gb200-nvl72-tray");
        assertTrue(couldApply(f, Deployment.defaults().withTp(8).withNodes(2), "nccl").contains("nccl.mnnvl.74"));
        assertTrue(couldApply(f, Deployment.defaults().withTp(8).withNodes(2), "vllm").contains("nccl.mnnvl.86"));
        // one tray: NCCL runs its MNNVL check only when told to (init.cc:1072)
        assertFalse(couldApply(f, Deployment.defaults().withTp(4).withNodes(1), "nccl").contains("nccl.mnnvl.74"));
        assertTrue(couldApply(f, Deployment.defaults().withTp(4).withNodes(1).withEnv("NCCL_MNNVL_ENABLE", "1"), "nccl")
                .contains("nccl.mnnvl.74"));
        assertFalse(couldApply(f, Deployment.defaults().withTp(8).withNodes(2).withEnv("NCCL_MNNVL_ENABLE", "0"), "nccl")
                .contains("nccl.mnnvl.74"));
        assertFalse(applicable("gb200-nvl72-tray", Deployment.defaults().withTp(8).withNodes(2), "nccl").contains("nccl.mnnvl.74"),
                "modelled now (NcclSources.MNNVL_IMEX_CHANNEL, from the imex-channel fact)");
    }

    @Test
    void mnnvlKernelWorldSizesFollowTheDeployment() throws Exception {
        MachineFacts f = facts("hgx-b200");
        Deployment tp6 = Deployment.defaults().withTp(6).withFlag("flashinfer-allreduce-fusion-backend", "mnnvl");
        assertTrue(couldApply(f, tp6, "sglang").contains("flashinfer.trtllm_mnnvl_allreduce.1251"));
        assertFalse(couldApply(f, tp6.withTp(8), "sglang").contains("flashinfer.trtllm_mnnvl_allreduce.1251"));
        assertFalse(couldApply(f, tp6.withFlag("flashinfer-allreduce-fusion-backend", "trtllm"), "sglang")
                .contains("flashinfer.trtllm_mnnvl_allreduce.1251"));
        assertFalse(applicable("hgx-b200", tp6, "sglang").contains("flashinfer.trtllm_mnnvl_allreduce.1251"),
                "modelled now (FlashInferWorldSizes.MNNVL)");
    }


    @Test
    void theResolvedDeploymentGivesTheSameAnswer() throws Exception {
        MachineFacts f = facts("hgx-b200");
        Map<String, String> flags = Map.of("flashinfer-allreduce-fusion-backend", "mnnvl");
        for (int tp : new int[] {6, 8}) {
            EffectiveDeployment resolved = new EffectiveDeployment(tp, 1, 8, 1, 1, null, null, flags, Map.of(), Map.of(), Set.of("tp"));
            // DCP 1 as resolved: an unnamed DCP size is unknown, which keeps DCP-conditioned branches open
            Deployment given = Deployment.defaults().withTp(tp).withDcp(1).withFlag("flashinfer-allreduce-fusion-backend", "mnnvl");
            assertEquals(UpstreamInventory.bundled().notModelledApplicable(f, given, "sglang"),
                    UpstreamInventory.bundled().notModelledApplicable(f, resolved, "sglang"), "TP " + tp);
        }
    }


    @Test
    void forcedNvlsWithoutMulticastIsFlagged() throws Exception {
        MachineFacts f = MachineFacts.derive(null, Map.of("sm", "9.0", "nvswitch", "true", "multicast", "false", "gpus-per-node", "8"));
        Deployment forced = Deployment.defaults().withTp(8).withEnv("NCCL_NVLS_ENABLE", "1");
        List<String> ids = couldApply(f, forced, "sglang");
        assertTrue(ids.containsAll(List.of("nccl.nvls.276", "nccl.nvls.325")), ids.toString());
        assertFalse(couldApply(f, forced.withEnv("NCCL_NVLS_ENABLE", null), "nccl").contains("nccl.nvls.325"));
    }


    /**
     * sgl-project/sglang@0cd72ba41d483ac6c1ea96f056b2bcbfb4365121 custom_all_reduce_utils.py:351 and :354, is_full_nvlink's
     * ROCm branch: not one-hop XGMI returns False silently, AmdSmiException logs "AMD 1 hop XGMI detection failed.".
     */
    @Test
    void theXgmiBranchesOfIsFullNvlinkApplyOnRocmOnly() throws Exception {
        MachineFacts rocm = MachineFacts.derive(null, Map.of("platform", "rocm", "gpus-per-node", "8"));
        List<String> ids = couldApply(rocm, Deployment.defaults().withTp(8), "sglang");
        assertTrue(ids.containsAll(List.of("sglang.custom_all_reduce_utils.351", "sglang.custom_all_reduce_utils.354")), ids.toString());
        assertFalse(applicable("dgx-h100", Deployment.defaults().withTp(8), "sglang").contains("sglang.custom_all_reduce_utils.354"));
        assertEquals("AMD 1 hop XGMI detection failed.", entry("sglang.custom_all_reduce_utils.354").message());
    }

    /**
     * torch_symm_mem.py@0cd72ba4 L85: TORCH_SYMM_MEM_ALL_REDUCE_MAX_SIZES[self.device_capability] has keys 9 and 10, so an
     * SM 12 GPU raises KeyError; L95 (torch_symm_mem.empty) and L100 (rendezvous) raise RuntimeError, caught nowhere.
     */
    @Test
    void torchSymmMemKeyErrorAndUncaughtRendezvous() throws Exception {
        Deployment symm = Deployment.defaults().withTp(2).withFlag("enable-torch-symm-mem", "true");
        assertTrue(couldApply(facts("rtx-pro-6000-2x"), symm, "sglang").contains("sglang.torch_symm_mem.85"), "SM 12: the KeyError");
        assertFalse(couldApply(facts("dgx-h100"), symm, "sglang").contains("sglang.torch_symm_mem.85"), "SM 9 is a key");
        assertEquals("SglangTorchSymmMemRules.torchSymmMemVerdict", entry("sglang.torch_symm_mem.85").modelledBy());
        List<String> h100 = applicable("dgx-h100", symm.withTp(8), "sglang");
        assertTrue(h100.containsAll(List.of("sglang.torch_symm_mem.95", "sglang.torch_symm_mem.100")), h100.toString());
        assertFalse(applicable("dgx-h100", Deployment.defaults().withTp(8), "sglang").contains("sglang.torch_symm_mem.100"),
                "without --enable-torch-symm-mem the communicator is not built");
        assertFalse(applicable("dgx-h100", symm.withTp(3), "sglang").contains("sglang.torch_symm_mem.100"), "TP 3 raises at L87 first");
    }

    /**
     * vllm symm_mem.py@00859a52 L98 (multicast_ptr = 0 in the except of allocate_symm_mem_peer) and flashinfer
     * jit/comm.py@fb28d724 L171 (import nvidia.nvshmem in gen_mixed_comm_module).
     */
    @Test
    void multicastSwallowAndNvshmemImport() throws Exception {
        assertTrue(applicable("dgx-h100", Deployment.defaults().withTp(4).withFlag("prefill-context-parallel-size", "2"), "vllm")
                .contains("vllm.symm_mem.98"));
        assertFalse(applicable("dgx-h100", Deployment.defaults().withTp(4), "vllm").contains("vllm.symm_mem.98"));
        assertTrue(applicable("dgx-h100", Deployment.defaults().withTp(8), "flashinfer").contains("flashinfer.comm.171"));
        assertEquals("ModuleNotFoundError: No module named 'nvidia.nvshmem'", entry("flashinfer.comm.171").message());
    }

    /**
     * NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027 src/transport/nvls.cc: the fatal bind of NCCL's own buffers is
     * cuMulticastBindMem (L372-381); a failing cuMulticastBindAddr of a user buffer (L794-802) only logs INFO and leaves
     * the buffer unregistered; registration is dropped silently at L754/758/894/899/907; ncclNvlsSetup returns at L503
     * when nvlsChannels is 0; the pre-CUDA-12.1 stub sets nvlsChannels = 0 (L1148).
     */
    @Test
    void nvlsSilentBranchesShowWhereNvlsCouldRun() throws Exception {
        InventoryEntry bindMem = entry("nccl.nvls.376");
        assertTrue(bindMem.condition().startsWith("cuMulticastBindMem("), bindMem.condition());
        assertFalse(bindMem.condition().contains("/ cuMulticastBindAddr"), bindMem.condition());
        InventoryEntry bindAddr = entry("nccl.nvls.800");
        assertEquals(InventoryEntry.Kind.SILENT_DISABLE, bindAddr.kind());
        assertEquals("tryRegisterBuffer", bindAddr.function());
        assertTrue(bindAddr.message().startsWith("Failed to multicast-bind user buffer: CUDA error %d '%s'"), bindAddr.message());
        List<String> silent = List.of("nccl.nvls.503", "nccl.nvls.754", "nccl.nvls.758", "nccl.nvls.800", "nccl.nvls.894",
                "nccl.nvls.899", "nccl.nvls.907", "nccl.nvls.1148");
        List<String> h100 = applicable("dgx-h100", Deployment.defaults().withTp(8), "nccl");
        assertTrue(h100.containsAll(silent), h100.toString());
        List<String> off = applicable("dgx-h100", Deployment.defaults().withTp(8).withEnv("NCCL_NVLS_ENABLE", "0"), "nccl");
        assertTrue(off.stream().noneMatch(silent::contains), "NVLS off: " + off);
        assertTrue(applicable("l40s-4x", Deployment.defaults().withTp(4), "nccl").stream().noneMatch(silent::contains), "no NVSwitch");
        MachineFacts cuda128 = MachineFacts.derive(null, Map.of("sm", "9.0", "nvswitch", "true", "gpus-per-node", "8", "torch-cuda", "12.8"));
        assertFalse(couldApply(cuda128, Deployment.defaults().withTp(8), "sglang").contains("nccl.nvls.1148"),
                "torch for CUDA 12.8 loads an NCCL built for CUDA 12");
        assertTrue(couldApply(cuda128, Deployment.defaults().withTp(8), "nccl").contains("nccl.nvls.1148"),
                "NCCL's own advice does not know how the library was built");
    }

    static InventoryEntry entry(String id) {
        return UpstreamInventory.bundled().entries().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void anUnknownFactRulesNothingOut() throws Exception {
        MachineFacts none = MachineFacts.derive(null, Map.of());
        List<String> ids = couldApply(none, Deployment.defaults(), "sglang");
        assertTrue(ids.contains("flashinfer.pcie_ipc_ar.221"), ids.toString());
        assertFalse(ids.contains("flashinfer.trtllm_mnnvl_allreduce.1251"),
                "no fusion backend flag given: SGLang does not reach the MNNVL kernels");
    }


    @Test
    void theVerdictTextNamesReasonConditionAndMessage() {
        InventoryEntry multiRank = UpstreamInventory.bundled().entries().stream().filter(e -> e.id().equals("nccl.init.1057")).findFirst().orElseThrow();
        String why = multiRank.notModelledWhy();
        assertTrue(why.startsWith("not modelled: not a deployment branch"), why);
        assertTrue(why.contains("Upstream raise in initTransportsRank when !ncclParamMultiRankGpuEnable() && two ranks share hostHash and busId"), why);
        assertTrue(why.contains("\"Multiple Ranks are using the same GPU/Partition."), why);
        assertEquals("NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027:src/init.cc:1057", multiRank.source().toString());
        InventoryEntry modelled = UpstreamInventory.bundled().entries().stream().filter(InventoryEntry::modelled).findFirst().orElseThrow();
        assertThrows(IllegalStateException.class, modelled::notModelledWhy);
    }

    @Test
    void internalBranchesNeverApply() throws Exception {
        MachineFacts none = MachineFacts.derive(null, Map.of());
        for (String fw : AppliesWhen.FRAMEWORKS) {
            for (InventoryEntry e : UpstreamInventory.bundled().notModelledApplicable(none, Deployment.defaults(), fw)) {
                assertEquals(null, e.appliesWhen().internal(), e.id());
                assertFalse(e.modelled(), e.id());
            }
        }
    }

    /**
     * The ids whose {@code appliesWhen} says they could apply, modelled or not: the predicates keep being tested after
     * a rule comes to model their branch (issue 23's FlashInfer/NCCL round modelled the world sizes, forced NVLS and
     * the PCIe IPC world sizes).
     */
    static List<String> couldApply(MachineFacts f, Deployment d, String framework) {
        return UpstreamInventory.bundled().entries().stream().filter(e -> e.appliesWhen() != null
                && e.appliesWhen().reached(e.framework()).contains(framework) && e.appliesWhen().couldApply(f, d, framework))
                .map(InventoryEntry::id).toList();
    }

    static MachineFacts facts(String sample) throws Exception {
        return MachineFacts.derive(Samples.find(sample).orElseThrow().snapshot().get(), Map.of());
    }

    static List<String> applicable(String sample, Deployment d, String framework) throws Exception {
        MachineFacts f = MachineFacts.derive(Samples.find(sample).orElseThrow().snapshot().get(), Map.of());
        return UpstreamInventory.bundled().notModelledApplicable(f, d, framework).stream().map(InventoryEntry::id).toList();
    }

    static void assertProblem(String entryJson, String expected) throws IOException {
        List<String> problems = read(entryJson).problems();
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)), "expected '" + expected + "' in " + problems);
    }

    static UpstreamInventory read(String entriesJson) throws IOException {
        String json = "{\"pins\":[" + PIN + "],\"entries\":[" + entriesJson + "]}";
        return UpstreamInventory.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }
}
