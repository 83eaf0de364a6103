package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.app.ClusterFolders;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.DeploymentRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Advisor tab's state without the FX toolkit, over the real advisor: debounced runs, verdicts worst first, bad input. */
class AdvisorViewModelTest {

    private final ManualTasks tasks = new ManualTasks();

    private AdvisorViewModel withSample(String name) {
        AdvisorViewModel vm = new AdvisorViewModel(new Advise(), tasks);
        vm.machineProperty().set(new LoadedMachine(Fixtures.sample(name), LoadedMachine.Source.SAMPLE, null, name, null));
        return vm;
    }

    private static int rank(String outcome) {
        for (Outcome o : Outcome.values()) {
            if (o.json().equals(outcome)) {
                return o.severity();
            }
        }
        throw new AssertionError("unknown outcome " + outcome);
    }

    @Test
    void aBurstOfInputChangesIsOneRun() {
        AdvisorViewModel vm = withSample("dgx-h100");
        vm.nodesProperty().set(2);
        vm.dcpProperty().set(2);
        vm.modelProperty().set("DeepseekV3ForCausalLM");
        tasks.runAll();
        assertEquals(1, tasks.backgroundRuns, "one run for the burst of changes");
        assertTrue(vm.adviceProperty().get().deploymentNotes().stream().anyMatch(n -> n.contains("every GPU of the 2 nodes")),
                vm.adviceProperty().get().deploymentNotes().toString());
        DeploymentRequest d = vm.deployment();
        assertEquals(null, d.tp(), "0: derived by the advisor");
        assertEquals(2, d.nodes());
        assertEquals(2, d.dcp());
        assertEquals("DeepseekV3ForCausalLM", d.model());
        assertEquals(List.of(), d.frameworks(), "'all': no framework named");
    }

    @Test
    void verdictsComeWorstFirstAndAreCounted() {
        AdvisorViewModel vm = withSample("h200-vm");
        tasks.runAll();
        List<String> outcomes = vm.verdicts().stream().map(AdvisorViewModel.VerdictRow::outcome).toList();
        assertFalse(outcomes.isEmpty());
        for (int i = 1; i < outcomes.size(); i++) {
            assertTrue(rank(outcomes.get(i - 1)) <= rank(outcomes.get(i)), "worst first: " + outcomes);
        }
        java.util.function.Function<String, Long> n = o -> outcomes.stream().filter(o::equals).count();
        assertTrue(n.apply("unknown") > 0, "h200-vm has verdicts the advisor cannot decide");
        assertEquals(outcomes.size() + " verdicts: " + n.apply("error") + " error, " + n.apply("fallback") + " fallback, "
                + n.apply("unknown") + " unknown, " + n.apply("ok") + " ok"
                + (n.apply("not applicable") > 0 ? ", " + n.apply("not applicable") + " not applicable" : ""),
                vm.statusProperty().get(), "an unknown verdict is counted as unknown, never as ok");
        assertFalse(vm.recommendations().isEmpty());
        assertTrue(vm.verdicts().stream().allMatch(v -> v.value() != null && (v.value().endsWith("(default)") || !v.value().isEmpty())));
    }

    @Test
    void eachRecommendationCarriesThePredictedCostAdviseShows() throws Exception {
        AdvisorViewModel vm = withSample("dgx-h100");
        vm.tpProperty().set(8);
        tasks.runAll();
        assertFalse(vm.recommendations().isEmpty());
        var d = new dev.fabricscope.usecase.DeploymentRequest(List.of(), 8, 1, null, null, null, java.util.Map.of(), java.util.Map.of(),
                java.util.Map.of(), java.util.Map.of());
        var same = new dev.fabricscope.usecase.Advise().advise(dev.fabricscope.usecase.Advise.Request.of(
                dev.fabricscope.samples.Samples.find("dgx-h100").orElseThrow().snapshot().get(), d)).predicted();
        for (AdvisorViewModel.RecommendationCard c : vm.recommendations()) {
            assertEquals(same.lines().get(c.framework()), c.predicted(), c.framework());
            assertTrue(c.predicted().startsWith("predicted (us at 64 KiB/8 MiB): "), c.predicted());
        }
        assertEquals(same.heading(), vm.predictedProperty().get());
    }

    @Test
    void aMalformedLineIsSaidAndNothingRuns() {
        AdvisorViewModel vm = withSample("dgx-h100");
        tasks.runAll();
        int runs = tasks.backgroundRuns;
        vm.envProperty().set("NCCL_P2P_LEVEL");
        tasks.runAll();
        assertEquals(runs, tasks.backgroundRuns);
        assertEquals("env 'NCCL_P2P_LEVEL' is not NAME=VALUE", vm.statusProperty().get());
        vm.envProperty().set("");
        vm.tokensProperty().set("many");
        assertThrows(IllegalArgumentException.class, vm::deployment);
    }

    @Test
    void anInputTheAdvisorRejectsIsItsOneLine() {
        AdvisorViewModel vm = withSample("dgx-h100");
        vm.flagsProperty().set("no-such-flag=1");
        tasks.runAll();
        String s = vm.statusProperty().get();
        assertTrue(s.contains("no-such-flag") && !s.startsWith("Advisor failed") && !s.contains("\n"), s);
    }

    @Test
    void aNewerRunSupersedesAnOlderOne() {
        List<AdvisorViewModel.VerdictRow> tp2 = verdictsFor(2);
        List<AdvisorViewModel.VerdictRow> tp8 = verdictsFor(8);
        assertNotEquals(tp2, tp8, "the two deployments get different verdicts");

        AdvisorViewModel vm = withSample("dgx-h100");
        vm.immediateProperty().set(true);
        vm.tpProperty().set(2);
        vm.tpProperty().set(8);
        assertEquals("Advising…", vm.statusProperty().get());
        tasks.runAll();
        assertEquals(tp8, List.copyOf(vm.verdicts()), "the tp 8 run's answer; the tp 2 run was cancelled before it ran");
    }

    private List<AdvisorViewModel.VerdictRow> verdictsFor(int tp) {
        AdvisorViewModel vm = withSample("dgx-h100");
        vm.tpProperty().set(tp);
        tasks.runAll();
        return List.copyOf(vm.verdicts());
    }

    @Test
    void aClusterFillsThePanelAsAdviseClusterDoes(@TempDir Path dir) throws Exception {
        ClusterFolders.racks(dir);
        MainViewModel main = new MainViewModel(() -> null, Fixtures.prefs(), tasks);
        main.openCluster(dir);
        tasks.runAll();
        var facts = main.getCluster().facts();
        AdvisorViewModel vm = withSample("gb200-nvl72-tray");
        vm.showCluster(facts);
        DeploymentRequest expected = DeploymentRequest.NONE.overCluster(facts);
        assertEquals(expected.nodes(), vm.nodesProperty().get());
        assertEquals(expected.assume(), AdvisorViewModel.pairs("assume", vm.assumeProperty().get()));
        assertEquals(Map.copyOf(expected.assume()), Map.copyOf(vm.deployment().assume()));
    }

    @Test
    void withoutAMachineThereAreNoVerdicts() {
        AdvisorViewModel vm = withSample("dgx-h100");
        tasks.runAll();
        assertFalse(vm.verdicts().isEmpty());
        vm.machineProperty().set(null);
        tasks.runAll();
        assertTrue(vm.verdicts().isEmpty());
    }
}
