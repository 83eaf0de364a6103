package dev.fabricscope.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * FlashInfer's all-reduce fusion workspace: backend selection (auto / trtllm / mnnvl), what each backend needs, and
 * the MNNVL fabric probe. Also used by the SGLang and vLLM rules, which create this workspace.
 * Reference: backend-rules.md §3.
 */
final class FlashInferRules {

    static final String FW = "flashinfer";

    /**
     * One modelled FlashInfer version.
     *
     * @param trtllmJitMajors      majors the TRT-LLM comm module is built for ({@code jit/comm.py})
     * @param trtllmNeedsMulticast whether the TRT-LLM workspace's {@code SymmDeviceMemory} checks multicast
     * @param fabricAttributeOnly  whether {@code is_mnnvl_fabric_supported} checks only the driver attribute
     */
    record Version(String id, String description, List<Integer> trtllmJitMajors, boolean trtllmNeedsMulticast,
                   boolean fabricAttributeOnly) {
    }

    static final List<Version> VERSIONS = List.of(
            new Version("newest", "flashinfer@0006e88a comm/allreduce.py + comm/mnnvl.py, @01021e50 comm/trtllm_ar.py "
                    + "(TRT-LLM workspace without multicast), @033c1d9e jit/comm.py (TRT-LLM built for SM 9/10/12); fabric probe: "
                    + "attribute + fabric state + cluster UUID", List.of(9, 10, 12), false, false),
            new Version("pre-sm12-trtllm", "as newest, but the TRT-LLM comm module is built for SM 9/10 only (before FlashInfer PR #3903; "
                    + "SGLang issue #15650)", List.of(9, 10), false, false),
            new Version("trtllm-multicast", "as newest, but the TRT-LLM workspace's SymmDeviceMemory checks multicast unconditionally "
                    + "(FlashInfer PR #3745, reverted by #3939)", List.of(9, 10, 12), true, false),
            new Version("fabric-attr-only", "as newest, but is_mnnvl_fabric_supported checks only the fabric-handle attribute "
                    + "(the newer, lighter variant; commit not recorded)", List.of(9, 10, 12), false, true));

    static final List<Integer> MNNVL_JIT_MAJORS = List.of(9, 10);
    static final List<Integer> DCP_A2A_JIT_MAJORS = List.of(9, 10, 11, 12);
    static final List<Integer> TRTLLM_RANKS = List.of(2, 4, 8, 16);

    static final KnobSpec WORKSPACE_BACKEND = new KnobSpec(FW, "create_allreduce_fusion_workspace(backend)", KnobSpec.Kind.LIBRARY,
            KnobSpec.Type.CHOICE, List.of("auto", "trtllm", "mnnvl"), "auto",
            "backend argument of flashinfer.comm.create_allreduce_fusion_workspace", null);
    static final KnobSpec FABRIC_PROBE = new KnobSpec(FW, "is_mnnvl_fabric_supported()", KnobSpec.Kind.PROBE, KnobSpec.Type.NONE,
            List.of(), "probe", "FlashInfer's MNNVL fabric detection: FABRIC handles or POSIX file descriptors", null);

    static final List<KnobSpec> KNOBS = List.of(WORKSPACE_BACKEND, FABRIC_PROBE);

    // ---- messages, verbatim (backend-rules.md §3)
    static final String NO_BACKEND = "No suitable backend found. ";
    static final String CONFIDENTIAL = "NVIDIA Confidential Computing is not supported by the mnnvl AllReduce fusion backend since mnnvl backend requires NVLink multicast, which is unavailable under Confidential Computing. Use backend='trtllm' instead.";
    static final String RANKS = "allreduce_fusion_kernel: unsupported ranks number! Supported ranks: 2, 4, 8, 16.";
    static final String JIT = "No supported CUDA architectures found for major versions %s.";
    static final String NO_MULTICAST = "[SymmDeviceMemory] Device does not support multicasting.";
    /** The start of the RuntimeError fd_exchange raises across hosts (the rest, most likely a 30 s connect time-out, not recorded). */
    static final String FD_EXCHANGE = "[fd_exchange]";

