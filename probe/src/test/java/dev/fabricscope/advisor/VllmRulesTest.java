package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.vllm.VllmMessage;
import static dev.fabricscope.advisor.What.error;
import static dev.fabricscope.advisor.What.fallback;
import static dev.fabricscope.advisor.What.machine;
import static dev.fabricscope.advisor.What.ok;
import static dev.fabricscope.advisor.What.whyMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** vLLM rules at their boundaries (backend-rules.md §2 and the §6 table). */
class VllmRulesTest {

    static final String FUSE = "fuse_allreduce_rms";
    static final String BACKEND = "VLLM_FLASHINFER_ALLREDUCE_BACKEND";

    static What node(String sm, int gpus) {
        return machine("sm=" + sm, "gpus-per-node=" + gpus, "multicast=true", "nvswitch=true", "all-nvlink=true", "p2p=true",
                "fabric-handles=true", "mnnvl-fabric=true", "torch-cuda=12.8", "imex-channel=true");
    }

    /** Default -O2 pass state and size-table entry per capability × world size. */
    @ParameterizedTest(name = "SM {0} TP {1} → {2}")
    @CsvSource({
            "9.0,  2,  mnnvl",
            "9.0,  4,  mnnvl",
            "9.0,  8,  mnnvl",
            "9.0,  6,  table",
            "9.0,  16, table",
            "10.0, 2,  mnnvl",
            "10.0, 8,  mnnvl",
            "10.0, 16, mnnvl",
            "10.0, 6,  table",
            "10.3, 16, mnnvl",
            "11.0, 2,  off",
            "12.0, 2,  off",
            "12.0, 8,  off",
            "8.9,  2,  off",
            "9.0,  1,  off",
    })
    void defaultPassAndSizeTable(String sm, int tp, String expected) {
        Verdict v = node(sm, Math.max(tp, 8)).tp(tp).verdict("vllm", FUSE);
        switch (expected) {
            case "off" -> {
                ok(v, null);
                assertTrue(v.value().startsWith("false (default at -O2)"), v.value());
            }
            case "table" -> fallback(v, null, "Flashinfer allreduce fusion is not supported for world size " + tp + " or max size is not provided");
            default -> {
                ok(v, expected);
                assertEquals("Initialized FlashInfer Allreduce norm fusion workspace with backend=mnnvl", v.message());
            }
        }
    }

    @Test
    void olderPassConfigRejectsWorldSize16() {
        fallback(node("10.0", 16).tp(16).version("vllm", "older").verdict("vllm", FUSE), null,
                "Flashinfer allreduce fusion is not supported for world size 16 or max size is not provided");
    }

    @Test
    void forcingThePassOnSm120HitsTheTable() {
        Verdict v = node("12.0", 2).tp(2).flag("fuse_allreduce_rms", "true").verdict("vllm", FUSE);
        fallback(v, null, "Flashinfer allreduce fusion is not supported for world size 2 or max size is not provided");
        whyMentions(v, "no entry for capability 120");
    }

    @Test
    void optimizationLevelAndBatchInvarianceTurnTheDefaultOff() {
        ok(node("9.0", 8).tp(8).flag("optimization-level", "1").verdict("vllm", FUSE), null);
        ok(node("9.0", 8).tp(8).flag("optimization-level", "O3").verdict("vllm", FUSE), "mnnvl");
        whyMentions(node("9.0", 8).tp(8).env("VLLM_BATCH_INVARIANT", "1").verdict("vllm", FUSE), "VLLM_BATCH_INVARIANT=1");
        whyMentions(machine("platform=rocm", "gpus-per-node=8").tp(8).verdict("vllm", FUSE), "AITER");
    }

    @Test
    void newestAutoIsMnnvlWithTrtllmRetry() {
        Verdict v = machine("sm=9.0", "gpus-per-node=2", "multicast=false", "nvswitch=false", "all-nvlink=false").tp(2).verdict("vllm", BACKEND);
        fallback(v, "trtllm", VllmMessage.MNNVL_FALLBACK.text());
        whyMentions(v, "Failed to initialize FlashInfer All Reduce workspace: [SymmDeviceMemory] Device does not support multicasting.. This is expected on GPUs without NVSwitch");
        assertEquals("VLLM_FLASHINFER_ALLREDUCE_BACKEND=trtllm", v.fix());
        // the pass itself still fuses
        ok(machine("sm=9.0", "gpus-per-node=2", "multicast=false", "nvswitch=false", "all-nvlink=false").tp(2).verdict("vllm", FUSE), "trtllm");
    }

