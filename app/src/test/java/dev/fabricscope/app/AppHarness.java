package dev.fabricscope.app;

import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.ChecksViewModel;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ReportsViewModel;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.time.Clock;
import java.util.concurrent.Executors;
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
    final MainView view;

    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe) {
        this(stage, liveProbe, RunCheck.inChildProcesses(() -> {
            throw new AssertionError("no check process in this test");
        }));
    }

    /** @param runs how the Checks tab runs its checks (e.g. over a {@link FakeCheckWorker}) */
    AppHarness(Stage stage, Supplier<MachineSnapshot> liveProbe, RunCheck runs) {
        prefs.clear();
        vm = new MainViewModel(liveProbe, prefs);
        var exec = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-worker");
            t.setDaemon(true);
            return t;
        });
        advisor = new AdvisorViewModel(new Advise(), exec);
        advisor.immediateProperty().set(true);
        checks = new ChecksViewModel(runs, exec);
        reports = new ReportsViewModel(new MakeReport(new Advise(), runs, Clock.systemUTC()), exec);
        view = new MainView(vm, advisor, checks, reports, prefs, false, d -> { }, url -> { });
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
