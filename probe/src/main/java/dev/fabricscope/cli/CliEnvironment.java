package dev.fabricscope.cli;

import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.cuda.CudaLoader;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.Compare;
import dev.fabricscope.usecase.InspectCluster;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the commands take from the world, built once by {@link Main} and handed to every command through its
 * constructor ({@link CliFactory}); a test builds its own (a machine without driver, a fake check process…).
 *
 * @param argv          program name and arguments, recorded in snapshots and reports
 * @param liveProbe     probes this machine, given {@code argv} and a libnccl to report (or null)
 * @param driverOpener  opens the CUDA driver: is there one to run checks on?
 * @param checkLauncher how a check's child process is started
 * @param clock         when reports are made
 */
public record CliEnvironment(List<String> argv, LiveProbeFunction liveProbe, Supplier<Opened<CudaOps>> driverOpener,
                             Supplier<CheckProcess.Launcher> checkLauncher, Clock clock) {

    /** Probes this machine. */
    @FunctionalInterface
    public interface LiveProbeFunction {
        MachineSnapshot probe(List<String> argv, String ncclLib);
    }

    public CliEnvironment {
        argv = List.copyOf(argv);
    }

    /** This machine, for a command line {@code fabricscope ARGS…}. */
    public static CliEnvironment of(String... args) {
        List<String> argv = new java.util.ArrayList<>(List.of("fabricscope"));
        argv.addAll(List.of(args));
        return new CliEnvironment(argv, (a, lib) -> new LiveProbe(a, lib).probe(), CudaOps::open, CheckProcess.Launcher::current,
                Clock.systemUTC());
    }

    public CliEnvironment withLiveProbe(Supplier<MachineSnapshot> machine) {
        return new CliEnvironment(argv, (a, lib) -> machine.get(), driverOpener, checkLauncher, clock);
    }

    public CliEnvironment withDriverOpener(Supplier<Opened<CudaOps>> opener) {
        return new CliEnvironment(argv, liveProbe, opener, checkLauncher, clock);
    }

    public CliEnvironment withCheckLauncher(Supplier<CheckProcess.Launcher> launcher) {
        return new CliEnvironment(argv, liveProbe, driverOpener, launcher, clock);
    }

    public CliEnvironment withClock(Clock c) {
        return new CliEnvironment(argv, liveProbe, driverOpener, checkLauncher, c);
    }

    /** This machine probed (the libnccl found on the search path). */
    public MachineSnapshot probeLive() {
        return liveProbe.probe(argv, null);
    }

    public Advise advise() {
        return new Advise();
    }

    public RunCheck runCheck() {
        return new RunCheck(checkLauncher, this::driverMissing, this::probeLive);
    }

    /** Why there is no CUDA driver to run checks on ({@code no NVIDIA driver: …}), or null when it opens. */
    private String driverMissing() {
        Opened<CudaOps> d = driverOpener.get();
        return CudaLoader.noDriver(d) ? "no NVIDIA driver: " + d.failure() : null;
    }

    public MakeReport makeReport() {
        return new MakeReport(advise(), runCheck(), clock);
    }

    public Compare compare() {
        return new Compare();
    }

    public InspectCluster inspectCluster() {
        return new InspectCluster();
    }
}
