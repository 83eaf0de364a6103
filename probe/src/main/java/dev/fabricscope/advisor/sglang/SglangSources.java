package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.Map;

/** Where the SGLang rules come from (backend-rules.md §1), and the start-up phase each rule runs in. */
public final class SglangSources {

    static final String REPO = "sgl-project/sglang";
    /**
     * A fork whose main branch follows sgl-project/sglang (fetched whole: 17,128 commits to 2026-08-20); the copies the
     * official index does not hold at a commit are cited there, as the fork's commits (backend-rules.md §8).
     */
    static final String FORK = "mmangkad-dev/sglang";
    static final String FORK_FUSION_TB = "65b14881c5a6d308f00958a3095dea172e7cf47b";
    static final String FORK_FUSION_NEW = "6e27ce74edb151266d6277763260f4a49a545b18";
    static final String FORK_ENGINE_MID = "ea96106000d5ff1a07ef237dd2d57318188c7ec2";
    static final String FORK_DCP_COMM = "81fe452810d9256b5d307cad3a3e261c70170591";
    /** The fork commits' dates, as the fetched repository gives them. */
    static final Map<String, String> FORK_DATES = Map.of(FORK_FUSION_TB, "2026-07-09T02:08:35-07:00",
            FORK_FUSION_NEW, "2026-08-14T12:33:16+00:00", FORK_ENGINE_MID, "2025-10-28T01:25:46-07:00",
            FORK_DCP_COMM, "2026-08-13T15:06:02-07:00", "3e255fd49371a810e4fc900b95c7b60f6876ed38", "2026-05-28T16:28:33-07:00");
    static final String SEED = "0132848349585cfe6aae51c4941cbae872505f8a";
    static final String OVERRIDES_COMMIT = "003bbaf9ab79c09933e7a17ae6460ac48a756de9";
    static final String FUSION_PATH = "python/sglang/srt/layers/flashinfer_comm_fusion.py";
    static final String EXEC_COMMIT = "01d795f8aa711691052ae277055a67f23a123b0b";
    static final String EXEC_PATH = "python/sglang/srt/arg_groups/fields/exec_.py";
    /**
     * The audit recorded the prefix 0005973a; read_file without a commit holds this version (131,741 characters), whose
     * initialize_model_parallel raises the TP % DCP RuntimeError (read at characters 100,000-116,000; lines not counted).
     */
    static final String PARALLEL_STATE_COMMIT = "0005973a84f7a02787e270b6be5970d3022d07fe";

    /** server_args.py read whole at this commit (retyped from the stored index: 486,489 characters, 11,069 lines). */
    static final String SERVER_ARGS_COMMIT = "001067fffe33427bee0ed2f007fb7551a1d76b44";
    static final String SERVER_ARGS_PATH = "python/sglang/srt/server_args.py";

