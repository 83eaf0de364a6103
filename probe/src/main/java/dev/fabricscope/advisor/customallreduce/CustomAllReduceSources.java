package dev.fabricscope.advisor.customallreduce;

import dev.fabricscope.advisor.api.SourceRef;

/** Where the custom all-reduce rules come from (backend-rules.md §1.5): SGLang's copy of the vLLM-derived file. */
public final class CustomAllReduceSources {

    public static final SourceRef SGLANG_CAR = new SourceRef("sgl-project/sglang", "004e6561cb8ae26d62166c15782955f99f058274",
            "python/sglang/srt/distributed/device_communicators/custom_all_reduce.py", "62-209");

    private CustomAllReduceSources() {
    }
}
