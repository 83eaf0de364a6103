package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;

/**
 * What NCCL does with NVLink SHARP ({@code NCCL_NVLS_ENABLE}) on this machine and deployment. Shared by the NCCL
 * verdicts and SGLang's, which exports {@code NCCL_NVLS_ENABLE} itself. Reference: backend-rules.md §4.
 */
public final class NcclNvls {

    private NcclNvls() {
    }

    /** Why NVLS cannot be used for this deployment, or null when it can. */
    public static String unsupported(Eval e) {
        if (!e.cuda()) {
            return "NCCL NVLS exists only on NVIDIA GPUs; the platform is " + e.platformName();
        }
        if (e.tp() <= 1) {
            return "TP 1: no collective spans GPUs";
        }
        String nccl = e.ncclVersion();
        if (nccl != null && Values.compareVersions(nccl, "2.17") < 0) {
            return "NCCL " + nccl + " predates NVLS (added in 2.17), so NCCL_NVLS_ENABLE is not read";
        }
        if (e.major() < 9) {
            return e.gpus() + ": NVLink SHARP needs Hopper or newer on third-generation NVSwitch systems";
        }
        if (e.facts.nvswitch().origin() == Fact.Origin.UNKNOWN && !e.multicast()) {
            return "the GPUs do not report NVLink multicast (attribute 132 = 0), which NVLS needs";
        }
        if (!e.nvswitch()) {
            return "no NVSwitch: NVLink SHARP runs in third-generation NVSwitches, which these GPUs do not reach";
        }
        if (!e.multicast()) {
            return "the GPUs reach NVSwitches but do not report NVLink multicast (attribute 132 = 0), which NVLS needs";
        }
        return releaseGate(e);
    }

    /** ncclNvlsInit's (ncclNvlsSetup's at 2.17) early return for this release: before it reads the multicast attribute. */
    private static String releaseGate(Eval e) {
        NcclVersion version = e.version(NcclVersion.class);
        SourceRef gate = version.src().nvlsGate();
        String at = " (" + gate.path() + ":" + gate.line() + " at " + gate.commit().substring(0, 8) + ")";
        if (version.nvlsOneNodeOnly() && e.tpSpansNodes()) {
            return "NCCL " + version.id() + " sets NVLS up only within one node: ncclNvlsSetup returns for comm->nNodes>1" + at;
        }
        Boolean mnnvl = NcclMnnvl.on(e);
        if (version.readsMnnvl() && !Boolean.FALSE.equals(mnnvl)) {
            return "NCCL 2.20 does not use NVLS on an MNNVL communicator (\"NVLS is not supported on MNNVL yet\": ncclNvlsInit returns for "
                    + "comm->MNNVL" + at + ")" + (mnnvl == null ? "; MNNVL assumed on, the IMEX channel was not read" : "");
        }
        int gpus = NcclMnnvl.nvlsGpus(e);
        if (gpus < version.nvlsMinGpus()) {
            return "NCCL " + version.id() + " sets NVLS up only for " + version.nvlsMinGpus() + " or more GPUs per NVLS domain ("
                    + (version.nvlsMinGpus() == 3 ? "gpuCount <= 2 returns" : "gpuCount < 2 returns") + at + "); this communicator has "
                    + gpus + (Boolean.FALSE.equals(mnnvl) ? " on each node" : " in its MNNVL clique");
        }
        return null;
    }

