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
        if (e.tpSpansNodes() && e.mnnvlFabric() && nccl != null && Values.compareVersions(nccl, "2.25.2") < 0) {
            return "NCCL " + nccl + " is older than 2.25.2, which multi-node NVLink (MNNVL) needs";
        }
        return null;
    }

    /** What NCCL does with {@code NCCL_NVLS_ENABLE=value} (null: unset, i.e. 2); {@code how} says who set it. */
    public static Partial nvls(Eval e, String value, String how) {
        String v = value == null ? "2" : value;
        String setting = how + (how.isEmpty() ? "" : ": ");
        NcclVersion version = e.version(NcclVersion.class);
        SourceRef src = version.enableOneFailsWhenUnsupported() ? NcclSources.DOCS_OLD : NcclSources.DOCS;
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
        if (e.major() >= 9 && e.nvswitch() && !e.fabricReady()) {
            return new Partial(Outcome.ERROR, null, null, NcclMessage.FABRIC_NOT_READY.text(), NcclSources.WHEN_INIT, setting + e.gpus()
                    + " and reach NVSwitches, but the GPU fabric is not ready (Fabric Manager not running or not finished): NCCL cannot bind "
                    + "NVLS multicast memory, and with NCCL_NVLS_ENABLE=" + v + " it stops (the size in the message varies).", src);
        }
        if ("1".equals(v) && version.enableOneSkipsMulticastCheck() && e.major() >= 9 && e.nvswitch() && !e.multicast()
                && (e.ncclVersion() == null || Values.compareVersions(e.ncclVersion(), "2.18") >= 0)) {
            return new Partial(Outcome.ERROR, null, "ncclUnhandledCudaError", NcclMessage.CUDA_FAILURE.format("<CUresult>", "<text>"),
                    NcclSources.WHEN_INIT, setting + e.gpus() + " and reach NVSwitches but do not report NVLink multicast. With NCCL_NVLS_ENABLE=1 "
                    + "ncclNvlsInit sets nvlsSupport = 1 without reading CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (only 2 reads it; NCCL 2.18 to "
                    + "2.30.7), the topology search keeps NVLS (it drops it only without an NVSwitch or below SM90), and communicator init "
                    + "fails in cuMulticastGetGranularity (CUDA error code and text not recorded).", NcclSources.NVLS_INIT);
        }
        if (reason != null) {
            return unavailable(v, version, setting + reason, src);
        }
        return new Partial(Outcome.OK, "NVLS", null, null, NcclSources.WHEN_INIT, setting + phrase(e) + ": NCCL uses NVLink SHARP"
                + (e.tpSpansNodes() && !e.mnnvlFabric() ? " within each node (NVLSTree across nodes)" : "") + ".", src);
    }

    /** NVLS requested or on auto where it is unavailable: an error only for 1 under the 2.17–2.20 rule, else silently off. */
    private static Partial unavailable(String v, NcclVersion version, String why, SourceRef src) {
        if ("1".equals(v) && version.enableOneFailsWhenUnsupported()) {
            return new Partial(Outcome.ERROR, null, null, null, NcclSources.WHEN_INIT, why
                    + ". NCCL 2.17–2.20 documents that NCCL_NVLS_ENABLE=1 makes initialisation fail when NVLink SHARP resources cannot be allocated "
                    + "(exact error text not recorded).", src);
        }
        return new Partial(Outcome.FALLBACK, "NVLS disabled", null, null, NcclSources.WHEN_INIT, why
                + ". With NCCL_NVLS_ENABLE=" + v + " NCCL silently disables NVLS and uses ring/tree algorithms.", src);
    }

    private static String phrase(Eval e) {
        return e.gpus() + " with NVSwitches and NVLink multicast";
    }
}
