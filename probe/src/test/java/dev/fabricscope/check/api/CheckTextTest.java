package dev.fabricscope.check.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.render.CheckText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text output follows nccl-tests' table (values synthetic). */
class CheckTextTest {

    @Test
    void allReduceTableLooksLikeNcclTests() {
        AllReduceResult r = new AllReduceResult("allreduce", CheckStatus.PASSED, "ok",
                new AllReduceResult.Params(2, 8, 16, List.of("fp32"), 5, 20, List.of("plain"), 1, "group"),
                new AllReduceResult.Impl("nccl", CheckStatus.PASSED, "NCCL 2.28.9 from /x/libnccl.so.2"),
                new AllReduceResult.Impl("oneshot", CheckStatus.SKIPPED, "no P2P"), null,
                List.of(new AllReduceResult.Row("nccl", "fp32", 8, 2, 12.5, 0.0, 0.0, 0, 11.25, 0.0, 0.0, 0L, null, 12.0, 11.0),
                        new AllReduceResult.Row("nccl", "fp32", 16, 4, 13.0, 0.0, 0.0, 3, 12.0, 0.0, 0.0, 1L, "plain", null,
                                null)),
                List.of(), CheckResultJsonTest.audit());
        String text = CheckText.render(r);
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("# nccl: PASSED — NCCL 2.28.9 from /x/libnccl.so.2"), text);
        assertTrue(lines.contains("# oneshot: SKIPPED — no P2P"), text);
        String header = lines.stream().filter(l -> l.contains("redop")).findFirst().orElseThrow();
        assertEquals("#       size         count      type   redop  root       time    algbw    busbw  #wrong       time    algbw"
                + "    busbw  #wrong        out         in", header);
        assertTrue(lines.contains("           8             2     float     sum    -1      12.50     0.00     0.00       0      11.25"
                + "     0.00     0.00       0      12.00      11.00"), text);
        assertTrue(lines.contains("# nccl, plain launches"), text);
        assertTrue(lines.contains("# Out of bounds values : 4 FAILED"), text);
        String title = lines.stream().filter(l -> l.contains("out-of-place")).findFirst().orElseThrow();
        assertEquals(62, title.indexOf("out-of-place"), title);
        assertEquals(101, title.indexOf("in-place"), title);
        assertTrue(header.substring(50, 87).contains("time") && header.substring(87, 124).contains("time"), header);
    }
}
