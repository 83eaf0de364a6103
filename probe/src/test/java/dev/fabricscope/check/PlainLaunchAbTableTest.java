package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The plain-launch A/B of 2026-12-02 on nvidia-h200 (issue 28 item 5): the check before the recordable seams
 * (c89b400), through them (115f4e2) and through them with a launch-path warm-up that was tried and not kept, five
 * interleaved runs each in one device call. The product reads every run's JSON, every result must be exact, and
 * docs/benchmarks.md carries the medians this test computes.
 */
class PlainLaunchAbTableTest {

    static final Path DIR = CapturedTraces.ROOT.resolve("h200-passthrough-1gpu-2026-12-02-plain-launch-ab");
    static final String[] VERSIONS = {"before", "mid", "new"};
    static final long[] SIZES = {8, 64, 512, 64 << 10, 1 << 20};

    @Test
    void docsHoldTheMediansOfTheRecordedRuns() throws Exception {
        List<List<AllReduceResult>> runs = new ArrayList<>();
        for (String v : VERSIONS) {
            List<AllReduceResult> of = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                AllReduceResult r = Json.mapper().readValue(Files.readString(DIR.resolve("ab-" + v + "-" + i + ".json")),
                        AllReduceResult.class);
                assertEquals(CheckStatus.PASSED, r.status(), v + " " + i);
                assertTrue(r.rows().stream().allMatch(x -> x.wrong() == 0), v + " " + i + ": every sum exact");
                of.add(r);
            }
            runs.add(of);
        }
        String doc = Files.readString(Path.of("../docs/benchmarks.md"));
        for (String impl : List.of("nccl", "oneshot", "twoshot")) {
            for (String mode : List.of("graph", "plain")) {
                StringBuilder row = new StringBuilder("| " + impl + ", " + mode + " |");
                for (long bytes : SIZES) {
                    List<String> cell = new ArrayList<>();
                    for (List<AllReduceResult> of : runs) {
                        cell.add(String.format(Locale.ROOT, "%.2f", median(of, impl, mode, bytes)));
                    }
                    row.append(' ').append(String.join(" / ", cell)).append(" |");
                }
                assertTrue(doc.contains(row), "docs/benchmarks.md holds the row " + row);
            }
        }
    }

    static double median(List<AllReduceResult> runs, String impl, String mode, long bytes) {
        double[] t = runs.stream().flatMap(r -> r.rows().stream())
                .filter(x -> x.impl().equals(impl) && x.mode().equals(mode) && x.bytes() == bytes)
                .mapToDouble(AllReduceResult.Row::timeUs).sorted().toArray();
        assertEquals(runs.size(), t.length, impl + " " + mode + " " + bytes);
        return t[t.length / 2];
    }
}
