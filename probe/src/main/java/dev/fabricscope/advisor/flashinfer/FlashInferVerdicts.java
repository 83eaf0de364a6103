package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.List;
import java.util.Map;

/** Verdicts and the recommendation for FlashInfer's workspace backend and fabric probe (backend-rules.md §3). */
final class FlashInferVerdicts {

    private FlashInferVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        return List.of(workspaceVerdict(e), fabricVerdict(e), pcieIpcVerdict(e));
    }

    private static Verdict fabricVerdict(Eval e) {
        VerdictBuilder v = e.on(FlashInferKnobs.FABRIC_PROBE, FlashInferVersion.class)
                .source(e.version(FlashInferVersion.class).fabricAttributeOnly() ? FlashInferSources.FABRIC_LIGHT : FlashInferSources.FABRIC)
                .when(FlashInferSources.WHEN_CREATE);
        if (!e.cuda()) {
            return v.ok().why("The platform is " + e.platformName() + "; FlashInfer's fabric probe applies to NVIDIA GPUs only.").build();
        }
        if (FlashInferWorkspace.fabricSupported(e)) {
            return v.ok().resolved("FABRIC handles").why("True: " + FlashInferWorkspace.fabricWhy(e)
                    + ". MNNVL workspaces exchange FABRIC handles, which work across nodes (with an IMEX channel).").build();
        }
        v.resolved("POSIX FD (one host only)");
        if (e.tpSpansNodes()) {
            return v.fallback().why("False: " + FlashInferWorkspace.fabricWhy(e) + ". MNNVL workspaces fall back to POSIX file descriptors over AF_UNIX, "
                            + "which only work within one host, and " + e.span() + " with the " + e.tpPhrase()
                            + " group across them: an mnnvl workspace fails in fd_exchange (a RuntimeError starting '" + FlashInferMessage.FD_EXCHANGE.text() + "').")
                    .fix("an MNNVL system (GB200/GB300 NVL) with the IMEX service and a channel under /dev/nvidia-caps-imex-channels, or keep the TP group within one node")
                    .build();
        }
        return v.ok().why("False: " + FlashInferWorkspace.fabricWhy(e) + ". MNNVL workspaces exchange POSIX file descriptors, which is fine within one host.").build();
    }

    /**
     * {@code PcieIpcAllReduceWorkspace} (flashinfer@fb28d724 pcie_ipc_ar.py): the world-size row of
     * {@link FlashInferWorldSizes}, raised jointly on every rank; CUDA IPC buffers ({@code create_shared_buffer}), one host.
     */
    private static Verdict pcieIpcVerdict(Eval e) {
        FlashInferWorldSizes row = FlashInferWorldSizes.PCIE_IPC;
        VerdictBuilder v = e.on(FlashInferKnobs.PCIE_IPC, FlashInferVersion.class).source(row.source()).when(row.when());
        if (!e.cuda()) {
            return v.outcome(dev.fabricscope.advisor.api.Outcome.NOT_APPLICABLE).why("A CUDA all-reduce; the platform is " + e.platformName() + ".").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: nothing to all-reduce.").build();
        }
        if (!row.accepts(e.tp())) {
            return v.outcome(dev.fabricscope.advisor.api.Outcome.ERROR).errorClass("ValueError").message(row.messageFor(e.tp()))
                    .why("The PCIe IPC all-reduce accepts world sizes " + row.sizesPhrase() + " only; " + e.tpPhrase()
                            + " is none of them (checked on every rank before any allocation).")
                    .fix("a TP of " + row.sizesPhrase().replace(" and ", " or ") + " for this all-reduce, or NCCL's").build();
        }
        Boolean has = FlashInferWorkspace.hasPcieIpc(e);
        if (!Boolean.TRUE.equals(has)) {
            v.source(FlashInferSources.PCIE_IPC_EXPORT);
            return (has == null ? v.outcome(dev.fabricscope.advisor.api.Outcome.UNKNOWN) : v.outcome(dev.fabricscope.advisor.api.Outcome.ERROR)
                    .errorClass("ImportError")).why(Slots.fill("{presence}.", "presence", FlashInferWorkspace.pcieIpcPresence(e)))
                    .fix(has == null ? null : "a FlashInfer build from main at or after 299e6d11, or NCCL's all-reduce").build();
        }
        Partial p = FlashInferWorkspace.pcieIpc(e);
        v.apply(p);
        if (p.outcome() == dev.fabricscope.advisor.api.Outcome.ERROR) {
            v.fix("keep the TP group within one host for this all-reduce, or use NCCL's");
        } else if (p.outcome() == dev.fabricscope.advisor.api.Outcome.OK) {
            v.why(p.why() + " Callers: vLLM's VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC=1 and SGLang's SGLANG_ENABLE_PCIE_IPC_ALLREDUCE=1 "
                    + "(their verdicts).");
        }
        return v.build();
    }

    private static Verdict workspaceVerdict(Eval e) {
        VerdictBuilder v = e.on(FlashInferKnobs.WORKSPACE_BACKEND, FlashInferVersion.class);
        String backend = v.value();
        if (e.cuda() && e.tp() <= 1) {
            return v.ok().source(FlashInferSources.FACTORY).when(FlashInferSources.WHEN_CREATE)
                    .why("World size 1 (TP 1): there is nothing to all-reduce, so no workspace is needed.").build();
        }
        Partial p = FlashInferWorkspace.workspace(e, backend, !"auto".equals(backend), null);
        if (!p.failed()) {
            Partial ranks = FlashInferWorkspace.kernelRanks(e, p.resolved());
            if (ranks != null) {
                p = ranks;
            }
        }
        v.apply(p);
        if (p.failed()) {
            v.fix(alternative(e, backend));
        } else {
            v.why(e.gpus() + ", " + e.tpPhrase() + (e.tpSpansNodes() ? "" : " on one node") + ": " + p.why());
        }
        return v.build();
    }

    /** A backend that works here, as a fix, or what to do when none does. */
    private static String alternative(Eval e, String failed) {
        String best = FlashInferWorkspace.bestBackend(e);
        if (best != null && !best.equals(failed)) {
            return "create_allreduce_fusion_workspace(backend=\"" + best + "\")";
        }
        if (best == null && Boolean.FALSE.equals(e.imexChannel()) && FlashInferWorkspace.fabricSupported(e)) {
            return "give every node an IMEX channel device under /dev/nvidia-caps-imex-channels, so FABRIC-handle memory can be "
                    + "allocated; until then the unfused all-reduce (NCCL)";
        }
        if (best == null && FlashInferWorkspace.someBackendUnknown(e)) {
            return "no FlashInfer fusion backend is known to work here (one is unknown: see its why); the unfused all-reduce (NCCL) is the safe choice";
        }
        return best == null ? "no FlashInfer fusion backend works for this machine and world size; use the unfused all-reduce (NCCL)" : null;
    }

    static Recommendation recommend(Eval e) {
        String fw = FlashInferKnobs.FW;
        if (!e.cuda()) {
            return new Recommendation(fw, List.of(), Map.of(), "FlashInfer needs CUDA; the platform is " + e.platformName() + ".");
        }
        if (e.tp() <= 1) {
            return new Recommendation(fw, List.of(), Map.of(), "TP 1: no all-reduce workspace needed.");
        }
        String best = FlashInferWorkspace.bestBackend(e);
        if (best == null) {
            return new Recommendation(fw, List.of(), Map.of(), (FlashInferWorkspace.someBackendUnknown(e)
                    ? "No FlashInfer all-reduce fusion backend is known to work for " + e.tpPhrase() + " here (one is unknown: see the verdicts); "
                    + "the unfused all-reduce is the safe choice."
                    : "No FlashInfer all-reduce fusion backend works for " + e.tpPhrase() + " on this machine; use the unfused all-reduce."));
        }
        String why = "mnnvl".equals(best) ? "mnnvl: every rank has NVLink multicast" + (e.tpSpansNodes() ? " and FABRIC handles across nodes" : "")
                : "trtllm: " + (e.multicast() ? "mnnvl does not work here" : "the GPUs lack NVLink multicast, which mnnvl needs");
        String call = "create_allreduce_fusion_workspace(backend=\"" + best + "\")";
        if (!e.flashinferInstalled()) {
            // nothing to call yet: what to install first, then what would work
            return new Recommendation(fw, List.of(), Map.of(), "FlashInfer is not installed (" + e.facts.flashinfer().detail()
                    + "): install flashinfer-python first; then " + call + " (" + why + ").");
        }
        return new Recommendation(fw, List.of(call), Map.of(), why + ".");
    }
}
