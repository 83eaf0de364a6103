package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.FakeCheckWorker;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.usecase.RunCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Checks tab's state without the FX toolkit, over the real {@link RunCheck} with a script as the check's child
 * process ({@link FakeCheckWorker}; results synthetic): when checks may run, results, a failed check, and Cancel
 * ending a check that hangs.
 */
class ChecksViewModelTest {

    /** P2P passes on two GPUs; the preflight fails; the all-reduce hangs until its process is ended. */
    private final FakeCheckWorker fake = new FakeCheckWorker(Map.of(
            RunCheck.Kind.P2P, FakeCheckWorker.p2pOnTwoGpus(),
            RunCheck.Kind.PREFLIGHT, RunCheck.failed(RunCheck.Kind.PREFLIGHT, CheckStatus.FAILED,
                    "cuMemAlloc → CUDA_ERROR_OUT_OF_MEMORY (2)", MemoryAudit.none("test"))));

    private static LoadedMachine live(MachineSnapshot s) {
        return new LoadedMachine(s, LoadedMachine.Source.LIVE, null, null, null);
    }

    private ChecksViewModel onLiveMachine(ManualTasks tasks) {
        ChecksViewModel vm = new ChecksViewModel(fake.runs, tasks);
        vm.machineProperty().set(live(Fixtures.sample("dgx-h100")));
        return vm;
    }

    @Test
    void checksRunOnlyOnTheLiveMachineWithGpus() {
        ChecksViewModel vm = new ChecksViewModel(fake.runs, new ManualTasks());
        assertEquals("No machine loaded yet.", vm.disabledReasonProperty().get());
        vm.machineProperty().set(new LoadedMachine(Fixtures.sample("dgx-h100"), LoadedMachine.Source.SAMPLE, null, "dgx-h100", null));
        assertTrue(vm.disabledReasonProperty().get().startsWith("Checks run on this machine's GPUs"));
        assertNull(vm.run(CheckDisplay.Kind.P2P), "nothing runs while disabled");
        vm.machineProperty().set(live(Fixtures.withoutDriver()));
        assertEquals("Checks need an NVIDIA GPU: No NVIDIA driver found on this machine.", vm.disabledReasonProperty().get());
        vm.machineProperty().set(live(Fixtures.sample("dgx-h100")));
        assertNull(vm.disabledReasonProperty().get());
    }

    /** Issue 26: a report's checks are shown read-only; one that does not read as its record is named, the others shown. */
    @Test
    void aReportsChecksAreShownReadOnlyAndAnUnreadableOneIsNamed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path report = java.nio.file.Path.of("../probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json");
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) dev.fabricscope.json.Json.mapper()
                .readTree(java.nio.file.Files.readString(report));
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("checks").get("results").get(1).get("result")).put("pairs", 7);
        java.nio.file.Path bad = java.nio.file.Files.writeString(dir.resolve("bad.json"), dev.fabricscope.json.Json.write(tree));
        ChecksViewModel vm = new ChecksViewModel(fake.runs, new ManualTasks());
        MachineSnapshot s = dev.fabricscope.usecase.OpenSnapshot.read(bad);
        vm.machineProperty().set(LoadedMachine.fromFile(s, bad, null));
        assertTrue(vm.disabledReasonProperty().get().startsWith("Read-only: the checks this report recorded (made 2026-12-01 "
                + "02:20:48 UTC on vm (2× NVIDIA H200))"), vm.disabledReasonProperty().get());
        assertNull(vm.run(CheckDisplay.Kind.P2P), "a report's checks are not run again");
        assertNull(vm.resultProperty(CheckDisplay.Kind.P2P).get());
        assertEquals("PASSED", vm.resultProperty(CheckDisplay.Kind.ALLREDUCE).get().status());
        assertEquals("PASSED", vm.resultProperty(CheckDisplay.Kind.PREFLIGHT).get().status());
        assertTrue(vm.statusProperty().get().startsWith("Not shown (the JSON report keeps them as recorded): p2p: the result "
                + "does not read as a p2p result"), vm.statusProperty().get());
    }

    @Test
    void aPassingCheckGivesItsResult() {
        ManualTasks tasks = new ManualTasks();
        ChecksViewModel vm = onLiveMachine(tasks);
        vm.run(CheckDisplay.Kind.P2P);
        assertTrue(vm.runningProperty().get());
        assertEquals(CheckDisplay.Kind.P2P, vm.runningKindProperty().get());
        assertEquals("P2P bandwidth: running…", vm.statusProperty().get());
        assertEquals("Starting…", vm.progressMessageProperty().get());
        assertNull(vm.run(CheckDisplay.Kind.ALLREDUCE), "one check at a time");
        tasks.runAll();
        assertFalse(vm.runningProperty().get());
        assertNull(vm.runningKindProperty().get());
        CheckDisplay.Result r = vm.resultProperty(CheckDisplay.Kind.P2P).get();
        assertEquals("PASSED", r.status());
        assertNotNull(r.heatmap(), "the measured matrix, for the Matrices tab too");
        assertEquals(390.0, r.heatmap().values()[0][1]);
        assertNotNull(r.reportEntry(), "what a report records of it");
        assertEquals("P2P bandwidth: " + r.summary(), vm.statusProperty().get());
    }

    @Test
    void aFailedCheckIsAResultThatSaysWhy() {
        ManualTasks tasks = new ManualTasks();
        ChecksViewModel vm = onLiveMachine(tasks);
        vm.run(CheckDisplay.Kind.PREFLIGHT);
        tasks.runAll();
        CheckDisplay.Result r = vm.resultProperty(CheckDisplay.Kind.PREFLIGHT).get();
        assertFalse(r.passed());
        assertEquals("FAILED", r.status());
        assertTrue(vm.statusProperty().get().startsWith("Workspace preflight: ") && vm.statusProperty().get().contains("CUDA_ERROR_OUT_OF_MEMORY"),
                vm.statusProperty().get());
    }

    @Test
    void cancelEndsAHangingCheckAndItsProcess() throws Exception {
        ManualTasks tasks = ManualTasks.threaded();
        ChecksViewModel vm = onLiveMachine(tasks);
        vm.run(CheckDisplay.Kind.ALLREDUCE);
        tasks.runUntil(() -> java.nio.file.Files.exists(fake.dir.resolve(RunCheck.Kind.ALLREDUCE.check + ".pid")), Duration.ofSeconds(30));
        assertTrue(vm.runningProperty().get(), "still running: the check hangs");
        vm.cancel();
        assertEquals("All-reduce: cancelled", vm.statusProperty().get());
        assertFalse(vm.runningProperty().get());
        tasks.runUntil(() -> fake.endedAfterStart(RunCheck.Kind.ALLREDUCE), Duration.ofSeconds(30));
        tasks.runAll();
        assertNull(vm.resultProperty(CheckDisplay.Kind.ALLREDUCE).get(), "no late result");
        assertEquals("All-reduce: cancelled", vm.statusProperty().get());
    }

    @Test
    void anotherMachineClearsTheResults() {
        ManualTasks tasks = new ManualTasks();
        ChecksViewModel vm = onLiveMachine(tasks);
        vm.run(CheckDisplay.Kind.P2P);
        tasks.runAll();
        assertNotNull(vm.resultProperty(CheckDisplay.Kind.P2P).get());
        vm.machineProperty().set(live(Fixtures.sample("dgx-a100")));
        assertNull(vm.resultProperty(CheckDisplay.Kind.P2P).get());
    }
}
