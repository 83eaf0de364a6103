package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.samples.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code fabricscope predict} on every sample and captured machine, its validity from the advisor, its errors. */
class PredictCommandTest {

    static CliTest.Run run(String... args) {
        return CliTest.run(args);
    }

    static void fits(String what, String text) {
        for (String line : text.split("\n", -1)) {
            assertTrue(line.length() <= 120, what + ": a line of " + line.length() + " columns:\n" + line);
        }
    }

    static JsonNode json(CliTest.Run r) throws IOException {
        assertEquals(0, r.code(), r.err());
        return Json.mapper().readTree(r.out());
    }

    /** The saved machines under captured/: every trace, snapshot and report. */
    static List<Path> capturedMachines() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(CapturedTraces.ROOT)) {
            s.filter(p -> List.of("trace.json", "probe.json", "report.json").contains(p.getFileName().toString())).sorted().forEach(out::add);
        }
        assertTrue(out.size() >= 10, "captured machines found: " + out);
        return out;
    }

    @Test
    void everySampleAndCapturedMachineGetsAnAnswerWithin120Columns() throws IOException {
        List<String[]> sources = new ArrayList<>();
        for (String name : Samples.names()) sources.add(new String[] {"--sample", name});
        for (Path p : capturedMachines()) sources.add(new String[] {"--snapshot", p.toString()});
        for (String[] src : sources) {
            String what = String.join(" ", src);
            if (src[1].contains("no-driver")) { // a machine without a driver: one line and exit 3, as advise does
                CliTest.Run none = run("predict", src[0], src[1], "--bytes", "8");
                assertEquals(ExitCodes.NO_DRIVER, none.code(), none.err());
                assertTrue(none.err().startsWith("fabricscope: no NVIDIA driver in the snapshot: "), none.err());
                continue;
            }
            CliTest.Run text = run("predict", src[0], src[1], "--bytes", "8,64K,1M,8M,256M");
            assertEquals(0, text.code(), what + ": " + text.err());
            assertTrue(text.out().startsWith("Fastest valid: "), what + ":\n" + text.out());
            fits(what, text.out());
            JsonNode j = json(run("predict", src[0], src[1], "--bytes", "8,1M", "--json"));
            assertTrue(j.get("predictions").size() >= 2, what);
            for (JsonNode p : j.get("predictions")) {
                for (String f : List.of("framework", "backend", "bytes", "predictedUs", "busbwGBs", "valid", "basis")) {
                    assertTrue(p.has(f), what + ": " + f + " missing in " + p);
                }
            }
        }
    }

    /** The row of {@code framework backend} at {@code bytes}. */
    static JsonNode row(JsonNode j, String framework, String backend, long bytes) {
        for (JsonNode p : j.get("predictions")) {
            if (p.get("framework").asText().equals(framework) && p.get("backend").asText().equals(backend) && p.get("bytes").asLong() == bytes) {
                return p;
            }
        }
        throw new AssertionError(framework + " " + backend + " " + bytes + " not in " + j);
    }

    @Test
    void validityIsTheAdvisorsVerdict() throws IOException {
        // PCIe-only L40S: SGLang's custom all-reduce falls back to NCCL (advise says fallback), NVLS has no NVSwitch
        JsonNode pcie = json(run("predict", "--sample", "l40s-4x", "--tp", "4", "--bytes", "1M", "--json"));
        assertFalse(row(pcie, "sglang", "oneshot", 1 << 20).get("valid").asBoolean());
        assertTrue(row(pcie, "sglang", "oneshot", 1 << 20).get("verdict").asText().startsWith("fallback"));
        assertTrue(row(pcie, "sglang", "nccl", 1 << 20).get("valid").asBoolean());
        assertTrue(row(pcie, "nccl", "nvls", 1 << 20).get("predictedUs").isNull());
        // DGX H100: NVSwitch and multicast; custom all-reduce and NVLS are ok
        JsonNode dgx = json(run("predict", "--sample", "dgx-h100", "--tp", "8", "--bytes", "1M", "--json"));
        assertTrue(row(dgx, "sglang", "oneshot", 1 << 20).get("valid").asBoolean());
        assertTrue(row(dgx, "nccl", "nvls", 1 << 20).get("valid").asBoolean());
        assertEquals("from specs", row(dgx, "nccl", "nccl", 1 << 20).get("basis").asText());
        // one-shot moves (n-1)·S: at 8 ranks slower than two-shot for large messages
        JsonNode big = json(run("predict", "--sample", "dgx-h100", "--tp", "8", "--bytes", "256M", "--json"));
        assertTrue(row(big, "sglang", "oneshot", 256L << 20).get("predictedUs").asDouble()
                > row(big, "sglang", "twoshot", 256L << 20).get("predictedUs").asDouble());
    }

    @Test
    void aReportWithAnAllReduceCheckCalibratesAndSaysSo() throws IOException {
        Path report = CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("report.json");
        JsonNode j = json(run("predict", "--snapshot", report.toString(), "--bytes", "8,256M", "--json"));
        JsonNode nccl = row(j, "nccl", "nccl", 8);
        assertTrue(nccl.get("basis").asText().startsWith("calibrated by the check of the report made "), nccl.toString());
        assertTrue(j.get("calibrations").size() >= 1);
        assertEquals("from specs", row(j, "sglang", "oneshot", 8).get("basis").asText(), "SGLang's kernel is not the check's");
        // --calibrate with the captured sweep: the check's own kernels get rows of their own
        Path sweep = CapturedTraces.ROOT.resolve("h200-nvswitch-2gpu-2026-12-01-checks/allreduce.json");
        JsonNode c = json(run("predict", "--snapshot", CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("trace.json").toString(),
                "--calibrate", sweep.toString(), "--bytes", "8M", "--json"));
        double measured = 35.42; // the sweep's one-shot at 8 MiB, graph mode
        double predicted = row(c, "check", "oneshot", 8 << 20).get("predictedUs").asDouble();
        assertTrue(Math.abs(predicted - measured) / measured < 0.10, "calibrated one-shot at 8 MiB: " + predicted);
    }

    @Test
    void modelSizesNameTheFastestPerPhase() throws IOException {
        CliTest.Run r = run("predict", "--sample", "dgx-h100", "--tp", "8", "--model", "DeepseekV3ForCausalLM", "--tokens", "4096");
        assertEquals(0, r.code(), r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertTrue(first.contains("decode (14 KiB)") && r.out().contains("prefill (56 MiB)"), r.out());
        JsonNode j = json(run("predict", "--sample", "dgx-h100", "--tp", "8", "--model", "meta-llama/Llama-3.1-70B", "--tokens", "8",
                "--batch", "4", "--dtype", "fp32", "--json"));
        assertNotNull(row(j, "nccl", "nccl", 4L * 8192 * 4));
        assertEquals("prefill", row(j, "nccl", "nccl", 8L * 8192 * 4).get("phase").asText());
    }

    @Test
    void badInputIsAUsageErrorThatSaysWhatIsKnown() {
        CliTest.Run unknown = run("predict", "--sample", "dgx-h100", "--model", "GPT5ForCausalLM", "--tokens", "8");
        assertEquals(ExitCodes.USAGE, unknown.code());
        assertTrue(unknown.err().contains("unknown model 'GPT5ForCausalLM'; known: deepseek-ai/DeepSeek-V3"), unknown.err());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "dgx-h100").code());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "dgx-h100", "--bytes", "8", "--model", "MixtralForCausalLM",
                "--tokens", "8").code());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "dgx-h100", "--model", "MixtralForCausalLM").code());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "nope", "--bytes", "8").code());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "dgx-h100", "--tp", "9", "--bytes", "8").code());
        assertEquals(ExitCodes.USAGE, run("predict", "--sample", "dgx-h100", "--tp", "0", "--bytes", "8").code());
        assertEquals(ExitCodes.BAD_INPUT, run("predict", "--sample", "dgx-h100", "--bytes", "8", "--calibrate",
                CapturedTraces.ROOT.resolve("h200-nvswitch-2gpu-2026-12-01-checks/p2p.json").toString()).code());
    }

    @Test
    void acrossNodesNcclIsNotPricedAndSaysWhy() throws IOException {
        JsonNode j = json(run("predict", "--sample", "dgx-h100", "--tp", "16", "--nodes", "2", "--bytes", "1M", "--json"));
        JsonNode nccl = row(j, "nccl", "nccl", 1 << 20);
        assertTrue(nccl.get("predictedUs").isNull());
        assertTrue(nccl.get("basis").asText().contains("network"), nccl.toString());
    }

    @Test
    void adviseShowsThePredictedCostBesideEachRecommendation() throws IOException {
        CliTest.Run r = run("advise", "--sample", "dgx-h100", "--tp", "8", "--model", "DeepseekV3ForCausalLM", "--tokens", "4096");
        assertEquals(0, r.code(), r.err());
        fits("advise", r.out());
        int rec = r.out().indexOf("\nRecommended:\n");
        int heading = r.out().indexOf("(Predicted all-reduce time ('fabricscope predict', from specs) at the model's all-reduces");
        int verdicts = r.out().indexOf("\nSGLang (rules:");
        assertTrue(rec > 0 && rec < heading && heading < verdicts, r.out());
        String block = r.out().substring(rec, verdicts);
        assertTrue(r.out().contains("prefill 4096 tokens = 56 MiB") && r.out().contains("14 KiB"), r.out());
        for (String fw : List.of("SGLang", "vLLM", "FlashInfer", "NCCL")) { // each framework line, its summary, its cost
            int at = block.indexOf("\n  " + fw + ": ");
            assertTrue(at > 0, fw + ":\n" + block);
            java.util.regex.Matcher next = java.util.regex.Pattern.compile("\n  [A-Za-z]").matcher(block);
            String own = next.find(at + 1) ? block.substring(at, next.start()) : block.substring(at);
            assertTrue(own.contains("\n    predicted (us at decode 14 KiB/prefill 56 MiB): "), fw + ":\n" + own);
        }
        CliTest.Run plain = run("advise", "--sample", "dgx-h100", "--tp", "8");
        assertTrue(plain.out().contains("at 64 KiB and 8 MiB, a small and a large") && plain.out().contains("predicted (us at 64 KiB/8 MiB): nccl "),
                plain.out());
        JsonNode j = json(run("advise", "--sample", "dgx-h100", "--tp", "8", "--json"));
        JsonNode predicted = j.get("predicted");
        assertEquals("from specs", predicted.get("basis").asText());
        assertEquals(j.get("recommendations").size(), predicted.get("recommendations").size());
        for (JsonNode c : predicted.get("recommendations")) {
            assertTrue(c.get("text").asText().startsWith("predicted (us at 64 KiB/8 MiB): "), c.toString());
            assertTrue(c.get("backends").size() >= 1 && c.get("selected").size() >= 2, c.toString());
            for (JsonNode p : c.get("selected")) {
                assertTrue(p.has("predictedUs") != p.has("unpriced"), "a time or why not: " + p);
            }
        }
        JsonNode apart = json(run("advise", "--sample", "dgx-h100", "--nodes", "2", "--json")).get("predicted");
        for (JsonNode c : apart.get("recommendations")) {
            for (JsonNode p : c.get("selected")) {
                assertFalse(p.has("predictedUs"), "no number predict did not compute: " + p);
            }
            assertTrue(c.get("text").asText().contains("no prediction"), c.toString());
        }
    }
}
