package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import java.util.List;

/**
 * FlashInfer's all-reduce fusion workspace as a framework creates it: backend selection (auto / trtllm / mnnvl), what
 * each backend needs, the kernels' rank limits and the MNNVL fabric probe. Shared by the FlashInfer, SGLang and vLLM
 * rules. Reference: backend-rules.md §3.
 */
public final class FlashInferWorkspace {

    static final List<Integer> MNNVL_JIT_MAJORS = List.of(9, 10);
    public static final List<Integer> DCP_A2A_JIT_MAJORS = List.of(9, 10, 11, 12);
    public static final List<Integer> TRTLLM_RANKS = FlashInferWorldSizes.TRTLLM.sizes();

    private FlashInferWorkspace() {
    }

    // ---- fabric detection (§3.3)

    /** {@code is_mnnvl_fabric_supported(dev)} as the selected FlashInfer version computes it. */
    public static boolean fabricSupported(Eval e) {
        if (!e.cuda()) {
            return false;
        }
        return e.version(FlashInferVersion.class).fabricAttributeOnly() ? e.fabricHandles() : e.fabricHandles() && e.mnnvlFabric();
    }

    /** Plain words for the fabric decision. */
    public static String fabricWhy(Eval e) {
        boolean handles = e.fabricHandles();
        if (e.version(FlashInferVersion.class).fabricAttributeOnly()) {
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

    // ---- workspace (§3.1–3.3)

    /**
     * {@code create_allreduce_fusion_workspace(backend)} as a framework calls it for the deployment's TP group:
     * OK with the backend that was created, or the exception it raises (outcome ERROR; callers that catch it turn
     * that into their own fallback). Kernel-launch limits are separate ({@link #kernelRanks}).
     *
     * @param explicit    whether the caller passed the backend explicitly (kept for callers; Confidential Computing refuses mnnvl either way)
     * @param fabricForce overrides the fabric probe (SGLang's transport workaround forces POSIX FD), or null
     */
    public static Partial workspace(Eval e, String backend, boolean explicit, Boolean fabricForce) {
        if (!e.cuda()) {
            return new Partial(Outcome.ERROR, null, null, null, FlashInferSources.WHEN_CREATE, "FlashInfer is a CUDA library; the platform is "
                    + e.platformName() + ", so no workspace can be created.", FlashInferSources.FACTORY);
        }
        int ws = e.tp();
        String chosen = backend;
        String autoWhy = "";
        Boolean gate = e.version(FlashInferVersion.class).autoMulticastGate();
        if ("auto".equals(backend) && Boolean.FALSE.equals(gate)) {
            // ninth audit F28: before 6104afe3 (v0.6.16) _mnnvl_workspace_check returns True and the heuristic prefers mnnvl
            chosen = "mnnvl";
            autoWhy = "'auto' in this FlashInfer release picks mnnvl whatever multicast says (_mnnvl_workspace_check returns True and the "
                    + "heuristic prefers mnnvl; allreduce.py@v0.6.9:208-221; the multicast gate came with 6104afe3, v0.6.16). ";
        } else if ("auto".equals(backend) && gate == null && !e.multicast()) {
            return new Partial(Outcome.UNKNOWN, null, null, null, FlashInferSources.WHEN_CREATE, "The releases of this set differ here: before "
                    + "v0.6.16 'auto' picks mnnvl whatever multicast says (then SymmDeviceMemory fails without multicast), from v0.6.16 "
                    + "(6104afe3) it keeps trtllm on GPUs without multicast; name the release with --framework-version flashinfer=….",
                    FlashInferSources.AUTO_OLD);
        } else if ("auto".equals(backend)) {
            boolean mn = e.multicast();
            if (ws > 16 && !mn) {
                return new Partial(Outcome.ERROR, null, "ValueError", FlashInferMessage.NO_BACKEND.text(), FlashInferSources.WHEN_CREATE,
                        "'auto' considers trtllm only for world size ≤ 16 (here " + ws + ") and mnnvl only when every rank reports multicast, "
                                + "which these GPUs do not.", FlashInferSources.FACTORY);
            }
            chosen = mn ? "mnnvl" : "trtllm";
            autoWhy = mn ? "'auto' prefers mnnvl because every rank reports multicast. "
                    : "'auto' keeps only trtllm (world size " + ws + " ≤ 16) because the GPUs do not report multicast. ";
        }
        int major = e.major();
        return "mnnvl".equals(chosen) ? mnnvl(e, major, autoWhy, fabricForce) : trtllm(e, major, autoWhy, fabricForce);
    }

    /** The mnnvl workspace: no Confidential Computing, multicast, the JIT module, FABRIC handles across nodes. */
    private static Partial mnnvl(Eval e, int major, String autoWhy, Boolean fabricForce) {
        String when = FlashInferSources.WHEN_CREATE;
        if (e.confidentialCompute() && !e.version(FlashInferVersion.class).confidentialChecks()) {
            return confidentialUnread(autoWhy, "this FlashInfer version does not read it (the refusal of mnnvl under it appears in "
                    + "v0.6.16rc1); what SymmDeviceMemory does under it");
        }
        if (e.confidentialCompute()) {
            return new Partial(Outcome.ERROR, null, "ValueError", FlashInferMessage.CONFIDENTIAL.text(), when, autoWhy
                    + "Confidential Computing is on, and FlashInfer refuses the mnnvl backend under it (whether requested or chosen by 'auto').",
                    FlashInferSources.CONFIDENTIAL);
        }
        if (!e.multicast()) {
            return new Partial(Outcome.ERROR, null, "RuntimeError", FlashInferMessage.NO_MULTICAST.text(), when,
                    autoWhy + "The mnnvl workspace allocates multicast memory (McastGPUBuffer → SymmDeviceMemory(enable_multicast=True)), and the GPUs "
                            + "do not report NVLink multicast (attribute 132 = 0); SymmDeviceMemory.__init__ fails first.", FlashInferSources.MNNVL);
        }
        if (!MNNVL_JIT_MAJORS.contains(major)) {
            return new Partial(Outcome.ERROR, null, null, FlashInferMessage.JIT.format(Values.pyList(MNNVL_JIT_MAJORS)), when,
                    autoWhy + e.gpus() + "; FlashInfer builds its MNNVL comm module for SM 9 and 10 only (Thor and RTX/consumer "
                            + "SM 11/12 are excluded; message format as reported for the TRT-LLM module, exception class not recorded).", FlashInferSources.JIT);
        }
        boolean fabric = fabricForce != null ? fabricForce : fabricSupported(e);
        if (e.tpSpansNodes() && !fabric) {
            String fd = FlashInferMessage.FD_EXCHANGE.text();
            return new Partial(Outcome.ERROR, null, "RuntimeError", fd + " …", when,
                    autoWhy + e.span() + " with the " + e.tpPhrase() + " group across them, but "
                            + (fabricForce != null ? "FABRIC handles are switched off" : fabricWhy(e))
                            + ", so SymmDeviceMemory exchanges POSIX file descriptors through fd_exchange (AF_UNIX, one host only): a RuntimeError "
                            + "starting '" + fd + "', most likely a connect time-out after 30 s (full text not recorded).", FlashInferSources.FD_EXCHANGE);
        }
        Partial imex = fabric ? imexChannel(e, autoWhy, "mnnvl") : null;
        if (imex != null) {
            return imex;
        }
        return Partial.ok("mnnvl", when, autoWhy + "The mnnvl workspace gets multicast memory on every rank"
                + (e.tpSpansNodes() ? " and FABRIC handles across the " + e.nodes() + " nodes" : "") + ".", FlashInferSources.FACTORY);
    }

    /**
     * A workspace on SymmDeviceMemory allocates with FABRIC handles whenever is_mnnvl_fabric_supported holds, on one
     * node too (make_handle_exchanger, mnnvl.py@fb28d724:679-689; cuMemCreate under checkCudaErrors, :1045-1056), and
     * CUDA creates FABRIC memory only through an IMEX channel: none is an error, unread is unknown, null where one exists.
     */
    private static Partial imexChannel(Eval e, String autoWhy, String backend) {
        Boolean channel = e.imexChannel();
        if (Boolean.TRUE.equals(channel)) {
            return null;
        }
        String base = autoWhy + "The " + backend + " workspace is SymmDeviceMemory, which allocates with FABRIC handles because "
                + fabricWhy(e) + " (make_handle_exchanger picks FABRIC whenever is_mnnvl_fabric_supported holds, on one node too), and "
                + "CUDA creates FABRIC memory only through an IMEX channel (/dev/nvidia-caps-imex-channels; the same premise NCCL's MNNVL "
                + "check states)";
        if (Boolean.FALSE.equals(channel)) {
            return new Partial(Outcome.ERROR, null, null, null, FlashInferSources.WHEN_CREATE, base + ", and this node has none: cuMemCreate "
                    + "fails under checkCudaErrors (CUDA error code and text not recorded).", FlashInferSources.FABRIC);
        }
        return new Partial(Outcome.UNKNOWN, null, null, null, FlashInferSources.WHEN_CREATE, base + "; whether this node has one was not read.",
                FlashInferSources.FABRIC);
    }

    /** The TRT-LLM workspace: the JIT module, multicast in one version, one host. */
    private static Partial trtllm(Eval e, int major, String autoWhy, Boolean fabricForce) {
        String when = FlashInferSources.WHEN_CREATE;
        FlashInferVersion v = e.version(FlashInferVersion.class);
        if (!v.trtllmJitMajors().contains(major)) {
            return new Partial(Outcome.ERROR, null, null, FlashInferMessage.JIT.format(Values.pyList(v.trtllmJitMajors())), when,
                    autoWhy + e.gpus() + "; this FlashInfer version builds its TRT-LLM comm module for SM "
                            + v.trtllmJitMajors().stream().map(String::valueOf).reduce((a, b) -> a + "/" + b).orElse("")
                            + " only (exception class not recorded"
                            + (v.trtllmJitMajors().contains(12) ? "; message format as reported with [9, 10] in SGLang issue #15650" : "") + ").",
                    FlashInferSources.JIT);
        }
        if (e.confidentialCompute() && !v.confidentialChecks()) {
            return confidentialUnread(autoWhy, "this FlashInfer version's allreduce.py does not read it (from v0.6.16rc1 it switches the "
                    + "TRT-LLM workspace to plain IPC); what its allocation does under Confidential Computing");
        }
        if (v.trtllmMemory() == FlashInferVersion.TrtllmMemory.SYMM_DEVICE_MEMORY_MULTICAST_CHECK && !e.multicast()) {
            return new Partial(Outcome.ERROR, null, "RuntimeError", FlashInferMessage.NO_MULTICAST.text(), when,
                    autoWhy + "In this FlashInfer version the TRT-LLM workspace is SymmDeviceMemory, whose constructor checks multicast "
                            + "whatever enable_multicast says, and the GPUs do not report NVLink multicast.",
                    FlashInferSources.TRTLLM_MULTICAST);
        }
        if (v.trtllmMemory() == FlashInferVersion.TrtllmMemory.TORCH_SYMMETRIC_MEMORY) {
            return new Partial(Outcome.UNKNOWN, null, null, null, when, autoWhy + "In this FlashInfer version the TRT-LLM workspace's buffers "
                    + "come from PyTorch symmetric memory (symm_mem.empty and rendezvous over the process group); what PyTorch's allocator "
                    + "needs (handle type, peer access, nodes) is not modelled.", FlashInferSources.TRTLLM_TORCH_SYMM);
        }
        boolean fabric = !e.confidentialCompute() && (fabricForce != null ? fabricForce : fabricSupported(e));
        Partial imex = fabric ? imexChannel(e, autoWhy, "trtllm") : null;
        if (imex != null) {
            return imex;
        }
        if (e.tpSpansNodes()) {
            return trtllmAcrossNodes(e, autoWhy, fabric);
        }
        if (!e.p2p() && !e.confidentialCompute()) {
            // SymmDeviceMemory maps every peer's allocation for this GPU (mnnvl.py@fb28d724:1065-1101) and the kernels read it directly
            return new Partial(Outcome.UNKNOWN, null, null, null, when, autoWhy + "The TRT-LLM workspace is SymmDeviceMemory, which imports "
                    + "and maps every peer's allocation for this GPU (cuMemImportFromShareableHandle, cuMemMap, cuMemSetAccess under "
                    + "checkCudaErrors) for kernels that read peer memory directly, and not every GPU pair reports peer access; FlashInfer "
                    + "checks none, and what CUDA returns then was not read.", FlashInferSources.TRTLLM_SYMM);
        }
        return Partial.ok("trtllm", when, autoWhy + "The TRT-LLM workspace needs no multicast in this FlashInfer version"
                + (e.confidentialCompute() ? " and uses plain IPC under Confidential Computing" : "") + ".", FlashInferSources.FACTORY);
    }

    /**
     * The TRT-LLM workspace across nodes. At fb28d724 it is SymmDeviceMemory(enable_multicast=False), which exchanges
     * FABRIC handles when the fabric is supported and POSIX file descriptors (one host) otherwise; under Confidential
     * Computing it is plain IPC memory ({@code _alloc_symm_buffer_bytes}), one host only.
     */
    private static Partial trtllmAcrossNodes(Eval e, String autoWhy, boolean fabric) {
        String when = FlashInferSources.WHEN_CREATE;
        String span = e.span() + " with the " + e.tpPhrase() + " group across them";
        if (e.confidentialCompute()) {
            return new Partial(Outcome.ERROR, null, null, null, when, autoWhy + span + ", and under Confidential Computing the TRT-LLM "
                    + "workspace uses plain CUDA IPC memory, which does not cross hosts (FlashInfer's own error text for this case was not read).",
                    FlashInferSources.TRTLLM_SYMM);
        }
        if (!fabric) {
            String fd = FlashInferMessage.FD_EXCHANGE.text();
            return new Partial(Outcome.ERROR, null, "RuntimeError", fd + " …", when, autoWhy + span + ", but "
                    + (fabricSupported(e) ? "FABRIC handles are switched off" : fabricWhy(e))
                    + ", so the TRT-LLM workspace's SymmDeviceMemory exchanges POSIX file descriptors through fd_exchange (AF_UNIX, one host "
                    + "only): a RuntimeError starting '" + fd + "' (full text not recorded).", FlashInferSources.FD_EXCHANGE);
        }
        return Partial.ok("trtllm", when, autoWhy + "The TRT-LLM workspace is SymmDeviceMemory without multicast, and " + fabricWhy(e)
                + ", so it exchanges FABRIC handles across the " + e.nodes() + " nodes.", FlashInferSources.TRTLLM_SYMM);
    }

    /**
     * What {@code PcieIpcAllReduceWorkspace} does for a TP group whose world size a caller has already checked against
     * {@link FlashInferWorldSizes#PCIE_IPC}: CUDA IPC buffers ({@code create_shared_buffer}) open on one host only, and
     * without peer access whether {@code cudaIpcOpenMemHandle} succeeds was not read.
     */
    /** Confidential Computing on, in a version whose code for it was not read: unknown, saying {@code what} was not read. */
    private static Partial confidentialUnread(String autoWhy, String what) {
        return new Partial(Outcome.UNKNOWN, null, null, null, FlashInferSources.WHEN_CREATE, autoWhy + "Confidential Computing is on, and "
                + what + " was not read.", FlashInferSources.CONFIDENTIAL);
    }

    /** Whether the FlashInfer build has PcieIpcAllReduceWorkspace, as the chosen set says (null: not known). */
    public static Boolean hasPcieIpc(Eval e) {
        return e.version(FlashInferVersion.class).pcieIpc();
    }

    /** Why the PCIe IPC workspace's presence is what it is, for the callers' verdicts. */
    public static String pcieIpcPresence(Eval e) {
        Boolean has = hasPcieIpc(e);
        return Boolean.FALSE.equals(has) ? "this FlashInfer release has no PcieIpcAllReduceWorkspace (it arrived on main in 299e6d11, "
                + "2026-08-20, which no release up to v0.6.18rc7 contains)"
                : "whether this FlashInfer build has PcieIpcAllReduceWorkspace was not read (main has it since 299e6d11, 2026-08-20; no "
                + "release up to v0.6.18rc7 does; name the release with --framework-version flashinfer=…)";
    }

    public static Partial pcieIpc(Eval e) {
        String when = FlashInferSources.WHEN_PCIE_IPC;
        if (e.tpSpansNodes()) {
            return new Partial(Outcome.ERROR, null, null, null, when, e.span() + " with the " + e.tpPhrase() + " group across them, and the "
                    + "workspace shares cudaIpcGetMemHandle buffers (create_shared_buffer), which only open on the same host (FlashInfer's "
                    + "error text for this case was not read).", FlashInferSources.CUDA_IPC);
        }
        if (!e.p2p()) {
            return new Partial(Outcome.UNKNOWN, null, null, null, when, "Not every GPU pair reports peer access, and whether "
                    + "cudaIpcOpenMemHandle then succeeds for the IPC buffers was not read.", FlashInferSources.CUDA_IPC);
        }
        return Partial.ok("pcie_ipc", when, e.gpus() + ", " + e.tpPhrase() + " on one host with peer access: world size in the table, "
                + "no architecture restriction on its JIT module (jit/comm.py gen_pcie_ipc_comm_module), CUDA IPC buffers within the host.",
                FlashInferWorldSizes.PCIE_IPC.source());
    }

    /**
     * The fusion kernels' world-size table ({@link FlashInferWorldSizes}) for the backend that was created; null when
     * the world size is one the kernels are compiled for.
     */
    public static Partial kernelRanks(Eval e, String backend) {
        FlashInferWorldSizes row = FlashInferWorldSizes.of(backend).orElse(null);
        if (row == null || row == FlashInferWorldSizes.PCIE_IPC || row.accepts(e.tp())) {
            return null;
        }
        return new Partial(Outcome.ERROR, null, "RuntimeError", row.messageFor(e.tp()), row.when(),
                "The " + backend + " all-reduce fusion kernels are compiled for " + row.sizesPhrase() + " ranks; " + e.tpPhrase()
                        + " is none of them (raised at kernel launch, after the workspace was created; the calling framework does not catch it).",
                row.source());
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

    /** Whether a backend's workspace is unknown here (so "none works" would claim too much). */
    static boolean someBackendUnknown(Eval e) {
        for (String b : List.of("mnnvl", "trtllm")) {
            if (workspace(e, b, true, null).outcome() == Outcome.UNKNOWN) {
                return true;
            }
        }
        return false;
    }
}
