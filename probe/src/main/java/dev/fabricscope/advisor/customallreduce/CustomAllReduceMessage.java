package dev.fabricscope.advisor.customallreduce;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.UpstreamMessage;

/**
 * The warnings of {@code CustomAllreduce.__init__}, verbatim. SGLang's {@code custom_all_reduce.py} is a copy of
 * vLLM's and prints the same words (backend-rules.md §1.5 and §2.7); the lines cited are SGLang's copy.
 */
public enum CustomAllReduceMessage implements UpstreamMessage {
    SPANS_NODES("Custom allreduce is disabled because this process group spans across nodes.", "92-98"),
    WORLD_SIZE("Custom allreduce is disabled due to an unsupported world size: %d. Supported world sizes: %s. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            "106-113"),
    PCIE_ONLY("Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            "144-150"),
    NO_P2P("Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.",
            "155-161");

    private final String text;
    private final SourceRef source;

    CustomAllReduceMessage(String text, String lines) {
        this.text = text;
        SourceRef file = CustomAllReduceSources.SGLANG_CAR;
        this.source = new SourceRef(file.repo(), file.commit(), file.path(), lines);
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
