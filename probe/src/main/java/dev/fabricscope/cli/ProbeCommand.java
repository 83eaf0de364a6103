package dev.fabricscope.cli;


import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.render.SnapshotText;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope probe}: read this machine. */
@Command(name = "probe", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Probe this machine through NVML and the CUDA driver: GPUs, NVLink, NVSwitches, P2P, multicast, MNNVL fabric.")
public final class ProbeCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", description = "Print the snapshot as JSON.")
    boolean json;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON snapshot to FILE (atomically).")
    Path out;

    @Option(names = "--nccl-lib", paramLabel = "PATH", description = "libnccl.so.2 to report instead of the one found on the search path.")
    String ncclLib;

    @Override
    public Integer call() throws Exception {
        dev.fabricscope.Trace.mark("command parsed");
        MachineSnapshot s = new LiveProbe(Main.argv, ncclLib).probe();
        dev.fabricscope.Trace.mark("probe done");
        String jsonText = json || out != null ? dev.fabricscope.json.RecordJson.write(s) : null;
        if (out != null) {
            dev.fabricscope.io.SnapshotIO.writeAtomically(out, jsonText);
        }
        var o = spec.commandLine().getOut();
        o.print(json ? jsonText : SnapshotText.render(s));
        o.flush();
        dev.fabricscope.Trace.mark("output written");
        if (!s.driver().driverPresent()) {
            spec.commandLine().getErr().println("fabricscope: " + s.driver().message());
            return ExitCodes.NO_DRIVER;
        }
        return ExitCodes.OK;
    }
}
