package dev.fabricscope.advisor.customallreduce;

import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.rule.Eval;
import java.util.List;

/**
 * Custom all-reduce as SGLang and vLLM share it ({@code CustomAllreduce.__init__}, one file copied between them):
 * why the communicator turns itself off, in the order it checks. Each framework words its verdict itself.
 * Reference: backend-rules.md §1.5 and §2.7.
 */
public final class CustomAllReduce {

    /** {@code _SUPPORTED_WORLD_SIZES}. */
    public static final List<Integer> WORLD_SIZES = List.of(2, 4, 6, 8);

    /** Why the communicator is off, or {@link #NONE}. */
    public enum Block {
        /** The TP group has ranks on more than one node: {@link CustomAllReduceMessage#SPANS_NODES}. */
        SPANS_NODES,
        /** World size 1: there is no all-reduce (silent). */
        ONE_RANK,
        /** The world size is not in {@link #WORLD_SIZES}: {@link CustomAllReduceMessage#WORLD_SIZE}. */
        WORLD_SIZE,
        /** More than two GPUs without NVLink (xGMI on ROCm) between every pair: {@link CustomAllReduceMessage#PCIE_ONLY}. */
        PCIE_ONLY,
        /** CUDA GPUs that cannot access each other: {@link CustomAllReduceMessage#NO_P2P} where the framework tests P2P. */
        NO_P2P,
        NONE
    }

    private CustomAllReduce() {
    }

    /** The first check of {@code CustomAllreduce.__init__} that fails for this machine and TP group (after the platform checks). */
    public static Block block(Eval e) {
        if (e.tpSpansNodes()) {
            return Block.SPANS_NODES;
        }
        int ws = e.tp();
        if (ws == 1) {
            return Block.ONE_RANK;
        }
        if (!WORLD_SIZES.contains(ws)) {
            return Block.WORLD_SIZE;
        }
        if (ws > 2 && !e.allNvlink()) {
            return Block.PCIE_ONLY;
        }
        if (e.cuda() && !e.p2p()) {
            return Block.NO_P2P;
        }
        return Block.NONE;
    }

    /** The world-size warning, as formatted for this TP size. */
    public static String worldSizeMessage(int worldSize) {
        return CustomAllReduceMessage.WORLD_SIZE.format(worldSize, Values.pyList(WORLD_SIZES));
    }
}
