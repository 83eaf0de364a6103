package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.PreflightCheck;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.check.api.NodeAcceptance.Expectation;
import dev.fabricscope.check.api.NodeAcceptance.Outcome;
import dev.fabricscope.check.api.NodeCheckResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.CheckText;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 1: {@code check node} cannot pass a node vacuously. No driver: exit 3, one line; zero GPUs fail every
 * per-GPU expectation; a preflight at world size 1 (which SGLang does not run) is SKIPPED, not FAILED; table cells
 * fit 120 columns, cut at a word with "…". On the captured node reports of the H200 machines and the samples.
 */
class NodeCheckNotVacuousTest {

    private static final Path ONE_GPU = CapturedTraces.ROOT.resolve("h200-passthrough-1gpu-2026-12-01-node");

    private static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    private static Expectation named(List<Expectation> e, String name) {
        return e.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + e));
    }

    @Test
    void withoutADriverTheLiveCheckExitsThreeInOneLine() {
        for (String[] args : List.of(new String[] {"check", "node"}, new String[] {"check", "node", "--expect", "dgx-h100"},
                new String[] {"check", "node", "--no-live"})) {
            CliTest.Run r = AdviseTestSupport.run(args);
            assertEquals(ExitCodes.NO_DRIVER, r.code(), String.join(" ", args) + "\n" + r.out() + r.err());
            assertEquals("", r.out(), "nothing accepted, nothing printed: " + r.out());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("fabricscope: NVIDIA driver not found: libnvidia-ml.so.1"), r.err());
            assertTrue(r.err().length() <= 121, "within 120 columns: " + r.err());
        }
    }

    @Test
    void withJsonTheNoDriverReportFailsEveryGpuExpectationForClusterCollect() throws Exception {
        CliTest.Run r = AdviseTestSupport.run("check", "node", "--json", "--expect", "dgx-h100");
        assertEquals(ExitCodes.NO_DRIVER, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        NodeCheckResult report = Json.mapper().readValue(r.out(), NodeCheckResult.class);
        assertEquals(CheckStatus.FAILED, report.status());
        assertTrue(report.summary().startsWith("FAIL") && report.summary().contains("NVIDIA driver"), report.summary());
        assertEquals(Outcome.FAIL, named(report.expectations(), "NVIDIA driver").outcome());
        assertEquals("no GPU seen: no NVIDIA driver", named(report.expectations(), "GPU model").measured());
        assertTrue(report.expectations().stream().noneMatch(x -> x.outcome() == Outcome.PASS), report.expectations().toString());
    }

    @Test
    void aSavedMachineWithoutDriverExitsThreeToo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("laptop.json");
        Files.writeString(file, Json.write(AdviseTestSupport.noDriver()));
        CliTest.Run r = CliTest.run("check", "node", "--snapshot", file.toString());
        assertEquals(ExitCodes.NO_DRIVER, r.code(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("fabricscope: the saved machine: "), r.err());
        assertTrue(r.err().length() <= 121, "within 120 columns: " + r.err());
    }

    /** The pass-through VM hides NVLink: "0 per GPU" is not measured there, so it is skipped, and fails where links are expected. */
    @Test
    void unreadableLinkStatesAreNeverCountedAsZeroActiveLinks() {
        String trace = "src/test/resources/captured/h200-passthrough-1gpu-2026-12-01/trace.json";
        CliTest.Run self = CliTest.run("check", "node", "--no-live", "--snapshot", trace);
        String row = self.out().lines().filter(l -> l.matches("(PASS|FAIL|SKIP) +NVLinks active.*")).findFirst().orElseThrow();
        assertTrue(row.startsWith("SKIP") && row.contains("link state not readable"), self.out());
        CliTest.Run dgx = CliTest.run("check", "node", "--no-live", "--expect", "dgx-h100", "--snapshot", trace);
        String dgxRow = dgx.out().lines().filter(l -> l.matches("(PASS|FAIL|SKIP) +NVLinks active.*")).findFirst().orElseThrow();
        assertTrue(dgxRow.startsWith("FAIL") && dgxRow.contains("link state not readable"), dgx.out());
    }

    @Test
    void zeroGpusNeverSatisfyAnAllGpusOrModelExpectation() {
        MachineSnapshot empty = sample("dgx-h100").withGpus(List.of());
        NodeAcceptance.Profile dgx = NodeAcceptance.profileOf(sample("dgx-h100"), "sample dgx-h100", 0.5);
        List<Expectation> e = NodeAcceptance.compare(dgx, empty, null);
        for (String name : List.of("GPU count", "GPU model", "NVLinks active", "CUDA multicast", "Fabric state")) {
            Expectation x = named(e, name);
            assertEquals(Outcome.FAIL, x.outcome(), x.toString());
            assertFalse(x.measured().contains("×0") || x.measured().contains("on all GPUs") || x.measured().contains("every GPU"),
                    x.toString());
        }
        assertFalse(NodeAcceptance.passed(e));
        // compared with itself (no --expect), a node without GPUs still fails its count
        List<Expectation> self = NodeAcceptance.compare(NodeAcceptance.profileOf(empty, "itself", 0.5), empty, null);
        assertEquals(Outcome.FAIL, named(self, "GPU count").outcome());
        assertEquals("at least 1", named(self, "GPU count").expected());
        assertTrue(NodeAcceptance.summary(self).startsWith("FAIL"), NodeAcceptance.summary(self));
    }

    @Test
    void theCommandFailsANodeWithADriverButNoGpu(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("empty.json");
        Files.writeString(file, Json.write(sample("dgx-h100").withGpus(List.of())));
        CliTest.Run r = CliTest.run("check", "node", "--expect", "dgx-h100", "--snapshot", file.toString());
        assertEquals(ExitCodes.CHECK_FAILED, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("FAIL"), r.out());
        assertFalse(r.out().contains("×0"), r.out());
    }

    @Test
    void thePreflightAtWorldSizeOneIsSkippedWithTheReasonFirst() throws Exception {
        assertEquals(CheckStatus.SKIPPED, PreflightCheck.status(false, 1));
        assertEquals(CheckStatus.SKIPPED, PreflightCheck.status(true, 1));
        assertEquals(CheckStatus.FAILED, PreflightCheck.status(false, 2));
        assertEquals(ExitCodes.OK, ExitCodes.of(PreflightCheck.status(false, 1)), "not applicable is not exit 5");
        // the one-GPU H200's node report: its preflight ran at world size 1 and recorded vote SKIP
        NodeCheckResult saved = Json.mapper().readValue(ONE_GPU.resolve("node-report.json").toFile(), NodeCheckResult.class);
        assertEquals(1, saved.preflight().params().worldSize());
        NodeAcceptance.LiveResults live = new NodeAcceptance.LiveResults(saved.preflight(), saved.p2p(), saved.allReduce(), null);
        // compared with a reference that had multicast, so the older "no multicast: SKIP expected" rule cannot hide it
        NodeAcceptance.Profile withMulticast = new NodeAcceptance.Profile("test", 1, "NVIDIA H200", List.of(0), null, true, null,
                null, null, List.of(), List.of(), 0.5);
        Expectation pre = named(NodeAcceptance.compare(withMulticast, saved.snapshot(), live), "Preflight");
        assertEquals(Outcome.SKIP, pre.outcome(), pre.toString());
        assertTrue(pre.measured().startsWith("SKIPPED — not applicable at world size 1"), pre.measured());
    }

    @Test
    void theFirstCallsFailedPreflightRowNowReadsAsSkippedAndTheNodePasses() throws Exception {
        // the first call on that machine printed FAIL (Preflight) and exit 5 (check-node.txt, check-node.rc)
        assertTrue(CapturedTraces.read(ONE_GPU, "check-node.txt").startsWith("FAIL: 1 of 13 expectations failed (Preflight)"));
        NodeCheckResult saved = Json.mapper().readValue(ONE_GPU.resolve("node-report.json").toFile(), NodeCheckResult.class);
        NodeAcceptance.LiveResults live = new NodeAcceptance.LiveResults(saved.preflight(), saved.p2p(), saved.allReduce(), null);
        List<Expectation> e = NodeAcceptance.compare(NodeAcceptance.profileOf(saved.snapshot(), "itself", 0.5), saved.snapshot(), live);
        assertTrue(NodeAcceptance.passed(e), NodeAcceptance.summary(e));
    }

    @Test
    void cellsFitOneHundredTwentyColumnsAndAreCutAtAWord() throws Exception {
        NodeCheckResult saved = Json.mapper().readValue(ONE_GPU.resolve("node-report.json").toFile(), NodeCheckResult.class);
        // the row the first call printed at 346 characters, as that version measured it
        String first = CapturedTraces.read(ONE_GPU, "check-node.txt").lines().filter(l -> l.startsWith("FAIL    Preflight"))
                .findFirst().orElseThrow();
        String measured = first.substring(first.indexOf("FAILED — "));
        List<Expectation> rows = new java.util.ArrayList<>(saved.expectations());
        rows.add(new Expectation("Preflight", "PASSED", measured, Outcome.FAIL));
        NodeCheckResult r = new NodeCheckResult(saved.check(), saved.status(), saved.summary(), saved.expectedFrom(), saved.profile(),
                rows, saved.preflight(), saved.p2p(), saved.allReduce(), saved.snapshot());
        String text = CheckText.render(r);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
        assertFalse(text.matches("(?s).*…\\d+ more.*"), text);
        String cut = text.lines().filter(l -> l.startsWith("FAIL") && l.contains("Preflight")).findFirst().orElseThrow();
        assertTrue(cut.endsWith("…"), cut);
        String kept = cut.substring(cut.indexOf("FAILED — "), cut.length() - 1);
        assertTrue(measured.startsWith(kept), "a prefix of the value: " + kept);
        char next = measured.charAt(kept.length());
        assertTrue(next == ' ' || ",;:—(".indexOf(next) >= 0, "cut where a word ends: " + kept + " | next " + next);
        assertTrue(text.contains("(cut values: --wide or --json)"), text);
        String wide = CheckText.render(r, true);
        assertTrue(wide.contains("In full:"), wide);
        assertTrue(wide.replaceAll("\\s+", " ").contains(measured.replaceAll("\\s+", " ")), wide);
    }

    @Test
    void theSamplesCheckedAgainstThemselvesFitTheWidthAndSayNoMoreCounts() {
        for (String name : Samples.names()) {
            MachineSnapshot s = sample(name);
            if (!s.driver().driverPresent()) {
                continue;
            }
            CliTest.Run r = CliTest.run("check", "node", "--sample", name);
            assertTrue(r.code() == 0 || r.code() == 5, name + ": " + r.code() + r.err());
            assertTrue(r.out().lines().allMatch(l -> l.length() <= 120), name + "\n" + r.out());
            assertFalse(r.out().matches("(?s).*…\\d+ more.*"), name + "\n" + r.out());
        }
    }
}