    @Test
    void olderAutoIsTrtllmOnOneNodeAndMnnvlAcross() {
        Verdict one = node("9.0", 8).tp(8).version("vllm", "older").verdict("vllm", BACKEND);
        ok(one, "trtllm");
        assertEquals("trtllm (default)", one.value());
        What older = node("9.0", 8).tp(8).version("vllm", "older").env(BACKEND, "auto");
        assertEquals("Auto-selected flashinfer allreduce backend: trtllm", older.verdict("vllm", BACKEND).message());
        ok(node("10.0", 4).tp(8).nodes(2).version("vllm", "older").env(BACKEND, "auto").verdict("vllm", BACKEND), "mnnvl");
        // older default trtllm across nodes: start-up error
        error(node("10.0", 4).tp(8).nodes(2).version("vllm", "older").verdict("vllm", FUSE), "ValueError", VllmMessage.TRTLLM_MULTI.text());
        // older: a failed workspace just disables the pass (no retry)
        fallback(machine("sm=9.0", "gpus-per-node=2", "multicast=false").tp(2).version("vllm", "older").env(BACKEND, "mnnvl").verdict("vllm", BACKEND),
                null, VllmMessage.PASS_NO_WORKSPACE.text());
    }

    @Test
    void multiNode() {
        error(node("10.0", 4).tp(8).nodes(2).env(BACKEND, "trtllm").verdict("vllm", BACKEND), "ValueError", VllmMessage.TRTLLM_MULTI.text());
        ok(node("10.0", 4).tp(8).nodes(2).verdict("vllm", BACKEND), "mnnvl");
        Verdict noFabric = node("10.0", 4).assume("fabric-handles=false", "mnnvl-fabric=false").tp(8).nodes(2).verdict("vllm", BACKEND);
        fallback(noFabric, null, VllmMessage.PASS_NO_WORKSPACE.text());
        whyMentions(noFabric, "fd_exchange");
        assertEquals("-cc.pass_config.fuse_allreduce_rms=False (no FlashInfer backend fuses here)", noFabric.fix());
    }

    @Test
    void bridgedNvlinkWithoutNvswitchCrashesInGraphCapture() {
        Verdict v = machine("sm=9.0", "gpus-per-node=2", "multicast=true", "nvswitch=false", "all-nvlink=true").tp(2).verdict("vllm", BACKEND);
        assertEquals(Outcome.ERROR, v.outcome());
        assertNull(v.message());
        assertEquals("CUDA-graph capture", v.when());
        assertTrue(v.fix().startsWith("-cc.pass_config.fuse_allreduce_rms=False"), v.fix());
        Recommendation r = machine("sm=9.0", "gpus-per-node=2", "multicast=true", "nvswitch=false", "all-nvlink=true").tp(2).advise()
                .recommendation("vllm").orElseThrow();
        assertTrue(r.env().containsValue("trtllm") || r.flags().contains("-cc.pass_config.fuse_allreduce_rms=False"), r.toString());
    }

    @Test
    void bridgedPairsWithoutMulticastFallBackWithAWarning() {
        Verdict v = machine("sm=9.0", "gpus-per-node=4", "multicast=false", "nvswitch=false", "nvlink-bridge=true").tp(2).verdict("vllm", BACKEND);
        fallback(v, "trtllm", VllmMessage.MNNVL_FALLBACK.text());
        whyMentions(v, "vllm PR #48075");
        dev.fabricscope.samples.Samples.find("h100-nvl-pairs").ifPresent(s -> {
            Verdict fromSample = What.snapshot(s.snapshot().get()).tp(2).verdict("vllm", BACKEND);
            assertTrue(fromSample.why().contains("vllm PR #48075"), fromSample.why());
        });
    }

