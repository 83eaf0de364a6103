package dev.fabricscope.check;

import dev.fabricscope.check.api.CallStep;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.PreflightRequest;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.check.api.WorkspaceSizing;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.cuda.CuMemAllocationProp;
import dev.fabricscope.nativeapi.cuda.CudaAttribute;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.nvml.FabricDecoder;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs, on every local GPU, the steps SGLang takes before creating FlashInfer's all-reduce fusion workspace
 * ({@code _preflight_check_workspace_memory} and helpers in {@code python/sglang/srt/layers/flashinfer_comm_fusion.py},
 * SGLang PR #24172; stored copies, commit not recorded), through the check's CUDA seam with explicitly zeroed
 * structs:
 * <ol>
 * <li>{@code _make_flashinfer_workspace_allocation_prop}: PINNED on the device, {@code gpuDirectRDMACapable = 1},
 *     handle type FABRIC when FlashInfer's {@code is_mnnvl_fabric_supported} (flashinfer@0006e88
 *     {@code flashinfer/comm/mnnvl.py}: attribute 128 and NVML fabric state COMPLETED with a non-zero cluster UUID)
 *     says so, else POSIX FD; POSIX FD forced by {@code SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT} or aarch64 + SM10x;</li>
 * <li>for each of the three workspace buffers: {@code cuMemGetAllocationGranularity(RECOMMENDED)} and
 *     {@code cuMulticastGetGranularity(numDevices = world size, RECOMMENDED)} (query only); a failure raises
 *     {@code RuntimeError("… failed for FlashInfer workspace preflight: {err}")}, logged as
 *     {@code FlashInfer workspace preflight probe failed (%s). Skipping allreduce fusion.};</li>
 * <li>{@code _probe_cumem_create_sequence}: {@code cuMemCreate} of each size, then {@code cuMemRelease} in reverse;</li>
 * <li>the AND vote over ranks (here: over local GPUs).</li>
 * </ol>
 * Plus the fabric-handle check: {@code cuMemCreate} with FABRIC handles and {@code cuMemExportToShareableHandle}.
 * Never calls {@code cuMulticastCreate}.
 */
public final class PreflightCheck {

    public static final String NAME = PreflightResult.CHECK;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** SGLang's override of the handle type. */
    static final String FORCE_POSIX_FD = "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT";
    static final String PROBE_FAILED = "FlashInfer workspace preflight probe failed (%s). Skipping allreduce fusion.";
    static final String VOTE_FAILED = "FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank. "
            + "Skipping allreduce fusion to avoid cross-rank desync inside the flashinfer collective.";
    static final String SOURCE = "sgl-project/sglang python/sglang/srt/layers/flashinfer_comm_fusion.py "
            + "(_preflight_check_workspace_memory, SGLang PR #24172; stored copies, commit not recorded)";

    private PreflightCheck() {
    }

    /**
     * How SGLang's f-string renders the CUresult in {@code "...: {err}"}: cuda-bindings 13 prints an enum member as
     * {@code <CUresult.CUDA_ERROR_NOT_SUPPORTED: 801>} (seen on the GPU machine with the same call, see the captured
     * fixture h200-vm-2026-11-29-checks/sglang-reference.txt). Older cuda-python builds whose CUresult is a plain
     * IntEnum print only the number on Python 3.11+.
     */
    static String sglangErrorText(String codeName, int code) {
        return "<CUresult." + codeName + ": " + code + ">";
    }

    /** On this machine's GPUs. */
    public static PreflightResult run(PreflightRequest req, CheckOptions options) {
        return run(req, options, CheckBackends.live(System.getenv()));
    }

    /** Through {@code backends}: the driver, or a trace being recorded or replayed. */
    public static PreflightResult run(PreflightRequest req, CheckOptions options, CheckBackends backends) {
        return CheckRunner.run(NAME, options, ctx -> body(req, ctx, backends), (status, message) -> new PreflightResult(NAME,
                status, message, null, List.of(), null, List.of(), message, List.of(), MemoryAudit.none(
                        "not measured: " + message)));
    }

