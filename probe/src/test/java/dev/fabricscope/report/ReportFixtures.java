package dev.fabricscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.text.Escape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reports for tests. The verdicts, recommendations and check results here are SYNTHETIC test data in the shapes the
 * advisor and the checks write (dev.fabricscope.advisor.api.Verdict / Recommendation, check results as JSON); they are
 * not advisor output and state nothing about the frameworks.
 */
final class ReportFixtures {

    static final Instant WHEN = Instant.parse("2026-11-29T10:00:00Z");

    private ReportFixtures() {
    }

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    static List<Verdict> verdicts() {
        SourceRef src = new SourceRef("example/synthetic", "0123456789abcdef0123456789abcdef01234567", "python/x.py", "10-12");
        return List.of(
                new Verdict("sglang", "--synthetic-backend", "fast", true, Outcome.ERROR, null, "ValueError",
                        "synthetic error message", "argument parsing", "synthetic: the machine lacks multicast", "--synthetic-backend=safe", src, "0.0-test"),
                new Verdict("vllm", "SYNTHETIC_ALLREDUCE", "auto", false, Outcome.FALLBACK, "nccl", null, null, "first batch",
                        "synthetic: falls back", null, src, "0.0-test"),
                new Verdict("nccl", "NCCL_SYNTHETIC", "1", false, Outcome.OK, "nvls", null, null, "init", "synthetic: ok", null, null, null));
    }

    static List<Recommendation> recommendations() {
        return List.of(new Recommendation("sglang", List.of("--synthetic-backend=safe"), Map.of("SYNTHETIC_ENV", "1"),
                "synthetic recommendation for tests"));
    }

    static ReportChecks checks() {
        ObjectNode result = Json.mapper().createObjectNode();
        result.put("check", "p2p").put("status", "PASSED").put("summary", "synthetic: 2 pairs copied").put("gbps", 123.5);
        return new ReportChecks(true, null, List.of(new ReportChecks.Entry("p2p", "PASSED", "synthetic: 2 pairs copied", result)));
    }

    /** A sample machine with synthetic verdicts, a recommendation and a check result. */
    static Report report(String sample) {
        return Reports.create(sample(sample), ReportAdvice.of(verdicts(), recommendations(), Map.of("sglang", "0.0-test")),
                checks(), List.of("fabricscope", "report", "--sample", sample), WHEN);
    }

    /** Strings a hostile ticket could carry: markup, scripts, Markdown syntax, control and invisible characters. */
    static final List<String> HOSTILE = List.of(
            "<script>alert('x')</script>",
            "\"><img src=x onerror=alert(1)>",
            "</details></summary><script>document.cookie</script>",
            "```\n</details>\n# injected heading\n```",
            "| cell | break | table |",
            "[click](javascript:alert(1)) ![img](https://evil.example/p.png)",
            "@octocat see #1 and $\\sqrt{x}$ ~~strike~~ **bold** _em_",
            "nul\u0000 bell\u0007 esc\u001b[31mred\u001b[0m cr\r lf\n tab\t del\u007f",
            "bidi \u202Eevil\u202C zero\u200Bwidth line\u2028sep para\u2029sep",
            "lone surrogate \uD800 and \uDFFF end",
            "<svg onload=alert(1)><style>body{display:none}</style><!-- comment",
            "&amp; &lt;b&gt; &#60;script&#62; \\` \\\\",
            "<a href=\"https://evil.example\">x</a> <iframe src=//evil.example></iframe> <link rel=stylesheet href=//e>");

    /** A very long value: over the cut lengths of every format. */
    static final String LONG = "L".repeat(70_000) + "<script>tail</script>";

    /** Fields whose text must keep its shape for the report to bind (enums, PCI addresses, formats). */
    private static final Set<String> KEEP = Set.of("pci", "a", "b", "remotePci", "origin", "kind", "severity", "status",
            "outcome", "format", "computeCapability");

    /**
     * The report with a hostile string in every free-text field and map key it can carry (cycling through
     * {@link #HOSTILE}, every 40th the {@link #LONG} one), bound back through {@link ReportIO} as a ticket's
     * file would be.
     */
    static Report hostile(Report base) throws Exception {
        JsonNode tree = Json.mapper().valueToTree(base);
        int[] n = {0};
        JsonNode bad = poison(tree, null, n, false);
        return ReportIO.parse(Escape.jsonSafe(Json.write(bad)), "hostile");
    }

    /**
     * A hostile map key: the hostile strings that a JSON parser accepts as a field name (Jackson rejects a lone
     * escaped surrogate in names, so such a file is refused with a clear error before any renderer sees it).
     */
    private static String keyHostile(int i) {
        List<String> keys = HOSTILE.stream().filter(h -> h.chars().noneMatch(c -> Character.isSurrogate((char) c))).toList();
        return keys.get(i % keys.size());
    }

    private static JsonNode poison(JsonNode node, String field, int[] n, boolean keep) {
        if (node.isTextual()) {
            if (keep || (field != null && KEEP.contains(field))) {
                return node;
            }
            int i = n[0]++;
            return TextNode.valueOf(i % 40 == 39 ? LONG : HOSTILE.get(i % HOSTILE.size()));
        }
        if (node.isObject()) {
            ObjectNode o = Json.mapper().createObjectNode();
            boolean mapOfKeys = "environment".equals(field) || "env".equals(field) || "versions".equals(field);
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                boolean keepBelow = keep || "gpuLinks".equals(field) || (field != null && KEEP.contains(field));
                String key = mapOfKeys ? keyHostile(n[0]++) + e.getKey() : e.getKey();
                o.set(key, poison(e.getValue(), e.getKey(), n, keepBelow));
            }
            return o;
        }
        if (node.isArray()) {
            List<JsonNode> out = new ArrayList<>();
            node.forEach(c -> out.add(poison(c, field, n, keep)));
            return Json.mapper().createArrayNode().addAll(out);
        }
        return node;
    }
}
