package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import static dev.fabricscope.advisor.What.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The NCCL rule sets split by release tag (every tag of NVIDIA/nccl read); one test per audit finding. */
class NcclReleaseRangesTest {

    private static Verdict nccl(What w, String knob) {
        return w.verdict("nccl", knob);
    }

    private static What tray(String release) {
        return machine(What.GB200_NVL).assume("imex-channel=true").version("nccl", release).tp(8).nodes(2);
    }

    /** F4: v2.19.4-1 has no MNNVL code (git grep -i mnnvl finds nothing); it first appears in v2.20.3-1 init.cc. */
    @Test
    void f4Nccl218HasNoMnnvl() {
        Verdict v = nccl(tray("2.18.3"), "NCCL_MNNVL_ENABLE");
        assertEquals("2.18", v.version());
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("no MNNVL", v.resolved());
        assertEquals("b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2", v.source().commit(), "v2.20.3-1, where NCCL_MNNVL first appears: " + v);
    }

    /** F5: v2.20.5-1 src/transport/nvls.cc:239-240 "NVLS is not supported on MNNVL yet" … || comm->MNNVL) return. */
    @Test
    void f5Nccl220HasNoNvlsOnMnnvl() {
        Verdict v = nccl(tray("2.20.5"), "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertTrue(v.why().contains("not supported on MNNVL"), v::toString);
        assertEquals("48bb7fec7953112ff37499a272317f6663f8f600", v.source().commit());
        // NCCL_MNNVL=0 turns MNNVL off, and NVLS is back within each tray
        assertEquals(Outcome.OK, nccl(tray("2.20.5").env("NCCL_MNNVL", "0"), "NCCL_NVLS_ENABLE").outcome());
        // 2.21 (v2.21.5-1 nvls.cc:241) takes the clique size instead
        assertEquals(Outcome.OK, nccl(tray("2.21.5"), "NCCL_NVLS_ENABLE").outcome());
    }

    /** F6: gpuCount <= 2 from v2.18.1-1 to v2.28.3-1 (nvls.cc:160 at f1308997); gpuCount < 2 from v2.28.7-1 (nvls.cc:262 at 5067397c). */
    @Test
    void f6TwoGpusGetNvlsOnlyFrom2287() {
        What two = machine(What.HGX_H100).tp(2);
        assertEquals(Outcome.FALLBACK, nccl(two.version("nccl", "2.20.5"), "NCCL_NVLS_ENABLE").outcome());
        assertEquals(Outcome.FALLBACK, nccl(machine(What.HGX_H100).tp(2).version("nccl", "2.28.3"), "NCCL_NVLS_ENABLE").outcome());
        assertEquals("2.27-2.28.3", nccl(machine(What.HGX_H100).tp(2).version("nccl", "2.28.3"), "NCCL_NVLS_ENABLE").version());
        Verdict newest = nccl(machine(What.HGX_H100).tp(2).version("nccl", "2.28.7"), "NCCL_NVLS_ENABLE");
        assertEquals("2.28.7-2.28.9", newest.version());
        assertEquals(Outcome.OK, newest.outcome(), newest::toString);
        assertEquals(Outcome.OK, nccl(machine(What.HGX_H100).tp(2).version("nccl", "newest"), "NCCL_NVLS_ENABLE").outcome());
        // the installed NCCL picks the set too
        assertEquals(Outcome.FALLBACK, nccl(machine(What.HGX_H100).assume("nccl-version=2.24.3").tp(2), "NCCL_NVLS_ENABLE").outcome());
    }

    /** F9: v2.20.5-1 search.cc:882 leaves 0 NVLS channels without an NVSwitch or below SM90 and init.cc:1142 clears nvlsSupport. */
    @Test
    void f9EnableOneFallsBackSilentlyOnOldNccl() {
        for (String release : new String[]{"2.17.1", "2.18.1", "2.19.4", "2.20.5"}) {
            Verdict v = nccl(machine("sm=8.0", "gpus-per-node=8", "nvswitch=true").tp(8).env("NCCL_NVLS_ENABLE", "1").version("nccl", release),
                    "NCCL_NVLS_ENABLE");
            assertEquals(Outcome.FALLBACK, v.outcome(), release + ": " + v);
        }
    }

    /** F10: v2.20.5-1 init.cc:820 NCCL_PARAM(MNNVL, "MNNVL", -2): NCCL_MNNVL is the knob; NCCL_MNNVL_ENABLE does nothing. */
    @Test
    void f10Nccl220ReadsNcclMnnvl() {
        Verdict ignored = nccl(tray("2.20.5").env("NCCL_MNNVL_ENABLE", "0"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, ignored.outcome(), ignored::toString);
        assertEquals("not read", ignored.resolved());
        Verdict off = nccl(tray("2.20.5").env("NCCL_MNNVL", "0"), "NCCL_MNNVL");
        assertEquals(Outcome.FALLBACK, off.outcome(), off::toString);
        assertEquals("MNNVL off", off.resolved());
        Verdict forced = nccl(tray("2.20.5").assume("fabric-handles=false").env("NCCL_MNNVL", "1"), "NCCL_MNNVL");
        assertEquals(Outcome.ERROR, forced.outcome(), forced::toString);
        assertEquals("MNNVL is not supported on this system", forced.message());
        assertEquals("920-923", forced.source().line());
        // NCCL_MNNVL on a newer set: not read
        assertEquals("not read", nccl(tray("2.24.3").env("NCCL_MNNVL", "0"), "NCCL_MNNVL").resolved());
    }

    /**
     * Audit 2026-12-03e F5: v2.20.3-1 init.cc:900 `comm->MNNVL = ncclParamMNNVL() < 0 ? … : ncclParamMNNVL()` runs for one
     * tray too; NCCL_MNNVL=0 there turns a real clique's MNNVL off (and NVLS back on, nvls.cc:239-240), not "no clique".
     */
    @Test
    void f5OneTrayMnnvlZeroSaysTheVariableTurnsItOff() {
        What oneTray = machine(What.GB200_NVL).assume("imex-channel=true").version("nccl", "2.20.3").tp(4).env("NCCL_MNNVL", "0");
        Verdict off = nccl(oneTray, "NCCL_MNNVL");
        assertEquals(Outcome.OK, off.outcome(), off::toString);
        assertTrue(off.why().contains("sets MNNVL to 0") && off.why().contains("keeps NVLS within the tray"), off::toString);
        assertTrue(!off.why().contains("no MNNVL clique"), off::toString);
        assertTrue(nccl(oneTray.assume("mnnvl-fabric=false"), "NCCL_MNNVL").why().contains("no MNNVL clique"));
    }

    /**
     * F3: 5067397c init.cc:1071-1072 skips ncclMnnvlCheck when the P2P level is 0; paths.cc maps LOC to PATH_LOC = 0.
     * Before v2.27.3-1 the gate has no P2P level (init.cc:741 at v2.26.6-1).
     */
    @Test
    void f3P2pLevelLocSkipsMnnvlFrom2273() {
        Verdict mnnvl = nccl(tray("newest").env("NCCL_P2P_LEVEL", "LOC"), "NCCL_MNNVL_ENABLE");
        assertEquals(Outcome.FALLBACK, mnnvl.outcome(), mnnvl::toString);
        assertEquals("not checked", mnnvl.resolved());
        Verdict level = nccl(tray("newest").env("NCCL_P2P_LEVEL", "LOC"), "NCCL_P2P_LEVEL");
        assertEquals(Outcome.FALLBACK, level.outcome(), level::toString);
        assertEquals("SHM / network", level.resolved());
        assertEquals(Outcome.FALLBACK, nccl(tray("newest").env("NCCL_P2P_LEVEL", "0"), "NCCL_P2P_LEVEL").outcome(), "old-style 0 is LOC");
        assertEquals(Outcome.OK, nccl(tray("newest").env("NCCL_P2P_LEVEL", "NVL"), "NCCL_P2P_LEVEL").outcome());
        assertEquals(Outcome.OK, nccl(tray("newest").env("NCCL_P2P_LEVEL", "SYS"), "NCCL_MNNVL_ENABLE").outcome());
        assertEquals("ignored", nccl(tray("newest").env("NCCL_P2P_LEVEL", "FOO"), "NCCL_P2P_LEVEL").resolved());
        // PCIe-only GPUs: the path type between them is not read, so a level below SYS is unknown
        assertEquals(Outcome.UNKNOWN, nccl(machine(What.PCIE_SM120).tp(2).env("NCCL_P2P_LEVEL", "PIX"), "NCCL_P2P_LEVEL").outcome());
        assertEquals(Outcome.FALLBACK, nccl(machine(What.PCIE_SM120).tp(2).env("NCCL_P2P_LEVEL", "LOC"), "NCCL_P2P_LEVEL").outcome());
        // 2.25-2.26: no P2P-level gate, MNNVL is checked
        assertEquals("MNNVL", nccl(tray("2.26.6").env("NCCL_P2P_LEVEL", "LOC"), "NCCL_MNNVL_ENABLE").resolved());
    }

    /** Every set cites lines of its own tag: none but newest cites 5067397c for NVLS. */
    @Test
    void oldSetsCiteTheirOwnTags() {
        for (String release : new String[]{"2.17.1", "2.19.4", "2.20.5", "2.24.3", "2.26.6", "2.28.3"}) {
            Verdict v = nccl(machine(What.HGX_H100).tp(8).version("nccl", release), "NCCL_NVLS_ENABLE");
            assertTrue(!v.source().commit().startsWith("5067397c"), release + ": " + v.source());
        }
    }

    /**
     * A failed cuMulticastBindMem (Fabric Manager not ready): CUCHECK stops init up to 2.26 (v2.26.6-1 nvls.cc:254);
     * 2.27.3–2.28.9 stop only for NCCL_NVLS_ENABLE=1 and else log "Proceeding without NVLS support" (nvls.cc:285-289 at
     * v2.28.9-1); 2.29.2 on stop for any value (nvls.cc:376 at 5067397c).
     */
    @Test
    void bindFailureByRelease() {
        What h100 = machine(What.HGX_H100).assume("fabric-ready=false").tp(8);
        assertEquals(Outcome.ERROR, nccl(h100.version("nccl", "2.26.6"), "NCCL_NVLS_ENABLE").outcome());
        Verdict silent = nccl(machine(What.HGX_H100).assume("fabric-ready=false").tp(8).version("nccl", "2.28.9"), "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, silent.outcome(), silent::toString);
        assertEquals("2.28.7-2.28.9", silent.version());
        assertEquals(Outcome.ERROR, nccl(machine(What.HGX_H100).assume("fabric-ready=false").tp(8).version("nccl", "2.28.3")
                .env("NCCL_NVLS_ENABLE", "1"), "NCCL_NVLS_ENABLE").outcome());
        assertEquals(Outcome.ERROR, nccl(machine(What.HGX_H100).assume("fabric-ready=false").tp(8).version("nccl", "2.29.2"),
                "NCCL_NVLS_ENABLE").outcome());
    }

    /** v2.20.3-1 init.cc:881-900 decides MNNVL for every communicator (v2.20.5-1 init.cc:884 only for several nodes). */
    @Test
    void nccl2203TurnsMnnvlOnOnOneTray() {
        Verdict v = nccl(machine(What.GB200_NVL).assume("imex-channel=true").version("nccl", "2.20.3").tp(4), "NCCL_NVLS_ENABLE");
        assertEquals("2.20.3", v.version());
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals("b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2", v.source().commit());
        assertEquals(Outcome.OK, nccl(machine(What.GB200_NVL).assume("imex-channel=true").version("nccl", "2.20.5").tp(4), "NCCL_NVLS_ENABLE")
                .outcome());
        Verdict m = nccl(machine(What.GB200_NVL).assume("imex-channel=true").version("nccl", "2.20.3").tp(4), "NCCL_MNNVL");
        assertEquals("MNNVL", m.resolved(), m::toString);
    }
}
