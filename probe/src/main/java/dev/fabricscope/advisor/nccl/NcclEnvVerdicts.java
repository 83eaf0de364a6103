package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Values;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL_CUMEM_ENABLE, NCCL_MNNVL_ENABLE and NCCL_P2P_DISABLE as NCCL 2.30.7 reads them (src/mnnvl.cc, src/init.cc,
 * src/graph/paths.cc @5067397c); a verdict only for a variable the user set. Reference: backend-rules.md §4.
 */
final class NcclEnvVerdicts {

    private NcclEnvVerdicts() {
    }

    static List<Verdict> evaluate(Eval e) {
        List<Verdict> out = new ArrayList<>();
        for (KnobSpec k : List.of(NcclKnobs.CUMEM_ENABLE, NcclKnobs.MNNVL_ENABLE, NcclKnobs.P2P_DISABLE)) {
            if (e.isSet(k) || k == NcclKnobs.MNNVL_ENABLE && reachesImex(e)) {
                out.add(verdict(e, k));
            }
        }
        return out;
    }

    /** init.cc:1072 runs ncclMnnvlCheck: several nodes, MNNVL not 0 and P2P not disabled; or NCCL_MNNVL_ENABLE=1. */
    private static boolean checkRuns(Eval e) {
        String mnnvl = e.value(NcclKnobs.MNNVL_ENABLE);
        return e.tpSpansNodes() && !"0".equals(mnnvl) && !"1".equals(e.value(NcclKnobs.P2P_DISABLE)) || "1".equals(mnnvl);
    }

    /** The check gets past its silent returns (mnnvl.cc:16-60) to the FABRIC allocation through IMEX (mnnvl.cc:70). */
    private static boolean reachesImex(Eval e) {
        return e.cuda() && e.tp() > 1 && checkRuns(e) && !"0".equals(e.value(NcclKnobs.CUMEM_ENABLE)) && clique(e);
    }

    /** NCCL would find an MNNVL clique: FABRIC handles, every GPU's fabric COMPLETED with a non-zero cluster UUID (mnnvl.cc:26-45). */
    private static boolean clique(Eval e) {
        return e.cuda() && e.fabricHandles() && e.mnnvlFabric() && e.fabricReady();
    }

