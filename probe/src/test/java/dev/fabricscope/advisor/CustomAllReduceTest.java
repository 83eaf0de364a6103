package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.customallreduce.CustomAllReduce;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceMessage;
import dev.fabricscope.advisor.rule.Eval;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The custom all-reduce checks SGLang and vLLM share: one decision, one set of messages, each framework's own wording. */
class CustomAllReduceTest {

    private static Eval eval(int tp, int nodes, String... assume) throws AdvisorInputException {
        Map<String, String> a = new LinkedHashMap<>();
        for (String kv : What.HGX_H100) {
            a.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        for (String kv : assume) {
            a.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        MachineFacts f = MachineFacts.derive(null, a);
        EffectiveDeployment dep = new EffectiveDeployment(tp, nodes, f.gpusPerNode().value(), Math.max(1, (tp + f.gpusPerNode().value() - 1) / f.gpusPerNode().value()), 1, null, null, Map.of(), Map.of(), Map.of(), Set.of());
        return new Eval(f, dep, VersionChoice.newest());
    }

    @Test
    void checksInCustomAllreduceInitOrder() throws AdvisorInputException {
        assertEquals(CustomAllReduce.Block.SPANS_NODES, CustomAllReduce.block(eval(16, 2, "p2p=false")));
        assertEquals(CustomAllReduce.Block.ONE_RANK, CustomAllReduce.block(eval(1, 1)));
        assertEquals(CustomAllReduce.Block.WORLD_SIZE, CustomAllReduce.block(eval(3, 1, "all-nvlink=false")));
        assertEquals(CustomAllReduce.Block.PCIE_ONLY, CustomAllReduce.block(eval(4, 1, "all-nvlink=false", "p2p=false")));
        assertEquals(CustomAllReduce.Block.NONE, CustomAllReduce.block(eval(2, 1, "all-nvlink=false")));
        assertEquals(CustomAllReduce.Block.NO_P2P, CustomAllReduce.block(eval(8, 1, "p2p=false")));
        assertEquals(CustomAllReduce.Block.NONE, CustomAllReduce.block(eval(8, 1)));
        // ROCm has no P2P test
        assertEquals(CustomAllReduce.Block.NONE, CustomAllReduce.block(eval(8, 1, "platform=rocm", "p2p=false")));
    }

    @Test
    void sglangAndVllmQuoteTheSameWarnings() {
        String k = "--disable-custom-all-reduce";
        What[] machines = {
            What.machine(What.HGX_H100).tp(16).nodes(2),
            What.machine(What.HGX_H100).tp(3),
            What.machine("sm=8.9", "gpus-per-node=8", "all-nvlink=false").tp(4),
            What.machine(What.HGX_H100).assume("p2p=false").tp(8).flag("enable-p2p-check", "true"),
        };
        CustomAllReduceMessage[] expected = {CustomAllReduceMessage.SPANS_NODES, CustomAllReduceMessage.WORLD_SIZE,
            CustomAllReduceMessage.PCIE_ONLY, CustomAllReduceMessage.NO_P2P};
        for (int i = 0; i < machines.length; i++) {
            // the classic kernel: SGLang's middle rule set (the newest dispatches CustomAllReduceV2, tested in SglangRulesTest)
            Verdict sglang = machines[i].version("sglang", "middle").verdict("sglang", k);
            Verdict vllm = machines[i].verdict("vllm", k);
            assertEquals(Outcome.FALLBACK, sglang.outcome(), sglang::toString);
            assertEquals(sglang.message(), vllm.message());
            String text = expected[i] == CustomAllReduceMessage.WORLD_SIZE ? CustomAllReduce.worldSizeMessage(3) : expected[i].text();
            assertEquals(text, sglang.message());
            assertEquals(expected[i].source(), sglang.source(), "SGLang cites the line that warns");
        }
    }
}
