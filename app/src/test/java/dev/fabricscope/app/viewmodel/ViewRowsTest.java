package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.usecase.MakeReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the view-models hand the views instead of the advisor's and the use cases' own types: verdict rows,
 * recommendation cards, report formats and the origin of the machine for a report's command line. Plain JUnit, no FX
 * toolkit. Values synthetic.
 */
class ViewRowsTest {

    static Verdict verdict(String value, boolean userSet, SourceRef source) {
        return new Verdict("sglang", "--disable-custom-all-reduce", value, userSet, Outcome.FALLBACK, "nccl", null,
                "Custom allreduce is disabled", "start-up", "2 nodes", "run on one node", source, "newest");
    }

    @Test
    void aVerdictRowSaysWhetherTheValueIsTheDefault() {
        AdvisorViewModel.VerdictRow given = AdvisorViewModel.VerdictRow.of(verdict("true", true, null));
        assertEquals("true", given.value());
        assertEquals("fallback", given.outcome());
        AdvisorViewModel.VerdictRow unset = AdvisorViewModel.VerdictRow.of(verdict("false", false, null));
        assertEquals("false (default)", unset.value());
        assertEquals("false", unset.setting());
        assertEquals("false (default)", AdvisorViewModel.VerdictRow.of(verdict("false (default)", false, null)).value(),
                "never marked twice");
        assertNull(unset.source());
        assertNull(unset.sourceUrl());
    }

    @Test
    void aVerdictRowCarriesTheSourceAndItsLink() {
        SourceRef ref = new SourceRef("sgl-project/sglang", "0123456789012345678901234567890123456789", "python/x.py", "42");
        AdvisorViewModel.VerdictRow row = AdvisorViewModel.VerdictRow.of(verdict("true", true, ref));
        assertEquals(ref.toString(), row.source());
        assertEquals(ref.url(), row.sourceUrl());
    }

    @Test
    void aRecommendationCardExportsTheEnvironmentBeforeTheFlags() {
        Recommendation r = new Recommendation("vllm", List.of("--tensor-parallel-size 8"),
                Map.of("A_FIRST", "1", "B_SECOND", "2"), "fastest valid");
        AdvisorViewModel.RecommendationCard card = AdvisorViewModel.RecommendationCard.of(r);
        assertEquals(List.of("export B_SECOND=2", "export A_FIRST=1", "--tensor-parallel-size 8"), card.lines(),
                "as the Advisor tab has always listed them");
        assertEquals("fastest valid", card.summary());
    }

    @Test
    void theMachinesOriginNamesItInTheReportsCommandLine() {
        var sample = new LoadedMachine(null, LoadedMachine.Source.SAMPLE, null, "dgx-h100", null);
        var file = new LoadedMachine(null, LoadedMachine.Source.FILE, Path.of("a.json"), null, null);
        var live = new LoadedMachine(null, LoadedMachine.Source.LIVE, null, null, null);
        assertEquals(MakeReport.Origin.sample("dgx-h100"), ReportsViewModel.origin(sample));
        assertEquals(MakeReport.Origin.file(Path.of("a.json")), ReportsViewModel.origin(file));
        assertEquals(MakeReport.Origin.live(), ReportsViewModel.origin(live));
    }
}
