package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduce;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.flashinfer.FlashInferMessage;
import dev.fabricscope.advisor.sglang.CustomAllReduceV2Table;
import dev.fabricscope.advisor.sglang.SglangMessage;
import static dev.fabricscope.advisor.What.error;
import static dev.fabricscope.advisor.What.fallback;
import static dev.fabricscope.advisor.What.machine;
import static dev.fabricscope.advisor.What.ok;
import static dev.fabricscope.advisor.What.whyMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** SGLang rules at their boundaries (backend-rules.md §1 and the §6 matrix). */
class SglangRulesTest {

    /**
     * sgl-project/sglang@01d795f8aa711691052ae277055a67f23a123b0b python/sglang/srt/arg_groups/fields/exec_.py:754
     * (ExecMoe.moe_a2a_backend, Arg(choices=[...])): argparse's _check_value (python/cpython@8ea6cc14 Lib/argparse.py:2594)
     * rejects any other value with "invalid choice", so the advisor refuses it as it refuses the other choice flags
     * (audit S61); the choices are the ones the inventory's entry quotes from upstream.
     */
    @Test
    void moeA2aBackendOutsideArgparseChoicesIsRefused() throws Exception {
        dev.fabricscope.advisor.api.AdvisorInputException bogus = org.junit.jupiter.api.Assertions.assertThrows(
                dev.fabricscope.advisor.api.AdvisorInputException.class, () -> Knobs.flags(java.util.Map.of("moe-a2a-backend", "bogus")));
        assertTrue(bogus.getMessage().contains("expected none, deepep, mooncake, nixl, mori, ascend_fuseep, flashinfer, megamoe, "
                + "deepep_v2, pplx, ascend_tp, flashinfer_megamoe"), bogus.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(dev.fabricscope.advisor.api.AdvisorInputException.class,
                () -> Knobs.flags(java.util.Map.of("moe-a2a-backend", "DeepEP")), "argparse compares exactly");
        dev.fabricscope.advisor.inventory.InventoryEntry argparse = dev.fabricscope.advisor.inventory.UpstreamInventory.bundled().entries()
                .stream().filter(e -> e.id().equals("sglang.exec_.754")).findFirst().orElseThrow();
        assertEquals("SglangKnobs.MOE_A2A_CHOICES", argparse.modelledBy());
        String quoted = argparse.message().substring(argparse.message().indexOf("(choose from ") + "(choose from ".length(),
                argparse.message().length() - 1);
        List<String> upstream = java.util.Arrays.stream(quoted.split(", ")).map(c -> c.substring(1, c.length() - 1)).toList();
        assertEquals(12, upstream.size(), upstream::toString);
        for (String choice : upstream) {
            assertEquals(choice, Knobs.flags(java.util.Map.of("moe-a2a-backend", choice)).get("moe-a2a-backend"));
        }
    }

    static final String FUSION = "--flashinfer-allreduce-fusion-backend";

    /** A node of {@code sm} GPUs with NVSwitch, multicast and (for multi-node mnnvl) an MNNVL fabric. */
    static What node(String sm, int nodes) {
        return machine("sm=" + sm, "gpus-per-node=8", "multicast=true", "nvswitch=true", "all-nvlink=true", "p2p=true",
                "fabric-handles=true", "mnnvl-fabric=true", "torch-cuda=12.8", "imex-channel=true").tp(8 * nodes).nodes(nodes);
    }

    /** §6 matrix: value × GPU × nodes → resolved backend or the ValueError text. */
    @ParameterizedTest(name = "SM {0}, {1} node(s), {2} → {3}")
    @CsvSource({
            "9.0,  1, auto,   trtllm",
            "9.0,  1, trtllm, trtllm",
            "9.0,  1, mnnvl,  mnnvl",
            "9.0,  2, auto,   FlashInfer allreduce fusion does not support multi-node on non-Blackwell systems.",
            "9.0,  2, trtllm, FlashInfer allreduce fusion trtllm backend supports single-node only.",
            "9.0,  2, mnnvl,  'FlashInfer allreduce fusion mnnvl backend requires a Blackwell system, or SM90 single-node.'",
            "10.0, 1, auto,   mnnvl",
            "10.0, 1, trtllm, trtllm",
            "10.0, 1, mnnvl,  mnnvl",
            "10.0, 2, auto,   mnnvl",
            "10.0, 2, trtllm, FlashInfer allreduce fusion trtllm backend supports single-node only.",
            "10.0, 2, mnnvl,  mnnvl",
            "10.3, 1, auto,   mnnvl",
            "10.3, 2, auto,   mnnvl",
            "10.3, 2, trtllm, FlashInfer allreduce fusion trtllm backend supports single-node only.",
            "11.0, 1, auto,   FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            "11.0, 1, trtllm, FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            "12.0, 1, auto,   FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            "12.0, 2, mnnvl,  FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            "8.9,  1, trtllm, FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
            "8.0,  2, auto,   FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs.",
    })
    void fusionMatrix(String sm, int nodes, String value, String expected) {
        Verdict v = node(sm, nodes).flag("flashinfer-allreduce-fusion-backend", value).verdict("sglang", FUSION);
        if (expected.startsWith("FlashInfer")) {
            error(v, "ValueError", expected);
            assertTrue(v.when().startsWith("model-runner warm-up"), v.when());
        } else {
            ok(v, expected);
        }
    }

    /**
     * _resolve_backend's verdicts cite the fork copies that hold it at a commit: the traceback-matched layout
     * mmangkad-dev/sglang@65b14881 (R1 L50, R2 L58-61, auto on one node L62-64, R3 L67, R4 L72-75) and, as the newest
     * set's fusion source, the newer copy @6e27ce74 (L46-75).
     */
    @Test
    void fusionResolutionCitesThePinnedForkCopies() {
        String tb = "mmangkad-dev/sglang@65b14881c5a6d308f00958a3095dea172e7cf47b:python/sglang/srt/layers/flashinfer_comm_fusion.py:";
        assertEquals(tb + "50", node("8.0", 1).flag("flashinfer-allreduce-fusion-backend", "auto").verdict("sglang", FUSION).source().toString());
        assertEquals(tb + "62-64", node("9.0", 1).flag("flashinfer-allreduce-fusion-backend", "auto").verdict("sglang", FUSION).source().toString());
        assertEquals(tb + "67", node("10.0", 2).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION).source().toString());
        assertEquals(tb + "58-61", SglangMessage.R2.source().toString());
        assertEquals(tb + "72-75", SglangMessage.R4.source().toString());
        Verdict newest = node("10.0", 2).flag("flashinfer-allreduce-fusion-backend", "mnnvl").verdict("sglang", FUSION);
        assertEquals("mmangkad-dev/sglang@6e27ce74edb151266d6277763260f4a49a545b18:python/sglang/srt/layers/flashinfer_comm_fusion.py:"
                + "46-75", newest.source().toString(), newest::toString);
        Verdict middle = node("10.0", 2).flag("flashinfer-allreduce-fusion-backend", "mnnvl").version("sglang", "middle").verdict("sglang", FUSION);
        assertEquals(tb + "47-76", middle.source().toString(), middle::toString);
        assertEquals("385-390", SglangMessage.TWOSHOT.source().line());
    }

