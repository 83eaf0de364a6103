package dev.fabricscope.app.devtools;

import dev.fabricscope.app.FabricscopeApp;
import dev.fabricscope.app.PulseScript;
import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * {@code --bench}: cold start to first frame (JVM start → first rendered pulse after the window is shown), then
 * opening the largest bundled sample: load + layout off the FX thread, build the shapes, and render the Fabric tab
 * (up to the second pulse after the machine arrives). One cold run and ten warm runs; prints one line per figure.
 */
final class Bench {

    private static final int WARM_RUNS = 10;
    /** Chosen once, off the measured path: the sample with the most nodes and edges to draw. */
    private static final String LARGEST = largestSample();

    private final Stage stage;
    private final MainView view;
    private final MainViewModel vm;
    private final Path out;
    private final FabricscopeApp.StartTimes times;
    private final List<String> lines = new ArrayList<>();
    private final List<Double> openMs = new ArrayList<>();
    private long openStart;
    private long arrived;
    private final List<Double> loadMs = new ArrayList<>();
    private final List<Double> drawMs = new ArrayList<>();

    Bench(Stage stage, MainView view, MainViewModel vm, Path out, FabricscopeApp.StartTimes times) {
        this.stage = stage;
        this.view = view;
        this.vm = vm;
        this.out = out;
        this.times = times;
    }

    void start() {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        String largest = LARGEST;
        vm.machineProperty().addListener((o, was, now) -> arrived = System.nanoTime());
        PulseScript s = new PulseScript();
        line("jvm start → main()", times.mainEntered() - jvmStart);
        line("jvm start → Application.start()", times.startEntered() - jvmStart);
        line("jvm start → window shown", times.shown() - jvmStart);
        line("cold start: jvm start → first frame", times.firstFrame() - jvmStart);
        line("jvm start → full window drawn (menus, tabs, Overview)", times.uiReady() - jvmStart);
        s.then(() -> !vm.isBusy(), 0, () -> line("live probe in background (" + vm.statusProperty().get() + ")",
                vm.getMachine() == null || vm.getMachine().snapshot().probe().durationMs() == null ? -1
                        : vm.getMachine().snapshot().probe().durationMs()));
        s.then(1, () -> {
            view.tabs().getSelectionModel().select(1);
            view.fabricView();
        });
        for (int i = 0; i <= WARM_RUNS; i++) {
            int run = i;
            String name = i % 2 == 0 ? largest : "h200-vm";
            s.then(2, () -> {
                openStart = System.nanoTime();
                vm.openSample(name);
            });
            s.then(() -> !vm.isBusy(), 1, () -> {
                double ms = (System.nanoTime() - openStart) / 1e6;
                if (name.equals(largest)) {
                    if (run == 0) {
                        line("open + layout + draw " + largest + " (cold, first time)", ms);
                    } else {
                        openMs.add(ms);
                        loadMs.add((arrived - openStart) / 1e6);
                        drawMs.add((System.nanoTime() - arrived) / 1e6);
                    }
                }
            });
        }
        s.then(1, () -> {
            openMs.sort(Comparator.naturalOrder());
            double median = openMs.isEmpty() ? -1 : openMs.get(openMs.size() / 2);
            line("open + layout + draw " + largest + " (warm, median of " + openMs.size() + ")", median);
            loadMs.sort(Comparator.naturalOrder());
            drawMs.sort(Comparator.naturalOrder());
            line("  of which load + layout (worker thread, to hand-over)", loadMs.get(loadMs.size() / 2));
            line("  of which update views + paint + next frame (FX thread)", drawMs.get(drawMs.size() / 2));
            MachineSnapshot m = vm.getMachine().snapshot();
            lines.add(String.format(Locale.ROOT, "# %s: %d GPUs, %d NVSwitch nodes, %d pairs, %d graph nodes, %d edges; window %.0fx%.0f; Java %s, JavaFX %s, %d CPUs",
                    largest, m.gpus().size(), m.nvSwitches().size(), m.pairs().size(), vm.getMachine().graph().nodes().size(),
                    vm.getMachine().graph().edges().size(), stage.getWidth(), stage.getHeight(), System.getProperty("java.version"),
                    System.getProperty("javafx.runtime.version"), Runtime.getRuntime().availableProcessors()));
            String text = String.join("\n", lines) + "\n";
            System.out.print(text);
            if (out != null) {
                try {
                    Files.writeString(out, text);
                } catch (IOException e) {
                    System.err.println("fabricscope-app: cannot write " + out + ": " + e.getMessage());
                }
            }
            stage.hide();
            Platform.exit();
        });
        s.start();
    }

    /** The sample with the most to draw: most graph nodes and edges. */
    static String largestSample() {
        return Samples.list().stream().max(Comparator.comparingInt(s -> {
            var g = dev.fabricscope.render.fabric.FabricLayout.layout(s.snapshot().get());
            return g.nodes().size() + g.edges().size();
        })).map(Samples.Sample::name).orElseThrow();
    }

    private void line(String what, double ms) {
        lines.add(String.format(Locale.ROOT, "%-62s %8.1f ms", what, ms));
    }
}
