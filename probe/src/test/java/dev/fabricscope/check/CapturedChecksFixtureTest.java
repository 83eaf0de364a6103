package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.check.api.AllReduceMath;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CallStep;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.check.api.WorkspaceSizing;
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

    /**
     * The machine's own answers (each GPU's call steps, cuMulticastGetGranularity's 801) judged by this build: at
     * world size 1 the preflight is SKIPPED (issue 24), and the conclusion is the sentence cuda-bindings gave SGLang.
     */
    @Test
    void thisBuildJudgesTheMachinesPreflightAnswers() throws IOException {
        PreflightResult r = read("preflight.json", PreflightResult.class);
        PreflightResult.Gpu g = r.gpus().get(0);
        CallStep mc = g.steps().stream().filter(s -> s.call().equals("cuMulticastGetGranularity")).findFirst().orElseThrow();
        assertEquals(801, mc.code());
        assertEquals("cuMulticastGetGranularity failed for FlashInfer workspace preflight: "
                + PreflightCheck.sglangErrorText(mc.codeName(), mc.code()), g.probeError(), "the error text from the step's code");
        boolean proceed = r.gpus().stream().allMatch(x -> x.probeError() == null);
        assertFalse(proceed);
        assertEquals(CheckStatus.SKIPPED, PreflightCheck.status(proceed, r.params().worldSize()), "world size 1");
        assertEquals(CheckStatus.FAILED, PreflightCheck.status(proceed, 2), "the same answers at two ranks");
        String reference = text("sglang-reference.txt").lines().filter(l -> l.startsWith("SGLang would log: "))
                .findFirst().orElseThrow();
        String now = PreflightCheck.conclusion(r.gpus(), proceed, r.params().worldSize());
        assertTrue(now.startsWith("At world size 1 SGLang skips the preflight"), now);
        assertTrue(now.endsWith(reference), now + " vs cuda-bindings: " + reference);
        assertTrue(PreflightCheck.conclusion(r.gpus(), proceed, 8).equals(reference), "at world size 8 only the sentence");
    }

    @Test
    void worldSizeEightSizesAreUpstreams() throws IOException {
        PreflightResult r = read("preflight-ws8.json", PreflightResult.class);
        assertEquals(WorkspaceSizing.buffers(8, 2048, 7168, "bf16"), r.gpus().get(0).buffers());
        assertTrue(r.gpus().get(0).steps().stream().anyMatch(s -> s.arguments().startsWith("numDevices=8,")));
    }

    /** The machine's timings, through this build's nccl-tests formulas: every row's algbw and busbw as computed now. */
    @Test
    void bandwidthsAreThisBuildsFormulasOverTheMachinesTimings() throws IOException {
        AllReduceResult r = read("allreduce.json", AllReduceResult.class);
        int n = r.params().worldSize();
        assertEquals(2 * 2 * 26, r.rows().size()); // two implementations × two types × 26 sizes
        for (AllReduceResult.Row x : r.rows()) {
            double alg = AllReduceMath.algBandwidth(x.bytes(), x.timeUs() / 1e6);
            // the time is kept to 0.01 µs, the bandwidth from the unrounded time: they agree within that rounding
            assertEquals(alg, x.algbw(), 0.006 + alg * 0.0051 / x.timeUs(), x.impl() + " " + x.dtype() + " " + x.bytes());
            assertEquals(AllReduceMath.busBandwidth(alg, n), x.busbw(), 0.006, "busbw = algbw × 2(n−1)/n");
            assertEquals(AllReduceMath.count(x.bytes(), AllReduceMath.DType.parse(x.dtype())), x.count());
        }
        assertEquals(AllReduceMath.sizes(r.params().minBytes(), r.params().maxBytes(), 2),
                r.rows().stream().filter(x -> x.impl().equals("nccl") && x.dtype().equals("bf16")).map(AllReduceResult.Row::bytes).toList(),
                "the sizes this build would run");
        // PyTorch ran the same sizes and types with the same library (torch-allreduce.json, same call)
        JsonNode torch = Json.mapper().readTree(text("torch-allreduce.json"));
        assertEquals(r.nccl().detail().substring("NCCL 2.28.9 from ".length()).split(";")[0],
                torch.get("meta").get("nccl_library").asText());
        Map<String, Long> torchSizes = new HashMap<>();
        torch.get("rows").forEach(t -> torchSizes.merge(t.get("dtype").asText(), 1L, Long::sum));
        assertEquals(Map.of("bf16", 26L, "fp32", 26L), torchSizes);
    }

    /** A check cut by its time-out, as this build renders it: the status and the abort, and the rows that finished. */
    @Test
    void aTimedOutCheckRendersItsAbortAndWhatFinished() throws IOException {
        AllReduceResult r = read("allreduce-timeout.json", AllReduceResult.class);
        String text = CheckText.render(r);
        assertTrue(text.contains("TIMED_OUT"), text);
        assertTrue(text.contains("ncclCommAbort called on 1 communicator(s)"), text);
        long rendered = text.lines().filter(l -> l.matches(" +\\d+ .*")).count();
        assertEquals(r.rows().size(), rendered, "every row that finished before the time-out is shown");
    }

    /** The machine's measured copy, summarised by this build. */
    @Test
    void p2pOnOneGpuIsSummarisedFromItsMeasurement() throws IOException {
        P2pResult r = read("p2p.json", P2pResult.class);
        assertEquals(List.of(), r.pairs());
        assertEquals("1 GPU(s), device-local copy 2101 GB/s (4203 GB/s read+write)", P2pCheck.summary(r.local(), r.pairs()));
        assertEquals(r.summary(), P2pCheck.summary(r.local(), r.pairs()));
        assertTrue(CheckText.render(r).contains("4814"), "the rated DRAM speed beside the measurement");
    }
}
