package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Acceptance tab's state without the FX toolkit: the machine against itself and against another sample. */
class AcceptanceViewModelTest {

    private static LoadedMachine sample(String name) {
        return new LoadedMachine(Fixtures.sample(name), LoadedMachine.Source.SAMPLE, null, name, null);
    }

    @Test
    void aMachinePassesAgainstItselfAndFailsAgainstAnotherModel() {
        AcceptanceViewModel vm = new AcceptanceViewModel();
        assertEquals("No machine loaded.", vm.summaryProperty().get());
        assertTrue(vm.rowsProperty().get().isEmpty());

        vm.machineProperty().set(sample("dgx-h100"));
        assertTrue(vm.summaryProperty().get().startsWith("PASS"), vm.summaryProperty().get());
        assertEquals("PASS", find(vm, "RDMA NICs").result());

        vm.referenceProperty().set("hgx-b200");
        assertTrue(vm.summaryProperty().get().startsWith("FAIL") && vm.summaryProperty().get().contains("GPU model"),
                vm.summaryProperty().get());
        AcceptanceViewModel.Row model = find(vm, "GPU model");
        assertEquals("FAIL", model.result());
        assertEquals("NVIDIA B200", model.expected());
        assertTrue(model.measured().contains("H100"), model.measured());
    }

    @Test
    void theReferencesAreItselfAndEverySample() {
        List<String> refs = new AcceptanceViewModel().references();
        assertEquals(AcceptanceViewModel.ITSELF, refs.get(0));
        assertTrue(refs.containsAll(List.of("dgx-h100", "hgx-b200", "h200-vm")), refs.toString());
    }

    private static AcceptanceViewModel.Row find(AcceptanceViewModel vm, String expectation) {
        return vm.rowsProperty().get().stream().filter(r -> r.expectation().equals(expectation)).findFirst().orElseThrow();
    }
}