    private static PreflightResult body(PreflightRequest req, CheckContext ctx, CheckBackends backends) {
        GpuSession s;
        try {
            s = GpuSession.open(backends);
        } catch (NoDriverException e) {
            return new PreflightResult(NAME, CheckStatus.SKIPPED, e.getMessage(), null, List.of(), null, List.of(),
                    e.getMessage(), List.of(), MemoryAudit.none("no GPU used"));
        }
        int worldSize = req.worldSize() == null ? s.size() : req.worldSize();
        PreflightResult.Params params = new PreflightResult.Params(worldSize, req.maxTokens(), req.hidden(), req.dtype(), s.size());
        List<PreflightResult.Gpu> gpus = new ArrayList<>();
        CheckStatus aborted = null;
        String abortMessage = null;
        try {
            for (int i = 0; i < s.size(); i++) {
                ctx.progress("preflight on GPU" + i, (double) i / s.size());
                gpus.add(probeGpu(s, i, params, ctx));
            }
        } catch (CheckAbortedException e) {
            aborted = e.status();
            abortMessage = e.getMessage();
        } catch (RuntimeException e) {
            aborted = CheckStatus.ERROR;
            abortMessage = e.getMessage();
        } finally {
            s.close();
        }
        MemoryAudit memory = s.audit();
        List<String> notes = new ArrayList<>();
        notes.add("Steps mirror " + SOURCE + "; the vote is the AND over the local GPUs, each probed as one rank.");
        if (worldSize <= 1) {
            notes.add("World size 1: SGLang does not run this preflight (ensure_workspace_initialized returns early when "
                    + "the fusion group's world size is 1, there is nothing to all-reduce); the steps were run with "
                    + "numDevices = 1 to show what the driver answers. Use --world-size N for a TP-N deployment.");
        } else if (worldSize > s.size()) {
            notes.add("World size " + worldSize + " > " + s.size() + " local GPU(s): each local GPU was probed as one rank of "
                    + worldSize + " (the driver calls are per rank and local); the other ranks were not probed.");
        }
        if (!s.cleanupErrors().isEmpty()) {
            notes.add("Clean-up problems: " + String.join("; ", s.cleanupErrors()));
        }
        if (aborted != null) {
            return new PreflightResult(NAME, aborted, abortMessage, params, gpus, null, List.of(), abortMessage, notes, memory);
        }
        boolean proceed = !gpus.isEmpty() && gpus.stream().allMatch(PreflightResult.Gpu::localOk);
        List<String> log = new ArrayList<>();
        for (PreflightResult.Gpu g : gpus) {
            if (g.probeError() != null) {
                log.add("[TP" + g.cudaOrdinal() + "] " + String.format(Locale.ROOT, PROBE_FAILED, g.probeError()));
            }
        }
        double probeGb = gpus.isEmpty() ? 0 : gpus.get(0).allocationSizes().stream().mapToLong(Long::longValue).sum() / 1e9;
        if (!proceed) {
            log.add(VOTE_FAILED);
        } else {
            log.add(String.format(Locale.ROOT, "(debug) FlashInfer workspace preflight [rank 0]: probe=%.2f GB, "
                    + "local_probe=OK, vote=PROCEED", probeGb));
        }
        String conclusion = conclusion(gpus, proceed, worldSize);
        String vote = (proceed ? "vote PROCEED" : "vote SKIP") + " on " + gpus.size() + " GPU(s)";
        String summary = worldSize <= 1
                ? PreflightResult.NOT_APPLICABLE + "; at a larger world size, " + vote + ": "
                        + conclusion(gpus, proceed, 2)
                : vote + ", world size " + worldSize + ": " + conclusion;
        return new PreflightResult(NAME, status(proceed, worldSize), summary, params, gpus,
                proceed ? "PROCEED" : "SKIP", log, conclusion, notes, memory);
    }

    /** The summary's first words at world size 1, where the check does not apply. */

    /**
     * SKIPPED at world size 1: SGLang returns before the preflight when the fusion group has one rank (the notes cite
     * it), so whatever the driver answers there cannot fail a deployment. Otherwise the vote decides.
     */
    public static CheckStatus status(boolean proceed, int worldSize) {
        return worldSize <= 1 ? CheckStatus.SKIPPED : proceed ? CheckStatus.PASSED : CheckStatus.FAILED;
    }

    static String conclusion(List<PreflightResult.Gpu> gpus, boolean proceed, int worldSize) {
        String prefix = worldSize <= 1 ? "At world size 1 SGLang skips the preflight and fusion altogether; at a larger "
                + "world size on these GPUs, " : "";
        String said;
        if (proceed) {
            said = "SGLang would create the FlashInfer workspace (preflight vote PROCEED).";
        } else {
            PreflightResult.Gpu first = gpus.stream().filter(g -> g.probeError() != null).findFirst().orElse(null);
            said = "SGLang would log: " + (first != null ? String.format(Locale.ROOT, PROBE_FAILED, first.probeError())
                    : VOTE_FAILED);
        }
        return prefix + said;
    }

