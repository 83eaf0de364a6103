package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.samples.Samples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The 'advise' command line: contract, usage errors, no-driver behaviour, samples, text and JSON output. */
class AdviseCommandTest {

    static final String[] HGX = {"--assume", "sm=9.0", "--assume", "gpus-per-node=8", "--assume", "nvswitch=true", "--assume", "multicast=true",
            "--assume", "all-nvlink=true"};

    static CliTest.Run advise(String... args) {
        List<String> a = new ArrayList<>(List.of("advise"));
        a.addAll(List.of(args));
        return AdviseTestSupport.run(a.toArray(String[]::new));
    }

    static String[] hgx(String... more) {
        List<String> a = new ArrayList<>(List.of(HGX));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    @Test
    void mainHelpListsAdvise() {
        assertTrue(AdviseTestSupport.run("--help").out().contains("  advise "));
    }

    @Test
    void unknownNamesAreUsageErrorsNamingTheValidOnes() {
        CliTest.Run flag = advise(hgx("--flag", "flashinfer-fusion=auto"));
        assertEquals(ExitCodes.USAGE, flag.code());
        assertTrue(flag.err().contains("unknown flag 'flashinfer-fusion': no SGLang, vLLM, FlashInfer or NCCL flag of that name"), flag.err());
        assertTrue(flag.err().contains("advise --list-knobs"), flag.err());
        CliTest.Run typo = advise(hgx("--flag", "flashinfer-allreduce-fusion-backnd=auto"));
        assertTrue(typo.err().contains("did you mean 'flashinfer-allreduce-fusion-backend'?"), typo.err());
        CliTest.Run env = advise(hgx("--env", "VLLM_FOO=1"));
        assertEquals(ExitCodes.USAGE, env.code());
        assertTrue(env.err().contains("unknown env 'VLLM_FOO': no SGLang, vLLM, FlashInfer or NCCL variable of that name"), env.err());
        CliTest.Run assume = advise("--assume", "gpu=h100");
        assertEquals(ExitCodes.USAGE, assume.code());
        assertTrue(assume.err().contains("unknown --assume key 'gpu'; valid: sm, platform, nodes, gpus-per-node, multicast"), assume.err());
        assertTrue(assume.err().contains("torch-cuda") && assume.err().contains("confidential-compute"), assume.err());
        CliTest.Run value = advise(hgx("--flag", "flashinfer-allreduce-fusion-backend=nccl"));
        assertEquals(ExitCodes.USAGE, value.code());
        assertTrue(value.err().contains("expected auto, trtllm, mnnvl"), value.err());
        assertEquals(ExitCodes.USAGE, advise(hgx("--flag", "enable-nccl-nvls")).code());
        CliTest.Run fw = advise(hgx("--framework", "tensorrt"));
        assertEquals(ExitCodes.USAGE, fw.code());
        assertTrue(fw.err().contains("valid: sglang, vllm, flashinfer, nccl"), fw.err());
        CliTest.Run ver = advise(hgx("--framework-version", "vllm=0.11"));
        assertEquals(ExitCodes.USAGE, ver.code());
        assertTrue(ver.err().contains("unknown vllm version '0.11'; known: newest (releases no release read; commits "), ver.err());
        assertEquals(ExitCodes.USAGE, advise(hgx("--tp", "0")).code());
        assertEquals(ExitCodes.USAGE, advise(hgx("--tp", "two")).code());
        for (CliTest.Run r : List.of(flag, env, assume, value, fw, ver)) {
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void noDriverWithoutAssumptionsExits3AndSuggestsSampleOrAssume() {
        CliTest.Run r = advise();
        assertEquals(ExitCodes.NO_DRIVER, r.code(), r.err());
        assertTrue(r.err().startsWith("fabricscope: no NVIDIA driver"), r.err());
        assertTrue(r.err().contains("--sample") && r.err().contains("--assume sm="), r.err());
        assertEquals(2, r.err().lines().count(), "the cause, then the ways out: " + r.err());
        assertTrue(r.err().lines().allMatch(l -> l.length() <= 120), r.err());
        assertEquals(ExitCodes.NO_DRIVER, advise("--tp", "8", "--assume", "multicast=true").code(), "multicast alone is not enough");
    }

    @Test
    void noDriverWithEnoughAssumptionsAdvises() {
        CliTest.Run r = advise(hgx("--tp", "8"));
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().contains("Machine: the GPUs are SM 9.0 (Hopper) · --assume only"), r.out());
        assertEquals(ExitCodes.OK, advise("--assume", "platform=cpu").code());
    }

    @Test
    void textIsGroupedByFrameworkWithErrorsFirst() {
        CliTest.Run r = advise(hgx("--tp", "16", "--nodes", "2", "--flag", "flashinfer-allreduce-fusion-backend=trtllm", "--flag", "dcp-comm-backend=a2a"));
        assertEquals(ExitCodes.OK, r.code(), r.err());
        String out = r.out();
        int sglang = out.indexOf("\nSGLang (rules: newest)");
        int vllm = out.indexOf("\nvLLM (rules: newest)");
        int fi = out.indexOf("\nFlashInfer (rules: newest)");
        int nccl = out.indexOf("\nNCCL (rules: newest)");
        assertTrue(sglang > 0 && sglang < vllm && vllm < fi && fi < nccl, out);
        String sg = out.substring(sglang, vllm);
        List<String> rows = sg.lines().filter(l -> l.matches("^  (error|fallback|ok) +\\S.*")).toList();
        assertTrue(rows.get(0).startsWith("  error"), rows.toString());
        int lastError = -1;
        int firstOk = rows.size();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).startsWith("  error")) {
                lastError = i;
            }
            if (rows.get(i).startsWith("  ok") && i < firstOk) {
                firstOk = i;
            }
        }
        assertTrue(lastError < firstOk, rows.toString());
        assertTrue(sg.contains("says:   ValueError: FlashInfer allreduce fusion trtllm backend supports single-node only."), sg);
        assertTrue(sg.contains("why:    The deployment spans 2 nodes"), sg);
        // recommendations come before the details, in one block for every framework
        assertTrue(out.indexOf("\nRecommended:\n") > 0 && out.indexOf("\nRecommended:\n") < sglang, out);
        assertTrue(out.contains("\n  SGLang: "), out);
        out.lines().forEach(l -> assertTrue(l.length() <= 120, "long line: " + l));
    }

    /** Issue 23 item 3: an upstream branch the advisor does not model, which could apply here, is unknown, never ok. */
    @Test
    void notModelledUpstreamBranchesThatCouldApplyAreUnknown() throws Exception {
        CliTest.Run r = AdviseTestSupport.run("advise", "--sample", "dgx-h100", "--tp", "8", "--framework", "sglang", "--json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        int notModelled = 0;
        for (JsonNode v : Json.mapper().readTree(r.out()).get("verdicts")) {
            if (v.get("knob").asText().startsWith("upstream:")) {
                notModelled++;
                assertEquals("unknown", v.get("outcome").asText(), v.toString());
                assertTrue(v.get("why").asText().startsWith("not modelled: "), v.toString());
                assertTrue(v.get("source").get("commit").asText().matches("[0-9a-f]{40}"), v.toString());
            }
        }
        assertTrue(notModelled > 0, r.out());
        // on a one-GPU machine at TP 1 no all-reduce branch can apply
        CliTest.Run one = AdviseTestSupport.run("advise", "--sample", "h200-vm", "--tp", "1", "--framework", "sglang", "--json");
        for (JsonNode v : Json.mapper().readTree(one.out()).get("verdicts")) {
            assertFalse(v.get("knob").asText().startsWith("upstream:flashinfer.trtllm_ar"), v.toString());
        }
    }

    @Test
    void jsonFollowsTheContract() throws Exception {
        CliTest.Run r = advise(hgx("--tp", "8", "--json", "--framework", "sglang", "--framework", "nccl"));
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode root = Json.mapper().readTree(r.out());
        for (String k : List.of("machine", "deployment", "verdicts", "recommendations")) {
            assertTrue(root.has(k), k);
        }
        assertEquals("9.0", root.get("machine").get("sm").asText());
        assertEquals(8, root.get("machine").get("gpus-per-node").asInt());
        assertEquals("assumed: --assume sm=9.0", root.get("machine").get("provenance").get("sm").asText());
        assertEquals(8, root.get("deployment").get("tp").asInt());
        for (JsonNode v : root.get("verdicts")) {
            assertTrue(List.of("sglang", "nccl").contains(v.get("framework").asText()), v.toString());
            boolean notModelled = v.get("knob").asText().startsWith("upstream:");
            // every modelled knob on this machine resolves; a not-modelled upstream branch that could apply is unknown
            assertEquals(notModelled, v.get("outcome").asText().equals("unknown"), v.toString());
            assertTrue(List.of("ok", "fallback", "error", "unknown").contains(v.get("outcome").asText()), v.toString());
            for (String f : List.of("framework", "knob", "value", "outcome", "when", "why", "source")) {
                assertTrue(v.has(f), f + " missing in " + v);
            }
            assertTrue(v.get("source").has("repo") && v.get("source").has("path"), v.toString());
        }
        assertEquals(2, root.get("recommendations").size());
        JsonNode nvls = null;
        for (JsonNode v : root.get("verdicts")) {
            if (v.get("knob").asText().equals("--enable-nccl-nvls")) {
                nvls = v;
            }
        }
        assertEquals("fallback", nvls.get("outcome").asText());
        assertEquals("--enable-nccl-nvls", nvls.get("fix").asText());
    }

    @Test
    void everySampleIsAdvisedWithDefaults() {
        assertFalse(Samples.list().isEmpty());
        for (Samples.Sample s : Samples.list()) {
            for (boolean json : List.of(false, true)) {
                CliTest.Run r = json ? advise("--sample", s.name(), "--json") : advise("--sample", s.name());
                assertTrue(r.code() == ExitCodes.OK || r.code() == ExitCodes.NO_DRIVER, s.name() + ": " + r.code() + " " + r.err());
                assertFalse(r.err().contains("internal error"), s.name() + ": " + r.err());
                if (r.code() == ExitCodes.OK) {
                    assertTrue(r.out().contains(json ? "\"verdicts\"" : "SGLang (rules:"), s.name());
                }
            }
        }
    }

    @Test
    void capturedH200ShowsSglangSkippingFusionAfterThePreflight() throws Exception {
        CliTest.Run r = advise("--sample", "h200-vm", "--assume", "gpus-per-node=2", "--tp", "2", "--model", "DeepseekV3ForCausalLM", "--json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode root = Json.mapper().readTree(r.out());
        assertEquals(false, root.get("machine").get("multicast").asBoolean());
        assertTrue(root.get("machine").get("provenance").get("multicast").asText().startsWith("probed: GPU 0 reports CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 0"));
        JsonNode fusion = null;
        for (JsonNode v : root.get("verdicts")) {
            if (v.get("framework").asText().equals("sglang") && v.get("knob").asText().equals("--flashinfer-allreduce-fusion-backend")) {
                fusion = v;
            }
        }
        assertEquals("fallback", fusion.get("outcome").asText());
        assertTrue(fusion.get("message").asText().contains("FlashInfer workspace preflight: cuMemCreate probe failed on at least one rank."));
        assertTrue(fusion.get("why").asText().contains("GPU 0 is SM 9.0 (Hopper)"), fusion.toString());
        CliTest.Run text = advise("--sample", "h200-vm", "--assume", "gpus-per-node=2", "--tp", "2", "--flag", "flashinfer-allreduce-fusion-backend=trtllm");
        assertTrue(text.out().contains("FALLBACK  --flashinfer-allreduce-fusion-backend=trtllm"), text.out());
    }

    /** Audit 2026-12-02b S70-S74: real upstream knobs the advisor does not model are unknown with their source, not "no such knob". */
    @Test
    void realUpstreamKnobsNotModelledAreUnknownWithTheirSource() throws Exception {
        String[][] cases = {
            {"--sample", "dgx-h100", "--env", "NCCL_SHM_DISABLE=1", "UNKNOWN  NCCL_SHM_DISABLE=1", "NCCL reads NCCL_SHM_DISABLE (src/transport/shm.cc:55 @5067397c)"},
            {"--sample", "l40s-4x", "--env", "NCCL_ALGO=NVLS", "UNKNOWN  NCCL_ALGO=NVLS", "NCCL reads NCCL_ALGO (src/enqueue.cc:2055 @5067397c)"},
            {"--sample", "dgx-h100", "--flag", "enable-expert-parallel=true", "UNKNOWN  --enable-expert-parallel=true", "vLLM reads --enable-expert-parallel (vllm/engine/arg_utils.py:"},
            {"--sample", "dgx-h100", "--flag", "all2all-backend=deepep_low_latency", "UNKNOWN  --all2all-backend=deepep_low_latency", "vLLM reads --all2all-backend (vllm/engine/arg_utils.py:"},
            {"--sample", "dgx-h100", "--env", "CUDA_VISIBLE_DEVICES=0,1", "UNKNOWN  CUDA_VISIBLE_DEVICES=0,1", "vLLM reads CUDA_VISIBLE_DEVICES (vllm/envs.py:"},
        };
        for (String[] c : cases) {
            CliTest.Run r = advise(c[0], c[1], c[2], c[3]);
            assertEquals(ExitCodes.OK, r.code(), String.join(" ", c) + ": " + r.err());
            String flat = r.out().replaceAll("\n\\s+", " ");
            assertTrue(r.out().contains(c[4]), r.out());
            assertTrue(flat.contains("not modelled: " + c[5]), flat);
            assertTrue(r.out().lines().findFirst().orElseThrow().contains(" unknown"), "the verdict line counts it: " + r.out());
        }
        CliTest.Run json = advise("--sample", "dgx-h100", "--env", "NCCL_SHM_DISABLE=1", "--json");
        assertEquals(ExitCodes.OK, json.code(), json.err());
        JsonNode v = null;
        for (JsonNode x : Json.mapper().readTree(json.out()).get("verdicts")) {
            if (x.get("knob").asText().equals("NCCL_SHM_DISABLE")) {
                v = x;
            }
        }
        assertTrue(v != null, json.out());
        assertEquals("unknown", v.get("outcome").asText());
        assertEquals("1", v.get("value").asText());
        assertEquals("src/transport/shm.cc", v.get("source").get("path").asText());
        assertEquals("5067397c2676d5aed50042fc39e5c8ee96eb0027", v.get("source").get("commit").asText());
        CliTest.Run typo = advise("--sample", "dgx-h100", "--env", "NCCL_P2P_LEVL=LOC");
        assertEquals(ExitCodes.USAGE, typo.code());
        assertTrue(typo.err().contains("unknown env 'NCCL_P2P_LEVL'") && typo.err().contains("did you mean 'NCCL_P2P_LEVEL'?"), typo.err());
    }

    @Test
    void snapshotFileAndListKnobs() {
        CliTest.Run r = advise("--snapshot", "src/test/resources/captured/h200-vm-2026-11-29/probe.json", "--tp", "1", "--framework", "vllm");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().contains("Machine: GPU 0 is SM 9.0 (Hopper) · NVIDIA H200 · live probe"), r.out());
        assertEquals(ExitCodes.BAD_INPUT, advise("--snapshot", "no/such/file.json").code());
        CliTest.Run list = advise("--list-knobs");
        assertEquals(ExitCodes.OK, list.code());
        assertTrue(list.out().contains("VLLM_FLASHINFER_ALLREDUCE_BACKEND") && list.out().contains("sglang=older: ")
                && list.out().contains("confidential-compute: "), list.out());
        assertTrue(list.out().contains("  nccl=2.20.5: ") && list.out().contains("      file: NVIDIA/nccl@48bb7fec src/transport/nvls.cc (2024-02-26)")
                && list.out().contains("      releases: 0.6.17 up to 0.6.18 (not included); tags v0.6.17"), list.out());
        assertTrue(list.out().contains("\nAlso accepted, not modelled") && list.out().lines().anyMatch(l -> l.matches("  nccl: \\d{3} env \\(NVIDIA/nccl@5067397c\\)"))
                && list.out().lines().anyMatch(l -> l.matches("  vllm: \\d+ env, \\d+ flags \\(mmangkad/vllm@156b1266\\)")), list.out());
        assertTrue(list.out().substring(list.out().indexOf("\nRule sets")).lines().allMatch(l -> l.length() <= 120),
                "every rule-set line fits 120 columns");
        CliTest.Run json = advise("--list-knobs", "--json");
        assertEquals(ExitCodes.OK, json.code());
        assertTrue(json.out().contains("\"notModelled\"") && java.util.regex.Pattern.compile("\"framework\" : \"nccl\", \"kind\" : \"env\", \"names\" : \\d{3}, \"sources\" : \\[ \"NVIDIA/nccl@5067397c\" \\]")
                .matcher(json.out().replaceAll("\\s+", " ")).find(), json.out());
        assertTrue(json.out().contains("\"ruleSets\"") && json.out().contains("\"commit\" : \"48bb7fec7953112ff37499a272317f6663f8f600\"")
                && json.out().contains("\"date\" : \"2024-02-26T02:52:39-08:00\""), json.out());
    }
}