    // ---- the copies the versions follow
    /**
     * The latest-style variant, at the commit server_args.py was read at (read_file without a commit; 75,177 characters;
     * its lines were not counted): on a multi-node MNNVL-fabric device it first sets NCCL_CUMEM_ENABLE=1 and
     * NCCL_MNNVL_ENABLE=1 (setdefault), then writes the two variables from --enable-symm-mem / --enable-nccl-nvls.
     */
    static final SourceRef ENGINE_NEW = new SourceRef(REPO, SERVER_ARGS_COMMIT, "python/sglang/srt/entrypoints/engine.py", "_set_envs_and_config");
    /**
     * The middle variant, as the fork copy {@link #FORK}@ea961060 (2025-10-28, on the fork's main) holds it: NCCL_CUMEM_ENABLE
     * = int(--enable-symm-mem) always (L680); NCCL_NVLS_ENABLE = int(--enable-nccl-nvls) only without --enable-symm-mem
     * (L681-682), so with it an exported value stays and an unexported one stays unset (NCCL's default).
     */
    static final SourceRef ENGINE_MID = new SourceRef(FORK, FORK_ENGINE_MID, "python/sglang/srt/entrypoints/engine.py", "677-741");
    /** The index's only copy (18bfdd16): NCCL_CUMEM_ENABLE=0 (L425) and NCCL_NVLS_ENABLE=int(--enable-nccl-nvls) (L426), as OLDEST. */
    static final SourceRef ENGINE_OLD = new SourceRef(REPO, "18bfdd16794a857cefaebc00a0964935b8d0a026", "python/sglang/srt/entrypoints/engine.py",
            "422-476");
    /**
     * The newer copy (TWOSHOT retry): {@link #FORK}@6e27ce74, a commit of the fork's branch
     * mmangkad/flashinfer-allreduce-fusion-derive-workspace-size (not on its main); the whole file equals the stored copy
     * the rules were written from (50,557 characters). _resolve_backend L46-75, the TWOSHOT retry L320-390.
     */
    static final SourceRef FUSION_NEW = new SourceRef(FORK, FORK_FUSION_NEW, FUSION_PATH, "46-75");
    /** The TWOSHOT retry's last word: RuntimeError after three misaligned workspaces, caught by initialize (fusion off). */
    static final SourceRef TWOSHOT = new SourceRef(FORK, FORK_FUSION_NEW, FUSION_PATH, "385-390");
    /**
     * The traceback-matched layout: {@link #FORK}@65b14881 (2026-07-09, on the fork's main), whose lines 1-79 equal the
     * stored traceback-matched copy; the 2026-06-28 traceback's "line 50, in _resolve_backend" is its R1 raise.
     */
    static final SourceRef FUSION_TB = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "47-76");
    static final SourceRef EXEC_COMM = new SourceRef(REPO, EXEC_COMMIT, EXEC_PATH, "ExecComm fields");
    /** ExecMoe.moe_a2a_backend: Arg(choices=[...]), the values argparse accepts for --moe-a2a-backend. */
    static final SourceRef A2A_CHOICES = new SourceRef(REPO, EXEC_COMMIT, EXEC_PATH, "754");
    static final SourceRef SEED_ARGS = new SourceRef(REPO, SEED, "python/sglang/srt/server_args.py", "ServerArgs fields");

    // ---- fusion (§1.1–1.3)
    /** The field and its help text (the seed copy holds the same text; its lines were not counted). */
    static final SourceRef FIELD = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "2121-2138");
    /** {@code _handle_deprecated_args}: --enable-flashinfer-allreduce-fusion without a backend warns and sets auto. */
    static final SourceRef DEPRECATED = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "4446-4461");
    /** {@code _flashinfer_allreduce_fusion_auto_enable}, {@code _enforce_disable_allreduce_fusion}, {@code _deterministic_allreduce_fusion_disable}. */
    static final SourceRef AUTO = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "1006-1053");
    static final SourceRef ENFORCE = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "1057-1066");
    static final SourceRef DETERMINISTIC = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "1114-1123");
    // _resolve_backend's branches, in the traceback-matched layout (FORK@65b14881; the newer copy has each one line earlier)
    static final SourceRef R1 = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "50");
    static final SourceRef R2 = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "58-61");
    static final SourceRef AUTO_RESOLVE = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "62-64");
    static final SourceRef R3 = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "67");
    static final SourceRef R4 = new SourceRef(FORK, FORK_FUSION_TB, FUSION_PATH, "72-75");
    /** {@code _preflight_check_workspace_memory}. */
    static final SourceRef PREFLIGHT = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "338-401");
    /** {@code ensure_workspace_initialized} at the preflight copy (L639-721): a failed workspace creation disables fusion. */
    static final SourceRef ENSURE = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "639-721");
    /** FlashInferWorkspaceManager.initialize's except branch: the warning, fusion off for good. */
    static final SourceRef WORKSPACE_WARNING = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "539-546");
    /** {@code _sync_allreduce_unavailable_across_tp}: one rank's failure turns fusion off on every rank. */
    static final SourceRef WORKSPACE_GLOBAL = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "629-634");
    /** The FlashInfer transport workaround: {@code _should_force_posix_fd_transport} and the override that patches the fabric probe. */
    static final SourceRef TRANSPORT = new SourceRef(REPO, "00f6ebe5c6260ab9d12d36897fc4cd0e41ee26dc", FUSION_PATH, "44-106");
    /**
     * The per-call check {@code apply_flashinfer_allreduce_fusion} (read_file without a commit gives this copy, 137,809
     * characters; lines counted to L235): SM90 or SM100, FlashInfer, DP attention off, a backend set, not CuTe-DSL, fusion
     * not unavailable, 0 < batch <= FUSE_ALLREDUCE_MAX_BATCH_SIZE (2048). The older fd3907ee (find_files, inventoried)
     * holds the same DP-attention and batch conditions in should_fuse_mlp_allreduce_with_next_layer (L346-380).
     */
    static final SourceRef PER_CALL = new SourceRef(REPO, "0090b34ce0e68cd2dace8bb0aa2148938ad4c7db", "python/sglang/srt/layers/communicator.py", "219-235");
    static final SourceRef ARGPARSE = new SourceRef("python/cpython", "8ea6cc14a5178b456278c35f63b0859c6b5f4f64", "Lib/argparse.py",
            "parse_args / _check_value error texts (program name as sglang issue #37646 shows it)");

    // ---- decode context parallel (§1.4)
    /** {@code _handle_dcp_validation}: the four checks, texts as in the seed copy (read there by character offset). */
    static final SourceRef DCP = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "4269-4299");
    static final SourceRef DP_DEFAULTS = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "1429");
    static final SourceRef DCP_DEFAULT = new SourceRef(REPO, OVERRIDES_COMMIT, "python/sglang/srt/arg_groups/overrides.py", "_dcp_comm_backend_default");
    /** comm.py@00ac7105: init_fi_a2a_workspace raises unless is_fi_a2a_supported (L388-396, raise L441). */
    static final String DCP_COMM_COMMIT = "00ac7105db02776e90962fc6bb311d20dffe87ae";
    static final SourceRef FI_A2A_SUPPORTED = new SourceRef(REPO, DCP_COMM_COMMIT, "python/sglang/srt/layers/dcp/comm.py", "441");
    static final SourceRef FI_A2A_IMPORT_NEW = new SourceRef(REPO, DCP_COMM_COMMIT, "python/sglang/srt/layers/dcp/comm.py", "418");
    /**
     * The MNNVL-fabric variant of init_fi_a2a_workspace, as {@link #FORK}@81fe4528 (2026-08-13, on the fork's main) holds it:
     * the DCP all-to-all import (ImportError L406-410), then is_mnnvl_fabric_supported (RuntimeError L420-424), then
     * FlashInfer's decode_cp_a2a_allocate_mnnvl_workspace / decode_cp_a2a_init_workspace and a barrier.
     */
    static final SourceRef FI_A2A = new SourceRef(FORK, FORK_DCP_COMM, "python/sglang/srt/layers/dcp/comm.py", "387-449");
    static final SourceRef PARALLEL_STATE = new SourceRef(REPO, PARALLEL_STATE_COMMIT, "python/sglang/srt/distributed/parallel_state.py",
            "initialize_model_parallel");

    // ---- custom all-reduce (§1.5), torch symmetric memory (§1.6)
    static final String CAR_V2_COMMIT = "50e143a67729a27e5939dfb586ca449648ddb0fa";
    static final String CAR_V2_PATH = "python/sglang/srt/distributed/device_communicators/custom_all_reduce_v2.py";
    static final SourceRef CAR_V2 = CustomAllReduceV2Table.INIT;
    /** _set_envs_and_config's MNNVL default, read in the fork (mmangkad-dev/sglang@9be3044b engine.py). */
    static final SourceRef ENGINE_MNNVL_DEFAULT = new SourceRef("mmangkad-dev/sglang",
            "9be3044b9cbe191d21675c857dd79f62b02b6ca0", "python/sglang/srt/entrypoints/engine.py", "1625-1629");
    /** is_mnnvl_fabric_device: torch.cuda.get_device_name(0) holds GB200 or GB300 (fork @9be3044b utils/common.py). */
    static final SourceRef IS_MNNVL_FABRIC_DEVICE = new SourceRef("mmangkad-dev/sglang",
            "9be3044b9cbe191d21675c857dd79f62b02b6ca0", "python/sglang/srt/utils/common.py", "856-864");

    /** TorchSymmMemCommunicator.__init__ in the fork head: each failed check warns and returns disabled. */
    static final SourceRef TSM_FORK = new SourceRef("mmangkad-dev/sglang",
            "9be3044b9cbe191d21675c857dd79f62b02b6ca0", "python/sglang/srt/distributed/device_communicators/torch_symm_mem.py", "67-120");

    /** #25650 "Graceful fallback to CustomAllReduce when full_nvlink is not True": dispatch asks can_use_custom_all_reduce_v2 first. */
    static final SourceRef CAR_V2_FALLBACK = new SourceRef("mmangkad-dev/sglang", "3e255fd49371a810e4fc900b95c7b60f6876ed38",
            "python/sglang/srt/distributed/device_communicators/custom_all_reduce.py", "355-366");
    /**
     * The NVLink helper V2 calls with {@code cls_name="CustomAllReduceV2"}: {@code can_use_custom_all_reduce_with_nvlink}
     * (L401-472), its warnings in this order: spans nodes (L423-425), world size (L430-434), more than two PCIe-only GPUs
     * (L455-459), no P2P (L467-471: {@code can_p2p} runs for every group, with no --enable-p2p-check gate).
     */
    static final String CAR_UTILS_COMMIT = "0cd72ba41d483ac6c1ea96f056b2bcbfb4365121";
    static final String CAR_UTILS_PATH = "python/sglang/srt/distributed/device_communicators/custom_all_reduce_utils.py";
    static SourceRef carUtilsLine(String lines) {
        return new SourceRef(REPO, CAR_UTILS_COMMIT, CAR_UTILS_PATH, lines);
    }
    /** {@code SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2 = EnvBool(True)} and {@code SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB}. */
    static final String ENVIRON_COMMIT = "0003215cf1464f44b389cd0b18d0b4c56f2a3da6";
    static final SourceRef ENVIRON_CAR_V2 = new SourceRef(REPO, ENVIRON_COMMIT, "python/sglang/srt/environ.py",
            "Envs.SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2 (EnvBool(True))");

    // ---- prefill context parallel (newest argument surface)
    static final String PARALLEL_HOOK_COMMIT = "008b79d2358b08adf9b6c879625030f890c8c4e2";
    static final String PARALLEL_HOOK_PATH = "python/sglang/srt/arg_groups/parallel_hook.py";
    static final SourceRef CP_HOOK = new SourceRef(REPO, PARALLEL_HOOK_COMMIT, PARALLEL_HOOK_PATH, "30-99");
    static SourceRef cpLine(String lines) {
        return new SourceRef(REPO, PARALLEL_HOOK_COMMIT, PARALLEL_HOOK_PATH, lines);
    }

    /** {@code _kimi_k3_overrides}: with DCP > 1, --enable-symm-mem off and Q replication on for a2a/fi_a2a. */
    static final SourceRef KIMI_K3_DCP = new SourceRef(REPO, "06dd383bd7f74dfc721f3ca3099680ac22b72e5b",
            "python/sglang/srt/arg_groups/model_overrides/kimi_k3.py", "58-139");
    /** The Parallel fields from {@code attn_cp_size} to {@code enable_layernorm_sp}. */
    static final SourceRef PARALLEL_FIELDS = new SourceRef(REPO, "00ac7105db02776e90962fc6bb311d20dffe87ae",
            "python/sglang/srt/arg_groups/fields/parallel.py", "100-221");
    static final SourceRef BOUNDARY_REDUCTION = new SourceRef(REPO, "0fbe7e46218ce8b728c72095f1332c3b98e6de19",
            "python/sglang/srt/arg_groups/boundary_reduction.py", "57-92");
    /**
     * Where TorchSymmMemCommunicator takes its size-table entry (self.max_size), the value
     * SGLANG_TORCH_SYMM_MEM_ALLREDUCE_MAX_BYTES replaces. The reader of the variable (get_torch_symm_mem_all_reduce_max_size
     * in all_reduce_utils.py: a value > 0 replaces the entry) is in one stored copy whose commit the index does not give;
     * the pinned copies (this file at 0cd72ba4, all_reduce_utils.py at 25b38cc2) do not read it.
     */
    static final SourceRef TSM_MAX_SIZES = new SourceRef(REPO, "0cd72ba41d483ac6c1ea96f056b2bcbfb4365121",
            "python/sglang/srt/distributed/device_communicators/torch_symm_mem.py", "92-94");
    static final SourceRef TSM = new SourceRef(REPO, "0cd72ba41d483ac6c1ea96f056b2bcbfb4365121",
            "python/sglang/srt/distributed/device_communicators/torch_symm_mem.py", "53-107");

    /**
     * {@code _handle_deterministic_inference}: with --enable-deterministic-inference and TP > 1 on CUDA it sets
     * NCCL_ALGO=allreduce:tree, pins the NCCL channel count and declares disable_custom_all_reduce=True and
     * enable_torch_symm_mem=False (L9140-9172; the warning L9170).
     */
    static final SourceRef DETERMINISTIC_TP = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "9140-9172");
    /** {@code _handle_a2a_moe}: the per-backend checks of --moe-a2a-backend (L7531-7730). */
    static final SourceRef A2A_MOE = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "7531-7730");
    static final SourceRef A2A_FLASHINFER_DP = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "7646-7649");
    static final SourceRef A2A_PPLX_DP = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "7701-7704");
    static final SourceRef DETERMINISTIC_TP_WARNING = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "9170");

    // ---- when
    /** PcieIpcCommunicator (FlashInfer's PCIe IPC all-reduce under SGLANG_ENABLE_PCIE_IPC_ALLREDUCE). */
    static final String PCIE_IPC_COMMIT = "83d4b476d11e60a8c7e95c6df835445ae68b28ed";
    static final String PCIE_IPC_PATH = "python/sglang/srt/distributed/device_communicators/pcie_ipc_ar.py";
    static final SourceRef PCIE_IPC_WORLD = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "92-97");
    static final SourceRef PCIE_IPC_CUDA = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "101-102");
    static final SourceRef PCIE_IPC_NO_FI = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "106-111");
    static final SourceRef PCIE_IPC_ENABLED = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "120-125");
    static final SourceRef PCIE_IPC_BUILD = new SourceRef(REPO, PCIE_IPC_COMMIT, PCIE_IPC_PATH, "146-161");

    /** check_server_args: {@code assert (tp_size * pp_size) % nnodes == 0, "tp_size must be divisible by number of nodes"}. */
    static final SourceRef NODES_DIVIDE = new SourceRef(REPO, SERVER_ARGS_COMMIT, SERVER_ARGS_PATH, "10115");
    /** handle_data_parallelism, with DP attention on: {@code assert cfg.tp_size % cfg.dp_size == 0}. */
    static final SourceRef DP_DIVIDES_TP = cpLine("186");
    static final String WHEN_ARGS = "argument parsing (server start, before model loading)";
    static final String WHEN_RESOLVE = "argument resolution (server start, before model loading)";
    static final String WHEN_WARMUP = "model-runner warm-up (after weight loading, before CUDA-graph capture)";
    static final String WHEN_ENV = "server start (_set_envs_and_config)";
    static final String WHEN_COMM = "distributed init (communicator creation)";

    private SglangSources() {
    }
}
