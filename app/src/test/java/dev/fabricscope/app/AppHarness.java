package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.AppPreferences;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.ExportViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.prefs.Preferences;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.util.WaitForAsyncUtils;

/** Builds the real main window around a chosen live-probe supplier and check runner, with throw-away preferences. */
final class AppHarness {

    final AppPreferences prefs = new AppPreferences(Preferences.userRoot().node("dev/fabricscope/app-test"));
    final MainViewModel vm;
    final AdvisorViewModel advisor;
    final ChecksViewModel checks;
    final ReportsViewModel reports;
    final ClusterViewModel cluster;
    final ExportViewModel exports;
    final MainView view;

    /** A window for tests that open samples or files only: a live probe would be a test bug. */
    static AppHarness withoutLiveProbe(Stage stage) {
        return new AppHarness(stage, () -> {
            throw new IllegalStateException("no live probe in this test");
        });
    }

    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe) {
        this(stage, liveProbe, RunCheck.inChildProcesses(() -> {
            throw new AssertionError("no check process in this test");
        }));
    }

    /** @param runs how the Checks tab runs its checks (e.g. over a {@link FakeCheckWorker}) */
    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe, RunCheck runs) {
        prefs.clear();
        FxTasks tasks = new FxTasks();
        vm = new MainViewModel(liveProbe, prefs, tasks);
        Advise advise = new Advise();
        ViewModels vms = ViewModels.create(vm, prefs, tasks, advise, runs, new MakeReport(advise, runs, Clock.systemUTC()),
                PngWriter::writeGraph);
        advisor = vms.advisor();
        advisor.immediateProperty().set(true);
        checks = vms.checks();
        reports = vms.reports();
        cluster = vms.cluster();
        cluster.setDrawingImageWriter(PngWriter::writeRack);
        exports = vms.exports();
        view = new MainView(vms, false, d -> { }, url -> { });
        Scene scene = new Scene(view, 1280, 820);
        Theme.apply(scene, false);
        stage.titleProperty().bind(vm.titleProperty());
        stage.setScene(scene);
        stage.show();
    }

    /** Waits (off the FX thread) until the condition holds on the FX thread. */
    static void await(BooleanSupplier condition) {
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(condition::getAsBoolean).get());
        } catch (TimeoutException e) {
            throw new AssertionError("condition not met within 20 s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    void awaitIdle() {
        await(() -> !vm.isBusy() && vm.getMachine() != null);
    }
}
