package dev.fabricscope.check.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.render.CheckText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Round-2 checks captured on the one-GPU H200 (each in its own child process, 2026-12-01; see the fixture's README):
 * the JSON reads into the result records and renders to the text the worker printed there, the sums were exact and
 * the GPU memory came back after every check.
 */
class CapturedRound2ChecksTest {

    static final String DIR = "/captured/h200-passthrough-1gpu-2026-12-01-checks/";

    static String text(String name) throws IOException {
        try (InputStream in = CapturedRound2ChecksTest.class.getResourceAsStream(DIR + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static <T> T read(String name, Class<T> type) throws IOException {
        return Json.mapper().readValue(text(name), type);
    }

    @Test
    void allReduceRowsRenderAsCapturedExactInEveryImplementationAndMode() throws IOException {
        AllReduceResult r = read("allreduce.json", AllReduceResult.class);
        assertEquals(text("allreduce.txt"), CheckText.render(r));
        String json = text("allreduce.json");
        assertTrue(json.contains("\"wrong\" : 0") && !json.matches("(?s).*\"wrong\" : [1-9].*"), "exact sums everywhere");
        Set<String> seen = r.rows().stream().map(row -> row.impl() + "/" + row.mode()).collect(Collectors.toSet());
        for (String impl : new String[] {"nccl", "oneshot", "twoshot"}) {
            for (String mode : new String[] {"plain", "graph"}) {
                assertTrue(seen.contains(impl + "/" + mode), impl + "/" + mode + " in " + seen);
            }
        }
    }

    @Test
    void everyCheckGaveItsMemoryBack() throws IOException {
        assertTrue(read("allreduce.json", AllReduceResult.class).memory().returned());
        assertTrue(read("p2p.json", P2pResult.class).memory().returned());
        assertTrue(read("preflight.json", PreflightResult.class).memory().returned());
        String smi = text("smi-memory.txt");
        assertTrue(smi.lines().filter(l -> !l.startsWith("==")).allMatch(l -> l.endsWith(", 0 MiB")), "nvidia-smi around every step");
    }

    @Test
    void timeOutAbortsNcclAndStillReturnsTheMemory() throws IOException {
        AllReduceResult r = read("allreduce-timeout.json", AllReduceResult.class);
        assertEquals(CheckStatus.TIMED_OUT, r.status());
        assertTrue(text("allreduce-timeout.txt").contains("ncclCommAbort called"));
        assertTrue(r.memory().returned(), "the parent measured after the worker exited");
    }
}
