package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of backend-cases-examples.json through the CLI contract of issue 3: machine keys become --assume,
 * the deployment becomes --tp/--nodes/--dcp/--model/--tokens/--env/--flag, the case's knob and value become a
 * --flag or --env; the verdict with the case's framework and knob must match the expected outcome, message and
 * resolved backend.
 */
class AdviseCasesTest {

    private static final Map<String, String> MACHINE_KEYS = Map.of(
            "multicast_supported", "multicast", "fabric_handle_supported", "fabric-handles", "gpus_per_node", "gpus-per-node",
            "all_nvlink", "all-nvlink", "torch_cuda", "torch-cuda", "confidential_compute", "confidential-compute",
            "mnnvl_fabric", "mnnvl-fabric", "imex_channel", "imex-channel");

    /** The 18 reference examples and our own corpus (backend-cases.json, written by generate_backend_cases.py from upstream). */
    static Stream<Arguments> cases() throws Exception {
        List<Arguments> out = new ArrayList<>();
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (String file : List.of("/advisor/backend-cases-examples.json", "/advisor/backend-cases.json")) {
            try (InputStream in = AdviseCasesTest.class.getResourceAsStream(file)) {
                assertNotNull(in, file + " missing");
                for (JsonNode c : Json.mapper().readTree(in)) {
                    assertTrue(ids.add(c.get("id").asText()), "duplicate case id " + c.get("id"));
                    assertTrue(c.hasNonNull("source") && !c.get("source").asText().isBlank(), c.get("id") + " has no source line");
                    out.add(Arguments.of(c.get("id").asText(), c));
                }
            }
        }
        assertTrue(out.size() >= 150, "expected at least 150 cases, got " + out.size());
        return out.stream();
    }

    /** The command line the mapping gives for one case. */
    static List<String> args(JsonNode c) {
        List<String> a = new ArrayList<>(List.of("advise", "--json"));
        if (c.has("sample")) {
            a.addAll(List.of("--sample", c.get("sample").asText()));
        }
        if (c.has("framework_version")) {
            c.get("framework_version").fields().forEachRemaining(x -> a.addAll(List.of("--framework-version", x.getKey() + "=" + x.getValue().asText())));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = c.get("machine").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            a.add("--assume");
            a.add(MACHINE_KEYS.getOrDefault(e.getKey(), e.getKey()) + "=" + e.getValue().asText());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = c.get("deployment").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            String v = e.getValue().asText();
            switch (k) {
                case "tp", "world_size" -> a.addAll(List.of("--tp", v));
                case "nnodes" -> a.addAll(List.of("--nodes", v));
                case "dcp_size" -> a.addAll(List.of("--dcp", v));
                case "model_arch" -> a.addAll(List.of("--model", v));
                case "batch_tokens" -> a.addAll(List.of("--tokens", v));
                case "env" -> e.getValue().fields().forEachRemaining(x -> a.addAll(List.of("--env", x.getKey() + "=" + x.getValue().asText())));
                default -> a.addAll(List.of("--flag", k.replace('_', '-') + "=" + v));
            }
        }
        String knob = c.get("knob").asText();
        JsonNode value = c.get("value");
        // null and self-declared defaults ("default(O2)", "2 (default/unset)") are not passed
        if (!value.isNull() && !value.asText().toLowerCase().contains("default")) {
            if (knob.startsWith("--")) {
                a.addAll(List.of("--flag", knob.substring(2) + "=" + value.asText()));
            } else if (knob.equals(knob.toUpperCase())) {
                a.addAll(List.of("--env", knob + "=" + value.asText()));
            } else {
                a.addAll(List.of("--flag", knob + "=" + value.asText()));
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void caseHoldsThroughTheCli(String id, JsonNode c) throws Exception {
        List<String> args = args(c);
        CliTest.Run r = AdviseTestSupport.run(args.toArray(String[]::new));
        assertEquals(ExitCodes.OK, r.code(), id + " " + args + "\n" + r.err());
        JsonNode out = Json.mapper().readTree(r.out());
        JsonNode verdict = null;
        for (JsonNode v : out.get("verdicts")) {
            if (v.get("framework").asText().equals(c.get("framework").asText()) && v.get("knob").asText().equals(c.get("knob").asText())) {
                verdict = v;
            }
        }
        assertNotNull(verdict, id + ": no verdict for " + c.get("framework") + " " + c.get("knob"));
        JsonNode expected = c.get("expected");
        String ctx = id + " " + args + "\n" + verdict.toPrettyString();
        assertEquals(expected.get("outcome").asText(), verdict.get("outcome").asText(), ctx);
        if (!expected.get("message").isNull()) {
            assertTrue(verdict.has("message") && verdict.get("message").asText().contains(expected.get("message").asText()), ctx);
        }
        if (c.path("skip_resolved").asBoolean(false)) {
            // vLLM names the next backend only as this advisor's model (symm_mem or pynccl), not in upstream words
        } else if (expected.get("resolved").isNull()) {
            assertTrue(!verdict.has("resolved") || verdict.get("resolved").isNull(), ctx);
        } else {
            assertEquals(expected.get("resolved").asText(), verdict.path("resolved").asText(null), ctx);
        }
        if (!expected.get("error_class").isNull()) {
            assertEquals(expected.get("error_class").asText(), verdict.path("errorClass").asText(null), ctx);
        }
        assertTrue(verdict.has("why") && verdict.has("when") && verdict.has("source"), ctx);
    }
}
