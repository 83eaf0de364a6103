package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The Checks tab's state without the FX toolkit: when checks may run, progress, results, failures and Cancel. */
class ChecksViewModelTest {

    private final ManualTasks tasks = new ManualTasks();
    private ChecksViewModel vm;
    private boolean sawCancel;

    /** P2P passes at once after two progress steps; all-reduce is cancelled by the user while it runs; preflight fails. */
    private final ChecksPort port = new ChecksPort() {
        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public Result run(Kind kind, MachineSnapshot machine, Progress progress, BooleanSupplier cancelled) throws Exception {
            switch (kind) {
                case P2P -> {
                    progress.update(0.25, "pair 1 of 4");
                    progress.update(0.5, "pair 2 of 4");
                    return new Result(kind, "PASSED", true, machine.gpus().size() + " GPUs measured", List.of("Pair"),
                            List.of(List.of("GPU0 → GPU1")), List.of(), List.of(), null);
                }
                case ALLREDUCE -> {
                    progress.update(-1, "size 8 B");
                    vm.cancel(); // the user presses Cancel while it runs
                    sawCancel = cancelled.getAsBoolean() && Thread.currentThread().isInterrupted();
                    throw new InterruptedException("cancelled");
                }
                default -> throw new IllegalStateException("cuMemAlloc → CUDA_ERROR_OUT_OF_MEMORY (2)");
            }
        }
    };

    private static LoadedMachine live(MachineSnapshot s) {
        return new LoadedMachine(s, LoadedMachine.Source.LIVE, null, null, null);
    }

    private ChecksViewModel onLiveMachine() {
        vm = new ChecksViewModel(port, tasks);
        vm.machineProperty().set(live(Fixtures.sample("dgx-h100")));
        return vm;
    }

    @Test
    void checksRunOnlyOnTheLiveMachineWithGpus() {
        vm = new ChecksViewModel(port, tasks);
        assertEquals("No machine loaded yet.", vm.disabledReasonProperty().get());
        vm.machineProperty().set(new LoadedMachine(Fixtures.sample("dgx-h100"), LoadedMachine.Source.SAMPLE, null, "dgx-h100", null));
        assertTrue(vm.disabledReasonProperty().get().startsWith("Checks run on this machine's GPUs"));
        assertNull(vm.run(ChecksPort.Kind.P2P), "nothing runs while disabled");
        vm.machineProperty().set(live(Fixtures.withoutDriver()));
        assertEquals("Checks need an NVIDIA GPU: No NVIDIA driver found on this machine.", vm.disabledReasonProperty().get());
        vm.machineProperty().set(live(Fixtures.sample("dgx-h100")));
        assertNull(vm.disabledReasonProperty().get());

        ChecksViewModel absent = new ChecksViewModel(ChecksPort.notInThisBuild(), tasks);
        absent.machineProperty().set(live(Fixtures.sample("dgx-h100")));
        assertTrue(absent.disabledReasonProperty().get().contains("not part of this build"));
    }

    @Test
    void aPassingCheckReportsProgressAndItsResult() {
        onLiveMachine();
        vm.run(ChecksPort.Kind.P2P);
        assertTrue(vm.runningProperty().get());
        assertEquals(ChecksPort.Kind.P2P, vm.runningKindProperty().get());
        assertEquals("P2P bandwidth: running…", vm.statusProperty().get());
        assertNull(vm.run(ChecksPort.Kind.ALLREDUCE), "one check at a time");
        tasks.runAll();
        assertFalse(vm.runningProperty().get());
        assertNull(vm.runningKindProperty().get());
        assertEquals("P2P bandwidth: 8 GPUs measured", vm.statusProperty().get());
        assertEquals("PASSED", vm.resultProperty(ChecksPort.Kind.P2P).get().status());
        assertEquals(0.5, vm.progressProperty().get(), 1e-9, "the last progress stays");
        assertEquals("pair 2 of 4", vm.progressMessageProperty().get());
    }

    @Test
    void aFailingCheckSaysWhy() {
        onLiveMachine();
        vm.run(ChecksPort.Kind.PREFLIGHT);
        tasks.runAll();
        assertEquals("Workspace preflight failed: cuMemAlloc → CUDA_ERROR_OUT_OF_MEMORY (2)", vm.statusProperty().get());
        assertNull(vm.resultProperty(ChecksPort.Kind.PREFLIGHT).get());
        assertFalse(vm.runningProperty().get());
    }

    @Test
    void cancelStopsARunningCheck() {
        onLiveMachine();
        vm.run(ChecksPort.Kind.ALLREDUCE);
        tasks.runAll();
        assertTrue(sawCancel, "the check saw the cancel flag and the interrupt");
        assertEquals("All-reduce: cancelled", vm.statusProperty().get());
        assertFalse(vm.runningProperty().get());
        assertNull(vm.resultProperty(ChecksPort.Kind.ALLREDUCE).get());
    }

    @Test
    void anotherMachineClearsTheResults() {
        onLiveMachine();
        vm.run(ChecksPort.Kind.P2P);
        tasks.runAll();
        vm.machineProperty().set(live(Fixtures.sample("dgx-a100")));
        assertNull(vm.resultProperty(ChecksPort.Kind.P2P).get());
    }
}
