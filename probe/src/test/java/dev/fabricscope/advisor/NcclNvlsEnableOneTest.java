package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import static dev.fabricscope.advisor.What.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * NVIDIA/nccl@5067397c (2.30.7) src/transport/nvls.cc:270-277: NCCL_NVLS_ENABLE=1 sets nvlsSupport = 1 without
 * reading CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED; src/graph/search.cc:1124 keeps NVLS on NVSwitch + SM90; init then
 * fails in cuMulticastGetGranularity (nvls.cc:325).
 */
class NcclNvlsEnableOneTest {

    static final String[] NVSWITCH_NO_MULTICAST = {"sm=9.0", "gpus-per-node=8", "multicast=false", "nvswitch=true", "all-nvlink=true",
            "p2p=true", "fabric-handles=false", "mnnvl-fabric=false", "fabric-ready=true", "nccl-version=2.30.7"};

    @Test
    void enableOneOnNvswitchWithoutMulticastFailsAtInit() {
        Verdict v = machine(NVSWITCH_NO_MULTICAST).tp(8).env("NCCL_NVLS_ENABLE", "1").verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.ERROR, v.outcome(), v::toString);
        assertEquals("ncclUnhandledCudaError", v.errorClass(), v::toString);
        assertTrue(v.message().startsWith("Cuda failure "), v::toString);
        assertTrue(v.source().path().equals("src/transport/nvls.cc") && "270-277".equals(v.source().line()), v::toString);
        assertTrue(v.fix() != null && v.fix().contains("NCCL_NVLS_ENABLE=2"), v::toString);
    }

    /** src/include/cudawrap.h:33: "Cuda failure '%s'" at v2.18.6-1, "Cuda failure %d '%s'" from v2.19.1-1 (audit e F1). */
    @Test
    void theWarnCarriesTheCudaErrorCodeFrom219Only() {
        for (String[] release : new String[][] {{"2.18.3", "Cuda failure '<text>'"}, {"2.19.3", "Cuda failure <CUresult> '<text>'"}}) {
            Verdict v = machine(What.withAll(NVSWITCH_NO_MULTICAST, "nccl-version=" + release[0]).toArray(String[]::new)).tp(8)
                    .env("NCCL_NVLS_ENABLE", "1").verdict("nccl", "NCCL_NVLS_ENABLE");
            assertEquals(Outcome.ERROR, v.outcome(), v::toString);
            assertEquals(release[1], v.message(), v::toString);
        }
    }

    /** Sixth audit F1: NVIDIA/nccl@5d3ab08b (v2.17.1-1) src/transport/nvls.cc:229 NCCL_PARAM(NvlsEnable, "NVLS_ENABLE", 1). */
    @Test
    void nccl217DefaultsToOne() {
        What dgx = machine(What.HGX_H100).tp(8).framework("nccl").version("nccl", "2.17.1");
        Verdict v = dgx.verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals("unset (1)", v.value(), v::toString);
        String rec = dgx.advise().recommendation("nccl").orElseThrow().summary();
        assertTrue(rec.contains("uses 1") && !rec.contains("uses 2"), rec);
        assertEquals("unset (2)", machine(What.HGX_H100).tp(8).framework("nccl").verdict("nccl", "NCCL_NVLS_ENABLE").value());
    }

    @Test
    void autoReadsTheAttributeAndOlderNcclToo() {
        Verdict auto = machine(NVSWITCH_NO_MULTICAST).tp(8).verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, auto.outcome(), auto::toString);
        // search.cc:1124: without an NVSwitch NVLS is dropped before any multicast allocation, even with =1
        Verdict noSwitch = machine("sm=9.0", "gpus-per-node=4", "multicast=false", "nvswitch=false", "all-nvlink=false", "p2p=true")
                .tp(4).env("NCCL_NVLS_ENABLE", "1").verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, noSwitch.outcome(), noSwitch::toString);
        Verdict nccl217 = machine(What.withAll(NVSWITCH_NO_MULTICAST, "nccl-version=2.17.1").toArray(String[]::new)).tp(8).env("NCCL_NVLS_ENABLE", "1")
                .verdict("nccl", "NCCL_NVLS_ENABLE");
        assertEquals(Outcome.FALLBACK, nccl217.outcome(), nccl217::toString);
    }
}
