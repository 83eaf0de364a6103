package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
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
            if (e.isSet(k)) {
                out.add(verdict(e, k));
            }
        }
        return out;
    }

    /** NCCL would find an MNNVL clique: FABRIC handles, every GPU's fabric COMPLETED with a non-zero cluster UUID (mnnvl.cc:26-45). */
    private static boolean clique(Eval e) {
        return e.cuda() && e.fabricHandles() && e.mnnvlFabric() && e.fabricReady();
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
            v.source(NcclSources.MNNVL_GATE);
            if ("0".equals(value)) {
                return mnnvlUsed ? v.fallback().resolved("MNNVL off").why("NCCL skips ncclMnnvlCheck (init.cc:1072), so the " + e.tpPhrase()
                                + " group across " + e.nodes() + " nodes of one NVLink domain uses the network transport between nodes.")
                        .fix("unset NCCL_MNNVL_ENABLE (2: auto)").build()
                        : v.ok().resolved("MNNVL off").why("MNNVL would not be used here anyway (" + (clique(e) ? "one node" : "no MNNVL clique") + ").").build();
            }
            if (!clique(e)) {
                return v.ok().resolved("MNNVL off").source(NcclSources.MNNVL_CHECK).why("With " + value + " NCCL runs ncclMnnvlCheck"
                        + ("1".equals(value) ? " even on one node" : " across nodes") + ", which returns success without MNNVL when a GPU lacks "
                        + "FABRIC handles, its fabric state is not COMPLETED or its cluster UUID is zero (mnnvl.cc:26-45): no clique here.").build();
            }
            if (!e.tpSpansNodes() && !"1".equals(value)) {
                return v.ok().resolved("not checked").why("One node: with 2 NCCL checks MNNVL only for several nodes (init.cc:1072).").build();
            }
            return v.outcome(Outcome.UNKNOWN).source(NcclSources.MNNVL_CHECK).why("These GPUs form an MNNVL clique, so NCCL allocates and exports a "
                    + "FABRIC handle through IMEX; without an IMEX channel it stops with '" + NcclMessage.IMEX_CHANNEL.format("N") + "' (mnnvl.cc:74). "
                    + "Whether an IMEX channel exists is not among the advisor's facts.").build();
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
