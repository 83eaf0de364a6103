package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;
/** What FlashInfer raises, verbatim (backend-rules.md §3). */
public enum FlashInferMessage implements UpstreamMessage {
    NO_BACKEND("No suitable backend found. ", FlashInferSources.FACTORY),
    CONFIDENTIAL("NVIDIA Confidential Computing is not supported by the mnnvl AllReduce fusion backend since mnnvl backend requires NVLink multicast, which is unavailable under Confidential Computing. Use backend='trtllm' instead.",
            FlashInferSources.CONFIDENTIAL),
    RANKS("allreduce_fusion_kernel: unsupported ranks number! Supported ranks: 2, 4, 8, 16.", FlashInferSources.TRTLLM),
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
