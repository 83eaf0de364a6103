package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;

/** What FlashInfer raises, verbatim (backend-rules.md §3). */
public enum FlashInferMessage implements UpstreamMessage {
    NO_BACKEND("No suitable backend found. ", FlashInferSources.FACTORY),
    CONFIDENTIAL("NVIDIA Confidential Computing is not supported by the mnnvl AllReduce fusion backend since mnnvl backend requires NVLink multicast, which is unavailable under Confidential Computing. Use backend='trtllm' instead.",
            FlashInferSources.CONFIDENTIAL),
    RANKS(FlashInferWorldSizes.TRTLLM.message(), FlashInferWorldSizes.TRTLLM.source()),
    MNNVL_RANKS(FlashInferWorldSizes.MNNVL.message(), FlashInferWorldSizes.MNNVL.source()),
    PCIE_IPC_RANKS(FlashInferWorldSizes.PCIE_IPC.message(), FlashInferWorldSizes.PCIE_IPC.source()),
    JIT("No supported CUDA architectures found for major versions %s.", FlashInferSources.JIT),
    NO_MULTICAST("[SymmDeviceMemory] Device does not support multicasting.", FlashInferSources.MNNVL),
    /** The start of the RuntimeError fd_exchange raises across hosts (the rest, most likely a 30 s connect time-out, not recorded). */
    FD_EXCHANGE("[fd_exchange]", FlashInferSources.FD_EXCHANGE);

    private final String text;
    private final SourceRef source;

    FlashInferMessage(String text, SourceRef source) {
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