    /**
     * NCCL_MNNVL_ENABLE (set, or unset where the check reaches IMEX): the gate of init.cc:1072, the silent returns of
     * mnnvl.cc:16-60, then the FABRIC allocation (mnnvl.cc:74) that needs an IMEX channel and the export/import
     * (mnnvl.cc:86) that needs the IMEX daemon; either failure is ncclSystemError and init fails.
     */
    private static Verdict mnnvl(Eval e, VerdictBuilder v, String value) {
        v.source(NcclSources.MNNVL_GATE);
        String shown = value == null ? "the default 2" : value;
        boolean mnnvlUsed = clique(e) && e.tpSpansNodes();
        if ("0".equals(value)) {
            return mnnvlUsed ? v.fallback().resolved("MNNVL off").why("NCCL skips ncclMnnvlCheck (init.cc:1072), so the " + e.tpPhrase()
                            + " group across " + e.nodes() + " nodes of one NVLink domain uses the network transport between nodes.")
                    .fix("unset NCCL_MNNVL_ENABLE (2: auto)").build()
                    : v.ok().resolved("MNNVL off").why("MNNVL would not be used here anyway (" + (clique(e) ? "one node" : "no MNNVL clique") + ").").build();
        }
        if (value != null && !e.version(NcclVersion.class).readsMnnvlEnable()) {
            return v.fallback().resolved("not read").source(NcclSources.MNNVL_PARAM_2_20).why("NCCL 2.17–2.20 do not read NCCL_MNNVL_ENABLE "
                    + "(it came with 2.21): 2.20 reads NCCL_MNNVL (init.cc:820 at v2.20.5-1, auto when unset) and 2.17–2.19 have no "
                    + "multi-node NVLink, so NCCL_MNNVL_ENABLE=" + value + " has no effect.")
                    .fix("drop NCCL_MNNVL_ENABLE (NCCL 2.20 spells it NCCL_MNNVL)").build();
        }
        boolean cumemOff = "0".equals(e.value(NcclKnobs.CUMEM_ENABLE));
        if ("1".equals(value) && e.tpSpansNodes() && (cumemOff || !clique(e)) && before225(e)) {
            return v.error("ncclSystemError").source(NcclSources.MNNVL_FORCED_2_24).message(NcclMessage.MNNVL_NOT_SUPPORTED)
                    .why("NCCL " + e.ncclVersion() + " (2.21–2.24) runs checkMNNVL for a communicator across nodes; it returns 0 "
                            + (cumemOff ? "without cuMem (NCCL_CUMEM_ENABLE=0)" : "without an MNNVL clique (FABRIC handles, fabric state "
                            + "COMPLETED, a non-zero cluster UUID)") + ", and with NCCL_MNNVL_ENABLE=1 communicator init stops "
                            + "(init.cc:786-790 at v2.24.3-1). From 2.25 NCCL ignores the setting instead (mnnvl.cc:16).")
                    .fix(cumemOff ? "drop NCCL_CUMEM_ENABLE=0" : "unset NCCL_MNNVL_ENABLE").build();
        }
        if (!checkRuns(e)) {
            return v.ok().resolved("not checked").why(e.tpSpansNodes()
                    ? "NCCL_P2P_DISABLE=1 sets the P2P level to 0, so with " + shown + " NCCL skips ncclMnnvlCheck (init.cc:1072)."
                    : "One node: with 2 NCCL checks MNNVL only for several nodes (init.cc:1072).").build();
        }
        if (cumemOff && "1".equals(value) && clique(e)) {
            return v.fallback().resolved("MNNVL off").source(NcclSources.MNNVL_CUMEM).why("NCCL_MNNVL_ENABLE=1 makes NCCL run "
                    + "ncclMnnvlCheck (init.cc:1072), but with NCCL_CUMEM_ENABLE=0 it returns success at once, without MNNVL and without a "
                    + "message (mnnvl.cc:16; \"MNNVL requires cuMem to be enabled\" is a source comment, L15): the forced setting is "
                    + "silently ignored" + (e.tpSpansNodes() ? ", and the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one "
                    + "NVLink domain takes NCCL's network transport between the nodes." : " and MNNVL stays off.")
                    + " NCCL 2.21–2.24 stop instead across nodes: \"" + NcclMessage.MNNVL_NOT_SUPPORTED.text() + "\" (init.cc:786-790 at v2.24.3-1).")
                    .fix("drop NCCL_CUMEM_ENABLE=0").build();
        }
        if (cumemOff) {
            return v.ok().resolved("MNNVL off").source(NcclSources.MNNVL_CHECK).why("NCCL_CUMEM_ENABLE=0: ncclMnnvlCheck returns at once "
                    + "(mnnvl.cc:16), MNNVL stays off.").build();
        }
        if (!clique(e)) {
            return v.ok().resolved("MNNVL off").source(noCliqueSource(e)).why("With " + shown + " NCCL runs ncclMnnvlCheck"
                    + ("1".equals(value) ? " even on one node" : " across nodes") + ", which returns success without MNNVL when a GPU lacks "
                    + "FABRIC handles (mnnvl.cc:26), its fabric state is not COMPLETED (mnnvl.cc:29) or its cluster UUID is zero "
                    + "(mnnvl.cc:45): no clique here.").build();
        }
        Boolean channel = e.imexChannel();
        String clique = Integer.toString(e.tp());
        String reached = Slots.fill("The {span} TP {tp} group is one MNNVL clique, so ncclMnnvlCheck allocates FABRIC-handle memory "
                + "(mnnvl.cc:70), which CUDA creates only through an IMEX channel", "span", e.tpSpansNodes() ? e.nodes() + "-node" : "one-node",
                "tp", e.tp());
        if (Boolean.FALSE.equals(channel)) {
            return v.error("ncclSystemError").source(NcclSources.MNNVL_IMEX_CHANNEL).message(NcclMessage.IMEX_CHANNEL, clique)
                    .why(reached + "; this node has no channel device under /dev/nvidia-caps-imex-channels, so the allocation fails "
                            + "and communicator init stops (mnnvl.cc:74-77).")
                    .fix("give every node an IMEX channel device under /dev/nvidia-caps-imex-channels, or NCCL_MNNVL_ENABLE=0 to run "
                            + "without multi-node NVLink").build();
        }
        if (channel == null) {
            return v.outcome(Outcome.UNKNOWN).source(NcclSources.MNNVL_IMEX_CHANNEL).why(reached + "; whether this node has one was "
                    + "not read. Without one NCCL stops with '" + NcclMessage.IMEX_CHANNEL.format(clique) + "' (mnnvl.cc:74).").build();
        }
        return v.ok().resolved("MNNVL").source(NcclSources.MNNVL_IMEX_EXPORT).why(reached + "; this node has one. NCCL then exports and "
                + "imports the handle through the IMEX daemon; should that fail it stops with '" + NcclMessage.IMEX_CONFIG.format(clique)
                + "' (mnnvl.cc:86).").build();
    }

