package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.Map;

/** Where the vLLM rules come from (backend-rules.md §2), and the start-up phase each rule runs in. */
final class VllmSources {

    static final String REPO = "vllm-project/vllm";
    static final String FI_AR_PATH = "vllm/distributed/device_communicators/flashinfer_all_reduce.py";
    /**
     * The newer backend resolution, as the fork copy fire3/vllm@e4bbbfc8 holds it (the index's whole file, 11,714
     * characters, equal to a stored copy the rules were written from): _resolve_fi_ar_backend returns (backend,
     * allow_trtllm_fallback) (L95-120: auto is mnnvl, the retry allowed on one node), get_fi_ar_workspace (L123-178: the
     * multi-node trtllm ValueError L145, the trtllm retry L159-165, the init messages L167-176).
     */
    static final String FORK_FI_AR = "fire3/vllm";
    static final SourceRef BACKEND_NEW = new SourceRef(FORK_FI_AR, "e4bbbfc840b5930dd544641e9ac88bc45511ec60", FI_AR_PATH,
            "95-178");
    static final SourceRef BACKEND_OLD = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "103-121");
    static final SourceRef TRTLLM_MULTI = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "146");
    static final SourceRef CREATE_WORKSPACE = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "76-87");
    /** Older releases check TP % DCP with an assert in create_engine_config (the "bydcp_size" text), not in parallel.py. */
    static final SourceRef DCP_ASSERT_OLD = new SourceRef(REPO, "99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b", "vllm/engine/arg_utils.py", "1374");
    static final SourceRef PASS = new SourceRef(REPO, "0052812d1f0655bd4b646b5dbda8b3427697fae3",
            "vllm/compilation/passes/fusion/allreduce_rms_fusion.py", "AllReduceFusionPass.__init__");
    /** {@code enable_allreduce_rms_fusion}. */
    static final SourceRef DEFAULT = new SourceRef(REPO, "000fc94b754f66aeb60ef5acf1ea2e94cdc65164", "vllm/config/vllm.py",
            "162-186");
    /**
     * A fork whose main branch follows vllm-project/vllm (fetched whole: 18,162 commits to 2026-06-27): envs.py's
     * VLLM_FLASHINFER_ALLREDUCE_BACKEND default is "auto" at its main (L1544-1548, since 2026-06-20) and "trtllm" at
     * 6ae8bbd0 (2026-03-26, L1313-1317).
     */
    static final String FORK_ENVS = "mmangkad/vllm";
    static final String ENVS_PATH = "vllm/envs.py";
    /** The fork commits' dates, as the fetched repository gives them. */
    static final Map<String, String> FORK_DATES = Map.of("156b12667cf5fbb93914f3646acc25dca378b420",
            "2026-06-23T22:26:39+08:00", "6ae8bbd0c2fa5b057f0c3066bc6519792f7048af", "2026-03-26T01:53:45-07:00");
    /** MultiprocExecutor._get_parallel_sizes: {@code assert self.world_size % self.parallel_config.nnodes_within_dp == 0}. */
    static final SourceRef NODES_DIVIDE = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420",
            "vllm/v1/executor/multiproc_executor.py", "251-255");
    /** VllmConfig.__post_init__ at the newest rules' commit: what turns the compilation mode to NONE. */
    static SourceRef compileMode(String line) {
        return new SourceRef(REPO, "000fc94b754f66aeb60ef5acf1ea2e94cdc65164", "vllm/config/vllm.py", line);
    }
    /** The fork's __post_init__: an unset mode at -O0 becomes NONE, above -O0 VLLM_COMPILE. */
    static final SourceRef MODE_FROM_LEVEL = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", "vllm/config/vllm.py",
            "1135-1139");
    /** The fork's __post_init__: the model classes without @support_torch_compile, for which breakable CUDA graphs are auto-enabled. */
    static final SourceRef NO_TORCH_COMPILE_MODELS = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", "vllm/config/vllm.py",
            "1076-1097");
    /** PassConfig.flashinfer_max_size: the world size is checked before fi_allreduce_fusion_max_size_mb is read. */
    static final SourceRef PASS_GATE = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", "vllm/config/compilation.py",
            "181-196");
    static final SourceRef ENVS_NEW = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", ENVS_PATH, "1544-1548");
    static final SourceRef ENVS_OLD = new SourceRef(FORK_ENVS, "6ae8bbd0c2fa5b057f0c3066bc6519792f7048af", ENVS_PATH, "1313-1317");
    /** VLLM_USE_NCCL_SYMM_MEM = bool(int(os.getenv(..., "0"))). */
    static final SourceRef NCCL_SYMM_MEM_ENV = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", ENVS_PATH, "1791-1793");
    /** VLLM_ROCM_USE_AITER and VLLM_ROCM_USE_AITER_CUSTOM_AR in the TYPE_CHECKING block of the fork copy whose envs.py sits beside {@link #BACKEND_NEW}'s file. */
    static final SourceRef ROCM_ENVS = new SourceRef(FORK_FI_AR, "61e3e6378b90e4f60a8d57d4e70c5562a5c6093b", ENVS_PATH,
            "132-133");
    static final SourceRef FIAR = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "241-282");
    /** {@code FlashInferAllReduce.should_use_fi_ar}: which all-reduce calls the standalone FlashInfer path takes. */
    static final SourceRef FIAR_USE = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "302-323");
    /** {@code ParallelConfig._validate_parallel_config}. */
    static final SourceRef PARALLEL = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py",
            "452-546");
    /** {@code ModelConfig.verify_with_parallel_config}: the non-MLA DCP asserts on the model's heads. */
    static final SourceRef MODEL_DCP = new SourceRef(REPO, "0052a5b818980ce8a0477706aaf9f75bd5af72cd", "vllm/config/model.py",
            "verify_with_parallel_config (decode_context_parallel_size > 1 and not self.use_mla)");
    /** {@code ParallelConfig.__post_init__}: world size TP x PP x PCP against the GPUs of one node (the "World size … is larger than the number of available GPUs" raise). */
    static final SourceRef WORLD_SIZE = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py",
            "923-934");
    /** {@code use_v2_model_runner} (the env first) and {@code _get_v1_model_runner_unsupported_features} / {@code _validate_v1_model_runner}. */
    static final SourceRef RUNNER = new SourceRef(REPO, "000fc94b754f66aeb60ef5acf1ea2e94cdc65164", "vllm/config/vllm.py",
            "use_v2_model_runner, _validate_v1_model_runner (prefill context parallel)");
    /** {@code ParallelConfig._verify_args}. */
    static final SourceRef VERIFY = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py", "998-1036");
    static final SourceRef CAR = new SourceRef(REPO, "00d618aab60448acdf3fac3e9c4e2e22d0c6c753",
            "vllm/distributed/device_communicators/custom_all_reduce.py", "54-172");
    static final SourceRef CAR_P2P = new SourceRef(REPO, "00d618aab60448acdf3fac3e9c4e2e22d0c6c753",
            "vllm/distributed/device_communicators/custom_all_reduce.py", "206-227");
    static final SourceRef SYMM = new SourceRef(REPO, "00859a52088e757514a25dddd0214ccc89898a1c",
            "vllm/distributed/device_communicators/symm_mem.py", "120-202");
    /**
     * The engine flags of the known-but-unmodelled knobs: EngineArgs registers ParallelConfig's fields as flags
     * (--pipeline-parallel-size, --data-parallel-size, --dcp-kv-cache-interleave-size, --cp-kv-cache-interleave-size).
     */
    static final SourceRef ARGS = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py",
            "122-373");

    /** The PCIe IPC wrapper (vllm PR #53576): FlashInferPcieIpcAllReduce.__init__ checks, then setup() at kernel warm-up. */
    static final String PCIE_IPC_COMMIT = "fcf933f40ae09692023b9f6d10b3d9b06a499f41";
    static final String PCIE_IPC_PATH = "vllm/distributed/device_communicators/flashinfer_pcie_ipc_all_reduce.py";
    static final SourceRef PCIE_IPC_SIZES = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "29");
    static final SourceRef PCIE_IPC_NO_FI = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "60-66");
    static final SourceRef PCIE_IPC_CUDA = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "67-71");
    static final SourceRef PCIE_IPC_WORLD = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "72-79");
    static final SourceRef PCIE_IPC_NODE = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "80-85");
    static final SourceRef PCIE_IPC_ENABLED = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "87-89");
    /** warmup_flashinfer_pcie_ipc_allreduce: with use_ubatching (DBO, ubatch_size > 1) it warns and disables the wrapper. */
    static final SourceRef PCIE_IPC_DBO = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "220-226");
    /** warmup_flashinfer_pcie_ipc_allreduce: no CUDA-graph capture sizes, no setup (the wrapper stays without a workspace). */
    static final SourceRef PCIE_IPC_NO_CAPTURE = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "228-230");
    /** VllmConfig: --enforce-eager empties cudagraph_capture_sizes (fork mmangkad/vllm@156b1266). */
    static final SourceRef EAGER_NO_CAPTURE = new SourceRef(FORK_ENVS, "156b12667cf5fbb93914f3646acc25dca378b420", "vllm/config/vllm.py",
            "1286-1292");

    static final String WHEN_PASS = "engine start (torch.compile pass setup: AllReduceFusionPass init)";
    static final String WHEN_CONFIG = "engine config validation (start-up, before model loading)";
    static final String WHEN_COMM = "distributed init (communicator creation)";
    static final String FUSE_OFF = "-cc.pass_config.fuse_allreduce_rms=False";

    private VllmSources() {
    }
}
