package dev.fabricscope.app.devtools;

import dev.fabricscope.app.AppOptions;
import dev.fabricscope.app.FabricscopeApp;
import dev.fabricscope.app.view.MainView;
import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.app.viewmodel.ViewModels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.stage.Stage;

/**
 * The desktop app with its development tools, kept out of the shipped app: {@code --bench [FILE]} ({@link Bench}) and
 * {@code --screenshots DIR} ({@link Screenshots}), with the app's own options. Started by {@link DevTools}.
 */
public final class DevApp extends FabricscopeApp {

    private boolean bench;
    private Path benchOut;
    private Path screenshots;

    @Override
    protected AppOptions options(List<String> args) {
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean hasNext = i + 1 < args.size() && !args.get(i + 1).startsWith("--");
            switch (name) {
                case "--bench" -> {
                    bench = true;
                    String out = v != null ? v : hasNext ? args.get(++i) : null;
                    benchOut = out == null ? null : Path.of(out);
                }
                case "--screenshots" -> screenshots = Path.of(v != null ? v : args.get(++i));
                default -> rest.add(a);
            }
        }
        if (!bench && screenshots == null) {
            System.err.println("fabricscope-dev: neither --bench [FILE] nor --screenshots DIR given; running the app as is");
        }
        return super.options(rest);
    }

    /** The benchmark probes in the background as normal use does, and opens its samples itself; the tour opens all. */
    @Override
    protected void openAtStart(MainViewModel vm, AppOptions opt) {
        if (screenshots != null) {
            return;
        }
        if (bench) {
            if (!opt.noProbe()) {
                vm.probeLive();
            }
            return;
        }
        super.openAtStart(vm, opt);
    }

    @Override
    protected boolean remembersWindow() {
        return !bench && screenshots == null;
    }

    @Override
    protected void whenReady(Stage stage, MainView view, ViewModels vms, AppOptions opt, StartTimes times) {
        if (bench) {
            new Bench(stage, view, vms.main(), benchOut, times).start();
        } else if (screenshots != null) {
            new Screenshots(stage, view, vms, opt, screenshots).start();
        }
    }
}
