package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorldSizes;
import static dev.fabricscope.advisor.What.error;
import static dev.fabricscope.advisor.What.machine;
import static dev.fabricscope.advisor.What.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.samples.Samples;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FlashInfer's world-size tables (FlashInferWorldSizes, backend-rules.md §3.2) as the rules apply them. */
class FlashInferWorldSizeTest {

    static final String WS = "create_allreduce_fusion_workspace(backend)";

    /** flashinfer@fb28d724: trtllm_mnnvl_allreduce.cuh:1231-1252, trtllm_allreduce_fusion.cuh:1914-1929, pcie_ipc_ar.py:50. */
    @Test
    void theTablesAreUpstreams() {
        assertEquals(List.of(2, 4, 8, 16, 32, 64), FlashInferWorldSizes.MNNVL.sizes());
        assertEquals("1251", FlashInferWorldSizes.MNNVL.source().line());
        assertEquals(List.of(2, 4, 8, 16), FlashInferWorldSizes.TRTLLM.sizes());
        assertEquals(List.of(2, 4, 8), FlashInferWorldSizes.PCIE_IPC.sizes());
        assertEquals("MNNVL AllReduce: unsupported world_size 6. Supported sizes: {2, 4, 8, 16, 32, 64}",
                FlashInferWorldSizes.MNNVL.messageFor(6));
    }

    /** trtllm_mnnvl_allreduce.cuh:1251 — the MNNVL dispatch has no kernel for 3, 6, 12 or 24 ranks. */
    @ParameterizedTest(name = "{0}: TP {1} mnnvl")
    @CsvSource({"sm=9.0, 3", "sm=10.0, 6", "sm=9.0, 5", "sm=10.0, 12"})
    void mnnvlAtAnUncompiledWorldSizeFailsAtLaunch(String sm, int tp) {
        for (String backend : List.of("mnnvl", "auto")) {
            Verdict v = machine(sm, "gpus-per-node=16", "multicast=true", "nvswitch=true").tp(tp).flag(WS, backend).verdict("flashinfer", WS);
            error(v, "RuntimeError", FlashInferWorldSizes.MNNVL.messageFor(tp));
            assertEquals(FlashInferWorldSizes.MNNVL.source(), v.source(), v::toString);
        }
        ok(machine(sm, "gpus-per-node=16", "multicast=true", "nvswitch=true").tp(16).flag(WS, "auto").verdict("flashinfer", WS), "mnnvl");
    }

    /** The audit's two cases: no recommendation of mnnvl at TP 3 on a DGX H100 or TP 6 on an HGX B200. */
    @ParameterizedTest(name = "{0} TP {1}")
    @CsvSource({"dgx-h100, 3", "hgx-b200, 6"})
    void noMnnvlRecommendationWhereItsKernelsDoNotExist(String sample, int tp) throws Exception {
        What w = What.snapshot(Samples.find(sample).orElseThrow().snapshot().get()).tp(tp);
        for (Recommendation r : w.advise().recommendations()) {
            for (String f : r.flags()) {
                assertFalse(f.contains("mnnvl"), r.framework() + " recommends " + f + " at TP " + tp);
            }
        }
        Verdict sg = What.snapshot(Samples.find(sample).orElseThrow().snapshot().get()).tp(tp)
                .flag("flashinfer-allreduce-fusion-backend", "mnnvl").verdict("sglang", "--flashinfer-allreduce-fusion-backend");
        assertNotEquals(Outcome.OK, sg.outcome(), sg::toString);
        assertEquals(FlashInferWorldSizes.MNNVL.messageFor(tp), sg.message(), sg::toString);
    }

    /**
     * trtllm_ar.py:688 (SymmDeviceMemory over FABRIC handles) then trtllm_allreduce_fusion.cuh:1929: on an NVL72 the
     * TRT-LLM workspace for 72 ranks is created, and the first fused call fails with the rank message, not an empty one.
     */
    @Test
    void trtllmAt72RanksGivesUpstreamsMessage() {
        Verdict v = machine(What.GB200_NVL).tp(72).nodes(18).flag(WS, "trtllm").verdict("flashinfer", WS);
        error(v, "RuntimeError", FlashInferWorldSizes.TRTLLM.message());
        ok(machine(What.GB200_NVL).tp(16).nodes(4).flag(WS, "trtllm").verdict("flashinfer", WS), "trtllm");
        Verdict noFabric = machine(What.HGX_H100).tp(16).nodes(2).flag(WS, "trtllm").verdict("flashinfer", WS);
        assertEquals(Outcome.ERROR, noFabric.outcome(), noFabric::toString);
        assertEquals("[fd_exchange] …", noFabric.message(), noFabric::toString);
    }

