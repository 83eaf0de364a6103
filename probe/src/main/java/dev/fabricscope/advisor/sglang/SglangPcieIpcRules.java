package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.List;

/**
 * {@code SGLANG_ENABLE_PCIE_IPC_ALLREDUCE=1}: SGLang's PcieIpcCommunicator (pcie_ipc_ar.py@83d4b476). Its constructor
 * skips world sizes other than 2/4/8 (debug log), non-CUDA devices (silently) and a FlashInfer without
 * PcieIpcAllReduceWorkspace (warning); the workspace is built on the first eligible reduction and a failure there is
 * caught (warning, NCCL). Where SGLang constructs it and where it sits among the other all-reduce backends was not read.
 * Reference: backend-rules.md §1.3.
 */
final class SglangPcieIpcRules {

    /** {@code _SUPPORTED_WORLD_SIZES} (line 65). */
    static final List<Integer> WORLD_SIZES = List.of(2, 4, 8);

    private SglangPcieIpcRules() {
    }

    static Verdict verdict(Eval e) {
        VerdictBuilder v = e.on(SglangKnobs.PCIE_IPC_ENV, SglangVersion.class).source(SglangSources.PCIE_IPC_ENABLED)
                .when(SglangSources.WHEN_COMM);
        if (!e.envTrue(SglangKnobs.PCIE_IPC_ENV)) {
            return v.ok().why("Not set: no PCIe IPC communicator is built.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        String fix = "unset SGLANG_ENABLE_PCIE_IPC_ALLREDUCE";
        if (!WORLD_SIZES.contains(e.tp())) {
            return v.fallback().resolved("nccl").message(SglangMessage.PCIE_IPC_WORLD, e.tp()).source(SglangSources.PCIE_IPC_WORLD)
                    .why(e.tpPhrase() + " is not 2, 4 or 8: the communicator stays disabled, logging only at debug level.")
                    .fix(fix + ", or --tp 2/4/8").build();
        }
        if (!e.cuda()) {
            return v.fallback().resolved("nccl").source(SglangSources.PCIE_IPC_CUDA)
                    .why("The platform is " + e.platformName() + ": the device is not CUDA, so the communicator stays disabled silently.")
                    .fix(fix).build();
        }
        if (!e.flashinferInstalled()) {
            return v.fallback().resolved("nccl").message(SglangMessage.PCIE_IPC_NO_FLASHINFER).source(SglangSources.PCIE_IPC_NO_FI)
                    .why("FlashInfer is not installed, so the PcieIpcAllReduceWorkspace import fails.").fix(fix).build();
        }
        Boolean has = FlashInferWorkspace.hasPcieIpc(e);
        if (Boolean.FALSE.equals(has)) {
            return v.fallback().resolved("nccl").message(SglangMessage.PCIE_IPC_NO_FLASHINFER).source(SglangSources.PCIE_IPC_NO_FI)
                    .why(Slots.fill("FlashInfer is installed, but {presence}, so the import fails and the reductions stay on NCCL.",
                            "presence", FlashInferWorkspace.pcieIpcPresence(e))).fix(fix + ", or install a FlashInfer build that has it").build();
        }
        if (has == null) {
            return v.outcome(Outcome.UNKNOWN).source(SglangSources.PCIE_IPC_NO_FI).why(Slots.fill("The communicator's checks pass, but "
                    + "{presence}; without it the import fails ('{msg}') and the reductions stay on NCCL.", "presence",
                    FlashInferWorkspace.pcieIpcPresence(e), "msg", SglangMessage.PCIE_IPC_NO_FLASHINFER.text())).build();
        }
        Partial fi = FlashInferWorkspace.pcieIpc(e);
        String enabled = "The communicator enables itself (world size " + e.tp() + ", CUDA, FlashInfer) and builds FlashInfer's "
                + "PcieIpcAllReduceWorkspace on the first eligible reduction, sized for one prefill chunk (chunked_prefill_size × hidden, "
                + "or SGLANG_PCIE_IPC_MAX_NUMEL).";
        String caught = " SGLang catches a failure there ('" + SglangMessage.PCIE_IPC_BUILD_FAILED.format("<max_numel>", "<error>")
                + "') and keeps the reductions on NCCL.";
        if (fi.outcome() == Outcome.ERROR) {
            return v.fallback().resolved("nccl").source(fi.source()).message(SglangMessage.PCIE_IPC_BUILD_FAILED.format("<max_numel>", "<error>"))
                    .why(enabled + " " + fi.why() + caught + " The communicator itself does not check that the group is on one host.")
                    .fix(fix + ", or keep the TP group within one node").build();
        }
        if (fi.outcome() != Outcome.OK) {
            return v.outcome(Outcome.UNKNOWN).source(fi.source()).why(enabled + " " + fi.why() + caught).build();
        }
        return v.ok().resolved("flashinfer_pcie_ipc").why(enabled + " " + fi.why() + " A reduction uses it when the tensor is contiguous, "
                + "at least 2-D, within max_numel and supported by FlashInfer's tuning table; others stay on NCCL. Where SGLang builds the "
                + "communicator and which backends it tries first was not read; this presumes the installed FlashInfer has "
                + "PcieIpcAllReduceWorkspace (flashinfer@fb28d724 does).").build();
    }
}