    /**
     * Eighth audit F20: PcieIpcAllReduceWorkspace is on FlashInfer's main from 299e6d11 (2026-08-20) and in no release up to
     * v0.6.18rc7: with a release vLLM and SGLang warn and fall back, FlashInfer itself has no such class; unknown build: unknown.
     */
    @Test
    void pcieIpcNeedsAFlashInferBuildThatHasIt() {
        What release = machine(What.PCIE_SM120).tp(4).env("VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "1").env("SGLANG_ENABLE_PCIE_IPC_ALLREDUCE", "1")
                .version("flashinfer", "0.6.17");
        fallback(release.verdict("vllm", "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC"), null, VllmMessage.PCIE_IPC_NO_FLASHINFER.text());
        assertEquals(Outcome.FALLBACK, release.verdict("sglang", "SGLANG_ENABLE_PCIE_IPC_ALLREDUCE").outcome());
        assertEquals(Outcome.ERROR, release.verdict("flashinfer", "PcieIpcAllReduceWorkspace(group)").outcome());
        What unknown = machine(What.PCIE_SM120).tp(4).env("VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "1");
        assertEquals(Outcome.UNKNOWN, unknown.verdict("vllm", "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC").outcome());
        ok(machine(What.PCIE_SM120).tp(4).env("VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "1").version("flashinfer", "main")
                .verdict("vllm", "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC"), "flashinfer_pcie_ipc");
    }

    /** Seventh audit F6: with --enforce-eager there are no capture sizes, so the PCIe IPC warm-up never builds its workspace. */
    @Test
    void pcieIpcWithoutCudaGraphsIsNeverSetUp() {
        String k = "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC";
        What pcie = machine(What.PCIE_SM120).tp(4).env(k, "1");
        assertEquals(Outcome.OK, pcie.version("flashinfer", "main").verdict("vllm", k).outcome(), () -> pcie.version("flashinfer", "main").verdict("vllm", k).toString());
        Verdict eager = machine(What.PCIE_SM120).tp(4).env(k, "1").flag("enforce-eager", "true").version("flashinfer", "main").verdict("vllm", k);
        fallback(eager, null, null);
        whyMentions(eager, "--enforce-eager empties cudagraph_capture_sizes", "silently");
        // eighth audit F21: -O0's cudagraph_mode NONE leaves no capture sizes either
        Verdict o0 = machine(What.PCIE_SM120).tp(4).env(k, "1").flag("optimization-level", "0").version("flashinfer", "main").verdict("vllm", k);
        fallback(o0, null, null);
        whyMentions(o0, "-O0 sets cudagraph_mode NONE");
        // cudagraph_mode NONE in --compilation-config does the same; a mode given wins over -O0's default
        fallback(machine(What.PCIE_SM120).tp(4).env(k, "1").flag("compilation-config", "{\"cudagraph_mode\": \"NONE\"}").version("flashinfer", "main")
                .verdict("vllm", k), null, null);
        assertEquals(Outcome.OK, machine(What.PCIE_SM120).tp(4).env(k, "1").flag("optimization-level", "0").flag("cudagraph_mode", "PIECEWISE")
                .version("flashinfer", "main").verdict("vllm", k).outcome());
        // eighth audit F19: DBO (use_ubatching) makes the warm-up disable the wrapper with its warning
        fallback(machine(What.PCIE_SM120).tp(4).env(k, "1").flag("enable-dbo", "true").version("flashinfer", "main").verdict("vllm", k), null,
                VllmMessage.PCIE_IPC_DBO.text());
    }

    /** Seventh audit F5: envs.py@156b1266 reads these as bool(int(...)) (l.575, 1678-1684, 1791, 1837): 'true' stops vLLM. */
    @Test
    void integerEnvironmentVariablesRefuseWords() {
        for (String[] c : new String[][] {{"VLLM_ALLREDUCE_USE_FLASHINFER", "true"}, {"VLLM_BATCH_INVARIANT", "true"},
                {"VLLM_ALLREDUCE_USE_SYMM_MEM", "yes"}, {"VLLM_USE_V2_MODEL_RUNNER", "on"}}) {
            Verdict v = machine(What.HGX_H100).tp(8).env(c[0], c[1]).verdict("vllm", c[0]);
            error(v, "ValueError", "ValueError: invalid literal for int() with base 10: '" + c[1] + "'");
        }
        ok(machine(What.HGX_H100).tp(8).env("VLLM_ALLREDUCE_USE_FLASHINFER", " 1 ").verdict("vllm", "VLLM_ALLREDUCE_USE_FLASHINFER"),
                "flashinfer");
        // eighth audit F13: the plan drops the unreadable value and does not also list it as a setting that still fails
        Recommendation r = machine(What.HGX_H100).tp(8).env("VLLM_ALLREDUCE_USE_FLASHINFER", "true").advise().recommendation("vllm").orElseThrow();
        assertTrue(r.drop().contains("VLLM_ALLREDUCE_USE_FLASHINFER"), r::toString);
        assertTrue(!r.summary().contains("VLLM_ALLREDUCE_USE_FLASHINFER=true still fails"), r.summary());
        // bool(int("2")) is True; "0" off
        Verdict two = machine(What.HGX_H100).tp(8).env("VLLM_ALLREDUCE_USE_SYMM_MEM", "2").verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM");
        assertEquals(Outcome.OK, two.outcome(), two::toString);
        assertTrue(two.resolved().startsWith("symm_mem"), two::toString);
        // VLLM_SKIP_P2P_CHECK is == "1" with default "1" (envs.py:1096): "true" means the IPC test runs, no error
        Verdict skip = machine(What.HGX_H100).tp(8).env("VLLM_SKIP_P2P_CHECK", "true").verdict("vllm", "VLLM_SKIP_P2P_CHECK");
        whyMentions(skip, "is not \"1\"", "CUDA IPC P2P test");
        whyMentions(machine(What.HGX_H100).tp(8).verdict("vllm", "VLLM_SKIP_P2P_CHECK"), "default \"1\"", "driver's P2P report");
    }

    @Test
    void flashinferVersionWhereTrtllmNeedsMulticast() {
        fallback(machine("sm=9.0", "gpus-per-node=2", "multicast=false").tp(2).version("flashinfer", "trtllm-multicast").verdict("vllm", BACKEND),
                null, VllmMessage.PASS_NO_WORKSPACE.text());
    }

    @Test
    void backendUnusedWhenThePassIsOff() {
        ok(node("12.0", 2).tp(2).verdict("vllm", BACKEND), null);
        Verdict set = node("12.0", 2).tp(2).env(BACKEND, "mnnvl").verdict("vllm", BACKEND);
        fallback(set, null, null);
        whyMentions(set, "Not used");
    }

    @Test
    void standaloneFlashInferAllReduce() {
        String k = "VLLM_ALLREDUCE_USE_FLASHINFER";
        Verdict used = node("9.0", 8).tp(8).env(k, "1").verdict("vllm", k);
        ok(used, "flashinfer");
        // vllm@00545a8a flashinfer_all_reduce.py:302-323 (should_use_fi_ar); the dispatch order has no pinned copy
        assertEquals("00545a8acc220f4c5fa47afad739e3d2baac7310", used.source().commit(), used::toString);
        assertEquals("302-323", used.source().line());
        whyMentions(used, "should_use_fi_ar accepts");
        fallback(node("9.0", 8).tp(6).env(k, "1").verdict("vllm", k), null, "FlashInfer All Reduce is disabled because it is not supported for world_size=6.");
        fallback(node("12.0", 2).tp(2).env(k, "1").verdict("vllm", k), null, "FlashInfer All Reduce is disabled because it is not supported for world_size=2.");
        fallback(machine("platform=rocm", "gpus-per-node=8").tp(8).env(k, "1").verdict("vllm", k), null, VllmMessage.FIAR_CUDA.text());
        ok(node("9.0", 8).tp(8).verdict("vllm", k), null);
    }

    /**
     * vllm-project/vllm@0052812d1f0655bd4b646b5dbda8b3427697fae3 vllm/compilation/passes/fusion/allreduce_rms_fusion.py
     * lines 105-128 (FI_ALLREDUCE_FUSION_MAX_SIZE_MB) and 133-154 (_FI_ALLREDUCE_ONE_SHOT_MAX_SIZES_MB): every cell of
     * the data table is the verdict's limit; trtllm names the one-shot bound, mnnvl leaves it to FlashInfer (165-169).
     */
    @Test
    void sizeTablesAreTheVerdictsNumbers() {
        dev.fabricscope.advisor.vllm.VllmSizeTable t = dev.fabricscope.advisor.vllm.VllmSizeTable.FUSION;
        int cells = 0;
        for (int cap : t.capabilities()) {
            String sm = cap / 10 + "." + cap % 10;
            for (int ws : t.worldSizes(cap)) {
                What w = node(sm, 16).tp(ws);
                String mb = t.mb(cap, ws).map(x -> x == Math.rint(x) ? Long.toString(x.longValue()) : x.toString()).orElseThrow();
                assertEquals(mb + " MB (table)", w.verdict("vllm", "fi_allreduce_fusion_max_size_mb").value(), "SM " + sm + " TP " + ws);
                cells++;
            }
        }
        assertEquals(14, cells, "FI_ALLREDUCE_FUSION_MAX_SIZE_MB has 14 cells at 0052812d");
        assertEquals(0.5, t.mb(90, 8).orElseThrow());
        assertTrue(t.mb(90, 16).isEmpty());
        Verdict trtllm = node("9.0", 8).tp(8).env(BACKEND, "trtllm").flag(FUSE, "true").verdict("vllm", FUSE);
        whyMentions(trtllm, "trtllm runs one-shot up to 0.5 MB per call, two-shot above (_FI_ALLREDUCE_ONE_SHOT_MAX_SIZES_MB)");
        Verdict b200 = node("10.0", 8).tp(4).env(BACKEND, "trtllm").flag(FUSE, "true").verdict("vllm", FUSE);
        whyMentions(b200, "one-shot up to 4 MB per call");
        Verdict mnnvl = node("10.0", 8).tp(4).env(BACKEND, "mnnvl").flag(FUSE, "true").verdict("vllm", FUSE);
        whyMentions(mnnvl, "FlashInfer picks one-shot or two-shot itself");
        // FI_MNNVL_ALLREDUCE_MAX_SIZE_MB: in no stored upstream copy; the standalone verdict says so instead of inventing rows
        assertTrue(!dev.fabricscope.advisor.vllm.VllmSizeTable.MNNVL.rowsRead());
        Verdict standalone = node("10.0", 8).tp(8).env("VLLM_ALLREDUCE_USE_FLASHINFER", "1").verdict("vllm", "VLLM_ALLREDUCE_USE_FLASHINFER");
        whyMentions(standalone, "at most 1 MB (FI_ALLREDUCE_FUSION_MAX_SIZE_MB)");
        whyMentions(standalone, "FI_MNNVL_ALLREDUCE_MAX_SIZE_MB; no stored vllm-project/vllm copy holds its rows");
    }

    @ParameterizedTest(name = "SM {0} TP {1} multicast {2} → {3}")
    @CsvSource({
            "9.0,  4, true,  symm_mem (multimem)",
            "9.0,  2, true,  symm_mem (two-shot)",
            "10.0, 4, true,  symm_mem (two-shot)",
            "10.0, 8, true,  symm_mem (multimem)",
            "10.3, 6, true,  symm_mem (multimem)",
            "12.0, 2, true,  'SymmMemCommunicator: Device capability 12.0 not supported, communicator is not available.'",
            "8.9,  2, false, 'SymmMemCommunicator: Device capability 8.9 not supported, communicator is not available.'",
            "9.0,  3, true,  'SymmMemCommunicator: World size 3 not supported, communicator is not available.'",
            "9.0,  16, true, 'SymmMemCommunicator: World size 16 not supported, communicator is not available.'",
            "9.0,  8, false, SymmMemCommunicator: symmetric memory multicast operations are not supported.",
    })
    void symmetricMemory(String sm, int tp, boolean multicast, String expected) {
        Verdict v = machine("sm=" + sm, "gpus-per-node=16", "multicast=" + multicast, "nvswitch=true", "all-nvlink=true").tp(tp)
                .verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM");
        if (expected.startsWith("symm_mem")) {
            ok(v, expected);
        } else {
            fallback(v, "pynccl", expected);
        }
    }

    @Test
    void symmetricMemoryOffSwitches() {
        fallback(node("9.0", 8).tp(8).env("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1").verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM"), "pynccl", VllmMessage.SYMM_MULTICAST.text());
        fallback(node("9.0", 8).tp(8).env("VLLM_BATCH_INVARIANT", "1").verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM"), "pynccl", null);
        fallback(machine("platform=rocm", "gpus-per-node=8").tp(8).verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM"), "pynccl", VllmMessage.SYMM_UNAVAILABLE.text());
        ok(node("9.0", 8).tp(8).env("VLLM_ALLREDUCE_USE_SYMM_MEM", "0").verdict("vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM"), null);
    }

    @Test
    void customAllReduce() {
        String k = "--disable-custom-all-reduce";
        ok(node("9.0", 8).tp(8).verdict("vllm", k), "custom");
        fallback(node("9.0", 8).tp(16).nodes(2).verdict("vllm", k), "pynccl", CustomAllReduceMessage.SPANS_NODES.text());
        fallback(node("9.0", 8).tp(3).verdict("vllm", k), "pynccl", String.format(CustomAllReduceMessage.WORLD_SIZE.text(), 3, "[2, 4, 6, 8]"));
        fallback(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(8).verdict("vllm", k), "pynccl", CustomAllReduceMessage.PCIE_ONLY.text());
        fallback(node("9.0", 8).assume("p2p=false").tp(8).verdict("vllm", k), "symm_mem", CustomAllReduceMessage.NO_P2P.text());
        fallback(node("9.0", 8).tp(8).env("VLLM_BATCH_INVARIANT", "1").verdict("vllm", k), "pynccl", null);
        fallback(machine("platform=cpu").tp(2).verdict("vllm", k), "torch.distributed (gloo)", VllmMessage.CAR_PLATFORM.text());
        ok(machine("platform=rocm", "gpus-per-node=8", "all-nvlink=true", "p2p=false").tp(8).verdict("vllm", k), "custom");
    }

    @Test
    void decodeContextParallel() {
        error(node("9.0", 8).tp(8).dcp(3).verdict("vllm", "--decode-context-parallel-size"), "ValueError", "tp_size=8 must be divisible by dcp_size=3.");
        // vllm-project/vllm@99d7eb5d vllm/engine/arg_utils.py:1374: the older check is an assert, with the missing space
        Verdict old = node("9.0", 8).tp(8).dcp(3).version("vllm", "older").verdict("vllm", "--decode-context-parallel-size");
        error(old, "AssertionError", "tp_size=8 must be divisible bydcp_size=3.");
        assertEquals("vllm/engine/arg_utils.py", old.source().path());
        assertEquals("1374", old.source().line());
        // model.py@0052a5b8 verify_with_parallel_config: DCP > 1 on a non-MLA model asserts on the KV heads the advisor does not know
        Verdict qwen = node("9.0", 8).tp(8).dcp(4).model("Qwen3MoeForCausalLM").verdict("vllm", "--decode-context-parallel-size");
        assertEquals(Outcome.UNKNOWN, qwen.outcome(), qwen::toString);
        whyMentions(qwen, "Missing fact", "Qwen3MoeForCausalLM", "num_key_value_heads");
        assertEquals(VllmMessage.DCP_KV_HEADS_MAX.source(), qwen.source());
        ok(node("9.0", 8).tp(8).dcp(1).verdict("vllm", "--decode-context-parallel-size"), null);
        error(node("9.0", 8).tp(4).dcp(3).flag("prefill-context-parallel-size", "2").verdict("vllm", "--decode-context-parallel-size"), "ValueError",
                String.format(VllmMessage.PCP_DCP.text(), 4, 2, 3, "[1, 2, 8]"));
        Verdict pcpDcp = node("9.0", 8).tp(4).dcp(8).flag("prefill-context-parallel-size", "2").verdict("vllm", "--decode-context-parallel-size");
        assertEquals(Outcome.UNKNOWN, pcpDcp.outcome(), pcpDcp::toString);
        error(node("9.0", 8).tp(8).dcp(1).flag("dcp-comm-backend", "a2a").verdict("vllm", "--dcp-comm-backend"), "ValueError", VllmMessage.DCP_A2A.text());
        ok(node("9.0", 8).tp(8).dcp(2).flag("dcp-comm-backend", "a2a").verdict("vllm", "--dcp-comm-backend"), "a2a");
        error(node("9.0", 8).tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a").verdict("vllm", "--dcp-comm-backend"), "pydantic ValidationError", null);
    }

    @Test
    void recommendations() {
        Recommendation h100 = node("9.0", 8).tp(8).advise().recommendation("vllm").orElseThrow();
        assertTrue(h100.env().isEmpty() && h100.flags().isEmpty(), "auto already fuses with mnnvl: " + h100);
        assertTrue(h100.summary().contains("fusion with the mnnvl workspace"), h100.summary());
        Recommendation noMc = machine("sm=9.0", "gpus-per-node=2", "multicast=false", "nvswitch=false").tp(2).advise().recommendation("vllm").orElseThrow();
        assertEquals("trtllm", noMc.env().get(BACKEND), noMc.toString());
        assertEquals("0", noMc.env().get("VLLM_ALLREDUCE_USE_SYMM_MEM"), noMc.toString());
        Recommendation older = node("10.0", 4).tp(8).nodes(2).version("vllm", "older").advise().recommendation("vllm").orElseThrow();
        assertEquals("mnnvl", older.env().get(BACKEND), older.toString());
        assertTrue(older.flags().contains("--disable-custom-all-reduce"), older.toString());
    }

    // ---- prefill context parallel (issue 23 item 6)

    /** parallel.py@00193b82 _validate_parallel_config: `if pcp > 1 and self.data_parallel_size > 1: raise ValueError("PCP does not support …")`. */
    @Test
    void pcpRefusesDataParallelism() {
        Verdict v = node("9.0", 8).tp(4).flag("prefill-context-parallel-size", "2").flag("data-parallel-size", "2").verdict("vllm", "--prefill-context-parallel-size");
        error(v, "ValueError", VllmMessage.PCP_DP.text());
        error(node("9.0", 8).tp(4).dcp(2).flag("prefill-context-parallel-size", "2").flag("data-parallel-size", "2")
                .verdict("vllm", "--decode-context-parallel-size"), "ValueError", VllmMessage.PCP_DP.text());
    }

    /** vllm.py@000fc94b use_v2_model_runner returns the exported env first; _validate_v1_model_runner lists "prefill context parallel". */
    @Test
    void pcpNeedsModelRunnerV2() {
        What w = node("9.0", 8).tp(4).flag("prefill-context-parallel-size", "2").env("VLLM_USE_V2_MODEL_RUNNER", "0");
        error(w.verdict("vllm", "--prefill-context-parallel-size"), "ValueError", VllmMessage.PCP_V1.text());
        error(node("9.0", 8).tp(4).flag("prefill-context-parallel-size", "2").env("VLLM_USE_V2_MODEL_RUNNER", "0").verdict("vllm", "VLLM_USE_V2_MODEL_RUNNER"),
                "ValueError", VllmMessage.PCP_V1.text());
        Verdict v2 = node("9.0", 8).tp(4).flag("prefill-context-parallel-size", "2").verdict("vllm", "--prefill-context-parallel-size");
        assertEquals(Outcome.UNKNOWN, v2.outcome(), v2::toString);
        Verdict runnerOnly = node("9.0", 8).tp(4).env("VLLM_USE_V2_MODEL_RUNNER", "1").verdict("vllm", "VLLM_USE_V2_MODEL_RUNNER");
        assertEquals(Outcome.UNKNOWN, runnerOnly.outcome(), runnerOnly::toString);
    }

    /** parallel.py@00193b82 __post_init__: with nnodes 1 on CUDA, `device_count() < self.world_size` (TP × PP × PCP) is a ValueError. */
    @Test
    void pcpWorldLargerThanTheNode() {
        Verdict v = node("9.0", 8).tp(8).flag("prefill-context-parallel-size", "2").verdict("vllm", "--prefill-context-parallel-size");
        error(v, "ValueError", VllmMessage.WORLD_GPUS.format(16, 8));
        whyMentions(v, "--nnodes defaults to 1");
        // the user said the deployment spans two nodes: vLLM with --nnodes 2 takes the multiprocessing path
        Verdict two = node("9.0", 8).tp(8).nodes(2).flag("prefill-context-parallel-size", "2").verdict("vllm", "--prefill-context-parallel-size");
        assertEquals(Outcome.UNKNOWN, two.outcome(), two::toString);
    }

    /**
     * vllm-project/vllm@5fab4e3999b7cdac148a6b4f5056164fef8daa0e vllm/model_executor/layers/attention/mla_dcp_qrep.py:10-11:
     * dcp_q_replicate_enabled() returns envs.VLLM_DCP_Q_REPLICATE. The env and the ParallelConfig field spelling
     * (dcp_q_replicate / --dcp-q-replicate) are accepted as real knobs, not modelled: unknown, never exit 2.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"flag, dcp_q_replicate, --dcp-q-replicate", "flag, dcp-q-replicate, --dcp-q-replicate", "env, VLLM_DCP_Q_REPLICATE, VLLM_DCP_Q_REPLICATE"})
    void dcpQueryReplicationIsAcceptedAndNotModelled(String kind, String name, String shown) {
        What w = node("10.0", 8).tp(8).dcp(8).model("DeepseekV3ForCausalLM");
        w = "flag".equals(kind) ? w.flag(name, "true") : w.env(name, "1");
        Verdict v = w.verdict("vllm", shown);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertTrue(v.why().startsWith("Not modelled: " + shown), v.why());
        assertEquals("vllm/model_executor/layers/attention/mla_dcp_qrep.py", v.source().path());
        assertEquals("5fab4e3999b7cdac148a6b4f5056164fef8daa0e", v.source().commit());
    }

    /**
     * vllm-project/vllm@fcf933f40ae09692023b9f6d10b3d9b06a499f41
     * vllm/distributed/device_communicators/flashinfer_pcie_ipc_all_reduce.py: lines 60-85 warn and fall back (no
     * PcieIpcAllReduceWorkspace, not CUDA, world size outside (2, 4, 8) at line 29, ranks on several nodes); otherwise
     * setup() builds FlashInfer's workspace at warm-up.
     */
    @Test
    void flashInferPcieIpcAllReduce() {
        String k = "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC";
        Verdict v = machine(What.PCIE_SM120).tp(4).env(k, "1").version("flashinfer", "main").verdict("vllm", k);
        ok(v, "flashinfer_pcie_ipc");
        assertEquals("fcf933f40ae09692023b9f6d10b3d9b06a499f41", v.source().commit());
        Verdict three = machine(What.PCIE_SM120).tp(3).env(k, "1").version("flashinfer", "main").verdict("vllm", k);
        fallback(three, null, "FlashInfer PCIe IPC all-reduce does not support world_size=3; supported sizes are (2, 4, 8).");
        assertEquals("72-79", three.source().line());
        fallback(machine(What.PCIE_SM120).tp(8).nodes(2).env(k, "1").version("flashinfer", "main").verdict("vllm", k), null,
                "FlashInfer PCIe IPC all-reduce requires every rank in the TP group to be on one node.");
        fallback(machine(What.PCIE_SM120).assume("flashinfer=false").tp(2).env(k, "1").version("flashinfer", "main").verdict("vllm", k), null,
                "FlashInfer PCIe IPC all-reduce was requested but this FlashInfer build does not provide PcieIpcAllReduceWorkspace; "
                        + "falling back to another all-reduce backend.");
        Verdict noPeer = machine(What.PCIE_SM120).assume("p2p=false").tp(2).env(k, "1").version("flashinfer", "main").verdict("vllm", k);
        assertEquals(Outcome.UNKNOWN, noPeer.outcome(), noPeer::toString);
        ok(machine(What.PCIE_SM120).tp(4).version("flashinfer", "main").verdict("vllm", k), null);
    }
    /**
     * The newer backend resolution cites the fork copy fire3/vllm@e4bbbfc8 (_resolve_fi_ar_backend and
     * get_fi_ar_workspace, L95-178); the backend default cites envs.py in mmangkad/vllm: "auto" at its main (L1544-1548),
     * "trtllm" at 6ae8bbd0 (L1313-1317) for the older set.
     */
    @Test
    void backendAndDefaultCiteThePinnedForkCopies() {
        Verdict created = node("10.0", 4).tp(8).nodes(2).verdict("vllm", BACKEND);
        assertEquals("fire3/vllm@e4bbbfc840b5930dd544641e9ac88bc45511ec60:vllm/distributed/device_communicators/flashinfer_all_reduce.py:"
                + "95-178", created.source().toString(), created::toString);
        Verdict unused = node("9.0", 8).tp(1).verdict("vllm", BACKEND);
        assertEquals("mmangkad/vllm@156b12667cf5fbb93914f3646acc25dca378b420:vllm/envs.py:1544-1548", unused.source().toString(), unused::toString);
        Verdict older = node("9.0", 8).tp(1).version("vllm", "older").verdict("vllm", BACKEND);
        assertEquals("mmangkad/vllm@6ae8bbd0c2fa5b057f0c3066bc6519792f7048af:vllm/envs.py:1313-1317", older.source().toString(), older::toString);
    }

    /**
     * Sixth audit F3: a user's fuse_allreduce_rms wins over the level's default (mmangkad/vllm@156b1266
     * vllm/config/vllm.py:729-742, "User specified fields will not be overridden by the default"), so the
     * recommendation keeps the fusion the verdict says runs instead of saying the pass is off.
     */
    @Test
    void theRecommendationKeepsAFusionTheUserTurnedOnAgainstTheDefault() {
        What o1 = machine(What.HGX_H100).framework("vllm").tp(8).flag("optimization-level", "1").flag("fuse_allreduce_rms", "true");
        assertEquals(Outcome.OK, o1.verdict("vllm", "fuse_allreduce_rms").outcome());
        Recommendation r = o1.advise().recommendation("vllm").orElseThrow();
        assertTrue(r.summary().contains("fuse_allreduce_rms=true as given") && !r.summary().contains("fusion pass off"), r::toString);
        assertTrue(r.summary().contains("all-reduce + RMSNorm fusion with the"), r::toString);
    }
}
