package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;

/** What NCCL and PyTorch symmetric memory print, verbatim (backend-rules.md §4). */
public enum NcclMessage implements UpstreamMessage {
    /** The user log that shows NVSwitches without a working Fabric Manager. */
    FABRIC_NOT_READY("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 802 'system not yet initialized'. This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches. Disable NVLS (NCCL_NVLS_ENABLE=0) if you wish to avoid this error in the future.",
            NcclSources.USER_LOG),
    /** NCCL 2.27.3–2.28.9 with NCCL_NVLS_ENABLE=1 when the multicast bind fails (nvls.cc:285 at v2.28.9-1; its \n as spaces). */
    FABRIC_BIND_FORCED("Failed to bind NVLink SHARP (NVLS) Multicast memory of size %s : CUDA error %s '%s'. This is usually caused by a "
            + "system or configuration error in the Fabric Manager or NVSwitches. Do not force-enable NVLS (NCCL_NVLS_ENABLE=1) if you wish "
            + "to avoid this error in the future.", NcclSetSources.V2_28_7.nvlsBind()),
    /** CUCHECKGOTO's WARN (src/include/cudawrap.h:53) for cuMulticastGetGranularity; init returns ncclUnhandledCudaError. */
    CUDA_FAILURE("Cuda failure %s '%s'", NcclSources.NVLS_ALLOC),
    /** CUCHECK's WARN in 2.17.1–2.18.6, without the CUresult code (src/include/cudawrap.h:33 at v2.18.6-1; :30 at v2.17.1-1). */
    CUDA_FAILURE_NO_CODE("Cuda failure '%s'", new SourceRef(NcclSources.REPO, NcclSetSources.C2186, "src/include/cudawrap.h", "33")),
    IMEX_CHANNEL("MNNVL (cliqueSize %s) is available but not working on this system. Check the IMEX channel configuration "
            + "(/dev/nvidia-caps-imex-channels). Set NCCL_MNNVL_ENABLE=0 to ignore this issue.", NcclSources.MNNVL_IMEX_CHANNEL),
    IMEX_CONFIG("MNNVL (cliqueSize %s) is available but not working on this system. Check the IMEX configuration "
            + "(nvidia-imex-ctl -N). Set NCCL_MNNVL_ENABLE=0 to ignore this issue.", NcclSources.MNNVL_IMEX_EXPORT),
    /** NCCL 2.25–2.26 when the export/import of a FABRIC handle through the IMEX daemon fails (mnnvl.cc:69 at v2.26.6-1). */
    IMEX_CONFIG_2_26("MNNVL (cliqueSize %s) is available but not supported on this system. Check the IMEX configuration.",
            NcclSetSources.V2_25.mnnvlImexExport()),
    /** NCCL 2.21–2.24 when NCCL_MNNVL_ENABLE=1 across nodes and checkMNNVL finds no usable MNNVL. */
    MNNVL_NOT_SUPPORTED("MNNVL is not supported on this system", NcclSources.MNNVL_FORCED_2_24),
    TORCH_RENDEZVOUS("RuntimeError: CUDA driver error: invalid argument", NcclSources.RENDEZVOUS_REPORT);

    private final String text;
    private final SourceRef source;

    NcclMessage(String text, SourceRef source) {
        this.text = text;
        this.source = source;
    }

    @Override
    public String text() {
        return text;
    }

    @Override
    public SourceRef source() {
        return source;
    }
}
