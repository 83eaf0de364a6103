package dev.fabricscope.advisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * vLLM's all-reduce knobs: the all-reduce + RMSNorm fusion pass and its FlashInfer workspace backend, standalone
 * FlashInfer all-reduce, custom all-reduce, torch symmetric memory, decode context parallel and batch invariance.
 * Reference: backend-rules.md §2.
 */
final class VllmRules {

    static final String FW = "vllm";

    /**
     * One modelled vLLM version.
     *
     * @param defaultBackend        VLLM_FLASHINFER_ALLREDUCE_BACKEND default ({@code envs.py})
     * @param autoMnnvlWithFallback 'auto' means mnnvl with a trtllm retry on one node (else trtllm on one node, mnnvl across)
     * @param passWorldSizes        world sizes PassConfig accepts on top of the size table, or null for the table alone
     * @param dcpMessageMissingSpace the DCP divisibility message has the "bydcp_size" concatenation bug
     */
    record Version(String id, String description, String defaultBackend, boolean autoMnnvlWithFallback,
                   List<Integer> passWorldSizes, boolean dcpMessageMissingSpace, SourceRef backendSource) {
    }

    static final String REPO = "vllm-project/vllm";
    static final String FI_AR_PATH = "vllm/distributed/device_communicators/flashinfer_all_reduce.py";
    static final SourceRef SRC_BACKEND_NEW = new SourceRef(REPO, null, FI_AR_PATH, "get_fi_ar_workspace (newer copies, allow_trtllm_fallback)");
    static final SourceRef SRC_BACKEND_OLD = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "103-121");
    static final SourceRef SRC_TRTLLM_MULTI = new SourceRef(REPO, "00545a8acc220f4c5fa47afad739e3d2baac7310", FI_AR_PATH, "146");

    static final List<Version> VERSIONS = List.of(
            new Version("newest", "newer envs.py (backend default auto) and flashinfer_all_reduce.py copies (auto = mnnvl with a trtllm retry on one node), "
                    + "allreduce_rms_fusion.py@0052812d size table (world size 16 on SM100/SM103), vllm.py@000fc94b, parallel.py@00193b82",
                    "auto", true, null, false, SRC_BACKEND_NEW),
            new Version("older", "vllm@00545a8a flashinfer_all_reduce.py (auto = trtllm on one node, mnnvl across), envs.py copies with default trtllm, "
                    + "PassConfig restricted to world sizes 2/4/8, older parallel.py text ('divisible bydcp_size')",
                    "trtllm", false, List.of(2, 4, 8), true, SRC_BACKEND_OLD));

    // ---- knobs
    static final KnobSpec BACKEND = KnobSpec.env(FW, "VLLM_FLASHINFER_ALLREDUCE_BACKEND", KnobSpec.Type.CHOICE, "auto",
            "FlashInfer workspace backend of the all-reduce fusion pass", "auto", "trtllm", "mnnvl");
    static final KnobSpec FUSE = new KnobSpec(FW, "fuse_allreduce_rms", KnobSpec.Kind.CONFIG, KnobSpec.Type.BOOL, List.of(), "default",
            "pass_config: all-reduce + RMSNorm fusion pass (-cc.pass_config.fuse_allreduce_rms)", null);
    static final KnobSpec MAX_SIZE = new KnobSpec(FW, "fi_allreduce_fusion_max_size_mb", KnobSpec.Kind.CONFIG, KnobSpec.Type.NUMBER, List.of(),
            "size table", "pass_config: fused all-reduce size limit in MB, overriding the table", null);
    static final KnobSpec OPT_LEVEL = KnobSpec.flag(FW, "optimization-level", KnobSpec.Type.CHOICE, "2",
            "-O level (O0/O1: fusion pass off; O2 default, O3: on where supported)", "0", "1", "2", "3", "O0", "O1", "O2", "O3");
    static final KnobSpec USE_FLASHINFER = KnobSpec.env(FW, "VLLM_ALLREDUCE_USE_FLASHINFER", KnobSpec.Type.BOOL, "0",
            "standalone FlashInfer all-reduce for non-fused sites");
    static final KnobSpec USE_SYMM_MEM = KnobSpec.env(FW, "VLLM_ALLREDUCE_USE_SYMM_MEM", KnobSpec.Type.BOOL, "1",
            "torch symmetric-memory all-reduce");
    static final KnobSpec DISABLE_CUSTOM_AR = KnobSpec.flag(FW, "disable-custom-all-reduce", KnobSpec.Type.BOOL, "false",
            "turn the custom all-reduce kernel off");
    static final KnobSpec SKIP_P2P = KnobSpec.env(FW, "VLLM_SKIP_P2P_CHECK", KnobSpec.Type.BOOL, "0",
            "trust the driver's P2P report instead of the IPC test");
    static final KnobSpec BATCH_INVARIANT = KnobSpec.env(FW, "VLLM_BATCH_INVARIANT", KnobSpec.Type.BOOL, "0",
            "batch-invariant kernels (turns custom all-reduce, symmetric memory and the default fusion off)");
    static final KnobSpec DCP_SIZE = new KnobSpec(FW, "decode-context-parallel-size", KnobSpec.Kind.DEPLOYMENT, KnobSpec.Type.INT, List.of(), "1",
            "decode context parallel size (from --dcp)", null);
    static final KnobSpec PCP_SIZE = KnobSpec.flag(FW, "prefill-context-parallel-size", KnobSpec.Type.INT, "1",
            "prefill context parallel size");
    static final KnobSpec DCP_BACKEND = KnobSpec.flag(FW, "dcp-comm-backend", KnobSpec.Type.CHOICE, "ag_rs",
            "DCP attention reduction: ag_rs or a2a", "ag_rs", "a2a");

    static final KnobSpec COMPILATION_CONFIG = KnobSpec.flag(FW, "compilation-config", KnobSpec.Type.STRING, "{}",
            "-cc / --compilation-config JSON; its pass_config.fuse_allreduce_rms (or enable_fi_allreduce_fusion) and fi_allreduce_fusion_max_size_mb are read");
    static final KnobSpec PP_SIZE = KnobSpec.flag(FW, "pipeline-parallel-size", KnobSpec.Type.INT, "1",
            "pipeline-parallel size (-pp); counted in the GPU check").scope(KnobSpec.Scope.KNOWN);
    static final List<KnobSpec> KNOWN = List.of(
            KnobSpec.flag(FW, "data-parallel-size", KnobSpec.Type.INT, "1", "data-parallel size (-dp)"),
            KnobSpec.flag(FW, "dcp-kv-cache-interleave-size", KnobSpec.Type.INT, "1", "DCP KV-cache interleave size"),
            KnobSpec.flag(FW, "cp-kv-cache-interleave-size", KnobSpec.Type.INT, "1", "context-parallel KV-cache interleave size"),
            KnobSpec.env(FW, "VLLM_USE_NCCL_SYMM_MEM", KnobSpec.Type.BOOL, "0", "NCCL symmetric-memory all-reduce"))
            .stream().map(k -> k.scope(KnobSpec.Scope.KNOWN)).toList();
    static final List<KnobSpec> ROCM_ONLY = List.of(
            KnobSpec.env(FW, "VLLM_ROCM_USE_AITER", KnobSpec.Type.BOOL, "0", "ROCm: AITER kernels"),
            KnobSpec.env(FW, "VLLM_ROCM_USE_AITER_CUSTOM_AR", KnobSpec.Type.BOOL, "1", "ROCm: AITER custom all-reduce"))
            .stream().map(k -> k.scope(KnobSpec.Scope.ROCM_ONLY)).toList();

    static final List<KnobSpec> KNOBS = java.util.stream.Stream.of(List.of(BACKEND, FUSE, MAX_SIZE, OPT_LEVEL, USE_FLASHINFER, USE_SYMM_MEM,
            DISABLE_CUSTOM_AR, SKIP_P2P, BATCH_INVARIANT, DCP_SIZE, PCP_SIZE, DCP_BACKEND, COMPILATION_CONFIG, PP_SIZE), KNOWN, ROCM_ONLY)
            .flatMap(List::stream).toList();

    /** {@code FI_ALLREDUCE_FUSION_MAX_SIZE_MB}: capability × 10 → world size → MB. */
    static final Map<Integer, Map<Integer, Double>> FI_MAX_SIZE_MB = Map.of(
            90, Map.of(2, 64.0, 4, 2.0, 8, 0.5),
            100, Map.of(2, 64.0, 4, 32.0, 8, 1.0, 16, 64.0),
            103, Map.of(2, 64.0, 4, 64.0, 8, 4.0, 16, 64.0),
            107, Map.of(2, 64.0, 4, 64.0, 8, 2.0));
    static final List<String> SYMM_MEM_CAPS = List.of("9.0", "10.0", "10.3");
    static final List<Integer> WORLD_SIZES = List.of(2, 4, 6, 8);

    // ---- messages, verbatim (backend-rules.md §2)
    static final String USING_BACKEND = "Using flashinfer allreduce backend: %s";
    static final String AUTO_SELECTED = "Auto-selected flashinfer allreduce backend: %s";
    static final String TRTLLM_MULTI = "Flashinfer allreduce is not supported for multi-node allreduce with 'trtllm' backend. Please use 'mnnvl' backend instead.";
    static final String MNNVL_FALLBACK = "FlashInfer mnnvl allreduce workspace unavailable (likely no NVSwitch multicast support); falling back to trtllm backend for single node.";
    static final String WS_INIT_OK = "Initialized FlashInfer Allreduce norm fusion workspace with backend=%s";
    static final String WS_INIT_FAILED = "Failed to initialize FlashInfer Allreduce norm fusion workspace with backend=%s";
    static final String CREATE_FAILED_MULTICAST = "Failed to initialize FlashInfer All Reduce workspace: %s. This is expected on GPUs without NVSwitch (e.g., NVLink bridge-only or PCIe topologies).";
    static final String CREATE_FAILED = "Failed to initialize FlashInfer All Reduce workspace: %s.";
    static final String PASS_TP1 = "AllReduce fusion pass is disabled for tp_size <= 1.";
    static final String PASS_NO_FLASHINFER = "Flashinfer is not installed or comm module not found, skipping allreduce fusion pass";
    static final String PASS_WORLD = "Flashinfer allreduce fusion is not supported for world size %s or max size is not provided";
    static final String PASS_NO_WORKSPACE = "Failed to initialize Flashinfer allreduce workspace. Flashinfer allreduce-norm fusion will be disabled.";
    static final String FIAR_UNAVAILABLE = "FlashInfer All Reduce is disabled because flashinfer is not available";
    static final String FIAR_CUDA = "FlashInfer All Reduce is disabled because it requires CUDA platform";
    static final String FIAR_WORLD = "FlashInfer All Reduce is disabled because it is not supported for world_size=%d.";
    static final String CAR_PLATFORM = "Disabled the custom all-reduce kernel because it is not supported on current platform.";
    static final String SYMM_UNAVAILABLE = "SymmMemCommunicator: symmetric memory is not available.";
    static final String SYMM_CAPABILITY = "SymmMemCommunicator: Device capability %s not supported, communicator is not available.";
    static final String SYMM_WORLD = "SymmMemCommunicator: World size %d not supported, communicator is not available.";
    static final String SYMM_MULTICAST = "SymmMemCommunicator: symmetric memory multicast operations are not supported.";
    static final String DCP_DIVISIBLE = "tp_size=%d must be divisible by dcp_size=%d.";
    static final String DCP_DIVISIBLE_OLD = "tp_size=%d must be divisible bydcp_size=%d.";
    static final String PCP_DCP = "When PCP is enabled, DCP must be disabled, span the PCP axis, or span the full TP x PCP axis. Got TP=%d, PCP=%d, DCP=%d; valid DCP sizes are %s.";
    static final String DCP_A2A = "dcp_comm_backend='a2a' requires decode_context_parallel_size > 1.";

    // ---- sources
    static final SourceRef SRC_PASS = new SourceRef(REPO, "0052812d1f0655bd4b646b5dbda8b3427697fae3",
            "vllm/compilation/passes/fusion/allreduce_rms_fusion.py", "AllReduceFusionPass.__init__");
    static final SourceRef SRC_TABLE = new SourceRef(REPO, "0052812d1f0655bd4b646b5dbda8b3427697fae3",
            "vllm/compilation/passes/fusion/allreduce_rms_fusion.py", "FI_ALLREDUCE_FUSION_MAX_SIZE_MB");
    static final SourceRef SRC_DEFAULT = new SourceRef(REPO, "000fc94b754f66aeb60ef5acf1ea2e94cdc65164", "vllm/config/vllm.py",
            "enable_allreduce_rms_fusion");
    static final SourceRef SRC_ENVS = new SourceRef(REPO, null, "vllm/envs.py", "VLLM_FLASHINFER_ALLREDUCE_BACKEND");
    static final SourceRef SRC_FIAR = new SourceRef(REPO, null, FI_AR_PATH, "FlashInferAllReduce.__init__");
    static final SourceRef SRC_PARALLEL = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py",
            "_validate_parallel_config");
    static final SourceRef SRC_VERIFY = new SourceRef(REPO, "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a", "vllm/config/parallel.py", "_verify_args");
    static final SourceRef SRC_CAR = new SourceRef(REPO, "00d618aab60448acdf3fac3e9c4e2e22d0c6c753",
            "vllm/distributed/device_communicators/custom_all_reduce.py", "CustomAllreduce.__init__");
    static final SourceRef SRC_CAR_P2P = new SourceRef(REPO, "00d618aab60448acdf3fac3e9c4e2e22d0c6c753",
            "vllm/distributed/device_communicators/custom_all_reduce.py", "CustomAllreduce.finalize_p2p");
    static final SourceRef SRC_SYMM = new SourceRef(REPO, "00859a52088e757514a25dddd0214ccc89898a1c",
            "vllm/distributed/device_communicators/symm_mem.py", "SymmMemCommunicator.__init__");
    static final SourceRef SRC_ARGS = new SourceRef(REPO, null, "vllm/engine/arg_utils.py", "EngineArgs (flags as listed by the audit)");
    static final SourceRef SRC_DISPATCH = new SourceRef(REPO, null, "vllm/distributed/device_communicators/cuda_communicator.py", "all_reduce");

    static final String WHEN_PASS = "engine start (torch.compile pass setup: AllReduceFusionPass init)";
    static final String WHEN_CONFIG = "engine config validation (start-up, before model loading)";
    static final String WHEN_COMM = "distributed init (communicator creation)";
    static final String FUSE_OFF = "-cc.pass_config.fuse_allreduce_rms=False";

    private VllmRules() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        out.add(fuseVerdict(e, true));
        out.add(backendVerdict(e));
        out.add(maxSizeVerdict(e));
        out.add(optLevelVerdict(e));
        out.add(standaloneVerdict(e));
        out.add(customAllReduceVerdict(e));
        out.add(symmMemVerdict(e));
        out.add(skipP2pVerdict(e));
        out.add(batchInvariantVerdict(e));
        out.add(dcpSizeVerdict(e));
        out.add(pcpVerdict(e));
        out.add(dcpBackendVerdict(e));
        for (KnobSpec k : java.util.stream.Stream.concat(java.util.stream.Stream.of(PP_SIZE), KNOWN.stream()).toList()) {
            OtherKnobs.known(e, k, e.versions.vllm().id(), SRC_ARGS).ifPresent(out::add);
        }
        for (KnobSpec k : ROCM_ONLY) {
            OtherKnobs.rocmOnly(e, k, e.versions.vllm().id(), SRC_ENVS).ifPresent(out::add);
        }
        return out;
    }

    private static VerdictBuilder on(Eval e, KnobSpec k) {
        return e.on(k, e.versions.vllm().id());
    }

    static int optLevel(Eval e) {
        String v = e.value(OPT_LEVEL);
        return v == null ? 2 : Integer.parseInt(v.replace("O", ""));
    }

    // ---- fusion pass default (§2.2)

    /** Why {@code enable_allreduce_rms_fusion} is false at this level, or null when the pass is on by default. */
    static String defaultOffReason(Eval e) {
        int level = optLevel(e);
        if (level <= 1) {
            return "-O" + level + " turns the pass off";
        }
        if (e.envTrue(BATCH_INVARIANT)) {
            return "VLLM_BATCH_INVARIANT=1 turns the default off";
        }
        if ("rocm".equals(e.platform())) {
            return "on ROCm vLLM uses its separate AITER fusion pass (when AITER is enabled), not FlashInfer";
        }
        if (!e.cuda()) {
            return "the platform is " + e.platformName();
        }
        if (e.tp() <= 1) {
            return "TP is 1";
        }
        if (!e.flashinferInstalled()) {
            return "FlashInfer is not installed";
        }
        if (e.major() != 10 && !"9.0".equals(e.sm())) {
            return e.gpus() + ": the default needs exactly SM 9.0 or the SM 10.x family (SM 11.x and 12.x are excluded)";
        }
        return null;
    }

    static boolean passOn(Eval e) {
        String v = e.value(FUSE);
        return v != null ? Values.truthy(v) : defaultOffReason(e) == null;
    }

    /** MB limit for this capability and world size, or null (no entry, or the version's world-size restriction). */
    static Double maxSizeMb(Eval e) {
        String override = e.value(MAX_SIZE);
        if (override != null) {
            return Double.parseDouble(override);
        }
        if (!e.cuda()) {
            return null;
        }
        List<Integer> allowed = e.versions.vllm().passWorldSizes();
        if (allowed != null && !allowed.contains(e.tp())) {
            return null;
        }
        Map<Integer, Double> row = FI_MAX_SIZE_MB.get(e.capTimes10());
        return row == null ? null : row.get(e.tp());
    }

    /** What the pass ends up doing when on: fused with a backend, disabled with a warning, or a start-up error. */
    static Partial passResult(Eval e) {
        if (e.tp() <= 1) {
            return new Partial(Outcome.OK, null, null, PASS_TP1, WHEN_PASS, "TP 1: nothing to all-reduce, the pass disables itself.", SRC_PASS);
        }
        if (!e.cuda() || !e.flashinferInstalled()) {
            return new Partial(Outcome.FALLBACK, null, null, PASS_NO_FLASHINFER, WHEN_PASS, (!e.cuda() ? "The platform is " + e.platformName()
                    + ": FlashInfer's comm module is CUDA-only" : "FlashInfer is not installed") + "; the pass disables itself and the unfused all-reduce + RMSNorm run.", SRC_PASS);
        }
        Double mb = maxSizeMb(e);
        if (mb == null) {
            List<Integer> allowed = e.versions.vllm().passWorldSizes();
            Map<Integer, Double> row = FI_MAX_SIZE_MB.get(e.capTimes10());
            String why = row == null ? e.gpus() + ": the size table has no entry for capability " + e.capTimes10() + " (only 9.0, 10.0, 10.3, 10.7)"
                    : allowed != null && !allowed.contains(e.tp()) && row.containsKey(e.tp())
                    ? "This vLLM version's PassConfig accepts world sizes 2, 4, 8 only (newer ones add 16 on SM100/SM103), and the world size is " + e.tp()
                    : e.gpus() + ": the size table for capability " + e.capTimes10() + " has world sizes " + new java.util.TreeSet<>(row.keySet()) + ", not " + e.tp();
            return new Partial(Outcome.FALLBACK, null, null, String.format(PASS_WORLD, e.tp()), WHEN_PASS, why
                    + "; the pass disables itself and the unfused all-reduce + RMSNorm run.", SRC_TABLE);
        }
        Partial ws = workspaceResult(e);
        if (ws.failed() || ws.resolved() == null) {
            return ws;
        }
        Partial ranks = FlashInferRules.kernelRanks(e, ws.resolved());
        if (ranks != null) {
            return new Partial(Outcome.ERROR, null, ranks.errorClass(), ranks.message(), ranks.when(),
                    "fi_allreduce_fusion_max_size_mb admits world size " + e.tp() + ". " + ranks.why(), ranks.source());
        }
        String limit = " Fused for compile ranges up to " + fmt(mb) + " MB / (hidden × element size) tokens"
                + (e.tokens() != null ? ", capped at max_num_batched_tokens (" + e.tokens() + ")" : "") + ".";
        return new Partial(ws.outcome(), ws.resolved(), ws.errorClass(), ws.message(), ws.when(), ws.why() + limit, ws.source());
    }

    private static String fmt(double mb) {
        return mb == Math.rint(mb) ? Long.toString((long) mb) : Double.toString(mb);
    }

    /** The FlashInfer workspace the pass asks for: backend resolution, creation, the trtllm retry (§2.4). */
    static Partial workspaceResult(Eval e) {
        Version v = e.versions.vllm();
        String env = e.value(BACKEND) != null ? e.value(BACKEND) : v.defaultBackend();
        boolean multi = e.multiNode();
        String backend;
        boolean allowFallback;
        String selection;
        if (!"auto".equals(env)) {
            backend = env;
            allowFallback = false;
            selection = "VLLM_FLASHINFER_ALLREDUCE_BACKEND=" + env + (e.isSet(BACKEND) ? "" : " (this version's default)");
        } else if (v.autoMnnvlWithFallback()) {
            backend = "mnnvl";
            allowFallback = !multi;
            selection = "'auto' means mnnvl" + (multi ? "" : ", with a trtllm retry on one node");
        } else {
            backend = multi ? "mnnvl" : "trtllm";
            allowFallback = false;
            selection = "'auto' picks " + backend + " because " + e.span();
        }
        SourceRef src = v.backendSource();
        if (multi && "trtllm".equals(backend)) {
            return new Partial(Outcome.ERROR, null, "ValueError", TRTLLM_MULTI, WHEN_PASS, selection + ", and " + e.span()
                    + ": the trtllm workspace is single-node. AllReduceFusionPass does not catch this ValueError, so the engine fails to start.", SRC_TRTLLM_MULTI);
        }
        Partial ws = FlashInferRules.workspace(e, backend, true, null);
        if (!ws.failed()) {
            if ("mnnvl".equals(backend) && !multi && !e.nvswitch() && (e.major() == 9 || e.nvlinkBridge())) {
                return new Partial(Outcome.ERROR, null, null, null, "CUDA-graph capture", selection + "; the mnnvl workspace is created (the GPUs report multicast) "
                        + "but no NVSwitch is seen: on bridged NVLink single-node topologies (H100-NVL/H200-NVL) the fused kernel then crashes during CUDA-graph "
                        + "capture and the trtllm fallback never fires (vllm PR #48075, open).", src);
            }
            String msg = v.autoMnnvlWithFallback() ? String.format(WS_INIT_OK, backend)
                    : String.format("auto".equals(env) ? AUTO_SELECTED : USING_BACKEND, backend);
            return new Partial(Outcome.OK, backend, null, msg, WHEN_PASS, e.gpus() + ", " + e.tpPhrase() + ": " + selection + ". " + ws.why(), src);
        }
        String bridged = "mnnvl".equals(backend) && !multi && e.nvlinkBridge()
                ? " Note: on bridged NVLink topologies (H100-NVL/H200-NVL) vllm PR #48075 reports the mnnvl workspace being created and the fused kernel "
                + "then crashing in CUDA-graph capture; these GPUs report no multicast, so the creation is expected to fail as described, but that was not verified."
                : "";
        String err = ws.message() != null ? ws.message() : "<exception>";
        String warn = String.format(err.contains("multicast") ? CREATE_FAILED_MULTICAST : CREATE_FAILED, err);
        if (allowFallback) {
            Partial t = FlashInferRules.workspace(e, "trtllm", true, null);
            if (!t.failed()) {
                return new Partial(Outcome.FALLBACK, "trtllm", null, MNNVL_FALLBACK, WHEN_PASS, selection + ". " + ws.why()
                        + " vLLM warns '" + warn + "' and retries with trtllm, which works: " + Values.decap(t.why()) + bridged, src);
            }
            return new Partial(Outcome.FALLBACK, null, null, PASS_NO_WORKSPACE, WHEN_PASS, selection + ". " + ws.why()
                    + " The trtllm retry fails too: " + Values.decap(t.why()) + " vLLM logs '" + String.format(WS_INIT_FAILED, "trtllm")
                    + "' and the pass runs unfused.", src);
        }
        return new Partial(Outcome.FALLBACK, null, null, PASS_NO_WORKSPACE, WHEN_PASS, selection + ". Creating the " + backend + " workspace fails: "
                + Values.decap(ws.why()) + " vLLM catches it ('" + warn + "'"
                + (v.autoMnnvlWithFallback() ? ", then '" + String.format(WS_INIT_FAILED, backend) + "'" : "")
                + ") and the all-reduce + RMSNorm run unfused.", src);
    }

    /** The backend to set so the pass fuses without a failed attempt first, or null when none works. */
    static String bestBackend(Eval e) {
        List<String> order = e.multiNode() ? List.of("mnnvl") : List.of("mnnvl", "trtllm");
        for (String b : order) {
            Partial p = passResult(e.with(BACKEND, b).with(FUSE, "true"));
            if (p.outcome() == Outcome.OK && b.equals(p.resolved())) {
                return b;
            }
        }
        return null;
    }

    /** A concrete fix for a fusion pass that errors or falls back. */
    private static String fusionFix(Eval e, Partial p) {
        if (p.outcome() == Outcome.ERROR && p.message() == null && p.when().startsWith("CUDA-graph")) {
            String best = "trtllm".equals(bestBackend(e)) ? " (VLLM_FLASHINFER_ALLREDUCE_BACKEND=trtllm also avoids the crash but is reported ~10× slower than no fusion, vllm#48075)" : "";
            return FUSE_OFF + best;
        }
        if (p.message() != null && p.message().equals(String.format(PASS_WORLD, e.tp()))) {
            return "--tp with a world size in the size table for SM " + e.sm() + ", or " + FUSE_OFF + " to silence the warning";
        }
        String best = bestBackend(e);
        if (best != null) {
            return "VLLM_FLASHINFER_ALLREDUCE_BACKEND=" + best;
        }
        return FUSE_OFF + " (no FlashInfer backend fuses here)";
    }

    static Verdict fuseVerdict(Eval e, boolean withFix) {
        VerdictBuilder v = on(e, FUSE).source(SRC_DEFAULT);
        String off = defaultOffReason(e);
        if (!v.userSet()) {
            v.value((off == null ? "true" : "false") + " (default at -O" + optLevel(e) + ")");
        }
        if (!passOn(e)) {
            return v.ok().when(WHEN_PASS).why(v.userSet() ? "Set to false: the unfused all-reduce + RMSNorm run."
                    : "Off by default: " + off + ".").build();
        }
        Partial p = passResult(e);
        v.apply(p);
        if (p.outcome() == Outcome.FALLBACK && p.resolved() != null) {
            v.ok().why("The pass fuses with the " + p.resolved() + " workspace after the first backend fails (see VLLM_FLASHINFER_ALLREDUCE_BACKEND). " + p.why());
        }
        if (v.userSet() && off != null) {
            v.why("Forced on (the default would be off: " + off + "). " + p.why());
        }
        if (withFix && p.outcome() != Outcome.OK) {
            v.fix(fusionFix(e, p));
        }
        return v.build();
    }

    private static Verdict backendVerdict(Eval e) {
        VerdictBuilder v = on(e, BACKEND).source(SRC_ENVS);
        Version ver = e.versions.vllm();
        if (!v.userSet()) {
            v.value(ver.defaultBackend() + " (default)");
        }
        boolean reachesWorkspace = passOn(e) && e.tp() > 1 && e.cuda() && e.flashinferInstalled() && maxSizeMb(e) != null;
        if (!reachesWorkspace) {
            Verdict pass = fuseVerdict(e, false);
            String why = "Not used: the all-reduce + RMSNorm fusion pass " + (passOn(e) ? "disables itself before creating a workspace" + (pass.message() != null ? " ('" + pass.message() + "')" : "")
                    : "is off (" + (e.value(FUSE) != null ? "fuse_allreduce_rms=false" : defaultOffReason(e)) + ")") + ".";
            return v.outcome(v.userSet() ? Outcome.FALLBACK : Outcome.OK).when(WHEN_PASS).why(why).build();
        }
        Partial p = workspaceResult(e);
        v.apply(p);
        if (p.outcome() != Outcome.OK) {
            v.fix(fusionFix(e, p));
        }
        return v.build();
    }

    private static Verdict maxSizeVerdict(Eval e) {
        VerdictBuilder v = on(e, MAX_SIZE).source(SRC_TABLE).when(WHEN_PASS);
        Double mb = maxSizeMb(e);
        if (v.userSet()) {
            return v.ok().why("Overrides the size table: " + fmt(mb) + " MB for " + e.tpPhrase()
                    + (FlashInferRules.TRTLLM_RANKS.contains(e.tp()) ? "." : "; the TRT-LLM kernels still exist for 2, 4, 8, 16 ranks only.")).build();
        }
        v.value(mb == null ? "no table entry" : fmt(mb) + " MB (table)");
        if (!e.cuda()) {
            return v.ok().why("The table is empty off CUDA (default_fi_allreduce_fusion_max_size_mb returns {}).").build();
        }
        return v.ok().why(mb == null ? "No entry for capability " + e.capTimes10() + " and world size " + e.tp() + " (" + e.gpus() + ")."
                : "Table entry for capability " + e.capTimes10() + ", world size " + e.tp() + " (" + e.gpus() + ").").build();
    }

    private static Verdict optLevelVerdict(Eval e) {
        VerdictBuilder v = on(e, OPT_LEVEL).source(SRC_DEFAULT).when(WHEN_PASS);
        int level = optLevel(e);
        String off = defaultOffReason(e);
        return v.ok().value("O" + level + (v.userSet() ? "" : " (default)"))
                .why(level <= 1 ? "O0/O1 leave the all-reduce + RMSNorm fusion pass off unless fuse_allreduce_rms is set."
                        : "O2/O3 turn the fusion pass on where supported; " + (off == null ? "it is on here." : "here it stays off: " + off + ".")).build();
    }

    // ---- standalone FlashInfer all-reduce (§2.5)

    private static Verdict standaloneVerdict(Eval e) {
        VerdictBuilder v = on(e, USE_FLASHINFER).source(SRC_FIAR).when(WHEN_COMM);
        if (!e.bool(USE_FLASHINFER)) {
            return v.ok().why("0 (default): non-fused all-reduces use custom all-reduce, symmetric memory or NCCL.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: no TP group with more than one rank.").build();
        }
        if (!e.flashinferInstalled()) {
            return v.fallback().message(FIAR_UNAVAILABLE).why("FlashInfer's comm module is missing.").fix("install FlashInfer, or drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        if (!e.cuda()) {
            return v.fallback().message(FIAR_CUDA).why("The platform is " + e.platformName() + ".").fix("drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        Map<Integer, Double> row = FI_MAX_SIZE_MB.get(e.capTimes10());
        if (row == null || !row.containsKey(e.tp())) {
            return v.fallback().message(String.format(FIAR_WORLD, e.tp()))
                    .why((row == null ? e.gpus() + ": no size-table entry for this capability" : e.gpus() + ": no size-table entry for world size " + e.tp())
                            + " (the message names the world size even when the capability is the reason; the size table of the fusion pass is assumed).")
                    .fix("drop VLLM_ALLREDUCE_USE_FLASHINFER").build();
        }
        return v.ok().resolved("flashinfer").source(SRC_DISPATCH)
                .why("Tried before custom all-reduce for TP all-reduces: each call needs a contiguous 2-D CUDA tensor within the workspace's token limit, else the next backend runs.").build();
    }

    // ---- custom all-reduce (§2.7) and symmetric memory (§2.8)

    /** What handles the all-reduces custom all-reduce does not: torch symmetric memory when it works, else PyNCCL. */
    private static String nextAfterCustom(Eval e) {
        Verdict s = symmMemVerdict(e);
        return s.outcome() == Outcome.OK && s.resolved() != null ? "symm_mem" : "pynccl";
    }

    static Verdict customAllReduceVerdict(Eval e) {
        VerdictBuilder v = on(e, DISABLE_CUSTOM_AR).source(SRC_CAR).when(WHEN_COMM);
        if (e.bool(DISABLE_CUSTOM_AR)) {
            return v.ok().resolved(nextAfterCustom(e)).why("Custom all-reduce is off by request.").build();
        }
        if (e.envTrue(BATCH_INVARIANT)) {
            return v.fallback().resolved(nextAfterCustom(e)).source(SRC_VERIFY).why("VLLM_BATCH_INVARIANT=1 forces --disable-custom-all-reduce (silently).").build();
        }
        if (!e.cuda() && !"rocm".equals(e.platform())) {
            return v.fallback().resolved("torch.distributed (gloo)").message(CAR_PLATFORM).source(SRC_VERIFY)
                    .why("The platform is " + e.platformName() + ", which does not use custom all-reduce (debug log).").build();
        }
        if (e.tpSpansNodes()) {
            return v.fallback().resolved(nextAfterCustom(e)).message(SglangRules.CAR_SPANS)
                    .why(e.span() + " and the " + e.tpPhrase() + " group crosses them; custom all-reduce works within one node only.")
                    .fix("--disable-custom-all-reduce (silences the warning)").build();
        }
        int ws = e.tp();
        if (ws == 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        if (!WORLD_SIZES.contains(ws)) {
            return v.fallback().resolved(nextAfterCustom(e)).message(String.format(SglangRules.CAR_WORLD, ws, Values.pyList(WORLD_SIZES)))
                    .why("World size " + ws + " (" + e.tpPhrase() + ") is not one of 2, 4, 6, 8.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2/4/6/8").build();
        }
        if (ws > 2 && !e.allNvlink()) {
            return v.fallback().resolved(nextAfterCustom(e)).message(SglangRules.CAR_PCIE)
                    .why(e.tpPhrase() + " needs every GPU pair " + (e.cuda() ? "NVLink-connected (NVML P2P NVLINK status OK)" : "xGMI-connected") + " for more than two GPUs, and " + e.gpus()
                            + " without " + (e.cuda() ? "NVLink" : "a direct xGMI link") + " between every pair.")
                    .fix("--disable-custom-all-reduce (silences the warning), or --tp 2").build();
        }
        if (e.cuda() && !e.p2p()) {
            return v.fallback().resolved(nextAfterCustom(e)).message(SglangRules.CAR_P2P).source(SRC_CAR_P2P)
                    .why("vLLM always checks P2P (" + (e.envTrue(SKIP_P2P) ? "VLLM_SKIP_P2P_CHECK=1: the driver's report" : "a real CUDA IPC test, cached per CUDA_VISIBLE_DEVICES")
                            + "), and the GPUs cannot access each other (cuDeviceCanAccessPeer = 0).")
                    .fix("--disable-custom-all-reduce (silences the warning)").build();
        }
        boolean symm = "symm_mem".equals(nextAfterCustom(e));
        return v.ok().resolved("custom").why(e.tpPhrase() + " on one node" + (ws == 2 ? "" : " with every GPU pair NVLink-connected")
                + (e.cuda() ? " and P2P access" : " (ROCm skips the P2P test)") + ": the custom all-reduce kernel handles messages up to 8 MiB"
                + (symm ? ", less on SM 9.0/10.0/10.3 because torch symmetric memory takes the larger ones" : "") + ".").build();
    }

    static Verdict symmMemVerdict(Eval e) {
        VerdictBuilder v = on(e, USE_SYMM_MEM).source(SRC_SYMM).when(WHEN_COMM);
        if (!e.bool(USE_SYMM_MEM)) {
            return v.ok().why("0: torch symmetric-memory all-reduce is off.").build();
        }
        if (e.tp() <= 1) {
            return v.ok().why("TP 1: there is no all-reduce.").build();
        }
        if ("cpu".equals(e.platform())) {
            return v.ok().why("CPU only: vLLM's CUDA communicator is not used.").build();
        }
        String fix = "VLLM_ALLREDUCE_USE_SYMM_MEM=0 (silences the warning)";
        if (e.envTrue(BATCH_INVARIANT)) {
            return v.fallback().resolved("pynccl").why("VLLM_BATCH_INVARIANT=1 disables it silently.").build();
        }
        if (!e.cuda()) {
            return v.fallback().resolved("pynccl").message(SYMM_UNAVAILABLE).why("The platform is " + e.platformName() + ".").fix(fix).build();
        }
        if (!SYMM_MEM_CAPS.contains(e.sm())) {
            return v.fallback().resolved("pynccl").message(String.format(SYMM_CAPABILITY, e.sm()))
                    .why(e.gpus() + ": SYMM_MEM_ALL_REDUCE_MAX_SIZES has 9.0, 10.0 and 10.3 only.").fix(fix).build();
        }
        if (!WORLD_SIZES.contains(e.tp())) {
            return v.fallback().resolved("pynccl").message(String.format(SYMM_WORLD, e.tp()))
                    .why(e.tpPhrase() + " is not one of 2, 4, 6, 8.").fix(fix).build();
        }
        boolean disabled = e.envTrue(NcclRules.TORCH_SYMM_MEM_DISABLE_MULTICAST);
        if (!e.multicast() || disabled) {
            return v.fallback().resolved("pynccl").message(SYMM_MULTICAST)
                    .why((disabled ? "TORCH_SYMM_MEM_DISABLE_MULTICAST=1 makes the rendezvous skip the multicast object"
                            : "The GPUs do not report NVLink multicast, so the rendezvous has no multicast pointer (without TORCH_SYMM_MEM_DISABLE_MULTICAST=1 some such "
                            + "hardware instead fails rendezvous with 'CUDA driver error: invalid argument', caught as 'symmetric memory initialization failed'; low confidence)")
                            + ".").fix(fix).build();
        }
        boolean multimem = ("9.0".equals(e.sm()) && List.of(4, 6, 8).contains(e.tp())) || (e.major() == 10 && List.of(6, 8).contains(e.tp()));
        return v.ok().resolved("symm_mem (" + (multimem ? "multimem" : "two-shot") + ")")
                .why(e.gpus() + ", " + e.tpPhrase() + " and NVLink multicast: torch symmetric memory takes the larger all-reduces with the "
                        + (multimem ? "multimem" : "two-shot") + " kernel (multimem: world size 4/6/8 on 9.0, 6/8 on 10.x)"
                        + (e.tpSpansNodes() ? "; across nodes this was not modelled" : "") + ".").build();
    }

    private static Verdict skipP2pVerdict(Eval e) {
        VerdictBuilder v = on(e, SKIP_P2P).source(SRC_CAR_P2P).when(WHEN_COMM);
        return v.ok().why(e.envTrue(SKIP_P2P) ? "Set: custom all-reduce trusts the driver's P2P report instead of the CUDA IPC test."
                : "0 (default): custom all-reduce runs (or reads the cached result of) a real CUDA IPC P2P test.").build();
    }

    private static Verdict batchInvariantVerdict(Eval e) {
        VerdictBuilder v = on(e, BATCH_INVARIANT).source(SRC_VERIFY).when(WHEN_CONFIG);
        return v.ok().why(e.envTrue(BATCH_INVARIANT) ? "Set: custom all-reduce is forced off, symmetric memory disables itself silently and the fusion pass is off by default."
                : "0 (default): no effect on the all-reduce backends.").build();
    }

    // ---- decode context parallel (§2.9)

    private static int pcp(Eval e) {
        String v = e.value(PCP_SIZE);
        return v == null ? 1 : Integer.parseInt(v);
    }

    private static Verdict dcpSizeVerdict(Eval e) {
        VerdictBuilder v = on(e, DCP_SIZE).source(SRC_PARALLEL).when(WHEN_CONFIG);
        int dcp = e.dcp();
        int tp = e.tp();
        int pcp = pcp(e);
        if (dcp < 1) {
            return v.error(null).why("The DCP size must be at least 1 (vLLM's exact validation error for " + dcp + " was not read).").fix("--dcp 1 or more").build();
        }
        if (pcp == 1 && tp % dcp != 0) {
            String msg = e.versions.vllm().dcpMessageMissingSpace() ? DCP_DIVISIBLE_OLD : DCP_DIVISIBLE;
            return v.error("ValueError").message(String.format(msg, tp, dcp)).why("TP " + tp + " is not a multiple of DCP " + dcp + ".")
                    .fix("--dcp with a divisor of " + tp).build();
        }
        if (pcp > 1 && dcp != 1 && dcp != pcp && dcp != tp * pcp) {
            List<Integer> valid = new ArrayList<>(new java.util.TreeSet<>(List.of(1, pcp, tp * pcp)));
            return v.error("ValueError").message(String.format(PCP_DCP, tp, pcp, dcp, Values.pyList(valid)))
                    .why("PCP " + pcp + " is on, so DCP must be 1, " + pcp + " or " + (tp * pcp) + "; it is " + dcp
                            + " (how vLLM orders the list of valid sizes was not recorded).")
                    .fix("--dcp 1, " + pcp + " or " + (tp * pcp)).build();
        }
        return v.ok().why(dcp == 1 ? "1: decode context parallel is off." : "DCP " + dcp + " divides TP " + tp + ".").build();
    }

    private static Verdict pcpVerdict(Eval e) {
        VerdictBuilder v = on(e, PCP_SIZE).source(SRC_PARALLEL).when(WHEN_CONFIG);
        int pcp = pcp(e);
        return v.ok().why(pcp == 1 ? "1: prefill context parallel is off." : "PCP " + pcp + ": DCP must be 1, PCP or TP × PCP.").build();
    }

    private static Verdict dcpBackendVerdict(Eval e) {
        VerdictBuilder v = on(e, DCP_BACKEND).source(SRC_PARALLEL).when(WHEN_CONFIG);
        String backend = v.value();
        if ("fi_a2a".equals(backend)) {
            return v.error("pydantic ValidationError").why("Upstream vLLM has no fi_a2a value (that is SGLang's), so config validation rejects it (exact text not recorded).")
                    .fix("--dcp-comm-backend a2a or ag_rs").build();
        }
        int dcp = e.dcp();
        if ("a2a".equals(backend) && dcp <= 1) {
            return v.error("ValueError").message(DCP_A2A).why("a2a only changes the DCP reduction, and the DCP size is " + dcp + ".")
                    .fix("--dcp N with N > 1, or --dcp-comm-backend ag_rs (default)").build();
        }
        return v.ok().resolved(dcp > 1 ? backend : null).why(dcp > 1 ? backend + " reduces decode attention across the " + dcp + " DCP ranks."
                : backend + " (default): unused while DCP is off.").build();
    }

    // ---- recommendation

    static Recommendation recommend(Eval e) {
        List<String> flags = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        Eval base = e.with(BACKEND, null).with(FUSE, null).with(DISABLE_CUSTOM_AR, null).with(USE_SYMM_MEM, null);
        if (e.bool(USE_FLASHINFER) && standaloneVerdict(base).outcome() != Outcome.OK) {
            notes.add("drop VLLM_ALLREDUCE_USE_FLASHINFER (it disables itself here)");
            base = base.with(USE_FLASHINFER, null);
        }
        if (e.isSet(DCP_BACKEND) && dcpBackendVerdict(base).outcome() == Outcome.ERROR) {
            notes.add("drop --dcp-comm-backend=" + e.value(DCP_BACKEND) + " (fails at start-up)");
            base = base.with(DCP_BACKEND, null);
        }
        if (passOn(base)) {
            Partial def = passResult(base);
            String best = bestBackend(base);
            if (best != null) {
                if (!(def.outcome() == Outcome.OK && best.equals(def.resolved()))) {
                    env.put(BACKEND.name(), best);
                    base = base.with(BACKEND, best);
                }
                notes.add("all-reduce + RMSNorm fusion with the " + best + " workspace");
            } else if (def.outcome() == Outcome.ERROR) {
                flags.add(FUSE_OFF);
                notes.add("no FlashInfer fusion (" + (def.message() != null ? def.message() : "the default fused path crashes here") + ")");
                base = base.with(FUSE, "false");
            } else {
                notes.add("no FlashInfer fusion (" + (def.message() != null ? def.message() : def.why()) + ")");
            }
        } else if (e.cuda() && e.tp() > 1) {
            notes.add("fusion pass off (" + defaultOffReason(base) + ")");
        }
        Verdict car = customAllReduceVerdict(base);
        if (car.outcome() == Outcome.FALLBACK && car.message() != null) {
            flags.add("--disable-custom-all-reduce");
            notes.add("custom all-reduce cannot run here (flag silences the warning)");
            base = base.with(DISABLE_CUSTOM_AR, "true");
        } else if ("custom".equals(car.resolved())) {
            notes.add("custom all-reduce for small messages");
        }
        Verdict symm = symmMemVerdict(base);
        if (symm.outcome() == Outcome.FALLBACK && symm.message() != null) {
            env.put(USE_SYMM_MEM.name(), "0");
            notes.add("torch symmetric memory cannot run here (0 silences the warning)");
            base = base.with(USE_SYMM_MEM, "0");
        } else if (symm.resolved() != null) {
            notes.add(symm.resolved() + " for large messages");
        }
        for (Verdict v : evaluate(e)) {
            boolean handled = env.containsKey(v.knob()) || flags.stream().anyMatch(f -> f.startsWith(v.knob()) || f.contains(v.knob()))
                    || v.knob().equals(DCP_SIZE.display()) || v.knob().equals(DCP_BACKEND.display());
            if (v.userSet() && v.outcome() == Outcome.ERROR && !handled) {
                notes.add(0, "drop " + v.knob() + "=" + v.value() + " (fails at start-up)");
            }
        }
        List<String> left = new ArrayList<>();
        for (Verdict v : evaluate(base)) {
            if (v.outcome() == Outcome.ERROR) {
                left.add(v.knob() + "=" + v.value() + " still fails" + (v.message() != null ? " (" + v.message() + ")" : ""));
            }
        }
        String summary = (notes.isEmpty() ? "Defaults are fine." : String.join("; ", notes) + ".")
                + (left.isEmpty() ? "" : " Deployment settings to change: " + String.join("; ", left) + ".");
        return new Recommendation(FW, flags, env, summary);
    }
}
