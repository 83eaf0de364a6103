package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferMessage;
import dev.fabricscope.advisor.nccl.NcclMessage;
import static dev.fabricscope.advisor.What.error;
import static dev.fabricscope.advisor.What.fallback;
import static dev.fabricscope.advisor.What.machine;
import static dev.fabricscope.advisor.What.ok;
import static dev.fabricscope.advisor.What.whyMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FlashInfer workspace selection and NCCL NVLS at their boundaries (backend-rules.md §3, §4). */
class FlashInferNcclRulesTest {

    static final String WS = "create_allreduce_fusion_workspace(backend)";

    @ParameterizedTest(name = "SM {0} TP {1} multicast {2} backend {3} → {4}")
    @CsvSource({
            "9.0,  8,  true,  auto,   mnnvl",
            "9.0,  8,  false, auto,   trtllm",
            "9.0,  16, false, auto,   trtllm",
            "9.0,  32, false, auto,   'No suitable backend found. '",
            "9.0,  32, true,  auto,   mnnvl",
            "10.0, 8,  true,  trtllm, trtllm",
            "12.0, 2,  false, trtllm, trtllm",
            "12.0, 2,  false, auto,   trtllm",
            "12.0, 2,  true,  mnnvl,  'No supported CUDA architectures found for major versions [9, 10].'",
            "11.0, 2,  true,  mnnvl,  'No supported CUDA architectures found for major versions [9, 10].'",
            "11.0, 2,  false, trtllm, 'No supported CUDA architectures found for major versions [9, 10, 12].'",
            "9.0,  8,  false, mnnvl,  '[SymmDeviceMemory] Device does not support multicasting.'",
            "9.0,  6,  false, trtllm, 'allreduce_fusion_kernel: unsupported ranks number! Supported ranks: 2, 4, 8, 16.'",
    })
    void workspaceBackend(String sm, int tp, boolean multicast, String backend, String expected) {
        Verdict v = machine("sm=" + sm, "gpus-per-node=" + tp, "multicast=" + multicast).tp(tp).flag(WS, backend).verdict("flashinfer", WS);
        if (expected.equals("mnnvl") || expected.equals("trtllm")) {
            ok(v, expected);
        } else {
            assertEquals(Outcome.ERROR, v.outcome(), v::toString);
            assertEquals(expected, v.message(), v::toString);
        }
    }

    @Test
    void olderFlashInferLacksSm12TrtllmAndMulticastFreeWorkspace() {
        error(machine("sm=12.0", "gpus-per-node=2").tp(2).flag(WS, "trtllm").version("flashinfer", "pre-sm12-trtllm").verdict("flashinfer", WS),
                null, "No supported CUDA architectures found for major versions [9, 10].");
        error(machine("sm=9.0", "gpus-per-node=8", "multicast=false").tp(8).flag(WS, "trtllm").version("flashinfer", "trtllm-multicast")
                .verdict("flashinfer", WS), "RuntimeError", FlashInferMessage.NO_MULTICAST.text());
    }

    /**
     * Seventh audit F3/F4: whether the TRT-LLM workspace needs multicast follows the release (allreduce.py, trtllm_ar.py and
     * SymmDeviceMemory.__init__ read at every v0.6.* tag): v0.6.0rc2 … v0.6.9 check it unconditionally (mnnvl.py@v0.6.9:930-940),
     * v0.6.10rc1 … v0.6.15rc1 allocate through PyTorch symmetric memory (not modelled), from v0.6.15rc2 the check is skipped.
     */
    @Test
    void trtllmWorkspaceMulticastNeedFollowsTheRelease() {
        String[] nvlPair = {"sm=9.0", "gpus-per-node=2", "multicast=false", "nvswitch=false", "all-nvlink=true", "p2p=true",
                "fabric-handles=false", "mnnvl-fabric=false", "torch-cuda=12.8"};
        error(machine(nvlPair).tp(2).flag(WS, "trtllm").version("flashinfer", "0.6.5").verdict("flashinfer", WS), "RuntimeError",
                FlashInferMessage.NO_MULTICAST.text());
        What auto = machine(nvlPair).tp(2).version("flashinfer", "0.6.9");
        error(auto.verdict("flashinfer", WS), "RuntimeError", FlashInferMessage.NO_MULTICAST.text());
        // ninth audit F28: before 6104afe3 (v0.6.16) 'auto' picks mnnvl whatever multicast says; the set spanning both is unknown
        whyMentions(auto.verdict("flashinfer", WS), "picks mnnvl whatever multicast says");
        assertEquals(Outcome.UNKNOWN, machine(nvlPair).tp(2).version("flashinfer", "0.6.16").verdict("flashinfer", WS).outcome());
        String rec = auto.advise().recommendation("flashinfer").map(Object::toString).orElse("");
        assertTrue(!rec.contains("backend=\"trtllm\"") && !rec.contains("backend=\"mnnvl\""), rec);
        assertEquals(Outcome.UNKNOWN, machine(nvlPair).tp(2).flag(WS, "trtllm").version("flashinfer", "0.6.12").verdict("flashinfer", WS)
                .outcome());
        // eighth audit F17: with one backend unknown the advice does not say that none works
        String torchSymm = machine(nvlPair).tp(2).version("flashinfer", "0.6.12").advise().recommendation("flashinfer").orElseThrow().summary();
        assertTrue(torchSymm.contains("is known to work") && !torchSymm.contains("backend works for"), torchSymm);
        ok(machine(nvlPair).tp(2).flag(WS, "trtllm").version("flashinfer", "0.6.16").verdict("flashinfer", WS), "trtllm");
        // vLLM catches the workspace's failure and runs unfused; its recommendation does not pick trtllm
        What vllm = machine(nvlPair).tp(2).flag("fuse_allreduce_rms", "true").version("flashinfer", "0.6.5");
        assertEquals(Outcome.FALLBACK, vllm.verdict("vllm", "fuse_allreduce_rms").outcome());
        String vrec = vllm.advise().recommendation("vllm").map(Object::toString).orElse("");
        assertTrue(!vrec.contains("VLLM_FLASHINFER_ALLREDUCE_BACKEND=trtllm"), vrec);
    }

