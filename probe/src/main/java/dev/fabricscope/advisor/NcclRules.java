package dev.fabricscope.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * NCCL NVLink SHARP ({@code NCCL_NVLS_ENABLE}) and PyTorch symmetric memory's multicast switch. Also used by the
 * SGLang rules, which export {@code NCCL_NVLS_ENABLE}. Reference: backend-rules.md §4.
 */
final class NcclRules {

    static final String FW = "nccl";

    /** @param enableOneFailsWhenUnsupported NCCL_NVLS_ENABLE=1 makes initialisation fail when NVLS cannot be allocated */
    record Version(String id, String description, boolean enableOneFailsWhenUnsupported) {
    }

    static final List<Version> VERSIONS = List.of(
            new Version("newest", "NCCL environment docs, current: NCCL_NVLS_ENABLE=1 behaves like 2 (no failure when unsupported)", false),
            new Version("2.17-2.20", "NCCL environment docs 2.17–2.20: with NCCL_NVLS_ENABLE=1, initialisation fails if NVLink SHARP resources cannot be allocated", true));

    static final KnobSpec NVLS_ENABLE = KnobSpec.env(FW, "NCCL_NVLS_ENABLE", KnobSpec.Type.CHOICE, "unset (2)",
            "NVLink SHARP: 0 off, 1 on, 2 auto (default)", "0", "1", "2");
    static final KnobSpec TORCH_SYMM_MEM_DISABLE_MULTICAST = KnobSpec.env(FW, "TORCH_SYMM_MEM_DISABLE_MULTICAST", KnobSpec.Type.BOOL,
            "unset", "PyTorch symmetric memory: skip creating the multicast object");

    static final List<KnobSpec> KNOWN = List.of(
            KnobSpec.env(FW, "NCCL_P2P_DISABLE", KnobSpec.Type.BOOL, "0", "turns NCCL's peer-to-peer (NVLink/PCIe) transport off"),
            KnobSpec.env(FW, "NCCL_MNNVL_ENABLE", KnobSpec.Type.CHOICE, "unset (2)", "multi-node NVLink: 0 off, 1 on, 2 auto", "0", "1", "2"),
            KnobSpec.env(FW, "NCCL_CUMEM_ENABLE", KnobSpec.Type.CHOICE, "unset", "cuMem-based allocations in NCCL", "0", "1"))
            .stream().map(k -> k.scope(KnobSpec.Scope.KNOWN)).toList();

    static final List<KnobSpec> KNOBS = java.util.stream.Stream.concat(java.util.stream.Stream.of(NVLS_ENABLE, TORCH_SYMM_MEM_DISABLE_MULTICAST),
            KNOWN.stream()).toList();

    /** The user log that shows NVSwitches without a working Fabric Manager (backend-rules.md §4), verbatim. */
    static final String FABRIC_NOT_READY = "Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 802 'system not yet initialized'. This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches. Disable NVLS (NCCL_NVLS_ENABLE=0) if you wish to avoid this error in the future.";
    static final String TORCH_RENDEZVOUS = "RuntimeError: CUDA driver error: invalid argument";

    static final SourceRef SRC_DOCS = new SourceRef("NVIDIA/nccl docs", null, "env.html", "NCCL_NVLS_ENABLE");
    static final SourceRef SRC_DOCS_ENV = new SourceRef("NVIDIA/nccl docs", null, "env.html", "environment variables");
    static final SourceRef SRC_DOCS_OLD = new SourceRef("NVIDIA/nccl docs", null, "env.html (2.17–2.20 archives)", "NCCL_NVLS_ENABLE");
    static final SourceRef SRC_TORCH = new SourceRef("pytorch/pytorch", null, "torch/distributed/_symmetric_memory",
            "TORCH_SYMM_MEM_DISABLE_MULTICAST (as read by vLLM symm_mem.py / SGLang torch_symm_mem.py)");

    static final String WHEN_INIT = "NCCL communicator init";

