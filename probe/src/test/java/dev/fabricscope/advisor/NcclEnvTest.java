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

    /**
     * Audit 2026-12-03e F6: where a variable the user exported makes NCCL fall back and NCCL's default does not, the
     * recommendation unsets it (paths.cc:218 NCCL_P2P_DISABLE=1; mnnvl.cc:16 NCCL_CUMEM_ENABLE=0), never "(no changes)".
     */
    @Test
    void theRecommendationUnsetsAnExportedVariableThatFallsBack() {
        dev.fabricscope.advisor.api.Recommendation p2p = machine(What.HGX_H100).tp(8).env("NCCL_P2P_DISABLE", "1").advise()
                .recommendation("nccl").orElseThrow();
        assertEquals(java.util.List.of("NCCL_P2P_DISABLE"), p2p.drop(), p2p::toString);
        assertEquals(java.util.List.of("unset NCCL_P2P_DISABLE"), p2p.dropCommands());
        assertTrue(p2p.summary().startsWith("unset NCCL_P2P_DISABLE (NCCL_P2P_DISABLE=1: fallback"), p2p::toString);
        dev.fabricscope.advisor.api.Recommendation cumem = machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0").advise()
                .recommendation("nccl").orElseThrow();
        assertEquals(java.util.List.of("NCCL_CUMEM_ENABLE"), cumem.drop(), cumem::toString);
        // 0 where it changes nothing is kept: one node, no MNNVL to lose
        assertTrue(machine(What.GB200_NVL).tp(4).env("NCCL_CUMEM_ENABLE", "0").advise().recommendation("nccl").orElseThrow().drop().isEmpty());
    }

    /** src/init.cc:1072 runs the check for =1 on one node too; mnnvl.cc:26-45 returns without a clique (no FABRIC handles). */
    @Test
    void mnnvlEnableOneWithoutACliqueIsSilentlyOff() {
        Verdict v = nccl(machine(What.HGX_H100).tp(8).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.OK, v.outcome(), v::toString);
        assertEquals("MNNVL off", v.resolved());
        String[] imexUnread = java.util.Arrays.stream(What.GB200_NVL).filter(kv -> !kv.startsWith("imex-channel=")).toArray(String[]::new);
        Verdict tray = nccl(machine(imexUnread).tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.UNKNOWN, tray.outcome(), "IMEX channels not read: unknown, not ok; " + tray);
        assertTrue(tray.why().contains("Check the IMEX channel configuration (/dev/nvidia-caps-imex-channels)"), tray::toString);
        Verdict off = nccl(machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "0"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, off.outcome(), off::toString);
    }

    /**
     * NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027 src/init.cc:1072 runs ncclMnnvlCheck for NCCL_MNNVL_ENABLE=1, and
     * src/mnnvl.cc:15-16 ("// MNNVL requires cuMem to be enabled", then {@code if (!ncclCuMemEnable()) return ncclSuccess;})
     * returns without MNNVL and without a message: the forced value is silently ignored (audit S52).
     */
    @Test
    void forcedMnnvlWithoutCumemIsSilentlyIgnored() {
        What s52 = machine(What.GB200_NVL).tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0").env("NCCL_MNNVL_ENABLE", "1");
        Verdict v = nccl(s52, "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("MNNVL off", v.resolved());
        assertEquals("drop NCCL_CUMEM_ENABLE=0", v.fix());
        assertEquals(null, v.message(), "NCCL prints nothing");
        assertEquals("src/mnnvl.cc", v.source().path());
        assertEquals("15-16", v.source().line());
        assertEquals("5067397c2676d5aed50042fc39e5c8ee96eb0027", v.source().commit());
        // one tray: forced, ignored all the same
        assertEquals(Outcome.FALLBACK, nccl(machine(What.GB200_NVL).tp(4).env("NCCL_CUMEM_ENABLE", "0").env("NCCL_MNNVL_ENABLE", "1"),
                "NCCL_MNNVL_ENABLE").outcome());
        // no clique: MNNVL is off with cuMem too, so nothing is lost
        assertEquals(Outcome.OK, nccl(machine(What.HGX_H100).tp(8).env("NCCL_CUMEM_ENABLE", "0").env("NCCL_MNNVL_ENABLE", "1"),
                "NCCL_MNNVL_ENABLE").outcome());
    }

    /**
     * NCCL 2.21-2.24 (v2.24.3-1 = 6aae37927840b2bd7b7d42d2f0050e75f88ee97f src/init.cc:786-790; the same at v2.21.5-1
     * L951): {@code if (nNodes > 1 && !checkMNNVL(comm) && ncclParamMNNVLEnable() == 1)} WARN("MNNVL is not supported on
     * this system") and ncclSystemError; checkMNNVL returns 0 without cuMem (L650-651).
     */
    @Test
    void forcedMnnvlFailsInitOnNccl224() {
        What old = machine(What.GB200_NVL).assume("nccl-version=2.24.3").tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0")
                .env("NCCL_MNNVL_ENABLE", "1");
        Verdict v = nccl(old, "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.ERROR, v.outcome(), v::toString);
        assertEquals("ncclSystemError", v.errorClass());
        assertEquals("MNNVL is not supported on this system", v.message());
        assertEquals("6aae37927840b2bd7b7d42d2f0050e75f88ee97f", v.source().commit());
        assertEquals("786-790", v.source().line());
        assertEquals("drop NCCL_CUMEM_ENABLE=0", v.fix());
        // without a clique too, across nodes
        assertEquals(Outcome.ERROR, nccl(machine(What.GB200_NVL).assume("nccl-version=2.22.3", "fabric-handles=false", "mnnvl-fabric=false")
                .tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE").outcome());
        // one node: 2.24 calls checkMNNVL only for nNodes > 1 (init.cc:786), so nothing is checked and nothing lost
        assertEquals(Outcome.OK, nccl(machine(What.GB200_NVL).assume("nccl-version=2.24.3").tp(4).env("NCCL_CUMEM_ENABLE", "0")
                .env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE").outcome());
        // 2.25.1 moved the check to mnnvl.cc: silent again
        assertEquals(Outcome.FALLBACK, nccl(machine(What.GB200_NVL).assume("nccl-version=2.25.1").tp(8).nodes(2).env("NCCL_CUMEM_ENABLE", "0")
                .env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE").outcome());
    }

    /** NVIDIA/nccl@48bb7fec (v2.20.5-1) src/init.cc:820 reads NCCL_MNNVL; NCCL_MNNVL_ENABLE came with 2.21 (v2.21.5-1 init.cc:826). */
    @Test
    void ncclBefore221DoesNotReadMnnvlEnable() {
        Verdict v = nccl(machine(What.GB200_NVL).version("nccl", "2.20.5").tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("not read", v.resolved());
        assertEquals("48bb7fec7953112ff37499a272317f6663f8f600", v.source().commit());
        assertEquals("820", v.source().line());
    }

    /** src/graph/paths.cc:251 — NCCL_P2P_DISABLE=1 sets the level to PATH_LOC: no P2P transport between GPUs. */
    @Test
    void p2pDisableFallsBackToShm() {
        Verdict v = nccl(machine(What.HGX_H100).tp(8).env("NCCL_P2P_DISABLE", "1"), "NCCL_P2P_DISABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("SHM / network", v.resolved());
        assertEquals("251", v.source().line());
    }

    /**
     * NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027 src/mnnvl.cc:74 — on an MNNVL clique the FABRIC allocation
     * fails without an IMEX channel: WARN "MNNVL (cliqueSize %d) is available but not working on this system. Check the
     * IMEX channel configuration (/dev/nvidia-caps-imex-channels)…" and ncclSystemError. init.cc:1072 runs the check
     * with NCCL_MNNVL_ENABLE unset (2) once the TP group spans nodes, so the default deployment fails too.
     */
    @Test
    void noImexChannelOnAnMnnvlCliqueFailsInit() {
        What tray = machine(What.GB200_NVL).assume("imex-channel=false").tp(8).nodes(2);
        Verdict v = nccl(tray, "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.ERROR, v.outcome(), v::toString);
        assertEquals("ncclSystemError", v.errorClass());
        assertEquals("MNNVL (cliqueSize 8) is available but not working on this system. Check the IMEX channel configuration "
                + "(/dev/nvidia-caps-imex-channels). Set NCCL_MNNVL_ENABLE=0 to ignore this issue.", v.message());
        assertEquals("src/mnnvl.cc", v.source().path());
        assertEquals("74", v.source().line());
        assertEquals("5067397c2676d5aed50042fc39e5c8ee96eb0027", v.source().commit());
        // =1 runs the check on one node too (init.cc:1072); the clique is the 4 GPUs of the tray
        Verdict one = nccl(machine(What.GB200_NVL).assume("imex-channel=false").tp(4).env("NCCL_MNNVL_ENABLE", "1"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.ERROR, one.outcome(), one::toString);
        assertTrue(one.message().startsWith("MNNVL (cliqueSize 4)"), one::toString);
        // silent skips before the allocation: one node with 2, cuMem off (mnnvl.cc:16), P2P level 0 (init.cc:1072), TP 1
        What oneNode = machine(What.GB200_NVL).assume("imex-channel=false").tp(4);
        assertTrue(oneNode.advise().verdict("nccl", "NCCL_MNNVL_ENABLE").isEmpty(), "one node, unset: the check does not run");
        assertEquals(Outcome.OK, nccl(machine(What.GB200_NVL).assume("imex-channel=false").tp(8).nodes(2)
                .env("NCCL_CUMEM_ENABLE", "0").env("NCCL_MNNVL_ENABLE", "2"), "NCCL_MNNVL_ENABLE").outcome());
        // P2P level 0 skips the check (init.cc:1072): the trays then talk over the network, a fallback (audit F3)
        assertEquals(Outcome.FALLBACK, nccl(machine(What.GB200_NVL).assume("imex-channel=false").tp(8).nodes(2)
                .env("NCCL_P2P_DISABLE", "1").env("NCCL_MNNVL_ENABLE", "2"), "NCCL_MNNVL_ENABLE").outcome());
        // no FABRIC handle support: mnnvl.cc:26 returns success before IMEX
        Verdict noHandles = nccl(machine(What.GB200_NVL).assume("imex-channel=false", "fabric-handles=false", "mnnvl-fabric=false")
                .tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "2"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.OK, noHandles.outcome(), noHandles::toString);
        assertEquals("26", noHandles.source().line());
    }

    /** mnnvl.cc:79-86: with a channel the allocation works and the export/import through the IMEX daemon decides; the sample has channel0. */
    @Test
    void imexChannelOnTheTrayIsReadFromTheSnapshot() {
        dev.fabricscope.model.MachineSnapshot s = dev.fabricscope.samples.Samples.find("gb200-nvl72-tray").orElseThrow().snapshot().get();
        What w = What.snapshot(s).tp(8).nodes(2);
        Verdict v = nccl(w, "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.OK, v.outcome(), v::toString);
        assertEquals("MNNVL", v.resolved());
        // the sample's NCCL is 2.28.3: the 2.27-2.28.3 set, mnnvl.cc:78 at v2.28.3-1
        assertEquals("78", v.source().line());
        assertEquals("f1308997d0420148b1be1c24d63f19d902ae589b", v.source().commit());
        assertTrue(v.why().contains("Check the IMEX configuration (nvidia-imex-ctl -N)"), v::toString);
        assertEquals("probed", w.advise().machine().provenance().get("imex-channel").split(":")[0]);
    }
}