    /** Seventh audit note: without an IMEX channel on GB200 trays the fix names the channel, not only the unfused path. */
    @Test
    void noImexChannelFixNamesTheChannel() {
        Verdict v = machine(What.GB200_NVL).assume("imex-channel=false").tp(8).nodes(2).verdict("flashinfer", WS);
        assertEquals(Outcome.ERROR, v.outcome(), v::toString);
        assertTrue(v.fix().startsWith("give every node an IMEX channel device under /dev/nvidia-caps-imex-channels"), v.fix());
    }

    /** Eighth audit F11: NCCL_MNNVL_ENABLE=1 across nodes without a clique is silently not used (mnnvl.cc state check): a fallback. */
    @Test
    void forcedMnnvlWithoutACliqueAcrossNodesFallsBack() {
        for (String ver : new String[] {"2.26.3", "2.28.3"}) {
            Verdict v = machine(What.GB200_NVL).assume("mnnvl-fabric=false").tp(8).nodes(2).env("NCCL_MNNVL_ENABLE", "1").version("nccl", ver)
                    .verdict("nccl", "NCCL_MNNVL_ENABLE");
            fallback(v, "MNNVL off", null);
            whyMentions(v, "across the 2 nodes", "silently not used");
        }
    }

    /** Seventh audit F1: an exported NCCL_NVLS_ENABLE=1 that stops init without multicast is dropped by the recommendation. */
    @Test
    void theRecommendationUnsetsAFailingNvlsEnable() {
        Recommendation r = machine(What.HGX_H100).assume("multicast=false").tp(8).env("NCCL_NVLS_ENABLE", "1").advise().recommendation("nccl")
                .orElseThrow();
        assertEquals(java.util.List.of("NCCL_NVLS_ENABLE"), r.drop(), r::toString);
        assertTrue(r.summary().startsWith("unset NCCL_NVLS_ENABLE (NCCL_NVLS_ENABLE=1: error)"), r.summary());
    }

    @Test
    void confidentialComputingRefusesExplicitMnnvl() {
        error(machine(What.HGX_B200).assume("confidential-compute=true").tp(8).flag(WS, "mnnvl").verdict("flashinfer", WS), "ValueError",
                FlashInferMessage.CONFIDENTIAL.text());
        ok(machine(What.HGX_B200).assume("confidential-compute=true").tp(8).flag(WS, "trtllm").verdict("flashinfer", WS), "trtllm");
    }

    @Test
    void fabricDetection() {
        String k = "is_mnnvl_fabric_supported()";
        ok(machine(What.GB200_NVL).tp(8).nodes(2).verdict("flashinfer", k), "FABRIC handles");
        ok(machine(What.HGX_H100).tp(8).verdict("flashinfer", k), "POSIX FD (one host only)");
        fallback(machine(What.HGX_H100).tp(16).nodes(2).verdict("flashinfer", k), "POSIX FD (one host only)", null);
        // handles without an MNNVL domain: the default probe says no, the attribute-only variant says yes
        What handlesOnly = machine(What.HGX_H100).assume("fabric-handles=true", "mnnvl-fabric=false").tp(8);
        ok(handlesOnly.verdict("flashinfer", k), "POSIX FD (one host only)");
        ok(handlesOnly.version("flashinfer", "fabric-attr-only").verdict("flashinfer", k), "FABRIC handles");
        // errata §2.4/§3.3: the workspace goes through SymmDeviceMemory and fd_exchange, not MnnvlMemory
        Verdict crossHost = machine(What.HGX_H100).tp(16).nodes(2).flag(WS, "mnnvl").verdict("flashinfer", WS);
        error(crossHost, "RuntimeError", "[fd_exchange] …");
        whyMentions(crossHost, FlashInferMessage.FD_EXCHANGE.text(), "connect time-out");
        assertEquals("flashinfer/comm/fd_exchange.py", crossHost.source().path());
    }

