package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.Eval;

/**
 * Whether NCCL turns multi-node NVLink on for the TP communicator, per rule set ({@link NcclVersion.Mnnvl}); the
 * verdicts that explain it are {@link NcclEnvVerdicts}. Reference: backend-rules.md §4.
 */
final class NcclMnnvl {

    private NcclMnnvl() {
    }

    /**
     * Every rank's fabric is COMPLETED with one non-zero cluster UUID and the GPUs support FABRIC handles: the TP
     * group is one MNNVL clique, so ranks on different hosts may use P2P (ncclTopoCheckP2p, paths.cc:321 at 5067397c).
     */
    static boolean clique(Eval e) {
        return e.cuda() && e.fabricHandles() && e.mnnvlFabric() && e.fabricReady();
    }

    static boolean cumemOff(Eval e) {
        return "0".equals(e.value(NcclKnobs.CUMEM_ENABLE));
    }

    /** The set's MNNVL variable as NCCL reads it (NCCL_MNNVL at 2.20, NCCL_MNNVL_ENABLE from 2.21), null when unset. */
    static String value(Eval e) {
        NcclVersion v = e.version(NcclVersion.class);
        return v.readsMnnvl() ? e.value(NcclKnobs.MNNVL) : v.readsMnnvlEnable() ? e.value(NcclKnobs.MNNVL_ENABLE) : null;
    }

    /** 2.20: NCCL_MNNVL as ncclParamMNNVL() returns it (default -2). */
    static long param220(Eval e) {
        String s = e.value(NcclKnobs.MNNVL);
        return s == null ? -2 : Long.parseLong(s);
    }

    /** NCCL runs its MNNVL check (ncclMnnvlCheck from 2.25, checkMNNVL at 2.21–2.24, the 2.20 block). */
    static boolean checkRuns(Eval e) {
        NcclVersion v = e.version(NcclVersion.class);
        String m = value(e);
        return switch (v.mnnvl()) {
            case NONE -> false;
            case MNNVL_PARAM_EVERY_COMM -> true;
            case MNNVL_PARAM, CHECK_MNNVL -> e.tpSpansNodes();
            case MNNVL_CC -> e.tpSpansNodes() && !"0".equals(m) || "1".equals(m);
            case MNNVL_CC_P2P_GATE -> e.tpSpansNodes() && !"0".equals(m) && NcclP2pLevel.level(e) != NcclP2pLevel.LOC || "1".equals(m);
        };
    }

    /** MNNVL on for this communicator; null where the IMEX channel (not read) decides. */
    static Boolean on(Eval e) {
        if (!e.cuda() || e.tp() <= 1 || !checkRuns(e)) {
            return false;
        }
        NcclVersion v = e.version(NcclVersion.class);
        if (cumemOff(e) || !e.fabricHandles()) {
            return false;
        }
        if (v.readsMnnvl()) {
            long p = param220(e);
            return p < 0 ? e.mnnvlFabric() && e.fabricReady() : p != 0;
        }
        if (!clique(e)) {
            return false;
        }
        if (v.mnnvl() == NcclVersion.Mnnvl.CHECK_MNNVL) {
            return !"0".equals(value(e));
        }
        Boolean channel = e.imexChannel();
        if (v.mnnvl() == NcclVersion.Mnnvl.MNNVL_CC) {
            return channel; // a failed FABRIC allocation returns success without MNNVL
        }
        return channel == null ? null : true; // without a channel init fails: nothing runs
    }

    /** The GPUs ncclNvlsInit counts (ncclTopoGetGpuCount): the MNNVL clique, else the TP group's GPUs on this node. */
    static int nvlsGpus(Eval e) {
        return Boolean.FALSE.equals(on(e)) ? e.tpPerNode() : e.tp();
    }
}
