package dev.fabricscope.advisor;

import static dev.fabricscope.advisor.What.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The start-up checks of the third audit (2026-12-02c) that used to pass as ok: node counts SGLang and vLLM refuse,
 * DP attention with a DP size that does not divide TP, vLLM's fusion gate before a user's size, and PP beyond a node.
 */
class NodesAndWorldSizeChecksTest {

    private static Verdict verdict(AdviceResult r, String fw, String knob) {
        return r.verdicts().stream().filter(v -> v.framework().equals(fw) && v.knob().equals(knob)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + fw + " " + knob + " in " + r.verdicts()));
    }

    /** server_args.py@001067ff:10115 and multiproc_executor.py:251-255 @156b1266. */
    @Test
    void tpThatDoesNotDivideOverTheNodesStopsBothFrameworks() {
        AdviceResult r = machine(What.HGX_H100).tp(8).nodes(3).advise();
        Verdict sglang = verdict(r, "sglang", "--nnodes");
        assertEquals(Outcome.ERROR, sglang.outcome());
        assertEquals("tp_size must be divisible by number of nodes", sglang.message());
        Verdict vllm = verdict(r, "vllm", "--nnodes");
        assertEquals(Outcome.ERROR, vllm.outcome());
        assertEquals("global world_size (8) must be divisible by nnodes_within_dp (3). ", vllm.message());
        AdviceResult even = machine(What.HGX_H100).tp(16).nodes(2).advise();
        assertEquals(Outcome.OK, verdict(even, "sglang", "--nnodes").outcome());
        assertEquals(Outcome.OK, verdict(even, "vllm", "--nnodes").outcome());
        assertTrue(machine(What.HGX_H100).advise().verdicts().stream().noneMatch(v -> v.knob().equals("--nnodes")), "one node: no verdict");
    }

    /** parallel_hook.py@008b79d2:186: {@code assert cfg.tp_size % cfg.dp_size == 0} with DP attention on. */
    @Test
    void dpAttentionWithADpSizeThatDoesNotDivideTpIsAnError() {
        for (int dp : new int[] {3, 16}) {
            Verdict v = verdict(machine(What.HGX_H100).framework("sglang").flag("enable-dp-attention", "true").flag("dp-size",
                    Integer.toString(dp)).advise(), "sglang", "--enable-dp-attention");
            assertEquals(Outcome.ERROR, v.outcome(), v::toString);
            assertEquals("AssertionError", v.errorClass());
        }
        Verdict ok = verdict(machine(What.HGX_H100).framework("sglang").flag("enable-dp-attention", "true").flag("dp-size", "4").advise(),
                "sglang", "--enable-dp-attention");
        assertEquals(Outcome.OK, ok.outcome());
    }

    /** compilation.py:189-191 @156b1266: the world size is checked before fi_allreduce_fusion_max_size_mb is read. */
    @Test
    void aUserFusionSizeAtAWorldSizeTheGateRefusesIsAFallbackNotAnError() {
        AdviceResult r = machine(What.HGX_B200).framework("vllm").tp(3).flag("fi_allreduce_fusion_max_size_mb", "8").advise();
        assertEquals(Outcome.FALLBACK, verdict(r, "vllm", "fuse_allreduce_rms").outcome());
        assertEquals(Outcome.FALLBACK, verdict(r, "vllm", "fi_allreduce_fusion_max_size_mb").outcome());
        AdviceResult four = machine(What.HGX_B200).framework("vllm").tp(4).flag("fi_allreduce_fusion_max_size_mb", "8").advise();
        assertEquals(Outcome.OK, verdict(four, "vllm", "fi_allreduce_fusion_max_size_mb").outcome());
    }

    /** parallel.py@00193b82 __post_init__: TP × PP above one node's GPUs, no --nnodes: ValueError. */
    @Test
    void pipelineParallelismBeyondANodeWithoutNodesIsAnError() {
        Verdict pp = verdict(machine(What.HGX_H100).framework("vllm").tp(8).flag("pipeline-parallel-size", "2").advise(), "vllm",
                "--pipeline-parallel-size");
        assertEquals(Outcome.ERROR, pp.outcome(), pp::toString);
        assertTrue(pp.message().startsWith("World size (16) is larger than the number of available GPUs (8)"), pp.message());
        Verdict given = verdict(machine(What.HGX_H100).framework("vllm").tp(8).nodes(2).flag("pipeline-parallel-size", "2").advise(), "vllm",
                "--pipeline-parallel-size");
        assertEquals(Outcome.UNKNOWN, given.outcome());
    }

    /** vllm.py@000fc94b:728, 1372, 1392, 1407 and the fork's -O0 default: no VLLM_COMPILE, no fusion pass (audit 2026-12-02d F1, F2, F4). */
    @Test
    void whatTurnsCompilationOffLeavesTheFusionPassUnrun() {
        List<What> off = List.of(machine(What.HGX_H100).framework("vllm").flag("optimization-level", "0").flag("fuse_allreduce_rms", "true"),
                machine(What.HGX_H100).framework("vllm").flag("enforce-eager", "true"),
                machine(What.HGX_H100).framework("vllm").env("TORCH_COMPILE_DISABLE", "1"),
                machine(What.HGX_H100).framework("vllm").env("VLLM_USE_BREAKABLE_CUDAGRAPH", "1"),
                machine(What.HGX_H100).framework("vllm").flag("compilation-config", "{\"mode\": 0}"),
                machine(What.HGX_H100).framework("vllm").tp(2).flag("fi_allreduce_fusion_max_size_mb", "0"));
        for (What w : off) {
            Verdict v = verdict(w.advise(), "vllm", "fuse_allreduce_rms");
            assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        }
        // vllm.py@156b1266:1076-1097 and deepseek_v4/nvidia/model.py:920: no @support_torch_compile, never compiled (audit e F3).
        for (String breakable : new String[] {null, "0", "1"}) {
            What w = machine(What.HGX_H100).framework("vllm").model("DeepseekV4ForCausalLM");
            Verdict model = verdict((breakable == null ? w : w.env("VLLM_USE_BREAKABLE_CUDAGRAPH", breakable)).advise(), "vllm",
                    "fuse_allreduce_rms");
            assertEquals(Outcome.FALLBACK, model.outcome(), model::toString);
            assertTrue(model.why().contains("1".equals(breakable) ? "VLLM_USE_BREAKABLE_CUDAGRAPH=1" : "@support_torch_compile"),
                    model::toString);
        }
        // envs.py@156b1266:698-700: only the exact value "1" turns breakable CUDA graphs on (audit e F2).
        Verdict notOne = verdict(machine(What.HGX_H100).framework("vllm").env("VLLM_USE_BREAKABLE_CUDAGRAPH", "true").advise(), "vllm",
                "fuse_allreduce_rms");
        assertEquals(Outcome.OK, notOne.outcome(), notOne::toString);
        assertEquals(Outcome.OK, verdict(machine(What.HGX_H100).framework("vllm").flag("compilation-config", "{\"mode\": 3}").advise(), "vllm",
                "fuse_allreduce_rms").outcome());
        Verdict eager = verdict(machine(What.HGX_H100).framework("vllm").flag("enforce-eager", "true").advise(), "vllm", "--enforce-eager");
        assertEquals(Outcome.UNKNOWN, eager.outcome());
    }
}
