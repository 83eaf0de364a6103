package dev.fabricscope.check.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Results round-trip through JSON exactly, so reports can embed them. Values are synthetic. */
class CheckResultJsonTest {

    static MemoryAudit audit() {
        return MemoryAudit.of(List.of(new MemoryAudit.Gpu(0, "0000:00:06.0", 0L, 524_288_000L, 524_288_000L, 0L, false, null, null),
                new MemoryAudit.Gpu(1, "0000:00:07.0", 0L, 524_288_000L, null, null, null,
                        "nvmlDeviceGetMemoryInfo → NVML_ERROR_UNKNOWN (999)", null)));
    }

    static <T> T roundTrip(T value, Class<T> type) throws Exception {
        String json = Json.write(value);
        T back = Json.mapper().readValue(json, type);
        assertEquals(value, back);
        assertEquals(json, Json.write(back));
        return back;
    }

    @Test
    void preflight() throws Exception {
        CallStep granularity = new CallStep("cuMemGetAllocationGranularity", "RECOMMENDED", 0, "CUDA_SUCCESS", "2097152", null);
        CallStep multicast = new CallStep("cuMulticastGetGranularity", "numDevices=1", 801, "CUDA_ERROR_NOT_SUPPORTED", null, "query only");
        PreflightResult.FabricCheck fabric = new PreflightResult.FabricCheck(List.of(
                new CallStep("cuMemExportToShareableHandle", "CU_MEM_HANDLE_TYPE_FABRIC", 800, "CUDA_ERROR_NOT_PERMITTED", null, null)),
                false, "no IMEX channel");
        PreflightResult.Gpu gpu = new PreflightResult.Gpu(0, "0000:00:06.0", "NVIDIA H200", "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR",
                "is_mnnvl_fabric_supported = False", WorkspaceSizing.buffers(1, 2048, 4096, "bf16"), List.of(granularity, multicast),
                List.of(), false, "cuMulticastGetGranularity failed for FlashInfer workspace preflight: CUDA_ERROR_NOT_SUPPORTED",
                List.of(granularity), true, fabric);
        PreflightResult r = new PreflightResult("preflight", CheckStatus.FAILED, "vote SKIP",
                new PreflightResult.Params(1, 2048, 4096, "bf16", 1), List.of(gpu), "SKIP", List.of("line"), "conclusion",
                List.of("note"), audit());
        PreflightResult back = roundTrip(r, PreflightResult.class);
        assertEquals(801, back.gpus().get(0).steps().get(1).code());
        assertFalse(back.memory().returned());
    }

    @Test
    void p2p() throws Exception {
        P2pResult r = new P2pResult("p2p", CheckStatus.PASSED, "2 GPU(s)", new P2pResult.Params(256L << 20, 10, 100_000, 256, 256L << 20),
                List.of(new P2pResult.Local(0, "NVIDIA H200", 2100.5, 4201.0, 4917.0, "DRAM peak", 612.3)),
                List.of(new P2pResult.Pair(0, 1, true, 380.2, 740.9, 812.5, 450.0, "NV18 × 25 GB/s", null),
                        new P2pResult.Pair(1, 0, false, null, null, null, null, "PCIe", "no P2P")),
                List.of("note"), audit());
        roundTrip(r, P2pResult.class);
    }

    @Test
    void allReduce() throws Exception {
        AllReduceResult r = new AllReduceResult("allreduce", CheckStatus.PASSED, "ok",
                new AllReduceResult.Params(1, 8, 256L << 20, List.of("bf16", "fp32"), 5, 20, List.of("plain", "graph"), 1,
                        "group"),
                new AllReduceResult.Impl("nccl", CheckStatus.PASSED, "NCCL 2.28.9"),
                new AllReduceResult.Impl("oneshot", CheckStatus.SKIPPED, "no P2P"), null,
                List.of(new AllReduceResult.Row("nccl", "bf16", 8, 4, 11.25, 0.0, 0.0, 0, 10.5, 0.0, 0.0, 0L, "plain", 9.5,
                                9.0),
                        new AllReduceResult.Row("oneshot", "fp32", 268_435_456, 67_108_864, 120.5, 2227.68, 0.0, 0, null, null,
                                null, null, "graph", null, null)),
                List.of("note"), audit());
        AllReduceResult back = roundTrip(r, AllReduceResult.class);
        assertEquals(67_108_864, back.rows().get(1).count());
        JsonNode tree = Json.mapper().readTree(Json.write(r));
        assertEquals("PASSED", tree.get("status").asText());
        assertTrue(tree.get("memory").has("gpus"));
        assertFalse(tree.get("memory").get("gpus").get(0).has("deltaBytes"), "derived values are not stored");
    }

    @Test
    void memoryAuditJudgesAgainstTheStartingLevel() {
        long mib = 1L << 20;
        // the context's lazy resources (+2 MiB) go away with the context: back
        MemoryAudit.Gpu lazy = new MemoryAudit.Gpu(0, "x", 0L, 1142 * mib, 1144 * mib, 0L, false, null, null);
        // NCCL's CUDA runtime keeps the context: not back while the process lives
        MemoryAudit.Gpu held = new MemoryAudit.Gpu(1, "y", 0L, 1142 * mib, 1334 * mib, 1334 * mib, true, null, null);
        // no release reading: judged on the check's own delta
        MemoryAudit.Gpu plain = new MemoryAudit.Gpu(2, "z", null, 1000 * mib, 1000 * mib, null, null, null, null);
        assertTrue(lazy.returned());
        assertEquals(2 * mib, lazy.checkDeltaBytes());
        assertTrue(plain.returned());
        assertFalse(held.returned());
        assertEquals(1334 * mib, held.deltaBytes());
        MemoryAudit all = MemoryAudit.of(List.of(lazy, held, plain));
        assertFalse(all.returned());
        assertEquals("GPU memory NOT back to its starting level on: GPU1 (+1334.0 MiB, held by a CUDA context another user "
                + "in this process keeps active; freed when the process exits)", all.note());
        assertTrue(all.lines().get(0).endsWith("0.0 MiB after releasing the context — back to its starting level"),
                all.lines().get(0));
        assertTrue(all.lines().get(1).contains("the primary context stays active"), all.lines().get(1));
        assertTrue(MemoryAudit.of(List.of(lazy, plain)).returned());
    }
}