    /** What NCCL does with {@code NCCL_NVLS_ENABLE=value} (null: unset, i.e. 2); {@code how} says who set it. */
    public static Partial nvls(Eval e, String value, String how) {
        NcclVersion version = e.version(NcclVersion.class);
        // 2.17.1 declares NCCL_PARAM(NvlsEnable, "NVLS_ENABLE", 1) (nvls.cc:229) and reads the attribute for any non-zero value
        String v = value != null ? value : version.nvlsDefault();
        String setting = how + (how.isEmpty() ? "" : ": ");
        SourceRef src = version.id().equals("newest") ? NcclSources.DOCS : version.src().nvlsInit();
        String reason = unsupported(e);
        if ("0".equals(v)) {
            return new Partial(Outcome.OK, "NVLS disabled", null, null, NcclSources.WHEN_INIT, setting + "NCCL_NVLS_ENABLE=0 switches NVLink SHARP off"
                    + (reason == null ? ", although this machine supports it (" + phrase(e) + ")" : "; it is not available here anyway (" + reason + ")") + ".", src);
        }
        if (!e.cuda() || e.tp() <= 1) {
            return new Partial(Outcome.OK, null, null, null, NcclSources.WHEN_INIT, setting + reason + ".", src);
        }
        if (e.ncclUnreadable() && (reason == null || e.major() >= 9 && e.nvswitch() && !e.fabricReady())) {
            return new Partial(Outcome.UNKNOWN, null, null, null, NcclSources.WHEN_INIT, setting + phrase(e) + ", but the snapshot's NCCL version is unreadable, "
                    + "so whether this NCCL has NVLink SHARP (2.17 and later) and what it does with NCCL_NVLS_ENABLE=" + v + " cannot be told.", src);
        }
        if (e.major() >= 9 && e.nvswitch() && !e.fabricReady() && releaseGate(e) == null) {
            return bindFails(e, version, v, setting);
        }
        if ("1".equals(v) && version.enableOneSkipsMulticastCheck() && e.major() >= 9 && e.nvswitch() && !e.multicast() && releaseGate(e) == null) {
            return new Partial(Outcome.ERROR, null, "ncclUnhandledCudaError", version.cudaFailure("<CUresult>"),
                    NcclSources.WHEN_INIT, setting + e.gpus() + " and reach NVSwitches but do not report NVLink multicast. With NCCL_NVLS_ENABLE=1 "
                    + "ncclNvlsInit sets nvlsSupport = 1 without reading CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (only 2 reads it; NCCL 2.18 to "
                    + "2.30.7), the topology search keeps NVLS (it drops it only without an NVSwitch or below SM90), and communicator init "
                    + "fails in cuMulticastGetGranularity (" + version.src().nvlsAlloc().path() + ":" + version.src().nvlsAlloc().line()
                    + "; CUDA error code and text not recorded).", version.src().nvlsInit());
        }
        if (reason != null) {
            return unavailable(v, version, setting + reason, reason.equals(releaseGate(e)) ? version.src().nvlsGate() : src);
        }
        return new Partial(Outcome.OK, "NVLS", null, null, NcclSources.WHEN_INIT, setting + phrase(e) + ": NCCL uses NVLink SHARP"
                + (e.tpSpansNodes() && Boolean.FALSE.equals(NcclMnnvl.on(e)) ? " within each node (NVLSTree across nodes)" : "") + ".", src);
    }

    /** NVSwitches without a working Fabric Manager: cuMulticastBindMem fails; what follows depends on the release. */
    private static Partial bindFails(Eval e, NcclVersion version, String v, String setting) {
        SourceRef bind = version.src().nvlsBind();
        String base = setting + e.gpus() + " and reach NVSwitches, but the GPU fabric is not ready (Fabric Manager not running or not "
                + "finished): NCCL cannot bind NVLS multicast memory (cuMulticastBindMem, " + bind.path() + ":" + bind.line() + ")";
        return switch (version.bind()) {
            case FAILS -> new Partial(Outcome.ERROR, null, null, NcclMessage.FABRIC_NOT_READY.text(), NcclSources.WHEN_INIT, base
                    + ", and with NCCL_NVLS_ENABLE=" + v + " it stops (the size in the message varies).", bind);
            case FAILS_ONLY_FORCED -> "1".equals(v)
                    ? new Partial(Outcome.ERROR, null, "ncclUnhandledCudaError", NcclMessage.FABRIC_BIND_FORCED.format("<size>", "<code>", "<text>"),
                    NcclSources.WHEN_INIT, base + "; with NCCL_NVLS_ENABLE=1 NCCL " + version.id() + " stops (ncclUnhandledCudaError).", bind)
                    : new Partial(Outcome.FALLBACK, "NVLS disabled", null, null, NcclSources.WHEN_INIT, base + "; with NCCL_NVLS_ENABLE=" + v
                    + " NCCL " + version.id() + " logs \"Proceeding without NVLS support\" (INFO, not shown by default) and runs without NVLS; "
                    + "2.29.2 made this an error.", bind);
            case CUDA_FAILURE -> new Partial(Outcome.ERROR, null, "ncclUnhandledCudaError", version.cudaFailure("<code>"),
                    NcclSources.WHEN_INIT, base + ", which NCCL " + version.id() + " checks with CUCHECK: it prints the CUDA error and init stops "
                    + "(ncclUnhandledCudaError) for any NCCL_NVLS_ENABLE but 0.", bind);
        };
    }

    /**
     * NVLS requested or on auto where it is unavailable: silently off in every release. With 1 (2.18 on) the NVLS
     * graph search finds no channel without an NVSwitch or below SM90 and init clears nvlsSupport, so setup is
     * skipped; the 2.17–2.20 docs' "initialization will fail" is not what the code does.
     */
    private static Partial unavailable(String v, NcclVersion version, String why, SourceRef src) {
        SourceRef search = src == version.src().nvlsGate() ? null : version.src().nvlsSearch();
        return new Partial(Outcome.FALLBACK, "NVLS disabled", null, null, NcclSources.WHEN_INIT, why
                + ". With NCCL_NVLS_ENABLE=" + v + " NCCL silently disables NVLS and uses ring/tree algorithms"
                + ("1".equals(v) && search != null ? " (the NVLS graph search leaves 0 channels, " + search.path() + ":" + search.line()
                + ", and init clears nvlsSupport, so nothing is allocated; the 2.17–2.20 docs' \"initialization will fail\" is not what "
                + "the code does)" : "") + ".", "1".equals(v) && search != null ? search : src);
    }

    private static String phrase(Eval e) {
        return e.gpus() + " with NVSwitches and NVLink multicast";
    }
}
