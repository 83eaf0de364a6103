package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.Eval;
import java.util.List;

/**
 * The P2P level NCCL takes from NCCL_P2P_DISABLE and NCCL_P2P_LEVEL (ncclGetLevel, src/graph/paths.cc): DISABLE=1 gives
 * LOC (0) and wins; else LEVEL as a path-type name (topoPathTypeStr up to SYS) or an old-style number (levelsOldToNew:
 * 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and above SYS); anything else is ignored, as if unset.
 */
final class NcclP2pLevel {

    /** No user level: NCCL's default applies (PXB or SYS by CPU; every NVLink pair uses P2P). */
    static final int UNSET = -2;
    static final int LOC = 0;
    static final int NVL = 1;

    private NcclP2pLevel() {
    }

    /**
     * Path-type names NCCL matches, in order (their index is the level; topoPathTypeStr in src/graph/topo.cc): C2C
     * from 2.26 (the 2.25-2.26 set follows v2.26.6-1), P2C from 2.27 (order of v2.28.3-1 and 5067397c).
     */
    static List<String> names(NcclVersion v) {
        return switch (v.mnnvl()) {
            case MNNVL_CC_P2P_GATE -> List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS");
            case MNNVL_CC -> List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "PXN", "PHB", "SYS");
            default -> List.of("LOC", "NVL", "NVB", "PIX", "PXB", "PXN", "PHB", "SYS");
        };
    }

    /** The level NCCL reads, or {@link #UNSET}. */
    static int level(Eval e) {
        String disable = e.value(NcclKnobs.P2P_DISABLE);
        if (disable != null && leadingInt(disable) == 1) {
            return LOC;
        }
        String s = e.value(NcclKnobs.P2P_LEVEL);
        if (s == null) {
            return UNSET;
        }
        List<String> names = names(e.version(NcclVersion.class));
        int i = names.indexOf(s);
        if (i >= 0) {
            return i;
        }
        if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
            long old = leadingInt(s);
            int[] oldToNew = {LOC, names.indexOf("PIX"), names.indexOf("PXB"), names.indexOf("PHB"), names.indexOf("SYS"), names.indexOf("SYS")};
            return oldToNew[(int) Math.min(old, oldToNew.length - 1)];
        }
        return UNSET;
    }

    /** The name of a level, as NCCL prints it. */
    static String name(Eval e, int level) {
        return level == UNSET ? "unset" : names(e.version(NcclVersion.class)).get(level);
    }

    /** strtol(str, NULL, 0) for the decimal values users write: the leading digits, 0 when there are none. */
    private static long leadingInt(String s) {
        int i = 0;
        boolean neg = s.startsWith("-");
        if (neg || s.startsWith("+")) {
            i = 1;
        }
        long n = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && n < Integer.MAX_VALUE) {
            n = n * 10 + (s.charAt(i++) - '0');
        }
        return neg ? -n : n;
    }
}
