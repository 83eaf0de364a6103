package dev.fabricscope.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * An {@code ok} says the upstream path was read (issue 23): over the sweep's machines and every rule set, the sources of
 * ok verdicts that cite a stored copy without a commit are exactly the ones listed here, each with why it stays (the
 * list only shrinks; UpstreamInventoryCoverageTest.STILL_WITHOUT_COMMIT says which stored copies were checked).
 */
class OkRestsOnAPinnedSourceTest {

    /** Empty since the fork round of issue 23 (the list only shrinks): every ok rests on a copy with a commit. */
    static final Map<String, String> OK_ON_A_COMMIT_LESS_COPY = Map.of();

    /** The defaults, and the knobs whose rules cite the copies above. */
    static final List<UnaryOperator<What>> KNOBS = List.of(
            w -> w,
            w -> w.flag("flashinfer-allreduce-fusion-backend", "auto").env("VLLM_FLASHINFER_ALLREDUCE_BACKEND", "auto"),
            w -> w.flag("flashinfer-allreduce-fusion-backend", "trtllm").env("VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtllm"),
            w -> w.flag("flashinfer-allreduce-fusion-backend", "mnnvl").env("VLLM_FLASHINFER_ALLREDUCE_BACKEND", "mnnvl"),
            w -> w.flag("enable-nccl-nvls", "true").flag("enable-symm-mem", "true").env("NCCL_NVLS_ENABLE", "1")
                    .env("VLLM_ALLREDUCE_USE_FLASHINFER", "1"),
            w -> w.dcp(2).flag("dcp-comm-backend", "fi_a2a"));

    @Test
    void okVerdictsOnCommitLessCopiesAreTheListedOnes() {
        Map<String, String> found = new TreeMap<>();
        int oks = 0;
        for (UnaryOperator<What> knobs : KNOBS) {
            for (What w : AdvisorSweepTest.machines()) {
                oks += collect(knobs.apply(w), found);
            }
        }
        assertTrue(oks > 1000, "ok verdicts seen: " + oks);
        assertEquals(new TreeSet<>(OK_ON_A_COMMIT_LESS_COPY.keySet()), new TreeSet<>(found.keySet()),
                "ok verdicts resting on a copy without a commit (pin the source, or answer unknown): " + found);
    }

    /** The ok verdicts of {@code w} under every SGLang rule set; commit-less sources go into {@code found}. */
    private static int collect(What w, Map<String, String> found) {
        int oks = 0;
        for (String sglang : List.of("newest", "middle", "older")) {
            AdviceResult r = w.version("sglang", sglang).version("vllm", "older".equals(sglang) ? "older" : "newest").advise();
            for (Verdict v : r.verdicts()) {
                if (v.outcome() != Outcome.OK) {
                    continue;
                }
                oks++;
                SourceRef s = v.source();
                if (s != null && s.repo() != null && s.commit() == null) {
                    found.putIfAbsent(s.path() + " " + s.line(), v.framework() + " " + v.knob() + ": " + v.why());
                }
            }
        }
        return oks;
    }
}