    // ---- sources
    static final String REPO = "flashinfer-ai/flashinfer";
    static final SourceRef SRC_FACTORY = new SourceRef(REPO, "0006e88adb1a928a97b3ad99cb7f47c0db6ae057",
            "flashinfer/comm/allreduce.py", "create_allreduce_fusion_workspace");
    /** Short hash as recorded by the audit (backend-rules.md errata). */
    static final String AUDIT_COMMIT = "fb28d724";
    static final SourceRef SRC_MNNVL = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/mnnvl.py", "SymmDeviceMemory.__init__");
    static final SourceRef SRC_FD_EXCHANGE = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/fd_exchange.py", "fd_exchange (AF_UNIX, one host)");
    static final SourceRef SRC_CONFIDENTIAL = new SourceRef(REPO, AUDIT_COMMIT, "flashinfer/comm/allreduce.py",
            "create_allreduce_fusion_workspace (actual_backend == \"mnnvl\" under Confidential Computing)");
    static final SourceRef SRC_FABRIC = new SourceRef(REPO, "0006e88adb1a928a97b3ad99cb7f47c0db6ae057",
            "flashinfer/comm/mnnvl.py", "is_mnnvl_fabric_supported");
    static final SourceRef SRC_FABRIC_LIGHT = new SourceRef(REPO, null, "flashinfer/comm/mnnvl.py",
            "is_mnnvl_fabric_supported (attribute-only variant)");
    static final SourceRef SRC_TRTLLM = new SourceRef(REPO, "01021e502b3a904d9d4c07c157fcd928417aae30",
            "flashinfer/comm/trtllm_ar.py", "allreduce_fusion (kernels for 2, 4, 8, 16 ranks)");
    static final SourceRef SRC_JIT = new SourceRef(REPO, "033c1d9e97e43fb14d4ee0efc8b56c204e9e3f8c", "flashinfer/jit/comm.py",
            "supported major versions per comm module");

    static final String WHEN_CREATE = "create_allreduce_fusion_workspace call (framework start-up)";
    static final String WHEN_LAUNCH = "first allreduce_fusion kernel launch (CUDA-graph capture or first batch)";

