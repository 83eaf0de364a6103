package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL_CUMEM_ENABLE, NCCL_MNNVL_ENABLE / NCCL_MNNVL, NCCL_P2P_DISABLE and NCCL_P2P_LEVEL as the chosen NCCL rule set
 * reads them (its {@link NcclSetSources}); a verdict only for a variable the user set, and for the MNNVL variable
 * where the check decides multi-node NVLink for a group across nodes. Reference: backend-rules.md §4.
 */
final class NcclEnvVerdicts {

    private NcclEnvVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        NcclVersion ver = e.version(NcclVersion.class);
        KnobSpec own = ver.readsMnnvl() ? NcclKnobs.MNNVL : NcclKnobs.MNNVL_ENABLE;
        for (KnobSpec k : List.of(NcclKnobs.CUMEM_ENABLE, NcclKnobs.MNNVL_ENABLE, NcclKnobs.MNNVL, NcclKnobs.P2P_DISABLE, NcclKnobs.P2P_LEVEL)) {
            boolean everyComm = ver.mnnvl() == NcclVersion.Mnnvl.MNNVL_PARAM_EVERY_COMM;
            boolean decides = k == own && e.cuda() && e.tp() > 1 && (e.tpSpansNodes() || everyComm) && NcclMnnvl.clique(e);
            if (e.isSet(k) || decides) {
                out.add(verdict(e, k));
            }
        }
        return out;
    }

    private static Verdict verdict(Eval e, KnobSpec k) {
        return verdict(e, k, e.on(k, NcclVersion.class).when(NcclSources.WHEN_INIT));
    }

    /** The verdict without the assumption notes, for another framework's verdict to quote. */
    static Verdict bareVerdict(Eval e, KnobSpec k) {
        return verdict(e, k, e.on(k, NcclVersion.class).when(NcclSources.WHEN_INIT).bare());
    }

    private static Verdict verdict(Eval e, KnobSpec k, VerdictBuilder v) {
        NcclVersion ver = e.version(NcclVersion.class);
        NcclSetSources s = ver.src();
        String value = e.value(k);
        if (!e.cuda() || e.tp() <= 1) {
            return v.ok().source(s.mnnvlGate() != null ? s.mnnvlGate() : s.nvlsGate()).why(e.cuda() ? "TP 1: no NCCL collective spans GPUs." : "NCCL runs on NVIDIA GPUs only; the platform is "
                    + e.platformName() + ".").build();
        }
        if (k == NcclKnobs.CUMEM_ENABLE) {
            return cumem(e, v, ver, value);
        }
        if (k == NcclKnobs.P2P_DISABLE) {
            return p2pDisable(e, v, ver, value);
        }
        if (k == NcclKnobs.P2P_LEVEL) {
            return p2pLevel(e, v, ver, value);
        }
        boolean read = k == NcclKnobs.MNNVL ? ver.readsMnnvl() : ver.readsMnnvlEnable();
        if (!read) {
            return notRead(e, v, ver, k, value);
        }
        return switch (ver.mnnvl()) {
            case MNNVL_PARAM, MNNVL_PARAM_EVERY_COMM -> mnnvl220(e, v, ver, s, value);
            case CHECK_MNNVL -> mnnvl221(e, v, s, value);
            default -> mnnvlCheck(e, v, ver, s, value);
        };
    }

    private static Verdict cumem(Eval e, VerdictBuilder v, NcclVersion ver, String value) {
        NcclSetSources s = ver.src();
        v.source(s.mnnvlCumem() != null ? s.mnnvlCumem() : s.nvlsGate());
        boolean wouldUse = ver.mnnvl() != NcclVersion.Mnnvl.NONE && !Boolean.FALSE.equals(NcclMnnvl.on(e.with(NcclKnobs.CUMEM_ENABLE, null)))
                && e.tpSpansNodes();
        if ("0".equals(value) && wouldUse) {
            return v.fallback().resolved("MNNVL off").why("Without cuMem NCCL " + ver.id() + " leaves MNNVL off without a message (\"MNNVL requires "
                    + "cuMem to be enabled\" is a source comment), so the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one "
                    + "NVLink domain does not use multi-node NVLink: traffic between the nodes takes NCCL's network transport.")
                    .fix("unset NCCL_CUMEM_ENABLE").build();
        }
        return v.ok().resolved("0".equals(value) ? "cudaMalloc buffers" : "cuMem buffers").why("0".equals(value)
                ? "NCCL allocates with cudaMalloc and legacy IPC; MNNVL, which needs cuMem, would not apply here anyway ("
                + (ver.mnnvl() == NcclVersion.Mnnvl.NONE ? "NCCL " + ver.id() + " has no multi-node NVLink"
                : NcclMnnvl.clique(e) ? "the TP group stays within one node" : "no MNNVL clique") + ")."
                : "cuMem allocations (NCCL's default where the driver supports them).").build();
    }

    private static Verdict p2pDisable(Eval e, VerdictBuilder v, NcclVersion ver, String value) {
        NcclSetSources s = ver.src();
        v.source(s.p2pDisable());
        if (NcclP2pLevel.level(e.with(NcclKnobs.P2P_LEVEL, null)) != NcclP2pLevel.LOC) {
            return v.ok().resolved("P2P allowed").why("NCCL_P2P_DISABLE=" + value + ": only 1 disables P2P (paths.cc:" + s.p2pDisable().line() + ").").build();
        }
        return v.fallback().resolved("SHM / network").why("NCCL_P2P_DISABLE=1 sets the P2P level to PATH_LOC (paths.cc:" + s.p2pDisable().line()
                + "), so no GPU pair uses NCCL's P2P transport: GPUs within a node exchange data through host memory (SHM transport)"
                + mnnvlGateEffect(e, ver, "NCCL_P2P_DISABLE=1")).fix("unset NCCL_P2P_DISABLE").build();
    }

    /** What a P2P level of 0 does to the MNNVL check, per set. */
    private static String mnnvlGateEffect(Eval e, NcclVersion ver, String setting) {
        NcclSetSources s = ver.src();
        if (ver.p2pLevelGatesMnnvl()) {
            boolean lost = e.tpSpansNodes() && NcclMnnvl.clique(e) && !"1".equals(e.value(NcclKnobs.MNNVL_ENABLE));
            return ", and across nodes NCCL skips the MNNVL check unless NCCL_MNNVL_ENABLE=1 (init.cc:" + s.mnnvlGate().line() + ")"
                    + (lost ? ": the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one NVLink domain uses the network between "
                    + "the nodes instead of multi-node NVLink." : ".");
        }
        return ver.mnnvl() == NcclVersion.Mnnvl.NONE ? "." : ". NCCL " + ver.id() + " decides MNNVL without the P2P level (" + s.mnnvlGate().path()
                + ":" + s.mnnvlGate().line() + "; the gate came with 2.27.3); whether " + setting + " also refuses P2P between the trays of an "
                + "MNNVL clique at this release was not read.";
    }

    private static Verdict p2pLevel(Eval e, VerdictBuilder v, NcclVersion ver, String value) {
        NcclSetSources s = ver.src();
        v.source(s.p2pLevel());
        if (e.value(NcclKnobs.P2P_DISABLE) != null && NcclP2pLevel.level(e.with(NcclKnobs.P2P_LEVEL, null)) == NcclP2pLevel.LOC) {
            return v.ok().resolved("not read").source(s.p2pDisable()).why("NCCL_P2P_DISABLE=1 already sets the level to LOC and NCCL then does "
                    + "not read NCCL_P2P_LEVEL (paths.cc:" + s.p2pDisable().line() + ").").build();
        }
        int level = NcclP2pLevel.level(e);
        List<String> names = NcclP2pLevel.names(ver);
        if (level == NcclP2pLevel.UNSET) {
            return v.fallback().resolved("ignored").why("NCCL_P2P_LEVEL=" + value + " is neither a path type NCCL " + ver.id() + " knows ("
                    + String.join(" ", names) + ") nor a number, so ncclGetLevel leaves the level unset (paths.cc:" + s.p2pLevel().line()
                    + ") and NCCL's default applies.").fix("NCCL_P2P_LEVEL=" + String.join("|", names) + " (or unset it)").build();
        }
        String shown = "NCCL_P2P_LEVEL=" + value + (value.equals(names.get(level)) ? "" : " (" + names.get(level) + ")");
        if (level == NcclP2pLevel.LOC) {
            return v.fallback().resolved("SHM / network").why(shown + " sets the P2P level to PATH_LOC (0; paths.cc:" + s.p2pLevel().line()
                    + "): a GPU pair uses P2P only when its path type is at most the level (paths.cc:" + s.p2pCompare().line() + "), so no pair "
                    + "does: GPUs within a node exchange data through host memory (SHM transport)" + mnnvlGateEffect(e, ver, shown))
                    .fix("unset NCCL_P2P_LEVEL").build();
        }
        if (e.allNvlink()) {
            return v.ok().resolved("P2P over NVLink").source(s.p2pCompare()).why(shown + ": every GPU pair of the group on a node is NVLink-connected "
                    + "(path type NVL, 1), within the level, so NCCL's P2P transport runs over NVLink as by default (paths.cc:"
                    + s.p2pCompare().line() + ")" + (ver.p2pLevelGatesMnnvl() && e.tpSpansNodes() ? "; the MNNVL check runs (init.cc:"
                    + s.mnnvlGate().line() + ": the level is not 0)." : ".")).build();
        }
        if (level == names.indexOf("SYS") && e.p2p()) {
            return v.ok().resolved("P2P allowed").source(s.p2pCompare()).why(shown + ": every path between GPUs of one node is at most SYS, so the "
                    + "level refuses no pair (paths.cc:" + s.p2pCompare().line() + ") and the GPUs are peer-accessible; pairs across the CPU "
                    + "link take P2P where NCCL's default (PXB, or SYS on some AMD hosts) would use SHM.").build();
        }
        return v.outcome(Outcome.UNKNOWN).source(s.p2pCompare()).why(shown + ": NCCL uses P2P for a GPU pair whose path type is at most the level "
                + "(paths.cc:" + s.p2pCompare().line() + "); these GPUs are not all NVLink-connected and the PCIe path type between them "
                + "(PIX, PXB, PHB, SYS) is not read, so which pairs take P2P and which SHM cannot be told.").build();
    }

    private static Verdict notRead(Eval e, VerdictBuilder v, NcclVersion ver, KnobSpec k, String value) {
        NcclSetSources s = ver.src();
        if (ver.mnnvl() == NcclVersion.Mnnvl.NONE) {
            boolean spans = e.tpSpansNodes() && NcclMnnvl.clique(e);
            v.source(NcclSetSources.V2_20_3.mnnvlParam()); // where MNNVL first appears: absence has no line of its own
            String why = "NCCL " + ver.id() + " has no multi-node NVLink code (git grep -i mnnvl finds nothing in src/ at "
                    + (ver.id().equals("2.17") ? "v2.17.1-1" : "v2.19.4-1") + "; it first appears in v2.20.3-1, init.cc, as NCCL_MNNVL)";
            if (value == null) {
                return v.fallback().resolved("no MNNVL").why(why + ", so the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one NVLink "
                        + "domain uses NCCL's network transport between the nodes.").fix("NCCL 2.20 or later (MNNVL on automatically across the "
                        + "trays of one NVLink domain)").build();
            }
            return v.fallback().resolved("not read").why(why + ": " + k.name() + "=" + value + " has no effect"
                    + (spans ? "; the group across the trays uses the network between them." : ".")).fix("drop " + k.name()).build();
        }
        if (k == NcclKnobs.MNNVL_ENABLE) {
            return v.fallback().resolved("not read").source(s.mnnvlParam()).why("NCCL 2.20 does not read NCCL_MNNVL_ENABLE (it came with 2.21, "
                    + "v2.21.5-1 init.cc:826): 2.20 reads NCCL_MNNVL (init.cc:820 at v2.20.5-1, auto when unset), so NCCL_MNNVL_ENABLE="
                    + value + " has no effect and MNNVL stays as NCCL_MNNVL decides.").fix("drop NCCL_MNNVL_ENABLE (NCCL 2.20 spells it NCCL_MNNVL)").build();
        }
        return v.fallback().resolved("not read").source(s.mnnvlParam()).why("NCCL " + ver.id() + " reads NCCL_MNNVL_ENABLE (" + s.mnnvlParam().path()
                + ":" + s.mnnvlParam().line() + "); NCCL_MNNVL was NCCL 2.20's name and is ignored here, so NCCL_MNNVL=" + value + " has no effect.")
                .fix("NCCL_MNNVL_ENABLE=" + value + " (or drop NCCL_MNNVL)").build();
    }

    /**
     * NCCL 2.20 (v2.20.5-1 init.cc:884-923, several nodes only; v2.20.3-1 init.cc:881-921, every communicator):
     * NCCL_MNNVL negative = auto, 0 off, else forced.
     */
    private static Verdict mnnvl220(Eval e, VerdictBuilder v, NcclVersion ver, NcclSetSources s, String value) {
        v.source(s.mnnvlGate());
        String shown = value == null ? "NCCL_MNNVL unset (-2, auto)" : "NCCL_MNNVL=" + value;
        String across = e.tpSpansNodes() ? " across nodes" : " on one node";
        if (!NcclMnnvl.checkRuns(e)) {
            return v.ok().resolved("not checked").why("One node: NCCL 2.20.5 decides MNNVL only for several nodes (init.cc:884 `if (nNodes > 1)`; "
                    + "2.20.3 ran the block on one node too).").build();
        }
        long p = NcclMnnvl.param220(e);
        boolean cumemOff = NcclMnnvl.cumemOff(e);
        boolean full = e.mnnvlFabric() && e.fabricReady();
        if (p == 0) {
            return full && e.fabricHandles() && !cumemOff && e.tpSpansNodes() ? v.fallback().resolved("MNNVL off").why(shown + " turns MNNVL off ("
                    + s.mnnvlGate().path() + ":" + s.mnnvlGate().line() + "), so the " + e.tpPhrase() + " group across " + e.nodes()
                    + " nodes of one NVLink domain uses the network transport between nodes.").fix("unset NCCL_MNNVL (auto)").build()
                    : v.ok().resolved("MNNVL off").why(shown + " sets MNNVL to 0 (" + s.mnnvlGate().path() + ":" + s.mnnvlGate().line() + "); "
                    + zeroHarmless(e, ver, cumemOff, full)).build();
        }
        Boolean on = NcclMnnvl.on(e);
        if (!Boolean.TRUE.equals(on)) {
            SourceRef why = cumemOff ? s.mnnvlCumem() : !e.fabricHandles() ? s.mnnvlFabricAttr() : !e.fabricReady() ? s.mnnvlFabricState() : s.mnnvlZeroUuid();
            if (p == 1) {
                return v.error("ncclSystemError").source(s.mnnvlForced()).message(NcclMessage.MNNVL_NOT_SUPPORTED).why("NCCL " + ver.id()
                        + " with NCCL_MNNVL=1" + across + ": MNNVL stays 0 (" + why.path() + ":" + why.line() + (cumemOff ? ", cuMem off"
                        : ", no MNNVL clique") + "), and init stops with \"" + NcclMessage.MNNVL_NOT_SUPPORTED.text() + "\" (init.cc:"
                        + s.mnnvlForced().line() + ").")
                        .fix(cumemOff ? "drop NCCL_CUMEM_ENABLE=0" : "unset NCCL_MNNVL").build();
            }
            return v.ok().resolved("MNNVL off").source(why).why(shown + ": MNNVL stays off without a message (" + why.path() + ":" + why.line() + ").").build();
        }
        if (p > 0 && !full) {
            return v.outcome(Outcome.UNKNOWN).why(shown + " forces MNNVL on (" + s.mnnvlGate().path() + ":" + s.mnnvlGate().line() + ") although the GPUs' fabric is not one COMPLETED clique; "
                    + "what NCCL then does between the nodes was not read.").build();
        }
        return imexUnchecked(e, v, ver.id(), shown);
    }

    /** Why NCCL_MNNVL=0 at 2.20 costs nothing here: MNNVL would be off anyway, or the group stays on one node. */
    private static String zeroHarmless(Eval e, NcclVersion ver, boolean cumemOff, boolean full) {
        if (cumemOff) {
            return "it would be off anyway without cuMem (NCCL_CUMEM_ENABLE=0).";
        }
        if (!(full && e.fabricHandles())) {
            return "it would be off anyway (no MNNVL clique).";
        }
        return "on one node MNNVL carries no traffic between nodes" + (ver.mnnvl() == NcclVersion.Mnnvl.MNNVL_PARAM_EVERY_COMM
                ? ", and with it off NCCL " + ver.id() + " keeps NVLS within the tray (nvls.cc:" + ver.src().nvlsGate().line()
                + " turns NVLS off on MNNVL)." : ".");
    }

    /** 2.20–2.24 have no IMEX check of their own: MNNVL forces FABRIC handles, which need an IMEX channel. */
    private static Verdict imexUnchecked(Eval e, VerdictBuilder v, String release, String shown) {
        Boolean channel = e.imexChannel();
        String base = shown + ": the " + e.tpPhrase() + " group is one MNNVL clique, so NCCL " + release + " turns MNNVL on and allocates "
                + "its buffers with FABRIC handles, which CUDA creates only through an IMEX channel";
        if (Boolean.TRUE.equals(channel)) {
            return v.ok().resolved("MNNVL").why(base + "; this node has one. NCCL " + release + " does not test the IMEX daemon first (that "
                    + "check came with 2.25, mnnvl.cc).").build();
        }
        return v.outcome(Outcome.UNKNOWN).why(base + (channel == null ? "; whether this node has one was not read." : "; this node has none, and "
                + "NCCL " + release + " has no check of its own (2.25 added one): where and with which text the allocation then fails was not read.")).build();
    }

    /** NCCL 2.21–2.24 (v2.24.3-1 init.cc:639-790): checkMNNVL for several nodes; =1 without MNNVL fails init. */
    private static Verdict mnnvl221(Eval e, VerdictBuilder v, NcclSetSources s, String value) {
        v.source(s.mnnvlGate());
        String shown = value == null ? "NCCL_MNNVL_ENABLE unset (2)" : "NCCL_MNNVL_ENABLE=" + value;
        if (!e.tpSpansNodes()) {
            return v.ok().resolved("not checked").why("One node: NCCL " + e.version(NcclVersion.class).id() + " runs checkMNNVL only for several "
                    + "nodes (init.cc:786 at v2.24.3-1), whatever " + shown + ".").build();
        }
        boolean cumemOff = NcclMnnvl.cumemOff(e);
        boolean check = !cumemOff && NcclMnnvl.clique(e);
        if (!check && "1".equals(value)) {
            return v.error("ncclSystemError").source(NcclSources.MNNVL_FORCED_2_24).message(NcclMessage.MNNVL_NOT_SUPPORTED)
                    .why("NCCL 2.21–2.24 run checkMNNVL for a communicator across nodes; it returns 0 "
                            + (cumemOff ? "without cuMem (NCCL_CUMEM_ENABLE=0)" : "without an MNNVL clique (FABRIC handles, fabric state "
                            + "COMPLETED, a non-zero cluster UUID)") + ", and with NCCL_MNNVL_ENABLE=1 communicator init stops "
                            + "(init.cc:786-790 at v2.24.3-1). From 2.25 NCCL ignores the setting instead (mnnvl.cc:15).")
                    .fix(cumemOff ? "drop NCCL_CUMEM_ENABLE=0" : "unset NCCL_MNNVL_ENABLE").build();
        }
        if (!check) {
            SourceRef why = cumemOff ? s.mnnvlCumem() : !e.fabricHandles() ? s.mnnvlFabricAttr() : !e.fabricReady() ? s.mnnvlFabricState() : s.mnnvlZeroUuid();
            return v.ok().resolved("MNNVL off").source(why).why(shown + ": checkMNNVL returns 0 without a message (" + why.path() + ":" + why.line() + ").").build();
        }
        if ("0".equals(value)) {
            return v.fallback().resolved("MNNVL off").source(s.mnnvlGate()).why("NCCL_MNNVL_ENABLE=0 sets MNNVL to 0 (init.cc:685 at v2.24.3-1), "
                    + "so the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one NVLink domain uses the network transport between nodes.")
                    .fix("unset NCCL_MNNVL_ENABLE (2: auto)").build();
        }
        return imexUnchecked(e, v, e.version(NcclVersion.class).id(), shown);
    }

    /** NCCL 2.25 on: ncclMnnvlCheck (mnnvl.cc), gated by the P2P level from 2.27.3. */
    private static Verdict mnnvlCheck(Eval e, VerdictBuilder v, NcclVersion ver, NcclSetSources s, String value) {
        v.source(s.mnnvlGate());
        String gate = "init.cc:" + s.mnnvlGate().line();
        String shown = value == null ? "the default 2" : value;
        boolean cumemOff = NcclMnnvl.cumemOff(e);
        boolean clique = NcclMnnvl.clique(e);
        boolean mnnvlUsed = clique && e.tpSpansNodes();
        if ("0".equals(value)) {
            return mnnvlUsed && !cumemOff ? v.fallback().resolved("MNNVL off").why("NCCL skips ncclMnnvlCheck (" + gate + "), so the " + e.tpPhrase()
                            + " group across " + e.nodes() + " nodes of one NVLink domain uses the network transport between nodes.")
                    .fix("unset NCCL_MNNVL_ENABLE (2: auto)").build()
                    : v.ok().resolved("MNNVL off").why("MNNVL would not be used here anyway (" + (clique ? "one node" : "no MNNVL clique") + ").").build();
        }
        if (!NcclMnnvl.checkRuns(e)) {
            return e.tpSpansNodes() && clique && !cumemOff
                    ? v.fallback().resolved("not checked").why("The P2P level is 0 (NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=LOC), so with " + shown
                    + " NCCL skips ncclMnnvlCheck (" + gate + "): the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one NVLink "
                    + "domain uses NCCL's network transport between the nodes.").fix("unset NCCL_P2P_LEVEL / NCCL_P2P_DISABLE, or NCCL_MNNVL_ENABLE=1").build()
                    : v.ok().resolved("not checked").why(e.tpSpansNodes()
                    ? "The P2P level is 0 (NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=LOC), so with " + shown + " NCCL skips ncclMnnvlCheck (" + gate + ")."
                    : "One node: with 2 NCCL checks MNNVL only for several nodes (" + gate + ").").build();
        }
        if (cumemOff && "1".equals(value) && clique) {
            return v.fallback().resolved("MNNVL off").source(s.mnnvlCumem()).why("NCCL_MNNVL_ENABLE=1 makes NCCL run "
                    + "ncclMnnvlCheck (" + gate + "), but with NCCL_CUMEM_ENABLE=0 it returns success at once, without MNNVL and without a "
                    + "message (mnnvl.cc:" + s.mnnvlCumem().line() + "; \"MNNVL requires cuMem to be enabled\" is a source comment): the forced "
                    + "setting is silently ignored" + (e.tpSpansNodes() ? ", and the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one "
                    + "NVLink domain takes NCCL's network transport between the nodes." : " and MNNVL stays off.")
                    + " NCCL 2.21–2.24 stop instead across nodes: \"" + NcclMessage.MNNVL_NOT_SUPPORTED.text() + "\" (init.cc:786-790 at v2.24.3-1).")
                    .fix("drop NCCL_CUMEM_ENABLE=0").build();
        }
        if (cumemOff) {
            return v.ok().resolved("MNNVL off").source(s.mnnvlCumem()).why("NCCL_CUMEM_ENABLE=0: ncclMnnvlCheck returns at once "
                    + "(mnnvl.cc:" + s.mnnvlCumem().line() + "), MNNVL stays off.").build();
        }
        if (!clique) {
            SourceRef src = !e.fabricHandles() ? s.mnnvlFabricAttr() : !e.fabricReady() ? s.mnnvlFabricState() : s.mnnvlZeroUuid();
            String runs = "1".equals(value) ? (e.tpSpansNodes() ? " across the " + e.nodes() + " nodes" : " even on one node") : " across nodes";
            // eighth audit F11: a forced MNNVL across nodes that is silently not used is a fallback (the nodes talk over the network)
            VerdictBuilder b = "1".equals(value) && e.tpSpansNodes() ? v.fallback() : v.ok();
            b.resolved("MNNVL off").source(src).why("With " + shown + " NCCL runs ncclMnnvlCheck" + runs + ", which returns success without "
                    + "MNNVL when a GPU lacks FABRIC handles (mnnvl.cc:" + s.mnnvlFabricAttr().line() + "), its fabric state is not COMPLETED "
                    + "(mnnvl.cc:" + s.mnnvlFabricState().line() + ") or its cluster UUID is zero (mnnvl.cc:" + s.mnnvlZeroUuid().line()
                    + "): no clique here" + ("1".equals(value) && e.tpSpansNodes() ? ", so the forced setting is silently not used and the nodes "
                    + "reach each other over the network." : "."));
            return ("1".equals(value) && e.tpSpansNodes() ? b.fix("an MNNVL system (GB200/GB300 NVL with the fabric up), or unset "
                    + "NCCL_MNNVL_ENABLE") : b).build();
        }
        Boolean channel = e.imexChannel();
        String cliqueSize = Integer.toString(e.tp());
        String reached = Slots.fill("The {span} TP {tp} group is one MNNVL clique, so ncclMnnvlCheck allocates FABRIC-handle memory, which CUDA "
                + "creates only through an IMEX channel", "span", e.tpSpansNodes() ? e.nodes() + "-node" : "one-node", "tp", e.tp());
        boolean oldCheck = ver.mnnvl() == NcclVersion.Mnnvl.MNNVL_CC;
        if (Boolean.FALSE.equals(channel) && oldCheck) {
            return v.fallback().resolved("MNNVL off").source(s.mnnvlImexChannel()).why(reached + "; this node has no channel device under "
                    + "/dev/nvidia-caps-imex-channels, so the allocation fails and NCCL " + ver.id() + " returns success without MNNVL and without a "
                    + "message (mnnvl.cc:" + s.mnnvlImexChannel().line() + " at v2.26.6-1; 2.27.3 made it an error)"
                    + (e.tpSpansNodes() ? ": the group takes the network between the nodes." : "."))
                    .fix("give every node an IMEX channel device under /dev/nvidia-caps-imex-channels").build();
        }
        if (Boolean.FALSE.equals(channel)) {
            return v.error("ncclSystemError").source(s.mnnvlImexChannel()).message(NcclMessage.IMEX_CHANNEL, cliqueSize)
                    .why(reached + "; this node has no channel device under /dev/nvidia-caps-imex-channels, so the allocation fails "
                            + "and communicator init stops (mnnvl.cc:" + s.mnnvlImexChannel().line() + ").")
                    .fix("give every node an IMEX channel device under /dev/nvidia-caps-imex-channels, or NCCL_MNNVL_ENABLE=0 to run "
                            + "without multi-node NVLink").build();
        }
        if (channel == null) {
            return v.outcome(Outcome.UNKNOWN).source(s.mnnvlImexChannel()).why(reached + "; whether this node has one was not read. Without one "
                    + (oldCheck ? "NCCL " + ver.id() + " leaves MNNVL off silently" : "NCCL stops with '" + NcclMessage.IMEX_CHANNEL.format(cliqueSize) + "'")
                    + " (mnnvl.cc:" + s.mnnvlImexChannel().line() + ").").build();
        }
        NcclMessage export = oldCheck ? NcclMessage.IMEX_CONFIG_2_26 : NcclMessage.IMEX_CONFIG;
        return v.ok().resolved("MNNVL").source(s.mnnvlImexExport()).why(reached + "; this node has one. NCCL then exports and "
                + "imports the handle through the IMEX daemon; should that fail it stops with '" + export.format(cliqueSize)
                + "' (mnnvl.cc:" + s.mnnvlImexExport().line() + ").").build();
    }
}