    /** The loaded NCCL is 2.21–2.24, where a forced NCCL_MNNVL_ENABLE=1 that finds no MNNVL fails init across nodes. */
    private static boolean before225(Eval e) {
        String nccl = e.ncclVersion();
        return nccl != null && Values.compareVersions(nccl, "2.21") >= 0 && Values.compareVersions(nccl, "2.25") < 0;
    }

    /** The first of mnnvl.cc's silent returns that this machine takes. */
    private static dev.fabricscope.advisor.api.SourceRef noCliqueSource(Eval e) {
        return !e.fabricHandles() ? NcclSources.MNNVL_FABRIC_ATTR : !e.fabricReady() ? NcclSources.MNNVL_FABRIC_STATE : NcclSources.MNNVL_ZERO_UUID;
    }

    private static Verdict verdict(Eval e, KnobSpec k) {
        VerdictBuilder v = e.on(k, NcclVersion.class).when(NcclSources.WHEN_INIT);
        String value = e.value(k);
        if (!e.cuda() || e.tp() <= 1) {
            return v.ok().source(NcclSources.MNNVL_CHECK).why(e.cuda() ? "TP 1: no NCCL collective spans GPUs." : "NCCL runs on NVIDIA GPUs only; the platform is "
                    + e.platformName() + ".").build();
        }
        boolean mnnvlUsed = clique(e) && e.tpSpansNodes();
        if (k == NcclKnobs.CUMEM_ENABLE) {
            v.source(NcclSources.MNNVL_CHECK);
            if ("0".equals(value) && mnnvlUsed) {
                return v.fallback().resolved("MNNVL off").why("Without cuMem ncclMnnvlCheck returns at once (\"MNNVL requires cuMem to be enabled\", "
                        + "a comment, no message), so the " + e.tpPhrase() + " group across " + e.nodes() + " nodes of one NVLink domain does not use "
                        + "multi-node NVLink: traffic between the nodes takes NCCL's network transport.").fix("unset NCCL_CUMEM_ENABLE").build();
            }
            return v.ok().resolved("0".equals(value) ? "cudaMalloc buffers" : "cuMem buffers").why("0".equals(value)
                    ? "NCCL allocates with cudaMalloc and legacy IPC; MNNVL, which needs cuMem, would not apply here anyway ("
                    + (clique(e) ? "the TP group stays within one node" : "no MNNVL clique") + ")."
                    : "cuMem allocations (NCCL's default where the driver supports them).").build();
        }
        if (k == NcclKnobs.MNNVL_ENABLE) {
            return mnnvl(e, v, value);
        }
        v.source(NcclSources.P2P_LEVEL);
        if (!"1".equals(value)) {
            return v.ok().resolved("P2P allowed").why("NCCL_P2P_DISABLE=" + value + ": only 1 disables P2P (paths.cc:251).").build();
        }
        return v.fallback().resolved("SHM / network").why("NCCL_P2P_DISABLE=1 sets the P2P level to PATH_LOC (paths.cc:251), so no GPU pair uses "
                + "NCCL's P2P transport: GPUs within a node exchange data through host memory (SHM transport), and across nodes NCCL skips the "
                + "MNNVL check unless NCCL_MNNVL_ENABLE=1 (init.cc:1072).").fix("unset NCCL_P2P_DISABLE").build();
    }
}
