package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.CheckText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checks' outputs captured on the 1× H200 pass-through VM (see the fixture's README): the JSON parses into the
 * result records, renders to the captured text, and holds what that machine showed.
 */
class CapturedChecksFixtureTest {

    static final String DIR = "/captured/h200-vm-2026-11-29-checks/";

    static String text(String name) throws IOException {
        try (InputStream in = CapturedChecksFixtureTest.class.getResourceAsStream(DIR + name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static <T> T read(String name, Class<T> type) throws IOException {
        return Json.mapper().readValue(text(name), type);
    }

    @Test
    void jsonAndTextAgree() throws IOException {
        assertEquals(text("preflight.txt"), CheckText.render(read("preflight.json", PreflightResult.class)));
        assertEquals(text("preflight-ws8.txt"), CheckText.render(read("preflight-ws8.json", PreflightResult.class)));
        assertEquals(text("p2p.txt"), CheckText.render(read("p2p.json", P2pResult.class)));
        // round 2 added nccl-tests' root column and per-mode tables: the round-1 rows must still render, value for value
        sameRows(text("allreduce.txt"), CheckText.render(read("allreduce.json", AllReduceResult.class)));
        sameRows(text("allreduce-timeout.txt"), CheckText.render(read("allreduce-timeout.json", AllReduceResult.class)));
    }

    /** Every data row of the captured text, with root -1 after redop, is a row of the new rendering. */
    static void sameRows(String captured, String rendered) {
        java.util.List<java.util.List<String>> now = rendered.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> java.util.List.of(l.trim().split(" +"))).toList();
        long rows = 0;
        for (String line : captured.lines().filter(l -> !l.startsWith("#") && !l.isBlank() && !l.contains(":")).toList()) {
            java.util.List<String> t = new java.util.ArrayList<>(java.util.List.of(line.trim().split(" +")));
            if (t.size() < 5 || !t.get(0).matches("\\d+")) {
                continue;
            }
            t.add(4, "-1");
            rows++;
            assertTrue(now.stream().anyMatch(r -> r.size() >= t.size() && r.subList(0, t.size()).equals(t)), line);
        }
        assertEquals(rendered.lines().filter(l -> l.matches(" +\\d+ .*")).count(), rows, "same number of rows");
    }

    @Test
    void preflightReportsTheMulticastFailureAsThatMachineShowed() throws IOException {
        PreflightResult r = read("preflight.json", PreflightResult.class);
        assertEquals(CheckStatus.FAILED, r.status());
        assertEquals("SKIP", r.vote());
        PreflightResult.Gpu g = r.gpus().get(0);
        CallStep mc = g.steps().stream().filter(s -> s.call().equals("cuMulticastGetGranularity")).findFirst().orElseThrow();
        assertEquals(801, mc.code());
        assertEquals("CUDA_ERROR_NOT_SUPPORTED", mc.codeName());
        assertEquals("CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR", g.handleType());
        assertTrue(g.withoutMulticastOk(), "the allocation itself works without the multicast rounding");
        assertEquals(800, g.fabric().steps().get(1).code(), "no IMEX channel: cuMemCreate(FABRIC) → NOT_PERMITTED");
        assertTrue(r.memory().returned(), r.memory().note());
        // the same sentence cuda-bindings produced for the same call on that machine
        String reference = text("sglang-reference.txt").lines().filter(l -> l.startsWith("SGLang would log: "))
                .findFirst().orElseThrow();
        assertEquals(reference, "SGLang would log: " + String.format(PreflightCheck.PROBE_FAILED, g.probeError()));
        assertTrue(r.conclusion().endsWith(reference), r.conclusion());
    }

    @Test
    void worldSizeEightSizesAreUpstreams() throws IOException {
        PreflightResult r = read("preflight-ws8.json", PreflightResult.class);
        assertEquals(WorkspaceSizing.buffers(8, 2048, 7168, "bf16"), r.gpus().get(0).buffers());
        assertTrue(r.gpus().get(0).steps().stream().anyMatch(s -> s.arguments().startsWith("numDevices=8,")));
    }

    @Test
    void allReduceIsExactAndComparable() throws IOException {
        AllReduceResult r = read("allreduce.json", AllReduceResult.class);
        assertEquals(CheckStatus.PASSED, r.status());
        assertEquals(1, r.params().worldSize());
        assertEquals(2 * 2 * 26, r.rows().size()); // two implementations × two types × 26 sizes
        assertTrue(r.rows().stream().allMatch(x -> x.totalWrong() == 0));
        assertTrue(r.rows().stream().allMatch(x -> x.busbw() == 0.0), "busbw is 0 at world size 1");
        assertTrue(r.nccl().detail().startsWith("NCCL 2.28.9 from "), r.nccl().detail());
        // the NCCL runtime keeps its context: memory comes back only when the process ends (nvidia-smi read 0 MiB then)
        assertFalse(r.memory().returned());
        assertEquals(Boolean.TRUE, r.memory().gpus().get(0).contextStillActive());
        assertTrue(text("smi-memory.txt").lines().allMatch(l -> l.equals("0, 0 MiB")));
        // PyTorch ran the same sizes and types with the same library
        JsonNode torch = Json.mapper().readTree(text("torch-allreduce.json"));
        assertEquals(r.nccl().detail().substring("NCCL 2.28.9 from ".length()).split(";")[0],
                torch.get("meta").get("nccl_library").asText());
        Map<String, Long> torchSizes = new HashMap<>();
        torch.get("rows").forEach(n -> torchSizes.merge(n.get("dtype").asText(), 1L, Long::sum));
        assertEquals(Map.of("bf16", 26L, "fp32", 26L), torchSizes);
    }

    @Test
    void timeOutAbortsTheCommunicator() throws IOException {
        AllReduceResult r = read("allreduce-timeout.json", AllReduceResult.class);
        assertEquals(CheckStatus.TIMED_OUT, r.status());
        assertEquals(CheckStatus.TIMED_OUT, r.nccl().status());
        assertTrue(r.notes().get(0).startsWith("ncclCommAbort called on 1 communicator(s)"), r.notes().get(0));
        assertFalse(r.rows().isEmpty(), "what finished before the time-out is kept");
    }

    @Test
    void p2pOnOneGpuIsDeviceLocal() throws IOException {
        P2pResult r = read("p2p.json", P2pResult.class);
        assertEquals(CheckStatus.PASSED, r.status());
        assertEquals(List.of(), r.pairs());
        P2pResult.Local l = r.local().get(0);
        assertTrue(l.readWriteGBps() < l.theoreticalGBps() && l.readWriteGBps() > 0.5 * l.theoreticalGBps(),
                l.readWriteGBps() + " vs " + l.theoreticalGBps());
        assertTrue(l.latencyNs() > 50 && l.latencyNs() < 5000, "ns per dependent load: " + l.latencyNs());
        assertTrue(r.memory().returned(), r.memory().note());
    }

    @Test
    void twoRankSelfTestPassed() throws IOException {
        String t = text("oneshot-2ranks-1gpu.txt");
        assertTrue(t.contains("RESULT: OK"));
        assertTrue(t.contains("error flag set (barrier gave up, as designed)"));
    }
}