    // ---------------------------------------------------------------------------------------------------------

    private static PreflightResult.Gpu probeGpu(GpuSession s, int i, PreflightResult.Params p, CheckContext ctx) {
        GpuSession.Device d = s.devices().get(i);
        CudaOps cuda = s.cuda();
        s.makeCurrent(i);
        List<CallStep> steps = new ArrayList<>();

        // 1. handle type, as _make_flashinfer_workspace_allocation_prop chooses it
        CudaOps.Answer<Integer> fabricAttr = cuda.attributeAnswer(CudaAttribute.HANDLE_TYPE_FABRIC_SUPPORTED, d.ordinal());
        int rc = fabricAttr.code();
        steps.add(step(s, "cuDeviceGetAttribute", "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED (128), dev " + d.ordinal(),
                rc, rc == 0 ? String.valueOf(fabricAttr.value()) : null, "FlashInfer is_mnnvl_fabric_supported, part 1"));
        boolean fabricAttribute = rc == 0 && fabricAttr.value() != 0;
        String forced = s.getenv(FORCE_POSIX_FD);
        String override = posixOverride(forced == null ? Map.of() : Map.of(FORCE_POSIX_FD, forced), s.osArch(), d.ccMajor());
        int handleType;
        String reason;
        if (override != null) {
            handleType = CuMemAllocationProp.HANDLE_POSIX_FILE_DESCRIPTOR;
            reason = override;
        } else if (!fabricAttribute) {
            handleType = CuMemAllocationProp.HANDLE_POSIX_FILE_DESCRIPTOR;
            reason = "is_mnnvl_fabric_supported = False: " + (rc == 0 ? "attribute 128 = 0" : "attribute 128 not readable");
        } else {
            FabricVerdict f = fabricState(s, i);
            steps.add(f.step());
            handleType = f.inDomain() ? CuMemAllocationProp.HANDLE_FABRIC : CuMemAllocationProp.HANDLE_POSIX_FILE_DESCRIPTOR;
            reason = "is_mnnvl_fabric_supported = " + (f.inDomain() ? "True" : "False") + ": attribute 128 = 1, " + f.detail()
                    + (f.inDomain() ? "" : " (FlashInfer's lighter variant, which reads attribute 128 alone, would pick FABRIC)");
        }
        String propText = "type=PINNED, location=DEVICE " + d.ordinal() + ", requestedHandleTypes="
                + CuMemAllocationProp.handleTypeName(handleType) + ", gpuDirectRDMACapable=1";

        // 2. sizes
        List<WorkspaceSizing.Buffer> buffers = WorkspaceSizing.buffers(p.worldSize(), p.maxTokens(), p.hidden(), p.dtype());
        List<Long> sizes = new ArrayList<>();
        List<Long> sizesWithoutMulticast = new ArrayList<>();
        String probeError = null;
        for (WorkspaceSizing.Buffer b : buffers) {
            ctx.checkpoint();
            CudaOps.Answer<Long> gran = cuda.allocationGranularity(d.ordinal(), handleType,
                    CuMemAllocationProp.GRANULARITY_RECOMMENDED);
            rc = gran.code();
            steps.add(step(s, "cuMemGetAllocationGranularity", propText + ", RECOMMENDED", rc,
                    rc == 0 ? String.valueOf(gran.value()) : null, b.name() + " buffer (" + b.roundedBytes() + " B)"));
            if (rc != 0) {
                probeError = "cuMemGetAllocationGranularity failed for FlashInfer workspace preflight: "
                        + sglangErrorText(s.cuda().errorName(rc), rc);
                break;
            }
            long size = WorkspaceSizing.withAllocationGranularity(b.roundedBytes(), gran.value());
            sizesWithoutMulticast.add(size);
            CudaOps.Answer<Long> mcGran = cuda.multicastGranularity(p.worldSize(), size, handleType,
                    CuMemAllocationProp.GRANULARITY_RECOMMENDED);
            rc = mcGran.code();
            steps.add(step(s, "cuMulticastGetGranularity", "numDevices=" + p.worldSize() + ", size=" + size
                    + ", handleTypes=" + CuMemAllocationProp.handleTypeName(handleType) + ", RECOMMENDED", rc,
                    rc == 0 ? String.valueOf(mcGran.value()) : null, "query only"));
            if (rc != 0) {
                probeError = "cuMulticastGetGranularity failed for FlashInfer workspace preflight: "
                        + sglangErrorText(s.cuda().errorName(rc), rc);
                break;
            }
            sizes.add(WorkspaceSizing.withMulticastGranularity(size, mcGran.value()));
        }
        boolean localOk = false;
        List<CallStep> extraSteps = new ArrayList<>();
        Boolean extraOk = null;
        if (probeError == null) {
            localOk = createSequence(s, d.ordinal(), handleType, sizes, steps, ctx);
        } else if (probeError.startsWith("cuMulticastGetGranularity")) {
            // beyond SGLang: would the allocation itself have worked without the multicast rounding?
            List<Long> all = new ArrayList<>();
            for (WorkspaceSizing.Buffer b : buffers) {
                CudaOps.Answer<Long> gran = cuda.allocationGranularity(d.ordinal(), handleType,
                        CuMemAllocationProp.GRANULARITY_RECOMMENDED);
                if (!gran.ok()) {
                    all = null;
                    break;
                }
                all.add(WorkspaceSizing.withAllocationGranularity(b.roundedBytes(), gran.value()));
            }
            if (all != null) {
                extraOk = createSequence(s, d.ordinal(), handleType, all, extraSteps, ctx);
            }
        }
        ctx.checkpoint();
        PreflightResult.FabricCheck fabric = fabricCheck(s, i, fabricAttribute);
        return new PreflightResult.Gpu(d.ordinal(), d.pci().toString(), d.name(),
                CuMemAllocationProp.handleTypeName(handleType), reason, buffers, steps, probeError == null ? sizes : List.of(),
                localOk, probeError, extraSteps, extraOk, fabric);
    }

