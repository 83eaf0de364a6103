package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import java.util.List;

/** NCCL's and PyTorch symmetric memory's knobs the advisor knows (backend-rules.md §4). */
public final class NcclKnobs {

    static final String FW = "nccl";

    static final KnobSpec NVLS_ENABLE = KnobSpec.env(FW, "NCCL_NVLS_ENABLE", KnobSpec.Type.CHOICE, "unset (2)",
            "NVLink SHARP: 0 off, 1 on, 2 auto (default)", "0", "1", "2");
    public static final KnobSpec TORCH_SYMM_MEM_DISABLE_MULTICAST = KnobSpec.env(FW, "TORCH_SYMM_MEM_DISABLE_MULTICAST", KnobSpec.Type.BOOL,
            "unset", "PyTorch symmetric memory: skip creating the multicast object");

    static final KnobSpec P2P_DISABLE = KnobSpec.env(FW, "NCCL_P2P_DISABLE", KnobSpec.Type.BOOL, "0",
            "turns NCCL's peer-to-peer (NVLink/PCIe) transport off");
    static final KnobSpec MNNVL_ENABLE = KnobSpec.env(FW, "NCCL_MNNVL_ENABLE", KnobSpec.Type.CHOICE, "unset (2)",
            "multi-node NVLink: 0 off, 1 on, 2 auto", "0", "1", "2");
    /** NCCL 2.20's name for multi-node NVLink (NCCL_PARAM(MNNVL, "MNNVL", -2)); 2.21 renamed it NCCL_MNNVL_ENABLE. */
    static final KnobSpec MNNVL = KnobSpec.env(FW, "NCCL_MNNVL", KnobSpec.Type.INT, "unset (-2)",
            "NCCL 2.20's multi-node NVLink switch: 0 off, 1 on, negative auto");
    static final KnobSpec P2P_LEVEL = KnobSpec.env(FW, "NCCL_P2P_LEVEL", KnobSpec.Type.STRING, "unset",
            "the farthest GPU path NCCL's P2P transport takes: LOC NVL NVB (C2C) PIX PXB (P2C PXN) PHB SYS, or 0-5");
    static final KnobSpec CUMEM_ENABLE = KnobSpec.env(FW, "NCCL_CUMEM_ENABLE", KnobSpec.Type.CHOICE, "unset",
            "cuMem-based allocations in NCCL", "0", "1");

    static final List<KnobSpec> ALL = List.of(NVLS_ENABLE, TORCH_SYMM_MEM_DISABLE_MULTICAST, P2P_DISABLE, P2P_LEVEL, MNNVL_ENABLE, MNNVL,
            CUMEM_ENABLE);

    private NcclKnobs() {
    }
}
