package dev.fabricscope.probe;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one allow-list of environment variables the host seam answers, so the only ones a snapshot or a trace holds:
 * those the probe and the advisor read, nothing else (no {@code NCCL_SOCKET_IFNAME}, no {@code USER}).
 * {@code EnvironmentAllowListTest} fails when code reads a variable that is not here.
 */
public final class EnvironmentFilter {

    /**
     * Looked up one by one by the probe to find the Python environments ({@code PythonStackProbe} through
     * {@code getenv}; {@code NcclLocator} for libnccl): answered, but not part of the snapshot's environment.
     */
    private static final Set<String> LOOKED_UP = Set.of("PATH", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX");
    /** Read by the probe from the snapshot's environment: which libnccl is loaded ({@code PythonStack}, {@code NcclLocator}). */
    private static final Set<String> PROBE = Set.of("LD_LIBRARY_PATH", "VLLM_NCCL_SO_PATH");
    /** Read from the snapshot by its analysis ({@code SnapshotAnalyzer}) and by the cluster comparison. */
    private static final Set<String> ANALYSIS = Set.of("CUDA_VISIBLE_DEVICES", "NCCL_NVLS_ENABLE");
    /** The advisor's environment knobs ({@code Knobs.envNames()}, every rule set) and what the checks read of them. */
    private static final Set<String> ADVISOR = Set.of("NCCL_CUMEM_ENABLE", "NCCL_MNNVL", "NCCL_MNNVL_ENABLE", "NCCL_NVLS_ENABLE",
            "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "TORCH_COMPILE_DISABLE", "VLLM_USE_BREAKABLE_CUDAGRAPH", "SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB", "SGLANG_ENABLE_CUSTOM_ALL_REDUCE_V2_MULTINODE", "SGLANG_ENABLE_PCIE_IPC_ALLREDUCE",
            "SGLANG_FORCE_CUSTOM_ALL_REDUCE_V2_PULL_SIZE_KB", "SGLANG_FORCE_CUSTOM_ALL_REDUCE_V2_PUSH_SIZE_KB", "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT",
            "SGLANG_FLASHINFER_MNNVL_CUTEDSL_AR_FUSION", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "SGLANG_SKIP_P2P_CHECK",
            "SGLANG_TORCH_SYMM_MEM_ALLREDUCE_MAX_BYTES", "SGLANG_USE_1STAGE_ALLREDUCE", "SGLANG_USE_AITER_AR", "SGLANG_USE_JIT_ALL_REDUCE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
            "VLLM_ALLREDUCE_USE_FLASHINFER", "VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC", "VLLM_ALLREDUCE_USE_SYMM_MEM", "VLLM_BATCH_INVARIANT", "VLLM_DCP_Q_REPLICATE",
            "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "VLLM_ROCM_USE_AITER", "VLLM_ROCM_USE_AITER_CUSTOM_AR", "VLLM_SKIP_P2P_CHECK",
            "VLLM_USE_NCCL_SYMM_MEM", "VLLM_USE_V2_MODEL_RUNNER");

    private EnvironmentFilter() {
    }

    /** Every allowed name. */
    public static Set<String> names() {
        java.util.TreeSet<String> all = new java.util.TreeSet<>(LOOKED_UP);
        all.addAll(PROBE);
        all.addAll(ANALYSIS);
        all.addAll(ADVISOR);
        return java.util.Collections.unmodifiableSet(all);
    }

    /** Whether the seam answers {@code getenv(name)}. */
    public static boolean allowed(String name) {
        return name != null && (LOOKED_UP.contains(name) || recorded(name));
    }

    /** Whether the variable belongs in the snapshot's environment (and the seam's {@code environment()}). */
    public static boolean recorded(String name) {
        return name != null && (PROBE.contains(name) || ANALYSIS.contains(name) || ADVISOR.contains(name));
    }

    /** The variables of {@code env} that belong in the snapshot's environment, sorted by name. */
    public static Map<String, String> filter(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (recorded(k) && v != null) {
                out.put(k, v);
            }
        });
        return out;
    }
}
