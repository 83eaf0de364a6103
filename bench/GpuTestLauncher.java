import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs the tests tagged "gpu" on a machine that has no Maven (the GPU machine); exit 0 only if all passed. */
public final class GpuTestLauncher {
    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathRoots(roots(args)))
                .filters(TagFilter.includeTags("gpu"))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    System.out.println(result.getStatus() + "  " + id.getUniqueId().replaceAll(".*class:([^\\]]*).*method:([^(]*).*", "$1.$2")
                            + result.getThrowable().map(t -> "  " + t).orElse(""));
                }
            }
        });
        TestExecutionSummary s = summary.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        s.printTo(out);
        s.printFailuresTo(out, 40);
        System.exit(s.getTotalFailureCount() == 0 && s.getTestsSucceededCount() > 0 ? 0 : 1);
    }

    /** The test-class folders to scan: the arguments, or the probe's staged test classes. */
    private static Set<Path> roots(String[] args) {
        if (args.length == 0) {
            return Set.of(Path.of(".device-gputest/test-classes"));
        }
        return java.util.Arrays.stream(args).map(Path::of).collect(java.util.stream.Collectors.toSet());
    }
}
