package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import static dev.fabricscope.advisor.What.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** NCCL_CUMEM_ENABLE, NCCL_MNNVL_ENABLE, NCCL_P2P_DISABLE as NVIDIA/nccl@5067397c (2.30.7) reads them: deterministic, not unknown. */
class NcclEnvTest {

    private static Verdict nccl(What w, String knob) {
        return w.verdict("nccl", knob);
    }

    /** src/mnnvl.cc:16 — without cuMem ncclMnnvlCheck returns at once: MNNVL off across the trays. */
    @Test
    void cumemOffTurnsMnnvlOffAcrossTrays() {
        Verdict v = nccl(machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0"), "NCCL_CUMEM_ENABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("MNNVL off", v.resolved());
        assertEquals("src/mnnvl.cc", v.source().path());
        Verdict oneNode = nccl(machine(What.GB200_NVL).tp(4).env("NCCL_CUMEM_ENABLE", "0"), "NCCL_CUMEM_ENABLE");
        assertEquals(Outcome.OK, oneNode.outcome(), oneNode::toString);
    }

    /** src/init.cc:1072 runs the check for =1 on one node too; mnnvl.cc:26-45 returns without a clique (no FABRIC handles). */
    @Test
    void mnnvlEnableOneWithoutACliqueIsSilentlyOff() {
        Verdict v = nccl(machine(What.HGX_H100).tp(8).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.OK, v.outcome(), v::toString);
        assertEquals("MNNVL off", v.resolved());
        Verdict tray = nccl(machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.UNKNOWN, tray.outcome(), tray::toString);
        assertTrue(tray.why().contains("Check the IMEX channel configuration (/dev/nvidia-caps-imex-channels)"), tray::toString);
        Verdict off = nccl(machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "0"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, off.outcome(), off::toString);
    }

    /** src/graph/paths.cc:251 — NCCL_P2P_DISABLE=1 sets the level to PATH_LOC: no P2P transport between GPUs. */
    @Test
    void p2pDisableFallsBackToShm() {
        Verdict v = nccl(machine(What.HGX_H100).tp(8).env("NCCL_P2P_DISABLE", "1"), "NCCL_P2P_DISABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("SHM / network", v.resolved());
        assertEquals("251", v.source().line());
    }
}
