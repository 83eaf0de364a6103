package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.List;

/**
 * {@code VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC=1}: vLLM's FlashInferPcieIpcAllReduce wrapper
 * (flashinfer_pcie_ipc_all_reduce.py@fcf933f4), whose constructor warns and falls back, in this order, without
 * FlashInfer's PcieIpcAllReduceWorkspace, off CUDA, outside world sizes 2/4/8 and across nodes; setup() at kernel warm-up
 * then builds FlashInfer's workspace without catching its errors. Reference: backend-rules.md §2.5.
 */
final class VllmPcieIpcRules {

    /** {@code _SUPPORTED_WORLD_SIZES} of the wrapper (line 29), the same as FlashInfer's own table. */
    static final List<Integer> WORLD_SIZES = List.of(2, 4, 8);

    private VllmPcieIpcRules() {
    }

    static Verdict verdict(Eval e) {
        VerdictBuilder v = e.on(VllmKnobs.USE_FLASHINFER_PCIE_IPC, VllmVersion.class).source(VllmSources.PCIE_IPC_ENABLED)
                .when(VllmSources.WHEN_COMM);
        if (!e.bool(VllmKnobs.USE_FLASHINFER_PCIE_IPC)) {
            return v.ok().why("0 (default): the PCIe IPC all-reduce is not built; non-fused all-reduces take vLLM's other backends.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: no TP group with more than one rank.").build();
        }
        String fix = "drop VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC";
        if (!e.flashinferInstalled()) {
            return v.fallback().message(VllmMessage.PCIE_IPC_NO_FLASHINFER).source(VllmSources.PCIE_IPC_NO_FI)
                    .why("FlashInfer is not installed, so flashinfer.comm has no PcieIpcAllReduceWorkspace.").fix(fix).build();
        }
        Boolean has = FlashInferWorkspace.hasPcieIpc(e);
        if (Boolean.FALSE.equals(has)) {
            return v.fallback().message(VllmMessage.PCIE_IPC_NO_FLASHINFER).source(VllmSources.PCIE_IPC_NO_FI)
                    .why(Slots.fill("FlashInfer is installed, but {presence}: the wrapper warns and the other backends run.", "presence",
                            FlashInferWorkspace.pcieIpcPresence(e))).fix(fix + ", or install a FlashInfer build that has it").build();
        }
        if (has == null) {
            return v.outcome(Outcome.UNKNOWN).source(VllmSources.PCIE_IPC_NO_FI).why(Slots.fill("The wrapper needs FlashInfer's "
                    + "PcieIpcAllReduceWorkspace, and {presence}; without it the wrapper warns ('{msg}') and the other backends run.",
                    "presence", FlashInferWorkspace.pcieIpcPresence(e), "msg", VllmMessage.PCIE_IPC_NO_FLASHINFER.text())).build();
        }
        if (!e.cuda()) {
            return v.fallback().message(VllmMessage.PCIE_IPC_CUDA).source(VllmSources.PCIE_IPC_CUDA)
                    .why("The platform is " + e.platformName() + ".").fix(fix).build();
        }
        if (!WORLD_SIZES.contains(e.tp())) {
            return v.fallback().message(VllmMessage.PCIE_IPC_WORLD, e.tp(), "(2, 4, 8)").source(VllmSources.PCIE_IPC_WORLD)
                    .why(Slots.fill("The wrapper takes world sizes 2, 4 and 8 only; {tp} is none of them, so it warns and the other "
                            + "backends run.", "tp", e.tpPhrase())).fix(fix + ", or --tp 2/4/8").build();
        }
        if (e.tpSpansNodes()) {
            return v.fallback().message(VllmMessage.PCIE_IPC_NODE).source(VllmSources.PCIE_IPC_NODE)
                    .why(e.span() + " and the " + e.tpPhrase() + " group crosses them (in_the_same_node_as).").fix(fix).build();
        }
        boolean eager = e.bool(VllmKnobs.ENFORCE_EAGER);
        String graphMode = e.value(VllmKnobs.CUDAGRAPH_MODE);
        boolean none = graphMode != null && graphMode.equalsIgnoreCase("NONE");
        // a cudagraph_mode the user gives wins over -O0's default (user-set fields are not overridden)
        if (eager || none || (graphMode == null && VllmFusionPass.optLevel(e) == 0)) {
            String cause = eager ? "--enforce-eager empties cudagraph_capture_sizes (vllm/config/vllm.py@156b1266:1286-1292)"
                    : (none ? "cudagraph_mode NONE" : "-O0 sets cudagraph_mode NONE (OPTIMIZATION_LEVEL_00, vllm/config/vllm.py@156b1266:196-210)")
                    + ", so no capture sizes are computed (L1794-1797: cudagraph_capture_sizes = [])";
            return v.fallback().source(VllmSources.PCIE_IPC_NO_CAPTURE).why(cause + ", and the kernel warm-up builds the PCIe IPC workspace "
                    + "only for capture sizes: with none it returns before setup(), so should_use() stays false and every all-reduce takes "
                    + "the next backend, silently.").fix((eager ? "drop --enforce-eager" : none ? "a cudagraph_mode other than NONE" : "-O1 or higher") + " (CUDA graphs on), or drop "
                    + "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC").build();
        }
        if (e.bool(VllmKnobs.ENABLE_DBO)) {
            return v.fallback().message(VllmMessage.PCIE_IPC_DBO).source(VllmSources.PCIE_IPC_DBO).why("--enable-dbo makes "
                    + "parallel_config.use_ubatching true (parallel.py@156b1266:523-524), and the kernel warm-up then disables the PCIe IPC "
                    + "wrapper before setup(): every all-reduce takes the next backend.").fix("drop --enable-dbo, or drop "
                    + "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC").build();
        }
        Partial fi = FlashInferWorkspace.pcieIpc(e);
        String built = "The wrapper's checks pass (FlashInfer present, CUDA, world size " + e.tp() + ", one node); at kernel warm-up "
                + "setup() builds FlashInfer's PcieIpcAllReduceWorkspace for the CUDA-graph capture sizes, tunes it and prepares each "
                + "[tokens, hidden] shape, catching nothing.";
        if (fi.outcome() != Outcome.OK) {
            return v.outcome(Outcome.UNKNOWN).source(fi.source()).why(built + " " + fi.why() + " A failure there would stop the engine "
                    + "at warm-up.").build();
        }
        return v.ok().resolved("flashinfer_pcie_ipc").why(built + " " + fi.why() + " Calls use it when should_use() holds: a "
                + "contiguous 2-D CUDA tensor of the model's hidden size and dtype (bfloat16 or float16; another dtype warns and falls "
                + "back) that the tuned workspace supports; the rest take the next backend. This presumes the installed FlashInfer "
                + "has PcieIpcAllReduceWorkspace (flashinfer@fb28d724 does).").build();
    }
}