    @Test
    void torchCudaGatesThePredicates() {
        error(node("10.0", 1).assume("torch-cuda=12.6").flag("flashinfer-allreduce-fusion-backend", "auto").verdict("sglang", FUSION),
                "ValueError", SglangMessage.R1.text());
        error(node("9.0", 1).assume("torch-cuda=12.2").flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION),
                "ValueError", SglangMessage.R1.text());
        ok(node("9.0", 1).assume("torch-cuda=12.3").flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION), "trtllm");
        Verdict v = node("10.0", 1).assume("torch-cuda=12.6").flag("flashinfer-allreduce-fusion-backend", "auto").verdict("sglang", FUSION);
        whyMentions(v, "torch is built for CUDA 12.6 (< 12.8)");
    }

    @Test
    void unknownTorchCudaIsStatedInWhy() {
        Verdict v = machine("sm=9.0", "gpus-per-node=8", "multicast=true").tp(8).flag("flashinfer-allreduce-fusion-backend", "trtllm")
                .verdict("sglang", FUSION);
        ok(v, "trtllm");
        whyMentions(v, "torch-cuda unknown", "taken as new enough", "What-if: sm=9.0");
    }

    @Test
    void autoEnableByArchitecture() {
        Verdict v = node("9.0", 1).model("DeepseekV3ForCausalLM").verdict("sglang", FUSION);
        ok(v, "trtllm");
        assertEquals("Auto-enabling FlashInfer AllReduce Fusion on SM90/SM10X for DeepseekV3ForCausalLM", v.message());
        assertEquals("auto (auto-enabled)", v.value());
        ok(node("10.0", 2).model("Qwen3MoeForCausalLM").verdict("sglang", FUSION), "mnnvl");
        // SM90 multi-node: auto-enable does not fire, and nothing errors (unlike an explicit auto)
        Verdict multi = node("9.0", 2).model("DeepseekV3ForCausalLM").verdict("sglang", FUSION);
        ok(multi, null);
        assertNull(multi.message());
        whyMentions(multi, "requires one node unless the GPUs are SM10x");
        // not on the list, TP 1, DP attention, MoE all-to-all, SM120
        whyMentions(node("9.0", 1).model("LlamaForCausalLM").verdict("sglang", FUSION), "not in SGLang's auto-enable list");
        whyMentions(node("9.0", 1).tp(1).model("DeepseekV3ForCausalLM").verdict("sglang", FUSION), "TP is 1");
        whyMentions(node("9.0", 1).model("DeepseekV3ForCausalLM").flag("enable-dp-attention", "true").flag("dp-size", "2")
                .verdict("sglang", FUSION), "DP attention is on");
        whyMentions(node("9.0", 1).model("DeepseekV3ForCausalLM").flag("moe-a2a-backend", "deepep").verdict("sglang", FUSION), "deepep");
        ok(node("12.0", 1).model("DeepseekV3ForCausalLM").verdict("sglang", FUSION), null);
        whyMentions(node("9.0", 1).verdict("sglang", FUSION), "no --model was given");
    }

    @Test
    void olderAutoEnableListLacksNewerArchitectures() {
        ok(node("9.0", 1).model("Qwen4ExpForConditionalGeneration").verdict("sglang", FUSION), "trtllm");
        Verdict older = node("9.0", 1).model("Qwen4ExpForConditionalGeneration").version("sglang", "older").verdict("sglang", FUSION);
        ok(older, null);
        assertEquals("older", older.version());
    }

    @Test
    void enforceDisableWinsAndSuppressesTheArchitectureError() {
        What w = machine(What.PCIE_SM120).tp(4).flag("flashinfer-allreduce-fusion-backend", "trtllm").flag("enforce-disable-flashinfer-allreduce-fusion", "true");
        Verdict enforce = w.verdict("sglang", "--enforce-disable-flashinfer-allreduce-fusion");
        ok(enforce, null);
        assertEquals(SglangMessage.ENFORCE.text(), enforce.message());
        whyMentions(enforce, SglangMessage.R1.text(), "never fires");
        fallback(w.verdict("sglang", FUSION), null, SglangMessage.ENFORCE.text());
    }

    @Test
    void deterministicInferenceTurnsFusionOff() {
        What w = node("9.0", 1).flag("flashinfer-allreduce-fusion-backend", "trtllm").flag("enable-deterministic-inference", "true");
        fallback(w.verdict("sglang", FUSION), null, SglangMessage.DETERMINISTIC.text());
        assertEquals(SglangMessage.DETERMINISTIC.text(), w.verdict("sglang", "--enable-deterministic-inference").message());
        assertNull(node("9.0", 1).flag("enable-deterministic-inference", "true").verdict("sglang", "--enable-deterministic-inference").message());
    }

    @Test
    void deprecatedFlagBecomesAuto() {
        // the seed server_args.py still takes the flag (exec_.py@01d795f8 no longer does: deprecatedFusionFlagIsNoLongerOnTheCommandLine)
        Verdict v = node("9.0", 1).version("sglang", "older").flag("enable-flashinfer-allreduce-fusion", "true").verdict("sglang", "--enable-flashinfer-allreduce-fusion");
        ok(v, "trtllm");
        assertEquals(SglangMessage.DEPRECATED.text(), v.message());
        Verdict multi = node("9.0", 2).version("sglang", "older").flag("enable-flashinfer-allreduce-fusion", "true").verdict("sglang", "--enable-flashinfer-allreduce-fusion");
        error(multi, "ValueError", SglangMessage.R2.text());
        ok(node("9.0", 1).version("sglang", "older").flag("enable-flashinfer-allreduce-fusion", "true").verdict("sglang", FUSION), "trtllm");
    }

    @ParameterizedTest
    @ValueSource(strings = {"trtllm", "auto", "mnnvl"})
    void noMulticastMeansPreflightSkipsFusion(String value) {
        Verdict v = machine("sm=9.0", "gpus-per-node=2", "multicast=false", "nvswitch=false", "all-nvlink=false", "torch-cuda=12.8")
                .tp(2).flag("flashinfer-allreduce-fusion-backend", value).verdict("sglang", FUSION);
        fallback(v, null, SglangMessage.PREFLIGHT_VOTE.text());
        assertEquals("RuntimeError (caught)", v.errorClass());
        whyMentions(v, "cuMulticastGetGranularity failed for FlashInfer workspace preflight");
    }

    @Test
    void perBatchTokenLimit() {
        ok(node("9.0", 1).tokens(2048).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION), "trtllm");
        Verdict big = node("9.0", 1).tokens(2049).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION);
        fallback(big, "trtllm", null);
        whyMentions(big, "FUSE_ALLREDUCE_MAX_BATCH_SIZE = 2048");
    }

    @Test
    void dpAttentionNeverUsesTheFusedKernel() {
        Verdict v = node("9.0", 1).flag("flashinfer-allreduce-fusion-backend", "trtllm").flag("enable-dp-attention", "true")
                .flag("dp-size", "2").verdict("sglang", FUSION);
        fallback(v, null, null);
        whyMentions(v, "needs DP attention off");
    }

    /**
     * sgl-project/sglang@003bbaf9 python/sglang/srt/arg_groups/overrides.py:1429 (_data_parallelism_defaults): with
     * --dp-size 1 SGLang turns --enable-dp-attention off without a message, so fusion is auto-enabled and used as
     * without the flag; the DP-attention verdict says the flag was dropped.
     */
    @Test
    void dpAttentionAtDpSizeOneIsTurnedOffSoFusionIsNotExcluded() {
        What w = node("9.0", 1).model("DeepseekV3ForCausalLM").flag("enable-dp-attention", "true");
        Verdict dp = w.verdict("sglang", "--enable-dp-attention");
        fallback(dp, "DP attention off", null);
        whyMentions(dp, "_data_parallelism_defaults turns DP attention");
        assertEquals("overrides.py", dp.source().path().replaceAll(".*/", ""));
        assertEquals("1429", dp.source().line());
        Verdict fusion = w.verdict("sglang", FUSION);
        assertFalse(fusion.why().contains("DP attention is on"), fusion.why());
        Verdict forced = node("9.0", 1).flag("flashinfer-allreduce-fusion-backend", "trtllm").flag("enable-dp-attention", "true")
                .verdict("sglang", FUSION);
        assertFalse(forced.why().contains("needs DP attention off"), "the fused kernel is used: " + forced.why());
        ok(node("9.0", 1).model("DeepseekV3ForCausalLM").flag("enable-dp-attention", "true").flag("dp-size", "2")
                .verdict("sglang", "--enable-dp-attention"), null);
    }

    @Test
    void trtllmKernelsExistForTwoFourEightSixteenRanks() {
        Verdict v = node("9.0", 1).tp(6).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION);
        error(v, "RuntimeError", FlashInferMessage.RANKS.text());
        ok(node("9.0", 1).tp(4).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION), "trtllm");
    }

    @Test
    void multiNodeMnnvlWithoutFabricDisablesFusion() {
        Verdict v = node("10.0", 2).assume("fabric-handles=false", "mnnvl-fabric=false").flag("flashinfer-allreduce-fusion-backend", "mnnvl")
                .verdict("sglang", FUSION);
        assertEquals(Outcome.FALLBACK, v.outcome());
        assertTrue(v.message().startsWith("Failed to initialize FlashInfer workspace (backend=mnnvl): [fd_exchange] …"), v.message());
        assertTrue(v.message().endsWith("Disabling flashinfer allreduce fusion permanently."), v.message());
    }

    @Test
    void olderVersionTransportWorkaroundForcesPosixFdOnAarch64Blackwell() {
        What gb = machine(What.GB200_NVL).tp(8).nodes(2).flag("flashinfer-allreduce-fusion-backend", "mnnvl");
        ok(gb.verdict("sglang", FUSION), "mnnvl");
        What older = machine(What.GB200_NVL).tp(8).nodes(2).flag("flashinfer-allreduce-fusion-backend", "mnnvl").version("sglang", "older");
        Verdict v = older.verdict("sglang", FUSION);
        assertEquals(Outcome.FALLBACK, v.outcome());
        whyMentions(v, "transport workaround");
        fallback(older.verdict("sglang", "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT"), "POSIX FD", SglangMessage.TRANSPORT.text());
        assertTrue(gb.advise().verdict("sglang", "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT").isEmpty(), "newest has no such knob");
    }

    @Test
    void rocmAndCpuSkipFusionSilently() {
        Verdict rocm = machine("platform=rocm", "gpus-per-node=8").tp(8).flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", FUSION);
        fallback(rocm, null, null);
        whyMentions(rocm, "is_flashinfer_available() requires CUDA");
        fallback(machine("platform=cpu").tp(2).flag("flashinfer-allreduce-fusion-backend", "auto").verdict("sglang", FUSION), null, null);
        ok(machine("platform=rocm", "gpus-per-node=8").tp(8).verdict("sglang", FUSION), null);
    }

    @Test
    void flagsUpstreamNeverHadAreArgparseErrorsNeverOk() {
        // errata §1.3: exec_.py@01d795f8 has neither spelling; passing one stops start-up, on every machine
        for (String flag : List.of("enable-flashinfer-pure-allreduce", "enable-flashinfer-allreduce-only")) {
            for (String sm : List.of("9.0", "10.0")) {
                error(node(sm, 1).flag("flashinfer-allreduce-fusion-backend", "mnnvl").flag(flag, "true").verdict("sglang", "--" + flag),
                        "SystemExit (argparse)", "sglang serve: error: unrecognized arguments: --" + flag);
            }
        }
        // not passed: no verdict at all (nothing to say about a flag that does not exist)
        assertTrue(node("10.0", 1).advise().verdict("sglang", "--enable-flashinfer-allreduce-only").isEmpty());
    }

    /**
     * server_args.py@001067ff: the field is Arg(no_cli=True) (L2115) as in exec_.py@01d795f8, but add_cli_args registers
     * --enable-flashinfer-allreduce-fusion by hand (L9836-9841, store_true) and _handle_deprecated_args turns it into
     * backend auto with the deprecation warning (L4446-4461). The newest set said argparse rejects it; it accepts it.
     */
    @Test
    void deprecatedFusionFlagIsStillOnTheCommandLine() {
        Verdict newest = node("9.0", 1).flag("enable-flashinfer-allreduce-fusion", "true").verdict("sglang", "--enable-flashinfer-allreduce-fusion");
        assertEquals(Outcome.OK, newest.outcome(), newest::toString);
        assertEquals(SglangMessage.DEPRECATED.text(), newest.message(), newest::toString);
        whyMentions(newest, "Deprecated: it sets --flashinfer-allreduce-fusion-backend=auto");
        Verdict older = node("9.0", 1).version("sglang", "older").flag("enable-flashinfer-allreduce-fusion", "true")
                .verdict("sglang", "--enable-flashinfer-allreduce-fusion");
        assertEquals(Outcome.OK, older.outcome(), older::toString);
        // sixth audit F6: with a backend given, _handle_deprecated_args prints nothing (overrides.py: `and backend is None`)
        Verdict withBackend = node("9.0", 8).tp(8).flag("enable-flashinfer-allreduce-fusion", "true")
                .flag("flashinfer-allreduce-fusion-backend", "trtllm").verdict("sglang", "--enable-flashinfer-allreduce-fusion");
        assertEquals(Outcome.OK, withBackend.outcome(), withBackend::toString);
        assertNull(withBackend.message(), withBackend::toString);
    }

    @Test
    void cutedslIsAcceptedNewestOnlyAndNeverOk() {
        Verdict v = node("10.0", 1).flag("flashinfer-allreduce-fusion-backend", "cutedsl").verdict("sglang", FUSION);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        error(node("10.0", 1).version("sglang", "older").flag("flashinfer-allreduce-fusion-backend", "cutedsl").verdict("sglang", FUSION),
                "SystemExit (argparse)", String.format(SglangMessage.INVALID_CHOICE.text(), "cutedsl"));
    }

    @Test
    void dcpMustDivideTp() {
        error(node("9.0", 1).dcp(3).verdict("sglang", "--dcp-size"), "RuntimeError",
                "tensor_model_parallel_size (8) must be divisible by decode_context_parallel_size (3)");
    }

    // ---- DCP (§1.4)

    @Test
    void dcpValidationInOrder() {
        error(node("9.0", 1).dcp(0).verdict("sglang", "--dcp-size"), "ValueError",
                "Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size=0.");
        ok(node("9.0", 1).dcp(1).verdict("sglang", "--dcp-size"), null);
        error(node("9.0", 1).dcp(1).flag("dcp-comm-backend", "fi_a2a").verdict("sglang", "--dcp-comm-backend"), "ValueError",
                String.format(SglangMessage.DCP2.text(), "fi_a2a", 1));
        error(machine("platform=rocm", "gpus-per-node=8").tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a").verdict("sglang", "--dcp-comm-backend"),
                "ValueError", SglangMessage.DCP3.text());
        ok(node("9.0", 1).dcp(2).flag("dcp-comm-backend", "a2a").verdict("sglang", "--dcp-comm-backend"), "a2a");
        error(node("9.0", 1).dcp(2).flag("dcp-replicate-q-proj", "true").verdict("sglang", "--dcp-replicate-q-proj"), "ValueError",
                "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend=ag_rs.");
        ok(node("9.0", 1).dcp(2).flag("dcp-comm-backend", "a2a").flag("dcp-replicate-q-proj", "true").verdict("sglang", "--dcp-replicate-q-proj"),
                "replicated Q projection");
    }

    /**
     * sgl-project/sglang@00ac7105 python/sglang/srt/layers/dcp/comm.py:388-396 (is_fi_a2a_supported) and :441 (the
     * RuntimeError): SM100, and MNNVL fabric memory or a DCP size dividing the TP ranks per node.
     */
    @Test
    void fiA2aNeedsSm100AndADcpGroupInsideOneNodeOrMnnvlFabric() {
        Verdict hgx = machine(What.HGX_H100).tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a").verdict("sglang", "--dcp-comm-backend");
        error(hgx, "RuntimeError", SglangMessage.FI_A2A_UNSUPPORTED.format(2, 8, 1, 1));
        assertTrue(hgx.when().startsWith("model-runner warm-up"));
        assertEquals("441", hgx.source().line());
        ok(machine(What.GB200_NVL).tp(4).dcp(2).flag("dcp-comm-backend", "fi_a2a").verdict("sglang", "--dcp-comm-backend"), "fi_a2a");
        // one B200 node without MNNVL fabric: the DCP group is inside the node, which is all the newest check asks
        Verdict b200 = machine(What.HGX_B200).tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a").verdict("sglang", "--dcp-comm-backend");
        ok(b200, "fi_a2a");
        Verdict odd = machine(What.HGX_B200).tp(8).dcp(3).flag("dcp-comm-backend", "fi_a2a")
                .verdict("sglang", "--dcp-comm-backend");
        assertEquals(Outcome.UNKNOWN, odd.outcome(), odd::toString);
        whyMentions(odd, "is_mnnvl_fabric_device(), whose body was not read");
        error(machine("sm=8.0", "gpus-per-node=8", "fabric-handles=true", "mnnvl-fabric=true").tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a")
                .verdict("sglang", "--dcp-comm-backend"), "RuntimeError", SglangMessage.FI_A2A_UNSUPPORTED.format(2, 8, 1, 1));
    }

    /**
     * sgl-project/sglang@001067ff python/sglang/srt/entrypoints/engine.py _set_envs_and_config: with nnodes > 1 and
     * is_mnnvl_fabric_device() (a GPU-name test; no name without a snapshot) NCCL_CUMEM_ENABLE defaults to 1 before the
     * --enable-symm-mem write, so on an --assume MNNVL fabric across nodes the unset variable is unknown; one node, or an exported value, stays as before.
     */
    @Test
    void newestEngineDefaultsCumemOnAcrossAnMnnvlFabric() {
        Verdict trays = machine(What.GB200_NVL).tp(8).nodes(2).verdict("sglang", "NCCL_CUMEM_ENABLE");
        assertEquals(Outcome.UNKNOWN, trays.outcome(), trays::toString);
        whyMentions(trays, "is_mnnvl_fabric_device()", "the GPU name was not read");
        assertEquals("python/sglang/srt/utils/common.py", trays.source().path());
        ok(machine(What.GB200_NVL).tp(4).verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=0");
        ok(machine(What.GB200_NVL).tp(8).nodes(2).flag("enable-symm-mem", "true").verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=1");
    }

    /**
     * Audit 2026-12-03e F4: the middle and oldest engines export NCCL_CUMEM_ENABLE=0 (mmangkad-dev/sglang@ea961060
     * engine.py:677-741), and NCCL's MNNVL needs cuMem: across two NVL72 trays MNNVL is silently off (NVIDIA/nccl@5067397c
     * src/mnnvl.cc, the cuMem check), and NCCL 2.21–2.24 with NCCL_MNNVL_ENABLE=1 stop ("MNNVL is not supported on this
     * system", init.cc:786-790 at v2.24.3-1). One tray, or --enable-symm-mem (which exports 1), changes nothing.
     */
    @Test
    void olderEnginesCumemOffTurnsNcclMnnvlOffAcrossTrays() {
        What trays = machine(What.GB200_NVL).assume("imex-channel=true").tp(8).nodes(2);
        for (String set : new String[] {"middle", "older"}) {
            Verdict v = trays.version("sglang", set).verdict("sglang", "NCCL_CUMEM_ENABLE");
            assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
            whyMentions(v, "SGLang exports NCCL_CUMEM_ENABLE=0", "MNNVL off");
            assertEquals("NVIDIA/nccl", v.source().repo(), v::toString);
        }
        Verdict forced = trays.version("sglang", "middle").version("nccl", "2.23.4").env("NCCL_MNNVL_ENABLE", "1").verdict("sglang", "NCCL_CUMEM_ENABLE");
        error(forced, "ncclSystemError", "MNNVL is not supported on this system");
        ok(machine(What.GB200_NVL).tp(4).version("sglang", "middle").verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=0");
        ok(trays.version("sglang", "middle").flag("enable-symm-mem", "true").verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=1");
        // the recommendation says so instead of implying all is well
        String summary = machine(What.GB200_NVL).assume("imex-channel=true").tp(8).nodes(2).version("sglang", "middle").advise().recommendation("sglang").orElseThrow().summary();
        assertTrue(summary.contains("NCCL_CUMEM_ENABLE=0 as this SGLang exports it leaves NCCL's MNNVL off"), summary);
        String withSymm = machine(What.GB200_NVL).assume("imex-channel=true").tp(8).nodes(2).version("sglang", "middle").flag("enable-symm-mem", "true").advise().recommendation("sglang").orElseThrow().summary();
        assertTrue(!withSymm.contains("NCCL_CUMEM_ENABLE=0"), withSymm);
    }

    /**
     * Seventh audit F7: since #25650 (mmangkad-dev/sglang@3e255fd4, 2026-05-28) dispatch_custom_allreduce asks
     * can_use_custom_all_reduce_v2 first and returns the classic CustomAllreduce for a group V2 refuses: two PCIe GPUs get
     * the classic kernel; the v2-strict set (2026-05-08 up to then) leaves them to NCCL.
     */
    @Test
    void aGroupV2RefusesGetsTheClassicKernel() {
        What two = machine(What.PCIE_SM120).tp(2);
        Verdict car = two.verdict("sglang", "--disable-custom-all-reduce");
        ok(car, "custom");
        whyMentions(car, "CustomAllReduceV2's checks refuse this group", "classic CustomAllreduce");
        ok(machine(What.PCIE_SM120).tp(2).verdict("sglang", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2"), "classic CustomAllreduce");
        fallback(machine(What.PCIE_SM120).tp(2).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl", null);
        // four PCIe GPUs: V2 refuses, and so does the classic kernel (more than two GPUs without NVLink)
        Verdict four = machine(What.PCIE_SM120).tp(4).verdict("sglang", "--disable-custom-all-reduce");
        assertEquals(Outcome.FALLBACK, four.outcome(), four::toString);
        whyMentions(four, "classic CustomAllreduce");
    }

    /** Seventh audit F2: SGLANG_SKIP_P2P_CHECK is read as == "1" (custom_all_reduce_utils.py@9be3044b:430): "y" is taken, and off. */
    @Test
    void skipP2pCheckTakesAnyValueAndOnlyOneIsOn() {
        Verdict y = machine(What.HGX_H100).tp(8).env("SGLANG_SKIP_P2P_CHECK", "y").verdict("sglang", "SGLANG_SKIP_P2P_CHECK");
        whyMentions(y, "'y' is not \"1\"", "real IPC P2P test runs");
        whyMentions(machine(What.HGX_H100).tp(8).env("SGLANG_SKIP_P2P_CHECK", "1").verdict("sglang", "SGLANG_SKIP_P2P_CHECK"), "Set:");
    }

    /**
     * is_mnnvl_fabric_device (mmangkad-dev/sglang@9be3044b utils/common.py:856-864) keys on the device name: on the GB200 tray
     * sample across two nodes SGLang's setdefault leaves NCCL_CUMEM_ENABLE=1 (engine.py:1625-1629); an --assume machine has no
     * name, so it stays unknown.
     */
    @Test
    void mnnvlDefaultFollowsTheGpuName() {
        dev.fabricscope.model.MachineSnapshot tray = dev.fabricscope.samples.Samples.find("gb200-nvl72-tray").orElseThrow().snapshot().get();
        ok(What.snapshot(tray).tp(8).nodes(2).verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=1");
        whyMentions(What.snapshot(tray).tp(8).nodes(2).verdict("sglang", "NCCL_CUMEM_ENABLE"), "GB200", "NCCL_MNNVL_ENABLE=1");
        assertEquals(Outcome.UNKNOWN, machine(What.GB200_NVL).tp(8).nodes(2).verdict("sglang", "NCCL_CUMEM_ENABLE").outcome());
        // an exported 0 still wins (seventh audit F8)
        assertEquals(Outcome.FALLBACK, What.snapshot(tray).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0").verdict("sglang", "NCCL_CUMEM_ENABLE").outcome());
    }

    /** Eighth audit F12: handle_context_parallelism's MoE data-parallel asserts (parallel_hook.py@008b79d2:84-106). */
    @Test
    void moeDataParallelAsserts() {
        error(machine(What.HGX_H100).tp(8).flag("moe-dp-size", "3").verdict("sglang", "--moe-dp-size"), "AssertionError",
                "tp_size must be divisible by moe_dp_size");
        error(machine(What.HGX_H100).tp(8).flag("attn-cp-size", "2").flag("moe-dp-size", "4").verdict("sglang", "--moe-dp-size"), "AssertionError",
                "attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1");
        error(machine(What.HGX_H100).tp(8).flag("moe-dp-size", "4").flag("ep-size", "4").verdict("sglang", "--moe-dp-size"), "AssertionError",
                "ep_size * moe_dp_size must be less than or equal to tp_size");
        Verdict same = machine(What.HGX_H100).tp(8).flag("attn-cp-size", "2").flag("moe-dp-size", "2").verdict("sglang", "--moe-dp-size");
        assertEquals(Outcome.UNKNOWN, same.outcome(), same::toString);
    }

    /** Eighth audit F15: the user's own NCCL_NVLS_ENABLE=1, which SGLang keeps, stops NCCL without multicast; the plan drops it. */
    @Test
    void theUsersKeptNvlsEnableCarriesNcclsError() {
        What w = machine(What.HGX_H100).assume("multicast=false").tp(8).env("NCCL_NVLS_ENABLE", "1");
        Verdict env = w.verdict("sglang", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.ERROR, env.outcome(), env::toString);
        whyMentions(env, "this version keeps it");
        Verdict flag = w.verdict("sglang", "--enable-nccl-nvls");
        assertEquals(Outcome.OK, flag.outcome(), flag::toString);
        Recommendation r = w.advise().recommendation("sglang").orElseThrow();
        assertTrue(r.drop().contains("NCCL_NVLS_ENABLE"), r::toString);
    }

    /** Seventh audit F9: with --dcp-replicate-q-proj and no backend, validation sees ag_rs before any default is picked. */
    @Test
    void replicateQWithoutBackendStopsBeforeTheDefaultPick() {
        What w = machine(What.HGX_H100).tp(8).dcp(2).flag("dcp-replicate-q-proj", "true");
        Verdict backend = w.verdict("sglang", "--dcp-comm-backend");
        Verdict replicate = w.verdict("sglang", "--dcp-replicate-q-proj");
        assertEquals(Outcome.ERROR, replicate.outcome(), replicate::toString);
        assertEquals(Outcome.ERROR, backend.outcome(), backend::toString);
        assertEquals(replicate.message(), backend.message());
        assertNull(backend.resolved(), backend::toString);
    }

    /** Seventh audit F1: a recommended fusion backend that the user's --enforce-disable-… would keep off drops that flag too. */
    @Test
    void aRecommendationDropsTheUsersSettingThatWouldKeepItOff() {
        Recommendation r = machine(What.HGX_H100).tp(8).flag("flashinfer-allreduce-fusion-backend", "mnnvl")
                .flag("enforce-disable-flashinfer-allreduce-fusion", "true").advise().recommendation("sglang").orElseThrow();
        assertTrue(r.flags().contains("--flashinfer-allreduce-fusion-backend=trtllm"), r::toString);
        assertTrue(r.drop().contains("--enforce-disable-flashinfer-allreduce-fusion"), r::toString);
        assertTrue(r.summary().contains("it keeps --flashinfer-allreduce-fusion-backend=trtllm from taking effect"), r.summary());
        // ninth audit F24: an unmodelled knob of the user's (which only makes verdicts unknown) is not dropped as a blocker
        Recommendation dp = machine(What.HGX_H100).tp(8).flag("dwdp-size", "8").advise().recommendation("sglang").orElseThrow();
        assertTrue(!dp.drop().contains("--dwdp-size"), dp::toString);
    }

    /**
     * Seventh audit F8: the newest engine keeps an exported NCCL_CUMEM_ENABLE (setdefault; mmangkad-dev/sglang@9be3044b
     * engine.py:1624-1629), so a user's 0 reaches NCCL, whose MNNVL then is off across two trays (mnnvl.cc, the cuMem check).
     */
    @Test
    void newestEngineKeepsTheUsersCumemOffAndSaysWhatNcclDoes() {
        What trays = machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0");
        Verdict v = trays.verdict("sglang", "NCCL_CUMEM_ENABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        whyMentions(v, "Exported as 0, and this SGLang keeps it", "MNNVL off");
        assertEquals("unset NCCL_CUMEM_ENABLE (or export 1)", v.fix());
        ok(machine(What.GB200_NVL).tp(4).env("NCCL_CUMEM_ENABLE", "0").verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=0");
        // eighth audit F16: the recommendation unsets the user's 0; with --enable-symm-mem SGLang overwrites it, and no note says otherwise
        Recommendation r = trays.advise().recommendation("sglang").orElseThrow();
        assertTrue(r.drop().contains("NCCL_CUMEM_ENABLE"), r::toString);
        Recommendation symm = machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0").flag("enable-symm-mem", "true").advise()
                .recommendation("sglang").orElseThrow();
        assertTrue(!symm.summary().contains("as this SGLang exports it"), symm.summary());
    }

    /**
     * The middle _set_envs_and_config, pinned at the fork copy mmangkad-dev/sglang@ea961060 (L680-682): NCCL_CUMEM_ENABLE
     * is always int(--enable-symm-mem), NCCL_NVLS_ENABLE is written (int(--enable-nccl-nvls)) only without
     * --enable-symm-mem. With it, an unexported NCCL_NVLS_ENABLE stays unset (NCCL's default: NVLS where the machine has
     * it), which the earlier model wrote as 0, and an exported one stays as it is.
     */
    @Test
    void middleEngineLeavesNvlsAloneWithSymmetricMemory() {
        What symm = machine(What.HGX_H100).tp(8).flag("enable-symm-mem", "true").version("sglang", "middle");
        Verdict unset = symm.verdict("sglang", "NCCL_NVLS_ENABLE");
        ok(unset, "NCCL_NVLS_ENABLE unset");
        whyMentions(unset, "does not write it");
        assertEquals("mmangkad-dev/sglang@ea96106000d5ff1a07ef237dd2d57318188c7ec2:python/sglang/srt/entrypoints/engine.py:"
                + "677-741", unset.source().toString());
        Verdict flag = symm.verdict("sglang", "--enable-symm-mem");
        ok(flag, "NVLS");
        whyMentions(flag, "leaves NCCL_NVLS_ENABLE unset", "NCCL_CUMEM_ENABLE=1");
        ok(symm.env("NCCL_NVLS_ENABLE", "0").verdict("sglang", "NCCL_NVLS_ENABLE"), "NCCL_NVLS_ENABLE=0");
        ok(symm.verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=1");
        Verdict overwritten = machine(What.HGX_H100).tp(8).env("NCCL_NVLS_ENABLE", "1").version("sglang", "middle")
                .verdict("sglang", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, overwritten.outcome(), overwritten::toString);
        assertEquals("NCCL_NVLS_ENABLE=0", overwritten.resolved());
    }

    /**
     * The MNNVL-fabric variant of comm.py (middle and older sets), pinned at the fork copy mmangkad-dev/sglang@81fe4528
     * (init_fi_a2a_workspace L387-449): its two checks give errors (ImportError L406, RuntimeError L420); with the kernel
     * and the fabric the answer stays unknown, not ok, because the warm-up goes on into FlashInfer's
     * decode_cp_a2a_allocate_mnnvl_workspace / decode_cp_a2a_init_workspace, which were not read.
     */
    @Test
    void fiA2aOfTheFabricVariantIsNeverOk() {
        for (String set : List.of("middle", "older")) {
            Verdict v = machine(What.GB200_NVL).tp(4).dcp(2).flag("dcp-comm-backend", "fi_a2a").version("sglang", set)
                    .verdict("sglang", "--dcp-comm-backend");
            assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
            assertEquals("fi_a2a", v.resolved());
            assertEquals("mmangkad-dev/sglang@81fe452810d9256b5d307cad3a3e261c70170591:python/sglang/srt/layers/dcp/comm.py:"
                    + "387-449", v.source().toString());
            whyMentions(v, "decode_cp_a2a_allocate_mnnvl_workspace", "were not read");
            Verdict noFabric = machine(What.HGX_H100).tp(8).dcp(2).flag("dcp-comm-backend", "fi_a2a").version("sglang", set)
                    .verdict("sglang", "--dcp-comm-backend");
            error(noFabric, "RuntimeError", SglangMessage.FI_A2A_FABRIC.text());
            assertEquals("81fe452810d9256b5d307cad3a3e261c70170591", noFabric.source().commit());
        }
    }

    /**
     * The per-call fusion check cites communicator.py@0090b34c:219-235 (apply_flashinfer_allreduce_fusion: DP attention
     * off, 0 < batch <= 2048), and the workspace failure flashinfer_comm_fusion.py@00f6ebe5:539-546 / 629-634.
     */
    @Test
    void perCallAndWorkspaceChecksCitePinnedCopies() {
        Verdict dp = node("9.0", 1).flag("enable-dp-attention", "true").flag("dp-size", "2").verdict("sglang", "--enable-dp-attention");
        assertEquals("0090b34ce0e68cd2dace8bb0aa2148938ad4c7db", dp.source().commit(), dp::toString);
        assertEquals("219-235", dp.source().line());
        assertEquals("539-546", SglangMessage.WORKSPACE_FAILED.source().line());
        assertEquals("629-634", SglangMessage.WORKSPACE_FAILED_GLOBAL.source().line());
        assertEquals("00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", SglangMessage.WORKSPACE_FAILED.source().commit());
    }

    /** The DCP checks cite server_args.py@001067ff:4269-4299 by line, not the seed copy by character offset. */
    @Test
    void dcpChecksCiteLinesAtTheRetypedServerArgs() {
        Verdict v = node("9.0", 1).dcp(1).flag("dcp-comm-backend", "a2a").verdict("sglang", "--dcp-comm-backend");
        assertEquals("001067fffe33427bee0ed2f007fb7551a1d76b44", v.source().commit(), v::toString);
        assertEquals("4269-4299", v.source().line());
    }

    /**
     * sgl-project/sglang@003bbaf9 python/sglang/srt/arg_groups/overrides.py:1032-1038: the CuTe-DSL switch owns the
     * fusion for both Qwen3.5-MoE architectures, the CausalLM one too; a backend given beside it is suppressed with a warning.
     */
    @Test
    void cuteDslSwitchCoversBothQwen35MoeArchitectures() {
        for (String arch : List.of("Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration")) {
            Verdict plain = machine(What.GB200_NVL).tp(4).model(arch).env("SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", "1")
                    .verdict("sglang", "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION");
            ok(plain, "CuTe-DSL MNNVL all-reduce fusion");
            Verdict set = machine(What.GB200_NVL).tp(4).model(arch).env("SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", "1")
                    .flag("flashinfer-allreduce-fusion-backend", "mnnvl").verdict("sglang", "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION");
            assertEquals(SglangMessage.CUTEDSL_SUPPRESS.format("mnnvl"), set.message(), arch);
        }
        whyMentions(machine(What.GB200_NVL).tp(4).model("LlamaForCausalLM").env("SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", "1")
                .verdict("sglang", "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION"), "Only read for Qwen3_5MoeForCausalLM and");
    }

    // ---- custom all-reduce (§1.5)

    /** The classic kernel (custom_all_reduce.py@004e6561 _SUPPORTED_WORLD_SIZES), as the middle rule set has it. */
    @ParameterizedTest(name = "TP {0}")
    @CsvSource({"1, ok", "2, ok", "3, fallback", "4, ok", "5, fallback", "6, ok", "8, ok", "16, fallback"})
    void customAllReduceWorldSizes(int tp, String outcome) {
        Verdict v = machine(What.HGX_H100).assume("gpus-per-node=16").tp(tp).version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce");
        assertEquals(outcome, v.outcome().json(), v::toString);
        if (v.outcome() == Outcome.FALLBACK) {
            assertEquals(String.format(CustomAllReduceMessage.WORLD_SIZE.text(), tp, "[2, 4, 6, 8]"), v.message());
            assertEquals("nccl", v.resolved());
        } else if (tp > 1) {
            assertEquals("custom", v.resolved());
        }
    }

    @Test
    void customAllReduceConnectivity() {
        String k = "--disable-custom-all-reduce";
        fallback(machine(What.HGX_H100).tp(16).nodes(2).version("sglang", "middle").verdict("sglang", k), "nccl", CustomAllReduceMessage.SPANS_NODES.text());
        // --tp 8 --nnodes 2 puts 4 ranks on each node (engine.py@9be3044b _calculate_rank_ranges, backend-rules §0.1): the group spans them
        fallback(machine(What.HGX_H100).tp(8).nodes(2).version("sglang", "middle").verdict("sglang", k), "nccl", CustomAllReduceMessage.SPANS_NODES.text());
        // with PP 2 each node holds one PP stage's whole TP 8 group (nnodes_per_tp_group = max(2 // 2, 1) = 1)
        ok(machine(What.HGX_H100).tp(8).nodes(2).flag("pp", "2").version("sglang", "middle").verdict("sglang", k), "custom");
        fallback(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(4).version("sglang", "middle").verdict("sglang", k), "nccl",
                CustomAllReduceMessage.PCIE_ONLY.text());
        ok(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(2).version("sglang", "middle").verdict("sglang", k), "custom");
        // no P2P: only --enable-p2p-check finds out
        Verdict assumed = machine("sm=8.9", "gpus-per-node=2", "p2p=false").tp(2).version("sglang", "middle").verdict("sglang", k);
        ok(assumed, "custom");
        whyMentions(assumed, "skips the P2P test");
        fallback(machine("sm=8.9", "gpus-per-node=2", "p2p=false").tp(2).flag("enable-p2p-check", "true").version("sglang", "middle").verdict("sglang", k),
                "nccl", CustomAllReduceMessage.NO_P2P.text());
        fallback(machine("platform=cpu").tp(2).verdict("sglang", "--disable-custom-all-reduce"), "torch.distributed (gloo)", null);
        ok(machine("platform=rocm", "gpus-per-node=8", "all-nvlink=true", "p2p=false").tp(8).verdict("sglang", "--disable-custom-all-reduce"), "custom");
    }

    // ---- torch symmetric memory (§1.6)

    @Test
    void torchSymmMemBoundaries() {
        String k = "--enable-torch-symm-mem";
        ok(node("9.0", 1).flag("enable-torch-symm-mem", "true").verdict("sglang", k), "torch symmetric memory (multimem)");
        ok(node("10.0", 1).tp(4).flag("enable-torch-symm-mem", "true").verdict("sglang", k), "torch symmetric memory (two-shot)");
        // eighth audit F22: torch_symm_mem.py@9be3044b:67-120 warns and leaves the communicator disabled; NCCL all-reduces
        fallback(node("8.0", 1).flag("enable-torch-symm-mem", "true").verdict("sglang", k), "nccl",
                "TorchSymmMemCommunicator: Device capability 8 not supported, communicator is not available.");
        fallback(node("9.0", 1).tp(3).flag("enable-torch-symm-mem", "true").verdict("sglang", k), "nccl",
                "TorchSymmMemCommunicator: World size 3 not supported, communicator is not available.");
        fallback(node("9.0", 1).assume("multicast=false").flag("enable-torch-symm-mem", "true").verdict("sglang", k), "nccl",
                SglangMessage.TSM_MULTICAST.text());
        fallback(node("9.0", 1).env("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1").flag("enable-torch-symm-mem", "true").verdict("sglang", k), "nccl",
                SglangMessage.TSM_MULTICAST.text());
        // a major outside the table: .get() gives None, so the capability warning (not a KeyError)
        fallback(node("12.0", 1).flag("enable-torch-symm-mem", "true").verdict("sglang", k), "nccl",
                "TorchSymmMemCommunicator: Device capability 12 not supported, communicator is not available.");
        // the older sets: the "caught" text once quoted is rtp-llm's (symm_mem.py@9de22b6d); SGLang's caller was not read
        for (String older : List.of("middle", "older")) {
            Verdict v = node("9.0", 1).tp(3).flag("enable-torch-symm-mem", "true").version("sglang", older).verdict("sglang", k);
            assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
            assertNull(v.message(), v::toString);
            whyMentions(v, "World size 3", "alibaba/rtp-llm", "not SGLang's");
        }
        ok(node("9.0", 1).flag("enable-torch-symm-mem", "true").version("sglang", "older").verdict("sglang", k), "torch symmetric memory (multimem)");
    }

    // ---- NCCL environment (§1.7)

    @Test
    void sglangTurnsNvlsOffByDefault() {
        Verdict v = machine(What.HGX_H100).tp(8).verdict("sglang", "--enable-nccl-nvls");
        fallback(v, "NVLS disabled", null);
        assertEquals("--enable-nccl-nvls", v.fix());
        ok(machine(What.HGX_H100).tp(8).flag("enable-nccl-nvls", "true").verdict("sglang", "--enable-nccl-nvls"), "NVLS");
        ok(machine("sm=8.0", "gpus-per-node=8", "nvswitch=true", "multicast=false").tp(8).verdict("sglang", "--enable-nccl-nvls"), "NVLS disabled");
        assertEquals("NCCL_NVLS_ENABLE=0", machine(What.HGX_H100).tp(8).verdict("sglang", "NCCL_NVLS_ENABLE").resolved());
    }

    @Test
    void exportedNvlsIsKeptByNewerAndOverwrittenByOlderSglang() {
        What newer = machine(What.HGX_H100).tp(8).env("NCCL_NVLS_ENABLE", "1");
        ok(newer.verdict("sglang", "NCCL_NVLS_ENABLE"), "NCCL_NVLS_ENABLE=1");
        ok(newer.verdict("sglang", "--enable-nccl-nvls"), "NVLS");
        What older = machine(What.HGX_H100).tp(8).env("NCCL_NVLS_ENABLE", "1").version("sglang", "older");
        fallback(older.verdict("sglang", "NCCL_NVLS_ENABLE"), "NCCL_NVLS_ENABLE=0", null);
        assertEquals(Outcome.FALLBACK, machine(What.HGX_H100).tp(8).env("NCCL_CUMEM_ENABLE", "1").version("sglang", "older")
                .verdict("sglang", "NCCL_CUMEM_ENABLE").outcome());
        ok(machine(What.HGX_H100).tp(8).flag("enable-symm-mem", "true").verdict("sglang", "NCCL_CUMEM_ENABLE"), "NCCL_CUMEM_ENABLE=1");
    }

    @Test
    void recommendationIsValidatedAgainstTheRules() {
        Recommendation h100 = machine(What.HGX_H100).tp(8).advise().recommendation("sglang").orElseThrow();
        assertTrue(h100.flags().contains("--flashinfer-allreduce-fusion-backend=trtllm"), h100.toString());
        assertTrue(h100.flags().contains("--enable-nccl-nvls"), h100.toString());
        Recommendation b200 = machine(What.GB200_NVL).tp(8).nodes(2).advise().recommendation("sglang").orElseThrow();
        assertTrue(b200.flags().contains("--flashinfer-allreduce-fusion-backend=mnnvl"), b200.toString());
        // newest: V2 may span the MNNVL tray (SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE, not modelled), so it is not turned off
        assertTrue(!b200.flags().contains("--disable-custom-all-reduce"), b200.toString());
        Recommendation b200Classic = machine(What.GB200_NVL).tp(8).nodes(2).version("sglang", "middle").advise().recommendation("sglang").orElseThrow();
        assertTrue(b200Classic.flags().contains("--disable-custom-all-reduce"), b200Classic.toString());
        Recommendation sm120 = machine(What.PCIE_SM120).tp(4).advise().recommendation("sglang").orElseThrow();
        assertTrue(sm120.flags().stream().noneMatch(f -> f.startsWith("--flashinfer-allreduce-fusion-backend")), sm120.toString());
        Recommendation h200multi = machine(What.HGX_H100).tp(16).nodes(2).model("DeepseekV3ForCausalLM").advise().recommendation("sglang").orElseThrow();
        assertTrue(h200multi.flags().stream().noneMatch(f -> f.startsWith("--flashinfer-allreduce-fusion-backend")), h200multi.toString());
    }

    // ---- CustomAllReduceV2, the newest default (issue 23 item 6)

    /**
     * environ.py@0003215c: SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2 = EnvBool(True); custom_all_reduce_v2.py@50e143a6 L41-49:
     * supported_world_size=list(THRESHOLD_2_SHOT_MAP.keys()) (2..8, L166-185), and anything but full_nvlink is True
     * (L47) leaves V2 disabled. TP 3/5/7 on full NVLink are ok, and the env verdict says the same as the communicator's.
     */
    @ParameterizedTest(name = "TP {0}")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void customAllReduceV2TakesOddWorldSizesOnNvlink(int tp) {
        What w = machine(What.HGX_H100).tp(tp);
        ok(w.verdict("sglang", "--disable-custom-all-reduce"), "custom all-reduce v2");
        ok(w.verdict("sglang", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2"), "custom all-reduce v2");
        Verdict set = machine(What.HGX_H100).tp(tp).env("SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "1").verdict("sglang", "--disable-custom-all-reduce");
        ok(set, "custom all-reduce v2");
        CustomAllReduceV2Table.Row row = CustomAllReduceV2Table.row(CustomAllReduceV2Table.Family.OTHER, tp).orElseThrow();
        whyMentions(set, "one-shot push up to " + CustomAllReduceV2Table.size(row.oneShotPushBytes()));
    }

    /**
     * sgl-project/sglang@0cd72ba4 custom_all_reduce_utils.py can_use_custom_all_reduce_with_nvlink: V2's warnings are the
     * helper's, cited at their lines, and the P2P test (L467-471) runs for every group, --enable-p2p-check or not; it
     * comes after the PCIe-only check, so four PCIe GPUs without P2P get the PCIe warning.
     */
    @Test
    void customAllReduceV2WarnsWithItsOwnHelperWordsAndTestsP2pAlways() {
        String utils = "python/sglang/srt/distributed/device_communicators/custom_all_reduce_utils.py";
        for (SglangMessage m : List.of(SglangMessage.CAR_V2_SPANS_NODES, SglangMessage.CAR_V2_WORLD_SIZE, SglangMessage.CAR_V2_PCIE_ONLY,
                SglangMessage.CAR_V2_P2P)) {
            assertEquals(utils, m.source().path(), m::name);
            assertEquals("0cd72ba41d483ac6c1ea96f056b2bcbfb4365121", m.source().commit(), m::name);
            assertTrue(m.text().startsWith("CustomAllReduceV2 is disabled"), m::name);
        }
        Verdict noP2p = machine(What.HGX_H100).assume("p2p=false").tp(8).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce");
        fallback(noP2p, "nccl", SglangMessage.CAR_V2_P2P.text());
        assertEquals("467-471", noP2p.source().line());
        whyMentions(noP2p, "whether or not --enable-p2p-check is given");
        assertEquals("--disable-custom-all-reduce (NCCL is used either way)", noP2p.fix());
        Verdict skip = machine(What.HGX_H100).assume("p2p=false").tp(8).env("SGLANG_SKIP_P2P_CHECK", "1").version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce");
        fallback(skip, "nccl", SglangMessage.CAR_V2_P2P.text());
        whyMentions(skip, "torch.cuda.can_device_access_peer");
        fallback(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false", "p2p=false").tp(4).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"),
                "nccl", SglangMessage.CAR_V2_PCIE_ONLY.text());
        fallback(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false", "p2p=false").tp(2).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"),
                "nccl", SglangMessage.CAR_V2_P2P.text());
    }

    /** custom_all_reduce_v2.py@50e143a6 L47 `if full_nvlink != True: return`: two PCIe GPUs are refused silently (classic: ok). */
    @Test
    void customAllReduceV2RefusesTwoPcieGpusSilently() {
        What pcie = machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(2);
        Verdict v = pcie.version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce");
        fallback(v, "nccl", null);
        assertNull(v.message());
        ok(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(2).version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce"), "custom");
        fallback(machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(4).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl",
                SglangMessage.CAR_V2_PCIE_ONLY.text());
        fallback(machine(What.HGX_H100).assume("gpus-per-node=16").tp(16).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl",
                SglangMessage.CAR_V2_WORLD_SIZE.format(16, "[2, 3, 4, 5, 6, 7, 8]"));
        // exported off: the classic kernel and its own words
        fallback(machine(What.HGX_H100).tp(3).env("SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "0").version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl",
                CustomAllReduce.worldSizeMessage(3));
    }

    /**
     * server_args.py@001067ff:9140-9172 (_handle_deterministic_inference): deterministic inference with TP > 1 on CUDA
     * declares disable_custom_all_reduce=True (L9155) and enable_torch_symm_mem=False (L9162), sets NCCL_ALGO to
     * allreduce:tree (L9149) and warns (L9170). Custom all-reduce (V2 included) and --enable-torch-symm-mem, which were
     * "custom all-reduce v2" / "torch symmetric memory (multimem)" on the dgx-h100 sample, become NCCL (tree): a
     * fallback, as when the topology turns them off (they said ok until the audit of 2026-12-02, D01/D02). NVLS is not
     * recommended then (NCCL_ALGO=allreduce:tree never chooses it) and --enable-nccl-nvls falls back.
     */
    @Test
    void deterministicInferenceTurnsCustomAllReduceAndTorchSymmMemOff() {
        dev.fabricscope.model.MachineSnapshot dgx = dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get();
        ok(What.snapshot(dgx).tp(8).verdict("sglang", "--disable-custom-all-reduce"), "custom all-reduce v2");
        ok(What.snapshot(dgx).tp(8).flag("enable-torch-symm-mem", "true").verdict("sglang", "--enable-torch-symm-mem"),
                "torch symmetric memory (multimem)");
        What det = What.snapshot(dgx).tp(8).flag("enable-deterministic-inference", "true").flag("enable-torch-symm-mem", "true");
        for (String knob : List.of("--disable-custom-all-reduce", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "--enable-torch-symm-mem")) {
            Verdict v = det.verdict("sglang", knob);
            fallback(v, "nccl (allreduce:tree)", SglangMessage.DETERMINISTIC_NCCL.text());
            whyMentions(v, "--enable-deterministic-inference with TP > 1", "NCCL_ALGO=allreduce:tree");
            assertEquals("9140-9172", v.source().line(), v::toString);
        }
        // the classic kernel of the older sets: their server_args.py copy was not read for this branch, so they keep it
        ok(What.snapshot(dgx).tp(8).flag("enable-deterministic-inference", "true").version("sglang", "middle")
                .verdict("sglang", "--disable-custom-all-reduce"), "custom");
        // TP 1 has no all-reduce; --disable-custom-all-reduce given keeps its own verdict
        whyMentions(What.snapshot(dgx).tp(1).flag("enable-deterministic-inference", "true").verdict("sglang", "--disable-custom-all-reduce"), "TP 1");
        ok(What.snapshot(dgx).tp(8).flag("enable-deterministic-inference", "true").flag("disable-custom-all-reduce", "true")
                .verdict("sglang", "--disable-custom-all-reduce"), "nccl");
        Verdict nvls = What.snapshot(dgx).tp(8).flag("enable-deterministic-inference", "true").flag("enable-nccl-nvls", "true")
                .verdict("sglang", "--enable-nccl-nvls");
        assertEquals(Outcome.FALLBACK, nvls.outcome(), nvls::toString);
        whyMentions(nvls, "NCCL_ALGO=allreduce:tree");
        What detOnly = What.snapshot(dgx).tp(8).flag("enable-deterministic-inference", "true");
        assertEquals(Outcome.OK, detOnly.verdict("sglang", "--enable-nccl-nvls").outcome());
        var rec = detOnly.advise().recommendations().stream().filter(r -> r.framework().equals("sglang")).findFirst().orElseThrow();
        assertFalse(rec.flags().contains("--enable-nccl-nvls"), rec::toString);
        assertFalse(rec.flags().contains("--disable-custom-all-reduce"), rec::toString);
    }

    /**
     * custom_all_reduce_utils.py@0cd72ba4 can_use_custom_all_reduce_with_nvlink tests full NVLink over the TP group's
     * physical devices (GPU 0..tp−1 on a node), not the whole machine: on h100-nvl-pairs (bridged pairs 0–1 and 2–3)
     * TP 2 gets CustomAllReduceV2 and TP 4 does not (audit of 2026-12-02, S16: it said fallback at TP 2).
     */
    @Test
    void fullNvlinkIsJudgedOverTheTpGroupsGpus() {
        dev.fabricscope.model.MachineSnapshot pairs = dev.fabricscope.samples.Samples.find("h100-nvl-pairs").orElseThrow().snapshot().get();
        ok(What.snapshot(pairs).tp(2).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "custom all-reduce v2");
        fallback(What.snapshot(pairs).tp(4).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl",
                SglangMessage.CAR_V2_PCIE_ONLY.text());
        // an --assume on the machine-wide fact still decides for every group
        assertEquals(Outcome.FALLBACK, What.snapshot(pairs).tp(2).assume("all-nvlink=false")
                .version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce").outcome());
    }

    /**
     * server_args.py@001067ff _handle_a2a_moe: --moe-a2a-backend flashinfer asserts DP attention with dp == tp
     * (L7646-7649), pplx DP attention with dp >= 2 (L7701-7704); the other backends' checks are not modelled. The
     * verdict was ok ("fusion is not auto-enabled") for every backend on the dgx-h100 sample.
     */
    @Test
    void moeA2aBackendsCheckedAtResolution() {
        dev.fabricscope.model.MachineSnapshot dgx = dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get();
        String k = "--moe-a2a-backend";
        error(What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "flashinfer").verdict("sglang", k), "AssertionError",
                SglangMessage.A2A_FLASHINFER_DP.text());
        error(What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "flashinfer").flag("enable-dp-attention", "true").flag("dp-size", "4")
                .verdict("sglang", k), "AssertionError", SglangMessage.A2A_FLASHINFER_DP.text());
        Verdict dp8 = What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "flashinfer").flag("enable-dp-attention", "true").flag("dp-size", "8")
                .verdict("sglang", k);
        assertEquals(Outcome.UNKNOWN, dp8.outcome(), dp8::toString);
        // --dp-size 1 turns DP attention off (overrides.py@003bbaf9:1429), so pplx's assertion fails
        error(What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "pplx").flag("enable-dp-attention", "true").verdict("sglang", k),
                "AssertionError", SglangMessage.A2A_PPLX_DP.text());
        Verdict deepep = What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "deepep").verdict("sglang", k);
        assertEquals(Outcome.UNKNOWN, deepep.outcome(), deepep::toString);
        whyMentions(deepep, "not auto-enabled", "Not modelled");
        ok(What.snapshot(dgx).tp(8).verdict("sglang", k), null);
        // the seed copy behind the older sets was not read for this handler
        ok(What.snapshot(dgx).tp(8).flag("moe-a2a-backend", "flashinfer").version("sglang", "middle").verdict("sglang", k), null);
    }

    /** environ.py: SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE auto-enables on MNNVL trays (copies that have it): not modelled, never ok. */
    @Test
    void customAllReduceV2AcrossNodes() {
        Verdict tray = machine(What.GB200_NVL).tp(8).nodes(2).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce");
        assertEquals(Outcome.UNKNOWN, tray.outcome(), tray::toString);
        whyMentions(tray, "Not modelled", "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE");
        fallback(machine(What.GB200_NVL).tp(8).nodes(2).env("SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE", "0").version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"),
                "nccl", SglangMessage.CAR_V2_SPANS_NODES.text());
        fallback(machine(What.HGX_H100).tp(16).nodes(2).version("sglang", "v2-strict").verdict("sglang", "--disable-custom-all-reduce"), "nccl", SglangMessage.CAR_V2_SPANS_NODES.text());
    }

    @Test
    void customAllReduceV2TableIsTheUpstreamMap() {
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), CustomAllReduceV2Table.worldSizes(CustomAllReduceV2Table.Family.SM100));
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), CustomAllReduceV2Table.worldSizes(CustomAllReduceV2Table.Family.OTHER));
        assertEquals("160 KiB", CustomAllReduceV2Table.size(CustomAllReduceV2Table.row(CustomAllReduceV2Table.Family.OTHER, 8).orElseThrow().oneShotPushBytes()));
        assertEquals("every size", CustomAllReduceV2Table.size(CustomAllReduceV2Table.row(CustomAllReduceV2Table.Family.SM100, 2).orElseThrow().oneShotPullBytes()));
        assertEquals("720 KiB", CustomAllReduceV2Table.size(CustomAllReduceV2Table.row(CustomAllReduceV2Table.Family.SM100, 8).orElseThrow().oneShotPushBytes()));
    }

    /** docs/backend-rules.md §1.5 shows CustomAllReduceV2Table.ROWS, every row and no other. */
    @Test
    void theDocShowsTheV2Table() throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("").toAbsolutePath().getParent().resolve("docs/backend-rules.md"));
        List<String> docRows = doc.lines().filter(l -> l.startsWith("| SM100 |") || l.startsWith("| other |")).toList();
        List<String> expected = CustomAllReduceV2Table.ROWS.stream().map(r -> "| " + (r.family() == CustomAllReduceV2Table.Family.SM100 ? "SM100" : "other")
                + " | " + r.worldSize() + " | " + CustomAllReduceV2Table.size(r.oneShotPushBytes()) + " | " + CustomAllReduceV2Table.size(r.oneShotPullBytes()) + " |")
                .toList();
        assertEquals(expected, docRows);
    }

    // ---- prefill context parallel (parallel_hook.py@008b79d2 handle_context_parallelism)

    @Test
    void prefillCpDeterministicErrors() {
        // L65-68: "--cp-strategy must be set when --enable-prefill-cp is enabled."
        error(machine(What.HGX_H100).tp(8).model("Qwen3MoeForCausalLM").flag("enable-prefill-cp", "true").verdict("sglang", "--enable-prefill-cp"),
                "ValueError", SglangMessage.CP_STRATEGY_REQUIRED.text());
        // L38-46: DeepSeek V3.2 with zigzag
        Verdict dsv32 = machine(What.HGX_H100).tp(8).model("DeepseekV32ForCausalLM").flag("enable-prefill-cp", "true").flag("cp-strategy", "zigzag")
                .verdict("sglang", "--cp-strategy");
        error(dsv32, "ValueError", SglangMessage.CP_DSV32_ZIGZAG.text());
        assertEquals("--cp-strategy interleave", dsv32.fix());
        // L73-75 and L76-78: attention CP must divide TP, and dp × attention CP too
        error(machine(What.HGX_H100).tp(8).flag("attn-cp-size", "3").verdict("sglang", "--attn-cp-size"), "AssertionError", SglangMessage.CP_TP_ATTN.text());
        error(machine(What.HGX_H100).tp(8).flag("attn-cp-size", "4").flag("dp-size", "4").verdict("sglang", "--attn-cp-size"), "AssertionError",
                SglangMessage.CP_TP_DP_ATTN.text());
        // checks pass: what is not read decides, so unknown, never ok
        Verdict passes = machine(What.HGX_H100).tp(8).model("DeepseekV32ForCausalLM").flag("enable-prefill-cp", "true").flag("cp-strategy", "interleave")
                .verdict("sglang", "--enable-prefill-cp");
        assertEquals(Outcome.UNKNOWN, passes.outcome(), passes::toString);
        Verdict noModel = machine(What.HGX_H100).tp(8).flag("enable-prefill-cp", "true").flag("cp-strategy", "zigzag").verdict("sglang", "--enable-prefill-cp");
        assertEquals(Outcome.UNKNOWN, noModel.outcome(), noModel::toString);
        ok(machine(What.HGX_H100).tp(8).flag("attn-cp-size", "1").verdict("sglang", "--attn-cp-size"), null);
        // fields/parallel.py@00ac7105: aliases=["--attention-context-parallel-size"]
        error(machine(What.HGX_H100).tp(8).flag("attention-context-parallel-size", "3").verdict("sglang", "--attn-cp-size"), "AssertionError",
                SglangMessage.CP_TP_ATTN.text());
    }

    /** model_overrides/kimi_k3.py@06dd383b _kimi_k3_overrides: with DCP > 1 it turns --enable-symm-mem off and replicates Q for a2a. */
    @Test
    void kimiK3DcpOverrides() {
        What kimi = machine(What.HGX_B200).tp(8).dcp(2).model("KimiK3ForConditionalGeneration").flag("enable-symm-mem", "true");
        fallback(kimi.verdict("sglang", "--enable-symm-mem"), null, SglangMessage.KIMI_K3_SYMM_MEM.text());
        Verdict cumem = machine(What.HGX_B200).tp(8).dcp(2).model("KimiK3ForConditionalGeneration").flag("enable-symm-mem", "true")
                .verdict("sglang", "NCCL_CUMEM_ENABLE");
        whyMentions(cumem, "NCCL_CUMEM_ENABLE=0");
        Verdict q = machine(What.HGX_B200).tp(8).dcp(2).model("KimiK3ForConditionalGeneration").flag("dcp-comm-backend", "a2a")
                .verdict("sglang", "--dcp-replicate-q-proj");
        ok(q, "replicated Q projection");
        assertEquals(SglangMessage.KIMI_K3_REPLICATE_Q.text(), q.message());
        // other models, or DCP 1: no override
        ok(machine(What.HGX_B200).tp(8).dcp(2).model("DeepseekV3ForCausalLM").flag("dcp-comm-backend", "a2a").verdict("sglang", "--dcp-replicate-q-proj"), null);
        Verdict noDcp = machine(What.HGX_B200).tp(8).model("KimiK3ForConditionalGeneration").flag("enable-symm-mem", "true").verdict("sglang", "--enable-symm-mem");
        assertTrue(noDcp.message() == null || !noDcp.message().equals(SglangMessage.KIMI_K3_SYMM_MEM.text()), noDcp::toString);
    }

    // ---- spelling and knobs upstream has (issue 23 item 6)

    /** exec_.py@01d795f8: the choice is spelled cutedsl; cute-dsl is FlashInfer's kernel-backend spelling and argparse refuses it. */
    @Test
    void cuteDslSpellingIsRefusedAndExplained() {
        Verdict v = node("10.0", 1).flag("flashinfer-allreduce-fusion-backend", "cute-dsl").verdict("sglang", FUSION);
        error(v, "SystemExit (argparse)", String.format(SglangMessage.INVALID_CHOICE_NEWEST.text(), "cute-dsl"));
        whyMentions(v, "FlashInfer's spelling", "cutedsl");
        assertEquals("--flashinfer-allreduce-fusion-backend=cutedsl", v.fix());
    }

    /** fields/parallel.py@00ac7105, exec_.py@01d795f8, boundary_reduction.py@0fbe7e46, environ.py@0003215c: real knobs, not modelled. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({"boundary-reduction, rs+rsv", "enable-scattered-sconv, true", "enable-layernorm-sp, true", "dwdp-size, 8",
            "enable-cp-decode-attn-tp, true"})
    void upstreamFlagsAreAcceptedAndNotModelled(String flag, String value) {
        Verdict v = machine(What.HGX_H100).tp(8).flag(flag, value).verdict("sglang", "--" + flag);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertTrue(v.why().startsWith("Not modelled: --" + flag), v.why());
        assertTrue(v.source().commit() != null && v.source().commit().matches("[0-9a-f]{40}"), v.source().toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB", "SGLANG_FORCE_CUSTOM_ALL_REDUCE_V2_PULL_SIZE_KB"})
    void upstreamEnvIsAcceptedAndNotModelled(String env) {
        Verdict v = machine(What.HGX_H100).tp(8).env(env, "8192").verdict("sglang", env);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertTrue(v.why().startsWith("Not modelled: " + env), v.why());
    }

    /**
     * SGLANG_TORCH_SYMM_MEM_ALLREDUCE_MAX_BYTES: read by get_torch_symm_mem_all_reduce_max_size in one stored copy of
     * all_reduce_utils.py without a commit; the pinned copies do not read it. The verdict cites where the communicator
     * takes the entry it replaces: sgl-project/sglang@0cd72ba41d483ac6c1ea96f056b2bcbfb4365121
     * python/sglang/srt/distributed/device_communicators/torch_symm_mem.py:92-94. Accepted as a real knob, not
     * modelled: unknown with that pinned source, never exit 2.
     */
    @Test
    void torchSymmMemMaxBytesIsAcceptedAndNotModelled() {
        String env = "SGLANG_TORCH_SYMM_MEM_ALLREDUCE_MAX_BYTES";
        Verdict v = machine(What.HGX_H100).tp(8).flag("enable-torch-symm-mem", "true").env(env, "33554432").verdict("sglang", env);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertTrue(v.why().startsWith("Not modelled: " + env), v.why());
        assertEquals("0cd72ba41d483ac6c1ea96f056b2bcbfb4365121", v.source().commit());
        assertEquals("python/sglang/srt/distributed/device_communicators/torch_symm_mem.py", v.source().path());
        assertEquals("92-94", v.source().line());
    }

    /**
     * sgl-project/sglang@83d4b476d11e60a8c7e95c6df835445ae68b28ed
     * python/sglang/srt/distributed/device_communicators/pcie_ipc_ar.py: world sizes (2, 4, 8) at line 65, skipped
     * at 92-97 (debug log), the import warning at 106-111, the caught workspace failure at 146-161.
     */
    @Test
    void flashInferPcieIpcCommunicator() {
        String env = "SGLANG_ENABLE_PCIE_IPC_ALLREDUCE";
        Verdict v = machine(What.PCIE_SM120).tp(4).env(env, "1").version("flashinfer", "main").verdict("sglang", env);
        assertEquals(Outcome.OK, v.outcome(), v::toString);
        assertEquals("flashinfer_pcie_ipc", v.resolved());
        assertEquals("83d4b476d11e60a8c7e95c6df835445ae68b28ed", v.source().commit());
        Verdict six = machine(What.PCIE_SM120).assume("gpus-per-node=8").tp(6).env(env, "1").version("flashinfer", "main").verdict("sglang", env);
        assertEquals(Outcome.FALLBACK, six.outcome(), six::toString);
        assertEquals("FlashInfer PCIe-IPC all-reduce skipped: unsupported world size 6", six.message());
        Verdict noFi = machine(What.PCIE_SM120).assume("flashinfer=false").tp(2).env(env, "1").version("flashinfer", "main").verdict("sglang", env);
        assertEquals("SGLANG_ENABLE_PCIE_IPC_ALLREDUCE is set but this FlashInfer build has no pcie_ipc_comm; falling back to NCCL all-reduce.",
                noFi.message());
        Verdict nodes = machine(What.PCIE_SM120).tp(8).nodes(2).env(env, "1").version("flashinfer", "main").verdict("sglang", env);
        assertEquals(Outcome.FALLBACK, nodes.outcome(), "the workspace failure is caught: " + nodes);
        assertEquals("nccl", nodes.resolved());
        Verdict noPeer = machine(What.PCIE_SM120).assume("p2p=false").tp(2).env(env, "1").version("flashinfer", "main").verdict("sglang", env);
        assertEquals(Outcome.UNKNOWN, noPeer.outcome(), noPeer::toString);
    }
}
