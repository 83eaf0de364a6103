package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Finding;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.FindingFolds;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 3: the same finding on several GPUs is one finding about all of them in every output people read
 * (show, Markdown, HTML), with ranges folded; the JSON keeps one per GPU with its PCI address.
 */
class FoldedFindingsTest {

    static final String MULTICAST = "CUDA multicast not supported (attribute 132 = 0)";

    @TempDir
    Path tmp;

    static MachineSnapshot dgxA100() {
        return Samples.find("dgx-a100").orElseThrow().snapshot().get();
    }

    @Test
    void dgxA100sEightMulticastFindingsAreOneOnGpu0To7() {
        MachineSnapshot s = dgxA100();
        assertEquals(8, s.findings().stream().filter(f -> f.message().startsWith(MULTICAST)).count(), "the record: one per GPU");
        List<Finding> folded = FindingFolds.of(s);
        assertEquals(1, folded.size(), folded.toString());
        assertEquals("GPU0–7", folded.get(0).subject());
        String out = CliTest.run("show", "--sample", "dgx-a100").out();
        assertEquals(1, count(out, MULTICAST), out);
        assertTrue(out.contains("Findings (worst first):\n  INFO: GPU0–7: " + MULTICAST), out);
        assertTrue(out.lines().findFirst().orElseThrow().contains(" — 1 info: CUDA multicast"), "the answer line counts it once");
    }

    @Test
    void gapsFoldIntoRangesAndOtherMessagesStayApart() {
        MachineSnapshot s = dgxA100();
        List<Finding> some = new ArrayList<>(s.findings().stream().filter(f -> !f.subject().startsWith("GPU4 ")).toList());
        Finding gpu6 = s.findings().stream().filter(f -> f.subject().startsWith("GPU6 ")).findFirst().orElseThrow();
        some.remove(gpu6);
        some.add(new Finding(gpu6.severity(), gpu6.code(), gpu6.message() + " (another reason)", gpu6.subject()));
        List<Finding> folded = FindingFolds.of(s.withFindings(some));
        assertEquals(List.of("GPU0–3, GPU5, GPU7", gpu6.subject()), folded.stream().map(Finding::subject).toList());
    }

    @Test
    void aFindingOnOneGpuKeepsItsPciAddress() {
        String out = CliTest.run("show", "--sample", "h200-vm").out();
        assertTrue(out.contains("  INFO: GPU0 (0000:00:06.0): " + MULTICAST), out);
    }

    @Test
    void reportsFoldAndTheirJsonKeepsOneFindingPerGpu() throws Exception {
        Path md = tmp.resolve("a.md");
        Path html = tmp.resolve("a.html");
        Path json = tmp.resolve("a.json");
        for (Path p : List.of(md, html, json)) {
            String format = p.toString().substring(p.toString().lastIndexOf('.') + 1);
            CliTest.Run r = CliTest.run("report", "--sample", "dgx-a100", "--format", format, "--out", p.toString());
            assertEquals(0, r.code(), r.err());
        }
        String m = Files.readString(md);
        assertEquals(1, count(m, MULTICAST), m);
        assertTrue(m.contains("| INFO | no-multicast | GPU0–7 | CUDA multicast not supported"), m);
        String h = Files.readString(html);
        String section = h.substring(h.indexOf("<h2>Findings</h2>"), h.indexOf("</section>", h.indexOf("<h2>Findings</h2>")));
        assertEquals(1, count(section, MULTICAST), section); // the drawing's GPU details keep each GPU's own
        assertTrue(h.contains("<tr class=\"info\"><td>INFO</td><td>no-multicast</td><td>GPU0–7</td><td>CUDA multicast not supported"), h);
        JsonNode findings = Json.mapper().readTree(Files.readString(json)).path("snapshot").path("findings");
        List<String> subjects = new ArrayList<>();
        findings.forEach(f -> {
            if (f.path("code").asText().equals("no-multicast")) {
                subjects.add(f.path("subject").asText());
            }
        });
        assertEquals(8, subjects.size(), subjects.toString());
        assertEquals("GPU0 (0000:07:00.0)", subjects.get(0));
    }

    private static long count(String text, String what) {
        return Pattern.compile(Pattern.quote(what)).matcher(text).results().count();
    }
}