    private NcclRules() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        out.add(nvlsVerdict(e));
        out.add(torchMulticastVerdict(e));
        for (KnobSpec k : KNOWN) {
            OtherKnobs.known(e, k, e.versions.nccl().id(), SRC_DOCS_ENV).ifPresent(out::add);
        }
        return out;
    }

    /** Why NVLS cannot be used for this deployment, or null when it can. */
    static String unsupported(Eval e) {
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
    static Partial nvls(Eval e, String value, String how) {
        String v = value == null ? "2" : value;
        String setting = how + (how.isEmpty() ? "" : ": ");
        Version version = e.versions.nccl();
        SourceRef src = version.enableOneFailsWhenUnsupported() ? SRC_DOCS_OLD : SRC_DOCS;
        String reason = unsupported(e);
        if ("0".equals(v)) {
            return new Partial(Outcome.OK, "NVLS disabled", null, null, WHEN_INIT, setting + "NCCL_NVLS_ENABLE=0 switches NVLink SHARP off"
                    + (reason == null ? ", although this machine supports it (" + nvlsPhrase(e) + ")" : "; it is not available here anyway (" + reason + ")") + ".", src);
        }
        if (!e.cuda() || e.tp() <= 1) {
            return new Partial(Outcome.OK, null, null, null, WHEN_INIT, setting + reason + ".", src);
        }
        if (e.ncclUnreadable() && (reason == null || e.major() >= 9 && e.nvswitch() && !e.fabricReady())) {
            return new Partial(Outcome.UNKNOWN, null, null, null, WHEN_INIT, setting + nvlsPhrase(e) + ", but the snapshot's NCCL version is unreadable, "
                    + "so whether this NCCL has NVLink SHARP (2.17 and later) and what it does with NCCL_NVLS_ENABLE=" + v + " cannot be told.", src);
        }
        if (e.major() >= 9 && e.nvswitch() && !e.fabricReady()) {
            return new Partial(Outcome.ERROR, null, null, FABRIC_NOT_READY, WHEN_INIT, setting + e.gpus()
                    + " and reach NVSwitches, but the GPU fabric is not ready (Fabric Manager not running or not finished): NCCL cannot bind "
                    + "NVLS multicast memory, and with NCCL_NVLS_ENABLE=" + v + " it stops (the size in the message varies).", src);
        }
        if (reason != null) {
            if ("1".equals(v) && version.enableOneFailsWhenUnsupported()) {
                return new Partial(Outcome.ERROR, null, null, null, WHEN_INIT, setting + reason
                        + ". NCCL 2.17–2.20 documents that NCCL_NVLS_ENABLE=1 makes initialisation fail when NVLink SHARP resources cannot be allocated "
                        + "(exact error text not recorded).", src);
            }
            return new Partial(Outcome.FALLBACK, "NVLS disabled", null, null, WHEN_INIT, setting + reason
                    + ". With NCCL_NVLS_ENABLE=" + v + " NCCL silently disables NVLS and uses ring/tree algorithms.", src);
        }
        return new Partial(Outcome.OK, "NVLS", null, null, WHEN_INIT, setting + nvlsPhrase(e) + ": NCCL uses NVLink SHARP"
                + (e.tpSpansNodes() && !e.mnnvlFabric() ? " within each node (NVLSTree across nodes)" : "") + ".", src);
    }

    private static String nvlsPhrase(Eval e) {
        return e.gpus() + " with NVSwitches and NVLink multicast";
    }

    private static Verdict nvlsVerdict(Eval e) {
        VerdictBuilder v = e.on(NVLS_ENABLE, e.versions.nccl().id());
        Partial p = nvls(e, e.value(NVLS_ENABLE), "");
        v.apply(p);
        if (p.outcome() == Outcome.ERROR && p.message() != null) {
            v.fix("start or repair the Fabric Manager (nvidia-fabricmanager) so the GPU fabric state reaches COMPLETED; until then NCCL_NVLS_ENABLE=0");
        } else if (p.outcome() == Outcome.ERROR) {
            v.fix("NCCL_NVLS_ENABLE=2 (or unset) so NCCL skips NVLS where it is unavailable");
        } else if ("0".equals(e.value(NVLS_ENABLE)) && unsupported(e) == null) {
            v.fix("unset NCCL_NVLS_ENABLE (default 2) to use NVLS here");
        }
        String nccl = e.ncclVersion();
        if (nccl != null && Values.compareVersions(nccl, "2.17") >= 0 && Values.compareVersions(nccl, "2.21") < 0
                && !e.versions.nccl().enableOneFailsWhenUnsupported()) {
            v.why(p.why() + " This host's NCCL is " + nccl + ": --framework-version nccl=2.17-2.20 applies that version's NCCL_NVLS_ENABLE=1 rule.");
        }
        return v.build();
    }

    private static Verdict torchMulticastVerdict(Eval e) {
        VerdictBuilder v = e.on(TORCH_SYMM_MEM_DISABLE_MULTICAST, e.versions.nccl().id()).source(SRC_TORCH).when("symmetric-memory rendezvous (communicator init)");
        if (!e.cuda()) {
            return v.ok().why("PyTorch symmetric memory is CUDA-only; the platform is " + e.platformName() + ".").build();
        }
        if (e.bool(TORCH_SYMM_MEM_DISABLE_MULTICAST)) {
            return v.ok().resolved("no multicast object").why("The rendezvous skips the multicast object (multicast_ptr = 0), so vLLM's SymmMemCommunicator and "
                    + "SGLang's TorchSymmMemCommunicator disable themselves" + (e.multicast() ? ", although these GPUs support NVLink multicast" : "") + ".")
                    .fix(e.multicast() ? "unset TORCH_SYMM_MEM_DISABLE_MULTICAST to let symmetric-memory all-reduce use multicast" : null).build();
        }
        if (!e.multicast()) {
            return v.ok().why("The GPUs do not report NVLink multicast. Without this variable, rendezvous on some such hardware (reported on H20) fails with '"
                            + TORCH_RENDEZVOUS + "' (third-party report, low confidence); the vLLM and SGLang communicators catch it and fall back.")
                    .fix("TORCH_SYMM_MEM_DISABLE_MULTICAST=1 if symmetric-memory rendezvous fails").build();
        }
        return v.ok().resolved("multicast object").why("The GPUs report NVLink multicast, so the rendezvous creates the multicast object symmetric-memory all-reduce uses.").build();
    }

    static Recommendation recommend(Eval e) {
        if (!e.cuda()) {
            return new Recommendation(FW, List.of(), Map.of(), "NCCL NVLS is NVIDIA-only; the platform is " + e.platformName() + ".");
        }
        Partial p = nvls(e, null, "");
        if (p.outcome() == Outcome.ERROR) {
            return new Recommendation(FW, List.of(), Map.of("NCCL_NVLS_ENABLE", "0"),
                    "Keep NVLS off until the Fabric Manager brings the GPU fabric to COMPLETED; then unset NCCL_NVLS_ENABLE.");
        }
        if (p.outcome() == Outcome.OK && "NVLS".equals(p.resolved())) {
            return new Recommendation(FW, List.of(), Map.of(), "Leave NCCL_NVLS_ENABLE unset (2): NVLink SHARP works here"
                    + ("0".equals(e.value(NVLS_ENABLE)) ? " (drop the exported NCCL_NVLS_ENABLE=0)" : "") + ".");
        }
        String reason = unsupported(e);
        return new Recommendation(FW, List.of(), Map.of(), "Nothing to set: " + (reason == null ? "NVLS not used" : reason) + ".");
    }
}
