package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled range of NCCL releases, read in NCCL's source at the last tag of the range (backend-rules.md §4).
 *
 * @param nvlsMinGpus                  ncclNvlsInit needs at least this many GPUs in the NVLS domain (the node's, or the
 *                                     MNNVL clique's): 2 at 2.17 ({@code localRanks <= 1}) and from 2.28.7
 *                                     ({@code gpuCount < 2}), 3 from 2.18 to 2.28.3 ({@code gpuCount <= 2})
 * @param nvlsOneNodeOnly              2.17: no NVLS for a communicator across nodes ({@code comm->nNodes>1})
 * @param enableOneSkipsMulticastCheck NCCL_NVLS_ENABLE=1 sets nvlsSupport without reading the multicast attribute (2.18 on)
 * @param bind                         what a failed multicast bind (NVSwitches without a working Fabric Manager) does
 * @param mnnvl                        how this range decides multi-node NVLink
 * @param src                          the lines it follows, at its last tag
 */
public record NcclVersion(String id, String description, int nvlsMinGpus, boolean nvlsOneNodeOnly, boolean enableOneSkipsMulticastCheck,
                          Bind bind, Mnnvl mnnvl, NcclSetSources src)
        implements RuleVersion {

    /** What cuMulticastBindMem's failure does, oldest first. */
    public enum Bind {
        /** 2.17–2.26: CUCHECK / CUCHECKGOTO ({@link NcclVersion#cudaFailure(String)}) and ncclUnhandledCudaError, whatever NCCL_NVLS_ENABLE. */
        CUDA_FAILURE,
        /** 2.27.3–2.28.9: with NCCL_NVLS_ENABLE=1 a WARN and ncclUnhandledCudaError, else INFO "Proceeding without NVLS support". */
        FAILS_ONLY_FORCED,
        /** 2.29.2 on: the WARN ("Disable NVLS (NCCL_NVLS_ENABLE=0) …") and ncclUnhandledCudaError for any value. */
        FAILS
    }

    /** How a range of releases decides MNNVL, oldest first. */
    public enum Mnnvl {
        /** 2.17–2.19: no multi-node NVLink code. */
        NONE,
        /** 2.20.3: NCCL_MNNVL (default -2, auto), decided in initTransportsRank for every communicator; NVLS off on MNNVL. */
        MNNVL_PARAM_EVERY_COMM,
        /** 2.20.5: the same for several nodes only ({@code if (nNodes > 1)}). */
        MNNVL_PARAM,
        /** 2.21–2.24: NCCL_MNNVL_ENABLE, checkMNNVL for several nodes; =1 without MNNVL fails init. */
        CHECK_MNNVL,
        /** 2.25–2.26: ncclMnnvlCheck (mnnvl.cc); a failed FABRIC allocation returns silently, no P2P-level gate. */
        MNNVL_CC,
        /** 2.27.3 on: the P2P level gates the check; a failed FABRIC allocation stops init (the IMEX channel message). */
        MNNVL_CC_P2P_GATE
    }

    public static final List<NcclVersion> ALL = List.of(
            new NcclVersion("newest", "NCCL 2.29.2–2.30.7 source (@5067397c): NVLS from 2 GPUs (gpuCount < 2), NCCL_NVLS_ENABLE=1 forces "
                    + "NVLS without reading multicast support, a failed multicast bind stops init; MNNVL through ncclMnnvlCheck, gated by the "
                    + "P2P level", 2, false, true, Bind.FAILS, Mnnvl.MNNVL_CC_P2P_GATE, NcclSetSources.NEWEST),
            new NcclVersion("2.28.7-2.28.9", "NCCL 2.28.7–2.28.9 source (@dbc86fd0, v2.28.9-1): as newest, but a failed multicast bind "
                    + "stops init only with NCCL_NVLS_ENABLE=1 (else NVLS off, an INFO line)", 2, false, true, Bind.FAILS_ONLY_FORCED,
                    Mnnvl.MNNVL_CC_P2P_GATE, NcclSetSources.V2_28_7),
            new NcclVersion("2.27-2.28.3", "NCCL 2.27.3–2.28.3 source (@f1308997, v2.28.3-1): as 2.28.7-2.28.9, but NVLS needs more than 2 "
                    + "GPUs (gpuCount <= 2)", 3, false, true, Bind.FAILS_ONLY_FORCED, Mnnvl.MNNVL_CC_P2P_GATE, NcclSetSources.V2_27),
            new NcclVersion("2.25-2.26", "NCCL 2.25.1–2.26.6 source (@8171af65, v2.26.6-1): mnnvl.cc without the P2P-level gate; a failed "
                    + "FABRIC allocation (no IMEX channel) leaves MNNVL off silently", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.MNNVL_CC, NcclSetSources.V2_25),
            new NcclVersion("2.21-2.24", "NCCL 2.21.5–2.24.3 source (@6aae3792, v2.24.3-1): NCCL_MNNVL_ENABLE, checkMNNVL across nodes; "
                    + "=1 without MNNVL fails init", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.CHECK_MNNVL, NcclSetSources.V2_21),
            new NcclVersion("2.20.5", "NCCL 2.20.5 source (@48bb7fec, v2.20.5-1): NCCL_MNNVL (not NCCL_MNNVL_ENABLE) across nodes; NVLS "
                    + "is not supported on MNNVL", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.MNNVL_PARAM, NcclSetSources.V2_20),
            new NcclVersion("2.20.3", "NCCL 2.20.3 source (@b6475625, v2.20.3-1): as 2.20.5, but MNNVL is decided on one node too (a "
                    + "single NVL72 tray turns MNNVL on, so NVLS off)", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.MNNVL_PARAM_EVERY_COMM,
                    NcclSetSources.V2_20_3),
            new NcclVersion("2.19", "NCCL 2.19.1–2.19.4 source (@88d44d77, v2.19.4-1): NVLS needs more than 2 GPUs, "
                    + "NCCL_NVLS_ENABLE=1 forces it without reading multicast support; no MNNVL", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.NONE, NcclSetSources.V2_19),
            new NcclVersion("2.18", "NCCL 2.18.1–2.18.6 source (@0b083e52, v2.18.6-1): as 2.19, but a failed CUDA call prints "
                    + "\"Cuda failure '<text>'\" without its code", 3, false, true, Bind.CUDA_FAILURE, Mnnvl.NONE, NcclSetSources.V2_18),
            new NcclVersion("2.17", "NCCL 2.17.1 source (@5d3ab08b, v2.17.1-1): NVLS within one node only, the multicast attribute read for "
                    + "any non-zero NCCL_NVLS_ENABLE (default 1); no MNNVL", 2, true, false, Bind.CUDA_FAILURE, Mnnvl.NONE, NcclSetSources.V2_17));

    /**
     * CUCHECK's WARN as this release prints it, its text unknown: "Cuda failure %d '%s'" from 2.19.1, "Cuda failure '%s'"
     * without the code before (src/include/cudawrap.h:33).
     */
    public String cudaFailure(String code) {
        return src == NcclSetSources.V2_17 || src == NcclSetSources.V2_18 ? NcclMessage.CUDA_FAILURE_NO_CODE.format("<text>")
                : NcclMessage.CUDA_FAILURE.format(code, "<text>");
    }

    /** NCCL_NVLS_ENABLE's default: 2 (auto) from 2.18, 1 at 2.17 (nvls.cc:229 at v2.17.1-1, where 1 reads the attribute). */
    public String nvlsDefault() {
        return enableOneSkipsMulticastCheck ? "2" : "1";
    }

    /** NCCL reads NCCL_MNNVL_ENABLE (2.21 on). */
    public boolean readsMnnvlEnable() {
        return mnnvl.compareTo(Mnnvl.CHECK_MNNVL) >= 0;
    }

    /** NCCL reads NCCL_MNNVL (2.20 only). */
    public boolean readsMnnvl() {
        return mnnvl == Mnnvl.MNNVL_PARAM || mnnvl == Mnnvl.MNNVL_PARAM_EVERY_COMM;
    }

    /** NCCL_P2P_DISABLE=1 / NCCL_P2P_LEVEL=LOC skips the MNNVL check (2.27.3 on). */
    public boolean p2pLevelGatesMnnvl() {
        return mnnvl == Mnnvl.MNNVL_CC_P2P_GATE;
    }

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return NcclRuleSets.of(id, src);
    }

    @Override
    public String framework() {
        return NcclKnobs.FW;
    }
}
