package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.KnobSpec;
import java.util.List;

/** FlashInfer's all-reduce workspace argument and its fabric probe, as knobs (backend-rules.md §3). */
final class FlashInferKnobs {

    static final String FW = "flashinfer";

    static final KnobSpec WORKSPACE_BACKEND = new KnobSpec(FW, "create_allreduce_fusion_workspace(backend)", KnobSpec.Kind.LIBRARY,
            KnobSpec.Type.CHOICE, List.of("auto", "trtllm", "mnnvl"), "auto",
            "backend argument of flashinfer.comm.create_allreduce_fusion_workspace", null);
    static final KnobSpec FABRIC_PROBE = new KnobSpec(FW, "is_mnnvl_fabric_supported()", KnobSpec.Kind.PROBE, KnobSpec.Type.NONE,
            List.of(), "probe", "FlashInfer's MNNVL fabric detection: FABRIC handles or POSIX file descriptors", null);

    static final KnobSpec PCIE_IPC = new KnobSpec(FW, "PcieIpcAllReduceWorkspace(group)", KnobSpec.Kind.LIBRARY, KnobSpec.Type.NONE,
            List.of(), "library", "FlashInfer's PCIe IPC all-reduce workspace (flashinfer/comm/pcie_ipc_ar.py)", null);

    static final List<KnobSpec> ALL = List.of(WORKSPACE_BACKEND, FABRIC_PROBE, PCIE_IPC);

    private FlashInferKnobs() {
    }
}
