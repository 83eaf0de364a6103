package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.flashinfer.FlashInferWorkspace;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import static dev.fabricscope.advisor.vllm.VllmKnobs.BACKEND;
import static dev.fabricscope.advisor.vllm.VllmKnobs.BATCH_INVARIANT;
import static dev.fabricscope.advisor.vllm.VllmKnobs.FUSE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.MAX_SIZE;
import static dev.fabricscope.advisor.vllm.VllmKnobs.OPT_LEVEL;
import static dev.fabricscope.advisor.vllm.VllmSources.WHEN_PASS;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * vLLM's all-reduce + RMSNorm fusion pass, decided before any verdict is worded: whether it is on by default, the
 * size table, what {@code AllReduceFusionPass.__init__} ends up with, and the FlashInfer workspace backend it asks
 * for. Reference: backend-rules.md §2.2–2.4.
 */
final class VllmFusionPass {

    private VllmFusionPass() {
    }

    private static VllmVersion version(Eval e) {
        return e.version(VllmVersion.class);
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
            return gateAdmits(e) ? Double.parseDouble(override) : null;
        }
        if (!e.cuda()) {
            return null;
        }
        List<Integer> allowed = version(e).passWorldSizes();
        if (allowed != null && !allowed.contains(e.tp())) {
            return null;
        }
        return VllmSizeTable.FUSION.mb(e.capTimes10(), e.tp()).orElse(null);
    }

    /**
     * Whether PassConfig.flashinfer_max_size gets past its world-size check, which comes before the user's
     * fi_allreduce_fusion_max_size_mb is read (vllm/config/compilation.py:189-191 @156b1266): this version's list where it
     * has one, else the size table's world sizes (its 16 on SM100/SM103 is the newest copies' addition).
     */
    static boolean gateAdmits(Eval e) {
        List<Integer> allowed = version(e).passWorldSizes();
        if (allowed != null) {
            return allowed.contains(e.tp());
        }
        return VllmSizeTable.FUSION.capabilities().stream().anyMatch(c -> VllmSizeTable.FUSION.worldSizes(c).contains(e.tp()));
    }

    /** The architectures whose default is breakable CUDA graphs (default_breakable_cudagraph_architectures, vllm.py@000fc94b:728). */
    static final java.util.Set<String> BREAKABLE_ARCHITECTURES = java.util.Set.of("DeepseekV32MTPModel", "DeepseekV32ForCausalLM",
            "DeepseekV4ForCausalLM", "DeepseekV4ForConditionalGeneration", "DeepSeekV4MTPModel", "Dots3NoteForCausalLM", "Dots3NoteMTPModel",
            "GlmMoeDsaForCausalLM", "HYV4ForCausalLM", "HYV4MTPModel", "InklingForCausalLM", "InklingForConditionalGeneration",
            "KimiK3ForConditionalGeneration", "KimiK3MTPModel", "KimiLinearForCausalLM", "MiniMaxM3SparseForCausalLM",
            "MiniMaxM3SparseForConditionalGeneration");

    /** The architectures whose model class has no @support_torch_compile (the fork's auto-enable list, vllm.py@156b1266:1076-1097). */
    static final java.util.Set<String> NO_TORCH_COMPILE_MODELS = java.util.Set.of("DeepseekV4ForCausalLM", "DeepSeekV4MTPModel",
            "MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration");

    /**
     * Why the compilation mode ends up NONE (or another mode than VLLM_COMPILE), so that no vLLM pass runs, or null.
     * In __post_init__'s order: --enforce-eager, TORCH_COMPILE_DISABLE=1, breakable CUDA graphs, a mode given, -O0 with none.
     */
    static Partial compileOff(Eval e) {
        String why = null;
        SourceRef src = null;
        String mode = e.value(VllmKnobs.COMPILE_MODE);
        if (e.bool(VllmKnobs.ENFORCE_EAGER)) {
            why = "--enforce-eager sets the compilation mode to NONE (\"Enforce eager set, disabling torch.compile and CUDAGraphs\")";
            src = VllmSources.compileMode("1372");
        } else if ("1".equals(e.env().get(VllmKnobs.TORCH_COMPILE_DISABLE.name()))) {
            why = "TORCH_COMPILE_DISABLE=1 sets the compilation mode to NONE (\"TORCH_COMPILE_DISABLE is set, disabling torch.compile\")";
            src = VllmSources.compileMode("1392");
        } else if ("1".equals(e.env().get(VllmKnobs.BREAKABLE_CUDAGRAPH.name()))) {
            why = "VLLM_USE_BREAKABLE_CUDAGRAPH=1 replaces vLLM's torch.compile pipeline (compilation mode NONE; only the exact value 1 "
                    + "turns it on, envs.py@156b1266:698-700)";
            src = VllmSources.compileMode("728");
        } else if (e.model() != null && NO_TORCH_COMPILE_MODELS.contains(e.model())) {
            why = e.model() + "'s model class carries no @support_torch_compile (DeepseekV4Model is a plain nn.Module, "
                    + "deepseek_v4/nvidia/model.py@156b1266:920), so vLLM never compiles it"
                    + (e.env().get(VllmKnobs.BREAKABLE_CUDAGRAPH.name()) == null
                    ? " (vLLM auto-enables VLLM_USE_BREAKABLE_CUDAGRAPH=1 for it, compilation mode NONE)"
                    : " whatever VLLM_USE_BREAKABLE_CUDAGRAPH says");
            src = VllmSources.NO_TORCH_COMPILE_MODELS;
        } else if (mode != null && !mode.equals("3") && !mode.equalsIgnoreCase("VLLM_COMPILE")) {
            why = "compilation mode " + mode + " is not VLLM_COMPILE: \"Inductor compilation was disabled by user settings, optimizations "
                    + "settings that are only active during inductor compilation will be ignored\"";
            src = VllmSources.compileMode("1407");
        } else if (mode == null && optLevel(e) == 0) {
            why = "at -O0 with no mode given the compilation mode is NONE (above -O0 it is VLLM_COMPILE)";
            src = VllmSources.MODE_FROM_LEVEL;
        }
        if (why != null) {
            return new Partial(Outcome.FALLBACK, null, null, null, WHEN_PASS, why + ": the model is not compiled by vLLM, so the all-reduce + "
                    + "RMSNorm fusion pass never runs and the unfused all-reduce + RMSNorm run, whatever fuse_allreduce_rms says.", src);
        }
        if (e.env().get(VllmKnobs.BREAKABLE_CUDAGRAPH.name()) == null && e.model() != null && BREAKABLE_ARCHITECTURES.contains(e.model())) {
            return new Partial(Outcome.UNKNOWN, null, null, null, WHEN_PASS, e.model() + " is among the architectures whose default is breakable "
                    + "CUDA graphs (vllm.py@000fc94b:728), which set the compilation mode to NONE so that the fusion pass never runs; "
                    + "is_breakable_cudagraph_enabled's body was not read at that commit (the fork @156b1266 auto-enables it for such "
                    + "models unless VLLM_USE_BREAKABLE_CUDAGRAPH is set).", VllmSources.compileMode("728"));
        }
        return null;
    }

    /** What the pass ends up doing when on: fused with a backend, disabled with a warning, or a start-up error. */
    static Partial passResult(Eval e) {
        if (e.tp() <= 1) {
            return new Partial(Outcome.OK, null, null, VllmMessage.PASS_TP1.text(), WHEN_PASS, "TP 1: nothing to all-reduce, the pass disables itself.", VllmSources.PASS);
        }
        if (!e.cuda() || !e.flashinferInstalled()) {
            return new Partial(Outcome.FALLBACK, null, null, VllmMessage.PASS_NO_FLASHINFER.text(), WHEN_PASS, (!e.cuda() ? "The platform is " + e.platformName()
                    + ": FlashInfer's comm module is CUDA-only" : "FlashInfer is not installed") + "; the pass disables itself and the unfused all-reduce + RMSNorm run.", VllmSources.PASS);
        }
        Partial off = compileOff(e);
        if (off != null) {
            return off;
        }
        Double mb = maxSizeMb(e);
        if (mb != null && mb <= 0) {
            return new Partial(Outcome.FALLBACK, null, null, null, WHEN_PASS, "fi_allreduce_fusion_max_size_mb=" + fmt(mb) + ": the pass's "
                    + "largest fused token count is 0, so no compile range is fused and the unfused all-reduce + RMSNorm run.", VllmSources.PASS_GATE);
        }
        if (mb == null && e.value(MAX_SIZE) != null) {
            return new Partial(Outcome.FALLBACK, null, null, VllmMessage.PASS_WORLD.format(e.tp()), WHEN_PASS, "PassConfig.flashinfer_max_size "
                    + "checks the world size before it reads fi_allreduce_fusion_max_size_mb, and world size " + e.tp() + " is not one it takes"
                    + "; the pass disables itself and the unfused all-reduce + RMSNorm run (the size given is never used).", VllmSources.PASS_GATE);
        }
        if (mb == null) {
            List<Integer> allowed = version(e).passWorldSizes();
            VllmSizeTable t = VllmSizeTable.FUSION;
            TreeSet<Integer> sizes = t.worldSizes(e.capTimes10());
            String why = sizes == null ? e.gpus() + ": " + t.name() + " has no entry for capability " + e.capTimes10() + " (only "
                    + t.capabilities().stream().map(c -> c / 10 + "." + c % 10).collect(java.util.stream.Collectors.joining(", ")) + ")"
                    : allowed != null && !allowed.contains(e.tp()) && sizes.contains(e.tp())
                    ? "This vLLM version's PassConfig accepts world sizes 2, 4, 8 only (newer ones add 16 on SM100/SM103), and the world size is " + e.tp()
                    : e.gpus() + ": " + t.name() + " for capability " + e.capTimes10() + " has world sizes " + sizes + ", not " + e.tp();
            return new Partial(Outcome.FALLBACK, null, null, VllmMessage.PASS_WORLD.format(e.tp()), WHEN_PASS, why
                    + "; the pass disables itself and the unfused all-reduce + RMSNorm run.", VllmSizeTable.FUSION.source());
        }
        Partial ws = workspaceResult(e);
        if (ws.failed() || ws.resolved() == null) {
            return ws;
        }
        Partial ranks = FlashInferWorkspace.kernelRanks(e, ws.resolved());
        if (ranks != null) {
            return new Partial(Outcome.ERROR, null, ranks.errorClass(), ranks.message(), ranks.when(),
                    "fi_allreduce_fusion_max_size_mb admits world size " + e.tp() + ". " + ranks.why(), ranks.source());
        }
        String limit = " Fused for compile ranges up to " + fmt(mb) + " MB / (hidden × element size) tokens"
                + (e.tokens() != null ? ", capped at max_num_batched_tokens (" + e.tokens() + ")" : "") + "." + oneShot(e, ws.resolved());
        return new Partial(ws.outcome(), ws.resolved(), ws.errorClass(), ws.message(), ws.when(), ws.why() + limit, ws.source());
    }

    /** {@code 64} / {@code 0.5}: MB as the size table writes them. */
    static String fmt(double mb) {
        return VllmSizeTable.fmt(mb);
    }

    /** How the fused call picks one-shot vs two-shot (_select_flashinfer_allreduce_use_oneshot, from the one-shot table). */
    static String oneShot(Eval e, String backend) {
        VllmSizeTable t = VllmSizeTable.ONE_SHOT;
        if ("mnnvl".equals(backend)) {
            return " With mnnvl FlashInfer picks one-shot or two-shot itself (vLLM passes use_oneshot=None).";
        }
        return t.mb(e.capTimes10(), e.tp()).map(mb -> " trtllm runs one-shot up to " + fmt(mb) + " MB per call, two-shot above ("
                + t.name() + ").").orElse(" " + t.name() + " has no entry here, so every call runs one-shot.");
    }

    /**
     * Which backend the pass asks FlashInfer for.
     *
     * @param env           VLLM_FLASHINFER_ALLREDUCE_BACKEND as given, or this version's default
     * @param allowFallback whether a failed mnnvl workspace is retried with trtllm
     * @param text          how the backend was chosen, in words
     */
    private record Selection(String env, String backend, boolean allowFallback, String text) {
    }

    private static Selection select(Eval e, VllmVersion v) {
        String env = e.value(BACKEND) != null ? e.value(BACKEND) : v.defaultBackend();
        boolean multi = e.multiNode();
        if (!"auto".equals(env)) {
            return new Selection(env, env, false, "VLLM_FLASHINFER_ALLREDUCE_BACKEND=" + env + (e.isSet(BACKEND) ? "" : " (this version's default)"));
        }
        if (v.autoMnnvlWithFallback()) {
            return new Selection(env, "mnnvl", !multi, "'auto' means mnnvl" + (multi ? "" : ", with a trtllm retry on one node"));
        }
        String backend = multi ? "mnnvl" : "trtllm";
        return new Selection(env, backend, false, "'auto' picks " + backend + " because " + e.span());
    }

    /** The FlashInfer workspace the pass asks for: backend resolution, creation, the trtllm retry (§2.4). */
    static Partial workspaceResult(Eval e) {
        VllmVersion v = version(e);
        Selection s = select(e, v);
        if (e.multiNode() && "trtllm".equals(s.backend())) {
            return new Partial(Outcome.ERROR, null, "ValueError", VllmMessage.TRTLLM_MULTI.text(), WHEN_PASS, s.text() + ", and " + e.span()
                    + ": the trtllm workspace is single-node. AllReduceFusionPass does not catch this ValueError, so the engine fails to start.", VllmSources.TRTLLM_MULTI);
        }
        Partial ws = FlashInferWorkspace.workspace(e, s.backend(), true, null);
        if (ws.outcome() == Outcome.UNKNOWN) {
            return new Partial(Outcome.UNKNOWN, s.backend(), null, null, WHEN_PASS, s.text() + ". " + ws.why(), ws.source());
        }
        return ws.failed() ? creationFailed(e, v, s, ws) : created(e, v, s, ws);
    }

    /** The workspace exists; on bridged NVLink without NVSwitch the mnnvl kernel still crashes in CUDA-graph capture (vllm PR #48075). */
    private static Partial created(Eval e, VllmVersion v, Selection s, Partial ws) {
        String backend = s.backend();
        if ("mnnvl".equals(backend) && !e.multiNode() && !e.nvswitch() && (e.major() == 9 || e.nvlinkBridge())) {
            return new Partial(Outcome.ERROR, null, null, null, "CUDA-graph capture", s.text() + "; the mnnvl workspace is created (the GPUs report multicast) "
                    + "but no NVSwitch is seen: on bridged NVLink single-node topologies (H100-NVL/H200-NVL) the fused kernel then crashes during CUDA-graph "
                    + "capture and the trtllm fallback never fires (vllm PR #48075, open).", v.backendSource());
        }
        String msg = v.autoMnnvlWithFallback() ? VllmMessage.WS_INIT_OK.format(backend)
                : ("auto".equals(s.env()) ? VllmMessage.AUTO_SELECTED : VllmMessage.USING_BACKEND).format(backend);
        return new Partial(Outcome.OK, backend, null, msg, WHEN_PASS, e.gpus() + ", " + e.tpPhrase() + ": " + s.text() + ". " + ws.why(), v.backendSource());
    }

    /** Creating the workspace raised: vLLM warns, retries with trtllm where allowed, else the pass runs unfused. */
    private static Partial creationFailed(Eval e, VllmVersion v, Selection s, Partial ws) {
        String backend = s.backend();
        SourceRef src = v.backendSource();
        String bridged = "mnnvl".equals(backend) && !e.multiNode() && e.nvlinkBridge()
                ? " Note: on bridged NVLink topologies (H100-NVL/H200-NVL) vllm PR #48075 reports the mnnvl workspace being created and the fused kernel "
                + "then crashing in CUDA-graph capture; these GPUs report no multicast, so the creation is expected to fail as described, but that was not verified."
                : "";
        String err = ws.message() != null ? ws.message() : "<exception>";
        String warn = (err.contains("multicast") ? VllmMessage.CREATE_FAILED_MULTICAST : VllmMessage.CREATE_FAILED).format(err);
        if (s.allowFallback()) {
            Partial t = FlashInferWorkspace.workspace(e, "trtllm", true, null);
            if (!t.failed()) {
                return new Partial(Outcome.FALLBACK, "trtllm", null, VllmMessage.MNNVL_FALLBACK.text(), WHEN_PASS, s.text() + ". " + ws.why()
                        + " vLLM warns '" + warn + "' and retries with trtllm, which works: " + Values.decap(t.why()) + bridged, src);
            }
            return new Partial(Outcome.FALLBACK, null, null, VllmMessage.PASS_NO_WORKSPACE.text(), WHEN_PASS, s.text() + ". " + ws.why()
                    + " The trtllm retry fails too: " + Values.decap(t.why()) + " vLLM logs '" + VllmMessage.WS_INIT_FAILED.format("trtllm")
                    + "' and the pass runs unfused.", src);
        }
        return new Partial(Outcome.FALLBACK, null, null, VllmMessage.PASS_NO_WORKSPACE.text(), WHEN_PASS, s.text() + ". Creating the " + backend + " workspace fails: "
                + Values.decap(ws.why()) + " vLLM catches it ('" + warn + "'"
                + (v.autoMnnvlWithFallback() ? ", then '" + VllmMessage.WS_INIT_FAILED.format(backend) + "'" : "")
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

}