    @Test
    void flashInferIsCudaOnly() {
        Verdict v = machine("platform=rocm", "gpus-per-node=8").tp(8).verdict("flashinfer", WS);
        assertEquals(Outcome.ERROR, v.outcome());
        whyMentions(v, "CUDA library");
    }

    // ---- NCCL

    @ParameterizedTest(name = "SM {0} NVSwitch {1} multicast {2} → {3}")
    @CsvSource({
            "9.0,  true,  true,  NVLS",
            "10.0, true,  true,  NVLS",
            "8.0,  true,  false, NVLS disabled",
            "8.0,  true,  true,  NVLS disabled",
            "9.0,  false, false, NVLS disabled",
            "9.0,  true,  false, NVLS disabled",
            "12.0, false, false, NVLS disabled",
    })
    void nvlsDefault(String sm, boolean nvswitch, boolean multicast, String expected) {
        Verdict v = machine("sm=" + sm, "gpus-per-node=8", "nvswitch=" + nvswitch, "multicast=" + multicast).tp(8).verdict("nccl", "NCCL_NVLS_ENABLE");
        if (expected.equals("NVLS")) {
            ok(v, "NVLS");
        } else {
            fallback(v, "NVLS disabled", null);
        }
    }

    @Test
    void nvlsValues() {
        ok(machine(What.HGX_H100).tp(8).env("NCCL_NVLS_ENABLE", "0").verdict("nccl", "NCCL_NVLS_ENABLE"), "NVLS disabled");
        fallback(machine("sm=8.0", "gpus-per-node=8", "nvswitch=true").tp(8).env("NCCL_NVLS_ENABLE", "1").verdict("nccl", "NCCL_NVLS_ENABLE"), "NVLS disabled", null);
        fallback(machine("sm=8.0", "gpus-per-node=8", "nvswitch=true").tp(8).env("NCCL_NVLS_ENABLE", "1").version("nccl", "2.20.5")
                .verdict("nccl", "NCCL_NVLS_ENABLE"), "NVLS disabled", null);
        error(machine(What.HGX_H100).assume("fabric-ready=false").tp(8).verdict("nccl", "NCCL_NVLS_ENABLE"), null, NcclMessage.FABRIC_NOT_READY.text());
        ok(machine(What.HGX_H100).tp(1).verdict("nccl", "NCCL_NVLS_ENABLE"), null);
        ok(machine("platform=rocm", "gpus-per-node=8").tp(8).verdict("nccl", "NCCL_NVLS_ENABLE"), null);
        whyMentions(machine(What.HGX_H100).assume("nccl-version=2.16.5").tp(8).verdict("nccl", "NCCL_NVLS_ENABLE"), "predates NVLS");
        whyMentions(machine(What.GB200_NVL).assume("nccl-version=2.20.5").tp(8).nodes(2).verdict("nccl", "NCCL_NVLS_ENABLE"), "not supported on MNNVL");
    }

    @Test
    void torchSymmMemMulticastSwitch() {
        ok(machine(What.HGX_H100).tp(8).env("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1").verdict("nccl", "TORCH_SYMM_MEM_DISABLE_MULTICAST"), "no multicast object");
        Verdict h20 = machine("sm=9.0", "gpus-per-node=8", "multicast=false").tp(8).verdict("nccl", "TORCH_SYMM_MEM_DISABLE_MULTICAST");
        ok(h20, null);
        whyMentions(h20, NcclMessage.TORCH_RENDEZVOUS.text());
    }

    @Test
    void recommendations() {
        Recommendation broken = machine(What.HGX_H100).assume("fabric-ready=false").tp(8).advise().recommendation("nccl").orElseThrow();
        assertEquals("0", broken.env().get("NCCL_NVLS_ENABLE"));
        assertTrue(machine(What.HGX_H100).tp(8).advise().recommendation("nccl").orElseThrow().env().isEmpty());
        assertEquals(java.util.List.of("create_allreduce_fusion_workspace(backend=\"trtllm\")"),
                machine("sm=9.0", "gpus-per-node=8", "multicast=false").tp(8).advise().recommendation("flashinfer").orElseThrow().flags());
        assertNull(machine(What.HGX_H100).tp(8).advise().blocked());
    }
}