    /** pcie_ipc_ar.py:50/221 (world sizes 2, 4, 8, raised jointly) and cuda_ipc.py:214-244 (CUDA IPC, one host). */
    @Test
    void pcieIpcAllReduceFollowsItsTable() {
        String k = "PcieIpcAllReduceWorkspace(group)";
        ok(machine(What.PCIE_SM120).tp(4).version("flashinfer", "main").verdict("flashinfer", k), "pcie_ipc");
        Verdict three = machine(What.PCIE_SM120).tp(3).version("flashinfer", "main").verdict("flashinfer", k);
        error(three, "ValueError", FlashInferWorldSizes.PCIE_IPC.messageFor(3));
        Verdict nodes = machine(What.PCIE_SM120).tp(8).nodes(2).version("flashinfer", "main").verdict("flashinfer", k);
        assertEquals(Outcome.ERROR, nodes.outcome(), nodes::toString);
    }

    /**
     * Sixth audit F4: flashinfer-ai/flashinfer@fb28d724 mnnvl.py:679-689 make_handle_exchanger picks FABRIC handles
     * whenever is_mnnvl_fabric_supported holds, on one node too, for the mnnvl and the TRT-LLM workspace (both
     * SymmDeviceMemory, trtllm_ar.py:688-696); without an IMEX channel neither allocation succeeds, and the
     * recommendation offers neither.
     */
    @Test
    void fabricHandlesWithoutAnImexChannelFailBothBackendsOnOneTrayToo() {
        for (int nodes : new int[] {1, 2}) {
            What noChannel = machine(What.GB200_NVL).assume("imex-channel=false").framework("flashinfer").tp(4 * nodes).nodes(nodes);
            for (String backend : new String[] {"auto", "mnnvl", "trtllm"}) {
                Verdict v = noChannel.flag(WS, backend).verdict("flashinfer", WS);
                assertEquals(Outcome.ERROR, v.outcome(), nodes + " node(s), " + backend + ": " + v);
                assertTrue(v.why().contains("IMEX channel"), v::toString);
            }
            Recommendation r = noChannel.advise().recommendation("flashinfer").orElseThrow();
            assertTrue(r.flags().isEmpty(), r::toString);
            Verdict unread = machine(java.util.Arrays.stream(What.GB200_NVL).filter(kv -> !kv.startsWith("imex-channel=")).toArray(String[]::new)).framework("flashinfer")
                    .tp(4 * nodes).nodes(nodes).verdict("flashinfer", WS);
            assertEquals(Outcome.UNKNOWN, unread.outcome(), unread::toString);
        }
        // POSIX file descriptors on one node (no fabric handles): no channel needed
        ok(machine(What.GB200_NVL).assume("imex-channel=false").assume("fabric-handles=false").framework("flashinfer").tp(4)
                .flag(WS, "trtllm").verdict("flashinfer", WS), "trtllm");
    }

    /**
     * Sixth audit F8: the TRT-LLM workspace (SymmDeviceMemory, flashinfer@fb28d724 trtllm_ar.py:688-696) maps every
     * peer's allocation for this GPU (mnnvl.py:1065-1101) and FlashInfer checks no peer access: without it, not ok.
     */
    @Test
    void trtllmWithoutPeerAccessIsNotOk() {
        Verdict v = machine(What.HGX_H100).assume("p2p=false").framework("flashinfer").tp(4).flag(WS, "trtllm").verdict("flashinfer", WS);
        assertEquals(Outcome.UNKNOWN, v.outcome(), v::toString);
        assertTrue(v.why().contains("peer access"), v::toString);
        ok(machine(What.HGX_H100).framework("flashinfer").tp(4).flag(WS, "trtllm").verdict("flashinfer", WS), "trtllm");
    }
}
