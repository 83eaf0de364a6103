package dev.fabricscope.advisor;

import static dev.fabricscope.advisor.What.fallback;
import static dev.fabricscope.advisor.What.machine;
import static dev.fabricscope.advisor.What.ok;
import static dev.fabricscope.advisor.What.whyMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import org.junit.jupiter.api.Test;

/**
 * Where the TP group's ranks sit over {@code --nodes}, as the frameworks launch them (backend-rules.md §0.1).
 * SGLang: {@code nnodes_per_tp_group = max(nnodes // pp_size, 1)}, {@code tp_size_per_node = tp_size // nnodes_per_tp_group}
 * (mmangkad-dev/sglang@9be3044b engine.py:1794-1826 _calculate_rank_ranges; data_parallel_controller.py:611-628).
 * vLLM: {@code local_world_size = world_size // nnodes_within_dp} (mmangkad/vllm@156b1266 vllm/config/parallel.py:675-685),
 * ranks node by node (multiproc_executor.py:164-176), TP groups of consecutive ranks (parallel_state.py:1769-1780).
 */
class TpPlacementTest {

    private static EffectiveDeployment dep(What w) {
        AdviceResult r = w.advise();
        return r.deployment();
    }

    @Test
    void tp8OverTwoEightGpuNodesSpansBothWithFourEach() {
        What w = machine(What.HGX_H100).tp(8).nodes(2);
        EffectiveDeployment d = dep(w);
        assertEquals(2, d.tpNodes());
        assertEquals(4, d.tpPerNode());
        assertTrue(w.advise().checks().stream().anyMatch(c -> c.contains("the TP 8 group spans 2 nodes × 4 GPUs")), () -> w.advise().checks().toString());
        assertTrue(w.advise().checks().stream().noneMatch(c -> c.contains("fits on")), () -> w.advise().checks().toString());
        // SGLang's newest dispatch (CustomAllReduceV2) and its classic kernel both stay within one node
        Verdict v2 = w.verdict("sglang", "--disable-custom-all-reduce");
        assertEquals(Outcome.FALLBACK, v2.outcome(), v2::toString);
        assertEquals("nccl", v2.resolved(), v2::toString);
        whyMentions(v2, "TP 8 (4 GPUs per node over 2 nodes)");
        fallback(machine(What.HGX_H100).tp(8).nodes(2).version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce"), "nccl",
                CustomAllReduceMessage.SPANS_NODES.text());
        Verdict vllm = w.verdict("vllm", "--disable-custom-all-reduce");
        assertEquals(Outcome.FALLBACK, vllm.outcome(), vllm::toString);
        assertEquals(CustomAllReduceMessage.SPANS_NODES.text(), vllm.message(), vllm::toString);
    }

    @Test
    void theDgxH100SampleAsTheAuditRanIt() {
        // advise --sample dgx-h100 --tp 8 --nodes 2 (audit 2026-12-02b, S31/S32 note)
        What w = What.snapshot(dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get()).tp(8).nodes(2);
        assertEquals(2, dep(w).tpNodes());
        assertEquals(4, dep(w).tpPerNode());
        for (String knob : new String[] {"--disable-custom-all-reduce", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2"}) {
            Verdict v = w.verdict("sglang", knob);
            assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
            whyMentions(v, "4 GPUs per node over 2 nodes");
        }
    }

    @Test
    void smallerGroupsSpreadToo() {
        // TP 4 over 2 nodes: 2 ranks per node (SGLang 4 // max(2 // 1, 1); vLLM 4 // 2)
        EffectiveDeployment d = dep(machine(What.HGX_H100).tp(4).nodes(2));
        assertEquals(2, d.tpNodes());
        assertEquals(2, d.tpPerNode());
        // TP 4 × PP 2 over 4 nodes: max(4 // 2, 1) = 2 nodes per TP group, 2 ranks each
        EffectiveDeployment pp = dep(machine(What.HGX_H100).tp(4).nodes(4).flag("pp", "2"));
        assertEquals(2, pp.tpNodes());
        assertEquals(2, pp.tpPerNode());
    }

    @Test
    void pipelineStagesKeepTheTpGroupOnOneNode() {
        // TP 8 × PP 2 over 2 nodes: max(2 // 2, 1) = 1 node per TP group; vLLM's local world 16 // 2 = 8
        What w = machine(What.HGX_H100).tp(8).nodes(2).flag("pp", "2");
        assertEquals(1, dep(w).tpNodes());
        ok(w.version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce"), "custom");
    }

    @Test
    void mnnvlTraysStillSpanTwoNodes() {
        // 4 GPUs per tray: TP 8 over 2 trays is 2 × 4 under either reading
        What w = machine(What.GB200_NVL).tp(8).nodes(2);
        EffectiveDeployment d = dep(w);
        assertEquals(2, d.tpNodes());
        assertEquals(4, d.tpPerNode());
        fallback(w.version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce"), "nccl", CustomAllReduceMessage.SPANS_NODES.text());
    }

    @Test
    void unevenRanksAreNotModelled() {
        // TP 8 over 3 nodes: vLLM asserts world_size % nnodes_within_dp == 0 (multiproc_executor.py:251), SGLang launches 8 // 3 per node
        What w = machine(What.HGX_H100).tp(8).nodes(3);
        AdviceResult r = w.advise();
        assertTrue(r.deployment().notes().get(EffectiveDeployment.PLACEMENT).startsWith(EffectiveDeployment.PLACEMENT_UNKNOWN), r.deployment().notes()::toString);
        assertTrue(r.checks().stream().anyMatch(c -> c.startsWith("Not modelled: TP 8 does not divide over the 3 nodes")), r.checks()::toString);
        // an ok that rests on the placement reads unknown, and says why
        Verdict v = w.version("sglang", "middle").verdict("sglang", "--disable-custom-all-reduce");
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        whyMentions(v, "rests on the TP group's placement");
        assertTrue(r.verdicts().stream().noneMatch(x -> x.outcome() == Outcome.OK && x.why() != null && x.why().contains(EffectiveDeployment.PLACEMENT_UNKNOWN)));
    }

    @Test
    void vllmDataParallelOverNodesIsNotModelled() {
        AdviceResult r = machine(What.HGX_H100).tp(8).nodes(2).flag("data-parallel-size", "2").advise();
        assertTrue(r.deployment().notes().get(EffectiveDeployment.PLACEMENT).contains("data_parallel_size_local"), r.deployment().notes()::toString);
    }

    @Test
    void oneNodeAndFullNodesAreAsBefore() {
        assertEquals(1, dep(machine(What.HGX_H100).tp(8)).tpNodes());
        EffectiveDeployment full = dep(machine(What.HGX_H100).tp(16).nodes(2));
        assertEquals(2, full.tpNodes());
        assertEquals(8, full.tpPerNode());
        assertTrue(machine(What.HGX_H100).tp(16).nodes(2).advise().checks().isEmpty());
    }
}
