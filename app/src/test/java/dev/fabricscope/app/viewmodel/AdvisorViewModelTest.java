package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.Outcome;
import dev.fabricscope.advisor.Recommendation;
import dev.fabricscope.advisor.Verdict;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Advisor tab's state without the FX toolkit: debounced runs, verdicts worst first, malformed inputs. */
class AdvisorViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private final List<AdvisorPort.Deployment> asked = new ArrayList<>();

    /** Answers one verdict per outcome, in the order OK, FALLBACK, ERROR; rejects the flag "bogus". */
    private final AdvisorPort port = new AdvisorPort() {
        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public List<String> frameworks() {
            return List.of("sglang", "nccl");
        }

        @Override
        public List<String> assumeKeys() {
            return List.of("mnnvl");
        }

        @Override
        public Advice advise(MachineSnapshot machine, Deployment d) {
            asked.add(d);
            if (d.flags().containsKey("bogus")) {
                throw new IllegalArgumentException("unknown flag --bogus for sglang");
            }
            List<Verdict> v = List.of(verdict("ok-knob", Outcome.OK), verdict("fallback-knob", Outcome.FALLBACK),
                    verdict("error-knob", Outcome.ERROR));
            return new Advice(v, List.of(new Recommendation("sglang", List.of("--tp 8"), Map.of(), "use the defaults")),
                    Map.of("gpus", String.valueOf(machine.gpus().size())), List.of("tp " + d.tp()), Map.of("sglang", "0.5"), null);
        }
    };

    private static Verdict verdict(String knob, Outcome outcome) {
        return new Verdict("sglang", knob, "on", false, outcome, null, null, "message", null, "why", "fix", null, "0.5");
    }

    private AdvisorViewModel withMachine() {
        AdvisorViewModel vm = new AdvisorViewModel(port, tasks);
        MachineSnapshot s = Fixtures.sample("dgx-h100");
        vm.machineProperty().set(new LoadedMachine(s, LoadedMachine.Source.SAMPLE, null, "dgx-h100", null));
        return vm;
    }

    @Test
    void inputChangesAreDebouncedIntoOneRun() {
        AdvisorViewModel vm = withMachine();
        vm.tpProperty().set(4);
        vm.nodesProperty().set(2);
        vm.flagsProperty().set("--enable-foo=1\n# a comment\nbar = 2");
        tasks.runAll();
        assertEquals(1, asked.size(), "one run for the burst of changes: " + asked);
        AdvisorPort.Deployment d = asked.get(0);
        assertEquals(4, d.tp());
        assertEquals(2, d.nodes());
        assertEquals(Map.of("enable-foo", "1", "bar", "2"), d.flags());
        assertEquals(List.of("sglang", "nccl"), d.frameworks(), "'all' means every framework");
    }

    @Test
    void verdictsComeWorstFirstWithACount() {
        AdvisorViewModel vm = withMachine();
        tasks.runAll();
        assertEquals(List.of(Outcome.ERROR, Outcome.FALLBACK, Outcome.OK), vm.verdicts().stream().map(Verdict::outcome).toList());
        assertEquals("3 verdicts: 1 error, 1 fallback, 1 ok", vm.statusProperty().get());
        assertEquals(1, vm.recommendations().size());
        assertEquals("8", vm.adviceProperty().get().machineFacts().get("gpus"));
    }

    @Test
    void aMalformedLineIsSaidAndNothingRuns() {
        AdvisorViewModel vm = withMachine();
        tasks.runAll();
        asked.clear();
        vm.envProperty().set("NCCL_P2P_LEVEL");
        tasks.runAll();
        assertTrue(asked.isEmpty());
        assertEquals("env 'NCCL_P2P_LEVEL' is not NAME=VALUE", vm.statusProperty().get());
        vm.tokensProperty().set("many");
        assertThrows(IllegalArgumentException.class, vm::deployment);
    }

    @Test
    void anInputTheAdvisorRejectsIsItsOneLine() {
        AdvisorViewModel vm = withMachine();
        vm.flagsProperty().set("bogus=1");
        tasks.runAll();
        assertEquals("unknown flag --bogus for sglang", vm.statusProperty().get());
    }

    @Test
    void aNewerRunSupersedesAnOlderOne() {
        AdvisorViewModel vm = withMachine();
        vm.immediateProperty().set(true);
        vm.tpProperty().set(2);
        vm.tpProperty().set(8);
        assertEquals("Advising…", vm.statusProperty().get());
        tasks.runAll();
        assertEquals(List.of(8), asked.stream().map(AdvisorPort.Deployment::tp).toList(), "the older run was cancelled before it ran");
        assertEquals(List.of("tp 8"), vm.adviceProperty().get().deploymentNotes());
    }

    @Test
    void withoutAMachineThereAreNoVerdicts() {
        AdvisorViewModel vm = withMachine();
        tasks.runAll();
        vm.machineProperty().set(null);
        tasks.runAll();
        assertTrue(vm.verdicts().isEmpty());
    }

    @Test
    void anAdvisorNotInTheBuildSaysSoAndNeverRuns() {
        AdvisorViewModel vm = new AdvisorViewModel(AdvisorPort.notInThisBuild(), tasks);
        vm.machineProperty().set(new LoadedMachine(Fixtures.sample("dgx-h100"), LoadedMachine.Source.SAMPLE, null, "dgx-h100", null));
        tasks.runAll();
        assertTrue(vm.unavailableProperty().get().contains("not part of this build"));
        assertEquals(0, tasks.backgroundRuns);
    }
}
