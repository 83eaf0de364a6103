package dev.fabricscope.probe;

import java.util.Map;
import java.util.TreeMap;

/** Picks the environment variables that steer NCCL, CUDA, PyTorch symmetric memory, NVSHMEM, vLLM and SGLang. */
public final class EnvironmentFilter {

    private static final String[] ALWAYS_PREFIXES = {"NCCL_", "TORCH_SYMM_MEM_", "NVSHMEM_", "TORCH_NCCL_"};
    private static final String[] EXACT = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_MODULE_LOADING",
        "LD_LIBRARY_PATH", "NVIDIA_VISIBLE_DEVICES", "PYTORCH_CUDA_ALLOC_CONF"};
    /** vLLM_/SGLANG_ variables are kept when their name concerns communication. */
    private static final String[] COMM_WORDS = {"ALLREDUCE", "ALL_REDUCE", "FLASHINFER", "SYMM", "P2P", "CUSTOM_AR",
        "NCCL", "DCP", "BATCH_INVARIANT", "MNNVL", "NVLS", "CUMEM", "A2A", "ALL2ALL", "TRANSPORT", "DISTRIBUTED", "COMM"};

    private EnvironmentFilter() {
    }

    public static boolean relevant(String name) {
        for (String p : ALWAYS_PREFIXES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        for (String e : EXACT) {
            if (name.equals(e)) {
                return true;
            }
        }
        if (name.startsWith("VLLM_") || name.startsWith("SGLANG_") || name.startsWith("SGL_")) {
            for (String w : COMM_WORDS) {
                if (name.contains(w)) {
                    return true;
                }
            }
        }
        return false;
    }

    public static Map<String, String> filter(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (relevant(k)) {
                out.put(k, v);
            }
        });
        return out;
    }
}
