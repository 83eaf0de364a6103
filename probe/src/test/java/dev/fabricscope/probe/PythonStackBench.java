package dev.fabricscope.probe;

import dev.fabricscope.model.PythonEnvironment;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Times reading this machine's Python stack through the probe's guarded host seam: the first read in a fresh JVM
 * (class loading included: what {@code probe} pays) and then warm reads. Used for docs/benchmarks.md:
 * {@code java -cp fabricscope.jar:probe/target/test-classes dev.fabricscope.probe.PythonStackBench [N] [--python PATH]...}
 * (a dev tool: in the test sources, so that the jar prints only through its commands).
 */
public final class PythonStackBench {

    private PythonStackBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 && args[0].matches("\\d{1,4}") ? Integer.parseInt(args[0]) : 20;
        List<String> explicit = PythonStackProbe.pythonArgs(Arrays.asList(args));
        HostCalls host = CallGuard.guard(HostCalls.class, "host", new FileHost(Paths.get("/"), System.getenv(),
                EnvironmentFilter::allowed, EnvironmentFilter::recorded), CallGuard.defaultTimeout());
        long t0 = System.nanoTime();
        PythonStack first = new PythonStackProbe(host, explicit).read();
        double cold = (System.nanoTime() - t0) / 1e6;
        List<Double> warm = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            new PythonStackProbe(host, explicit).read();
            warm.add((System.nanoTime() - t) / 1e6);
        }
        warm.sort(null);
        int packages = first == null ? 0 : first.environments().stream().mapToInt(e -> e.packages().size()).sum();
        System.out.printf("python stack: %d environment(s), %d framework package(s)%n",
                first == null ? 0 : first.environments().size(), packages);
        if (first != null) {
            for (PythonEnvironment e : first.environments()) {
                System.out.printf("  %s: %d package(s), site dirs %s%n", e.title(), e.packages().size(), e.sitePackages());
            }
        }
        System.out.printf("first read (fresh JVM, classes loading): %.1f ms%n", cold);
        if (!warm.isEmpty()) {
            System.out.printf("warm reads (n=%d): median %.2f ms, min %.2f ms, max %.2f ms%n", n, warm.get(warm.size() / 2),
                    warm.get(0), warm.get(warm.size() - 1));
        }
    }
}
