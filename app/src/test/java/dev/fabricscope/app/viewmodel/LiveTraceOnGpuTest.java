package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.app.FakeCheckWorker;
import dev.fabricscope.app.LiveRecordingProbe;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.OpenSnapshot;
import dev.fabricscope.usecase.RunCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 on a real GPU machine: the desktop window's own live probe ({@link LiveRecordingProbe}, what
 * {@code FabricscopeApp} gives its window) records this machine, File -> Save Trace saves that recording, unredacted
 * and redacted, and each saved trace replays to the machine the window shows. Without the FX toolkit: the view-models
 * the window's menu calls.
 */
@Tag("gpu")
class LiveTraceOnGpuTest {

    private final ManualTasks tasks = new ManualTasks();
    private final List<String> problems = new ArrayList<>();

    @Test
    void theLiveWindowSavesATraceThatReplaysToTheMachineItShows(@TempDir Path dir) throws Exception {
        MainViewModel live = MainViewModel.recording(new LiveRecordingProbe(), Fixtures.prefs(), tasks);
        RunCheck runs = new FakeCheckWorker(Map.of()).runs;
        ViewModels vms = ViewModels.create(live, Fixtures.prefs(), tasks, new Advise(), runs,
                new MakeReport(new Advise(), runs, Clock.systemUTC()), (g, p, scale, file) -> { });
        ExportViewModel exports = vms.exports();
        exports.setOnProblem((title, text) -> problems.add(title + ": " + text));
        live.probeLive();
        tasks.runAll();
        assertEquals(LoadedMachine.Source.LIVE, live.getMachine().source());
        MachineSnapshot shown = live.getMachine().snapshot();
        assertTrue(shown.driver().driverPresent(), shown.driver().message());
        assertFalse(shown.gpus().isEmpty(), "a GPU machine");
        assertTrue(exports.traceAvailable(), "the live probe recorded its native calls");

        Path plain = dir.resolve("live.trace.json");
        exports.export(ExportViewModel.Kind.TRACE, plain, FabricPalette.LIGHT);
        assertTrue(live.statusProperty().get().contains("trace not redacted"), live.statusProperty().get());
        MachineSnapshot replayed = OpenSnapshot.replay(plain);
        assertEquals(uuids(shown), uuids(replayed), "the saved trace replays to the GPUs shown");
        assertEquals(shown.gpus().stream().map(g -> g.name().value()).toList(),
                replayed.gpus().stream().map(g -> g.name().value()).toList());
        assertEquals(shown.driver().driverVersion().value(), replayed.driver().driverVersion().value());

        vms.reports().redactProperty().set(true);
        Path red = dir.resolve("live-redacted.trace.json");
        exports.export(ExportViewModel.Kind.TRACE, red, FabricPalette.LIGHT);
        assertTrue(live.statusProperty().get().contains("trace redacted"), live.statusProperty().get());
        String text = Files.readString(red);
        for (String uuid : uuids(shown)) {
            assertFalse(text.contains(uuid.replace("GPU-", "")), "GPU UUID survives redaction: " + uuid);
        }
        MachineSnapshot redReplayed = OpenSnapshot.replay(red);
        assertEquals(shown.gpus().size(), redReplayed.gpus().size());
        for (int i = 0; i < shown.gpus().size(); i++) {
            Gpu a = shown.gpus().get(i);
            Gpu b = redReplayed.gpus().get(i);
            assertEquals(a.computeCapability().value(), b.computeCapability().value());
            assertEquals(a.nvLinks().size(), b.nvLinks().size(), "the same links");
            assertEquals(a.fabric().state().display(), b.fabric().state().display(), "the same fabric state");
        }
        assertTrue(problems.isEmpty(), problems.toString());
        System.out.println("live trace: " + Files.size(plain) + " bytes, redacted " + Files.size(red) + " bytes, "
                + shown.gpus().size() + " GPU(s), " + live.statusProperty().get());
    }

    private static List<String> uuids(MachineSnapshot s) {
        return s.gpus().stream().map(g -> g.uuid().value()).toList();
    }
}