    /** {@code _probe_cumem_create_sequence}: create each size, stop at the first failure, release in reverse. */
    static boolean createSequence(GpuSession s, int device, int handleType, List<Long> sizes, List<CallStep> steps,
                                  CheckContext ctx) {
        CudaOps cuda = s.cuda();
        List<Long> handles = new ArrayList<>();
        boolean ok = true;
        try {
            for (long size : sizes) {
                ctx.checkpoint();
                CudaOps.Answer<Long> h = cuda.memCreate(device, handleType, size);
                steps.add(step(s, "cuMemCreate", "size=" + size, h.code(), h.ok() ? "handle" : null, null));
                if (!h.ok()) {
                    ok = false;
                    break;
                }
                handles.add(h.value());
            }
        } finally {
            for (int k = handles.size() - 1; k >= 0; k--) {
                int rc = cuda.memRelease(handles.get(k));
                steps.add(step(s, "cuMemRelease", "handle " + (k + 1) + " of " + handles.size(), rc, null, null));
            }
        }
        return ok;
    }

    private record FabricVerdict(boolean inDomain, String detail, CallStep step) {
    }

    /** Part 2 of FlashInfer's {@code is_mnnvl_fabric_supported}: NVML fabric state COMPLETED and a cluster UUID. */
    private static FabricVerdict fabricState(GpuSession s, int i) {
        if (!s.nvml().available()) {
            return new FabricVerdict(false, "NVML not available (FlashInfer's NVML call would raise; treated as False)",
                    new CallStep("nvmlDeviceGetGpuFabricInfoV", "", -1, "UNAVAILABLE", null, "NVML not available"));
        }
        Reading<Nvml.FabricReading> r = s.nvml().fabricInfo(s.devices().get(i).pci());
        FabricInfo f = FabricDecoder.decode(r);
        if (!r.isPresent()) {
            var m = r.missing();
            return new FabricVerdict(false, "NVML fabric info not readable (" + m.describe() + ")",
                    new CallStep(m.call() == null ? "nvmlDeviceGetGpuFabricInfoV" : m.call(), "", m.codeValue() == null ? -1
                            : m.codeValue(), m.code() == null ? "ERROR" : m.code(), null, "FlashInfer is_mnnvl_fabric_supported, part 2"));
        }
        String detail = "NVML fabric state " + f.state().display() + ", cluster UUID "
                + (f.clusterUuid().isPresent() ? f.clusterUuid().value() : "none");
        return new FabricVerdict(f.inMnnvlDomain(), detail, new CallStep(r.value().api(), "", 0, "NVML_SUCCESS",
                "state " + f.state().display(), "FlashInfer is_mnnvl_fabric_supported, part 2"));
    }

