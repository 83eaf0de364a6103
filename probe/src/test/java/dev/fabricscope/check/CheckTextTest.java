package dev.fabricscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The text output follows nccl-tests' table (values synthetic). */
class CheckTextTest {

    @Test
    void allReduceTableLooksLikeNcclTests() {
        AllReduceResult r = new AllReduceResult("allreduce", CheckStatus.PASSED, "ok",
                new AllReduceResult.Params(2, 8, 16, List.of("fp32"), 5, 20),
                new AllReduceResult.Impl("nccl", CheckStatus.PASSED, "NCCL 2.28.9 from /x/libnccl.so.2"),
                new AllReduceResult.Impl("oneshot", CheckStatus.SKIPPED, "no P2P"),
                List.of(new AllReduceResult.Row("nccl", "fp32", 8, 2, 12.5, 0.0, 0.0, 0, 11.25, 0.0, 0.0, 0L),
                        new AllReduceResult.Row("nccl", "fp32", 16, 4, 13.0, 0.0, 0.0, 3, 12.0, 0.0, 0.0, 1L)),
                List.of(), CheckResultJsonTest.audit());
        String text = CheckText.render(r);
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("# nccl: PASSED — NCCL 2.28.9 from /x/libnccl.so.2"), text);
        assertTrue(lines.contains("# oneshot: SKIPPED — no P2P"), text);
        String header = lines.stream().filter(l -> l.contains("redop")).findFirst().orElseThrow();
        assertEquals("#       size         count      type   redop       time    algbw    busbw  #wrong       time    algbw    busbw  #wrong",
                header);
        assertTrue(lines.contains("           8             2     float     sum      12.50     0.00     0.00       0      11.25     0.00     0.00       0"),
                text);
        assertTrue(lines.contains("# Out of bounds values : 4 FAILED"), text);
        String title = lines.stream().filter(l -> l.contains("out-of-place")).findFirst().orElseThrow();
        assertEquals(56, title.indexOf("out-of-place"), title);
        assertEquals(95, title.indexOf("in-place"), title);
        assertTrue(header.length() > 95 && header.substring(44, 81).contains("time") && header.substring(81).contains("time"));
    }
}
