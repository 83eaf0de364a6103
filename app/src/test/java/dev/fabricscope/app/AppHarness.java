package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.view.PngWriter;
import dev.fabricscope.app.viewmodel.AdvisorPort;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.AppPreferences;
import dev.fabricscope.app.viewmodel.ChecksPort;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.ClusterViewModel;
import dev.fabricscope.app.viewmodel.ExportViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import dev.fabricscope.model.MachineSnapshot;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.prefs.Preferences;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.util.WaitForAsyncUtils;

/** Builds the real main window around a chosen live-probe supplier and advisor, with throw-away preferences. */
final class AppHarness {

    final AppPreferences prefs = new AppPreferences(Preferences.userRoot().node("dev/fabricscope/app-test"));
    final MainViewModel vm;
    final AdvisorViewModel advisor;
    final ChecksViewModel checks;
    final ReportsViewModel reports;
    final ClusterViewModel cluster;
    final ExportViewModel exports;
    final MainView view;

    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe, AdvisorPort advisorPort) {
        this(stage, liveProbe, advisorPort, ChecksPort.notInThisBuild());
    }

    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe, AdvisorPort advisorPort, ChecksPort checksPort) {
        prefs.clear();
        FxTasks tasks = new FxTasks();
        vm = new MainViewModel(liveProbe, prefs, tasks);
        ViewModels vms = ViewModels.create(vm, prefs, tasks, advisorPort, checksPort, Ports.reports(), PngWriter::writeGraph);
        advisor = vms.advisor();
        advisor.immediateProperty().set(true);
        checks = vms.checks();
        reports = vms.reports();
        cluster = vms.cluster();
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