    /** cuMemCreate with FABRIC handles, then cuMemExportToShareableHandle(FABRIC), then release. */
    static PreflightResult.FabricCheck fabricCheck(GpuSession s, int i, boolean attribute) {
        CudaOps cuda = s.cuda();
        GpuSession.Device d = s.devices().get(i);
        List<CallStep> steps = new ArrayList<>();
        CudaOps.Answer<Long> gran = cuda.allocationGranularity(d.ordinal(), CuMemAllocationProp.HANDLE_FABRIC,
                CuMemAllocationProp.GRANULARITY_RECOMMENDED);
        int rc = gran.code();
        steps.add(step(s, "cuMemGetAllocationGranularity", "requestedHandleTypes=CU_MEM_HANDLE_TYPE_FABRIC, RECOMMENDED", rc,
                rc == 0 ? String.valueOf(gran.value()) : null, null));
        if (rc != 0) {
            return new PreflightResult.FabricCheck(steps, false, "Fabric handles unusable: the granularity query for "
                    + "CU_MEM_HANDLE_TYPE_FABRIC fails with " + s.cuda().describe(rc) + ".");
        }
        CudaOps.Answer<Long> h = cuda.memCreate(d.ordinal(), CuMemAllocationProp.HANDLE_FABRIC, gran.value());
        rc = h.code();
        steps.add(step(s, "cuMemCreate", "size=" + gran.value() + ", requestedHandleTypes=CU_MEM_HANDLE_TYPE_FABRIC", rc,
                rc == 0 ? "handle" : null, null));
        if (rc == 800) {
            return new PreflightResult.FabricCheck(steps, false, "Fabric handles unusable: cuMemCreate with "
                    + "CU_MEM_HANDLE_TYPE_FABRIC → " + s.cuda().describe(rc) + ": this process has no IMEX channel "
                    + "(/dev/nvidia-caps-imex-channels)" + (attribute ? ", although attribute 128 says the GPU supports "
                    + "fabric handles" : "") + "; MNNVL / FlashInfer's fabric path would fail here.");
        }
        if (rc != 0) {
            return new PreflightResult.FabricCheck(steps, false, "Fabric handles unusable: cuMemCreate with "
                    + "CU_MEM_HANDLE_TYPE_FABRIC fails with " + s.cuda().describe(rc)
                    + (attribute ? " although attribute 128 says they are supported." : " (attribute 128 = 0)."));
        }
        int exportRc;
        try {
            exportRc = cuda.exportFabricHandle(h.value());
            steps.add(step(s, "cuMemExportToShareableHandle", "CU_MEM_HANDLE_TYPE_FABRIC", exportRc,
                    exportRc == 0 ? "64-byte fabric handle" : null,
                    exportRc == 800 ? "no IMEX channel for this process" : null));
        } finally {
            rc = cuda.memRelease(h.value());
            steps.add(step(s, "cuMemRelease", "", rc, null, null));
        }
        if (exportRc == 0) {
            return new PreflightResult.FabricCheck(steps, true, "Fabric handles work: the allocation was exported as a "
                    + "fabric handle (an IMEX channel is available), as MNNVL / FlashInfer's fabric path needs.");
        }
        String why = exportRc == 800 ? "no IMEX channel is available to this process (/dev/nvidia-caps-imex-channels)"
                : "the driver refuses the export";
        return new PreflightResult.FabricCheck(steps, false, "Fabric handles cannot be shared: cuMemCreate works but "
                + "cuMemExportToShareableHandle → " + s.cuda().describe(exportRc) + ": " + why
                + "; cross-process fabric-handle exchange (MNNVL) would fail here.");
    }

    /**
     * SGLang's {@code _should_force_posix_fd_transport}: the env override when set, else aarch64 with an SM10x GPU.
     * Returns the reason when POSIX FD is forced, else null.
     */
    static String posixOverride(Map<String, String> env, String osArch, int ccMajor) {
        String v = env.get(FORCE_POSIX_FD);
        if (v != null) {
            boolean on = List.of("1", "true", "yes", "y", "on").contains(v.trim().toLowerCase(Locale.ROOT));
            return on ? "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=" + v + " forces POSIX FD" : null;
        }
        String arch = osArch.toLowerCase(Locale.ROOT);
        if ((arch.equals("aarch64") || arch.equals("arm64")) && ccMajor == 10) {
            return "SGLang forces POSIX FD on aarch64 + SM10x (GB200/GB300 fabric-handle workaround)";
        }
        return null;
    }

    static CallStep step(GpuSession s, String call, String args, int rc, String value, String note) {
        return new CallStep(call, args, rc, s.cuda().errorName(rc), value, note);
    }
}
