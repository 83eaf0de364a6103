package dev.fabricscope.check.api;

import java.util.List;

/**
 * The sizing inputs of SGLang's FlashInfer workspace preflight ({@code fabricscope check preflight}).
 *
 * @param worldSize {@code numDevices} and sizing world size; null = the number of local GPUs
 * @param maxTokens {@code max_token_num}; SGLang passes FUSE_ALLREDUCE_MAX_BATCH_SIZE = 2048
 * @param hidden    the model's hidden size ({@code ensure_workspace_initialized}'s default is 4096)
 * @param dtype     bf16, fp16 or fp32
 */
public record PreflightRequest(Integer worldSize, long maxTokens, long hidden, String dtype) {
    public PreflightRequest {
        if (worldSize != null && worldSize < 1) {
            throw new IllegalArgumentException("--world-size must be at least 1");
        }
        if (maxTokens < 1 || hidden < 1) {
            throw new IllegalArgumentException("--max-tokens and --hidden must be positive");
        }
        if (!List.of("bf16", "fp16", "fp32").contains(dtype)) {
            throw new IllegalArgumentException("--dtype must be bf16, fp16 or fp32");
        }
    }

    public static PreflightRequest defaults() {
        return new PreflightRequest(null, 2048, 4096, "bf16");
    }
}