    private FlashInferRules() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        out.add(workspaceVerdict(e));
        out.add(fabricVerdict(e));
        return out;
    }

    // ---- fabric detection

    /** {@code is_mnnvl_fabric_supported(dev)} as the selected FlashInfer version computes it. */
    static boolean fabricSupported(Eval e) {
        if (!e.cuda()) {
            return false;
        }
        return e.versions.flashinfer().fabricAttributeOnly() ? e.fabricHandles() : e.fabricHandles() && e.mnnvlFabric();
    }

    /** Plain words for the fabric decision. */
    static String fabricWhy(Eval e) {
        boolean handles = e.fabricHandles();
        if (e.versions.flashinfer().fabricAttributeOnly()) {
            return handles ? "the GPUs report fabric-handle support, which is all this FlashInfer version's fabric probe checks"
                    : "the GPUs do not report fabric-handle support (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 0)";
        }
        boolean domain = e.mnnvlFabric();
        if (handles && domain) {
            return "the GPUs report fabric handles and are registered in an MNNVL fabric";
        }
        if (handles) {
            return "the GPUs report fabric handles but are not registered in an MNNVL fabric (NVML fabric state not COMPLETED or zero cluster UUID)";
        }
        return "the GPUs do not report fabric-handle support";
    }

    private static Verdict fabricVerdict(Eval e) {
        VerdictBuilder v = e.on(FABRIC_PROBE, e.versions.flashinfer().id())
                .source(e.versions.flashinfer().fabricAttributeOnly() ? SRC_FABRIC_LIGHT : SRC_FABRIC)
                .when(WHEN_CREATE);
        if (!e.cuda()) {
            return v.ok().why("The platform is " + e.platformName() + "; FlashInfer's fabric probe applies to NVIDIA GPUs only.").build();
        }
        if (fabricSupported(e)) {
            return v.ok().resolved("FABRIC handles").why("True: " + fabricWhy(e)
                    + ". MNNVL workspaces exchange FABRIC handles, which work across nodes (with an IMEX channel).").build();
        }
        v.resolved("POSIX FD (one host only)");
        if (e.tpSpansNodes()) {
            return v.fallback().why("False: " + fabricWhy(e) + ". MNNVL workspaces fall back to POSIX file descriptors over AF_UNIX, "
                            + "which only work within one host, and " + e.span() + " with the " + e.tpPhrase()
                            + " group across them: an mnnvl workspace fails in fd_exchange (a RuntimeError starting '" + FD_EXCHANGE + "').")
                    .fix("an MNNVL system (GB200/GB300 NVL) with the IMEX service and a channel under /dev/nvidia-caps-imex-channels, or keep the TP group within one node")
                    .build();
        }
        return v.ok().why("False: " + fabricWhy(e) + ". MNNVL workspaces exchange POSIX file descriptors, which is fine within one host.").build();
    }

    // ---- workspace

    /**
     * {@code create_allreduce_fusion_workspace(backend)} as a framework calls it for the deployment's TP group:
     * OK with the backend that was created, or the exception it raises (outcome ERROR; callers that catch it turn
     * that into their own fallback). Kernel-launch limits are separate ({@link #kernelRanks}).
     *
     * @param explicit    whether the caller passed the backend explicitly (kept for callers; Confidential Computing refuses mnnvl either way)
     * @param fabricForce overrides the fabric probe (SGLang's transport workaround forces POSIX FD), or null
     */
    static Partial workspace(Eval e, String backend, boolean explicit, Boolean fabricForce) {
        if (!e.cuda()) {
            return new Partial(Outcome.ERROR, null, null, null, WHEN_CREATE, "FlashInfer is a CUDA library; the platform is "
                    + e.platformName() + ", so no workspace can be created.", SRC_FACTORY);
        }
        int ws = e.tp();
        String chosen = backend;
        String autoWhy = "";
        if ("auto".equals(backend)) {
            boolean trt = ws <= 16;
            boolean mn = e.multicast();
            if (!trt && !mn) {
                return new Partial(Outcome.ERROR, null, "ValueError", NO_BACKEND, WHEN_CREATE, "'auto' considers trtllm only for world size ≤ 16 (here "
                        + ws + ") and mnnvl only when every rank reports multicast, which these GPUs do not.", SRC_FACTORY);
            }
            chosen = mn ? "mnnvl" : "trtllm";
            autoWhy = mn ? "'auto' prefers mnnvl because every rank reports multicast. "
                    : "'auto' keeps only trtllm (world size " + ws + " ≤ 16) because the GPUs do not report multicast. ";
        }
        int major = e.major();
        if ("mnnvl".equals(chosen)) {
            if (e.confidentialCompute()) {
                return new Partial(Outcome.ERROR, null, "ValueError", CONFIDENTIAL, WHEN_CREATE, autoWhy
                        + "Confidential Computing is on, and FlashInfer refuses the mnnvl backend under it (whether requested or chosen by 'auto').", SRC_CONFIDENTIAL);
            }
            if (!e.multicast()) {
                return new Partial(Outcome.ERROR, null, "RuntimeError", NO_MULTICAST, WHEN_CREATE,
                        autoWhy + "The mnnvl workspace allocates multicast memory (McastGPUBuffer → SymmDeviceMemory(enable_multicast=True)), and the GPUs "
                                + "do not report NVLink multicast (attribute 132 = 0); SymmDeviceMemory.__init__ fails first.", SRC_MNNVL);
            }
            if (!MNNVL_JIT_MAJORS.contains(major)) {
                return new Partial(Outcome.ERROR, null, null, String.format(JIT, Values.pyList(MNNVL_JIT_MAJORS)), WHEN_CREATE,
                        autoWhy + e.gpus() + "; FlashInfer builds its MNNVL comm module for SM 9 and 10 only (Thor and RTX/consumer "
                                + "SM 11/12 are excluded; message format as reported for the TRT-LLM module, exception class not recorded).", SRC_JIT);
            }
            boolean fabric = fabricForce != null ? fabricForce : fabricSupported(e);
            if (e.tpSpansNodes() && !fabric) {
                return new Partial(Outcome.ERROR, null, "RuntimeError", FD_EXCHANGE + " …", WHEN_CREATE,
                        autoWhy + e.span() + " with the " + e.tpPhrase() + " group across them, but "
                                + (fabricForce != null ? "FABRIC handles are switched off" : fabricWhy(e))
                                + ", so SymmDeviceMemory exchanges POSIX file descriptors through fd_exchange (AF_UNIX, one host only): a RuntimeError "
                                + "starting '" + FD_EXCHANGE + "', most likely a connect time-out after 30 s (full text not recorded).", SRC_FD_EXCHANGE);
            }
            return Partial.ok("mnnvl", WHEN_CREATE, autoWhy + "The mnnvl workspace gets multicast memory on every rank"
                    + (e.tpSpansNodes() ? " and FABRIC handles across the " + e.nodes() + " nodes" : "") + ".", SRC_FACTORY);
        }
        Version v = e.versions.flashinfer();
        if (!v.trtllmJitMajors().contains(major)) {
            return new Partial(Outcome.ERROR, null, null, String.format(JIT, Values.pyList(v.trtllmJitMajors())), WHEN_CREATE,
                    autoWhy + e.gpus() + "; this FlashInfer version builds its TRT-LLM comm module for SM "
                            + v.trtllmJitMajors().stream().map(String::valueOf).reduce((a, b) -> a + "/" + b).orElse("")
                            + " only (exception class not recorded"
                            + (v.trtllmJitMajors().contains(12) ? "; message format as reported with [9, 10] in SGLang issue #15650" : "") + ").", SRC_JIT);
        }
        if (v.trtllmNeedsMulticast() && !e.multicast()) {
            return new Partial(Outcome.ERROR, null, "RuntimeError", NO_MULTICAST, WHEN_CREATE,
                    autoWhy + "In this FlashInfer version the TRT-LLM workspace's SymmDeviceMemory checks multicast unconditionally, and the GPUs do not report NVLink multicast.",
                    SRC_MNNVL);
        }
        if (e.tpSpansNodes()) {
            return new Partial(Outcome.ERROR, null, null, null, WHEN_CREATE, autoWhy + "The TRT-LLM workspace shares IPC buffers within one host, but "
                    + e.span() + " with the " + e.tpPhrase() + " group across them (SGLang and vLLM refuse trtllm across nodes for this reason; "
                    + "FlashInfer's own error text for this case was not read).", SRC_TRTLLM);
        }
        return Partial.ok("trtllm", WHEN_CREATE, autoWhy + "The TRT-LLM workspace needs no multicast in this FlashInfer version"
                + (e.confidentialCompute() ? " and uses plain IPC under Confidential Computing" : "") + ".", SRC_FACTORY);
    }

    /** The TRT-LLM fusion kernels exist for 2, 4, 8 and 16 ranks only; null when the world size is fine. */
    static Partial kernelRanks(Eval e, String backend) {
        if (!"trtllm".equals(backend) || TRTLLM_RANKS.contains(e.tp())) {
            return null;
        }
        return new Partial(Outcome.ERROR, null, "RuntimeError", RANKS, WHEN_LAUNCH, "The TRT-LLM all-reduce fusion kernels are instantiated for 2, 4, 8 and 16 ranks; "
                + e.tpPhrase() + " is none of them (raised at kernel launch; low confidence on how the calling framework surfaces it).", SRC_TRTLLM);
    }

    private static Verdict workspaceVerdict(Eval e) {
        VerdictBuilder v = e.on(WORKSPACE_BACKEND, e.versions.flashinfer().id());
        String backend = v.value();
        if (e.cuda() && e.tp() <= 1) {
            return v.ok().source(SRC_FACTORY).when(WHEN_CREATE).why("World size 1 (TP 1): there is nothing to all-reduce, so no workspace is needed.").build();
        }
        Partial p = workspace(e, backend, !"auto".equals(backend), null);
        if (!p.failed()) {
            Partial ranks = kernelRanks(e, p.resolved());
            if (ranks != null) {
                p = ranks;
            }
        }
        v.apply(p);
        if (p.failed()) {
            v.fix(alternative(e, backend));
        } else {
            v.why(e.gpus() + ", " + e.tpPhrase() + (e.tpSpansNodes() ? "" : " on one node") + ": " + p.why());
        }
        return v.build();
    }

    /** A backend that works here, as a fix, or what to do when none does. */
    private static String alternative(Eval e, String failed) {
        String best = bestBackend(e);
        if (best != null && !best.equals(failed)) {
            return "create_allreduce_fusion_workspace(backend=\"" + best + "\")";
        }
        return best == null ? "no FlashInfer fusion backend works for this machine and world size; use the unfused all-reduce (NCCL)" : null;
    }

    /** The first of mnnvl, trtllm whose workspace and kernels work here, or null. */
    static String bestBackend(Eval e) {
        for (String b : List.of("mnnvl", "trtllm")) {
            Partial p = workspace(e, b, true, null);
            if (!p.failed() && kernelRanks(e, b) == null) {
                return b;
            }
        }
        return null;
    }

    static Recommendation recommend(Eval e) {
        if (!e.cuda()) {
            return new Recommendation(FW, List.of(), Map.of(), "FlashInfer needs CUDA; the platform is " + e.platformName() + ".");
        }
        if (e.tp() <= 1) {
            return new Recommendation(FW, List.of(), Map.of(), "TP 1: no all-reduce workspace needed.");
        }
        String best = bestBackend(e);
        if (best == null) {
            return new Recommendation(FW, List.of(), Map.of(), "No FlashInfer all-reduce fusion backend works for " + e.tpPhrase()
                    + " on this machine; use the unfused all-reduce.");
        }
        String why = "mnnvl".equals(best) ? "mnnvl: every rank has NVLink multicast" + (e.tpSpansNodes() ? " and FABRIC handles across nodes" : "")
                : "trtllm: " + (e.multicast() ? "mnnvl does not work here" : "the GPUs lack NVLink multicast, which mnnvl needs");
        return new Recommendation(FW, List.of("create_allreduce_fusion_workspace(backend=\"" + best + "\")"), Map.of(), why + ".");
    }
}
