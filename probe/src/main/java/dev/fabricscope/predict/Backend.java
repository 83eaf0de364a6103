package dev.fabricscope.predict;

import java.util.Arrays;
import java.util.Optional;

/** The all-reduce backends the cost model prices, named as {@code predict --json} writes them. */
public enum Backend {
    NCCL("nccl"),
    ONESHOT("oneshot"),
    TWOSHOT("twoshot"),
    TRTLLM("trtllm"),
    MNNVL("mnnvl"),
    SYMM_MEM("symm-mem"),
    NVLS("nvls");

    public final String id;

    Backend(String id) {
        this.id = id;
    }

    public static Optional<Backend> of(String id) {
        return Arrays.stream(values()).filter(b -> b.id.equals(id)).findFirst();
    }
}
