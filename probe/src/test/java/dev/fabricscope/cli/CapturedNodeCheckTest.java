package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Read-back of {@code check node} as it ran on the one-GPU H200 (captured 2026-12-01): what the machine printed. */
class CapturedNodeCheckTest {

    private static final Path DIR = CapturedTraces.ROOT.resolve("h200-passthrough-1gpu-2026-12-01-node");

    @Test
    void theSummaryLineComesFirstAndEveryRowHasAResult() {
        List<String> lines = CapturedTraces.read(DIR, "check-node.txt").lines().toList();
        assertTrue(lines.get(0).startsWith("FAIL: 1 of 13 expectations failed (Preflight)"), lines.get(0));
        assertEquals("5", CapturedTraces.read(DIR, "check-node.rc").trim(), "exit 5: a live check failed the node");
        List<String> rows = lines.subList(3, lines.size());
        assertEquals(13, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.matches("(PASS|FAIL|SKIP) .*")), rows.toString());
        String preflight = rows.stream().filter(r -> r.contains("Preflight")).findFirst().orElseThrow();
        assertTrue(preflight.contains("801") && preflight.contains("world size 1"), preflight);
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("PASS") && r.contains("All-reduce") && r.contains("all results exact")));
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("PASS") && r.contains("ECC and row remapping")));
        String stderr = CapturedTraces.read(DIR, "check-node.stderr.txt");
        for (String check : List.of("preflight", "p2p", "allreduce")) {
            assertTrue(stderr.contains("[" + check + "] " + check + " started in process"), "each check in its child process: " + check);
        }
    }

    @Test
    void againstTheDgxH100SampleItNamesEveryDifference() {
        String out = CapturedTraces.read(DIR, "check-node-dgx.txt");
        assertTrue(out.startsWith("FAIL: 10 of 18"), out);
        assertTrue(out.contains("missing mlx5_0"), out);
        assertTrue(out.contains("GPU0 NVIDIA H200"), out);
    }
}
