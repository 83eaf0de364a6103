package dev.fabricscope.cli;

import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.usecase.Redact;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.SnapshotText;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope probe}: read this machine, record its native answers, or replay a recorded trace. */
@Command(name = "probe", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Probe this machine through NVML and the CUDA driver: GPUs, NVLink, NVSwitches, P2P, multicast, MNNVL fabric.")
public final class ProbeCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private final CliEnvironment env;

    ProbeCommand(CliEnvironment env) {
        this.env = env;
    }

    @Option(names = {"--wide", "--all"}, description = "One row per GPU, the UUID column and the full P2P matrix, however wide (default: fits 120 columns).")
    boolean wide;

    @Option(names = "--json", description = "Print the snapshot as JSON.")
    boolean json;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON snapshot to FILE (atomically).")
    Path out;

    @Option(names = "--nccl-lib", paramLabel = "PATH", description = "libnccl.so.2 to report instead of the one found on the search path.")
    String ncclLib;

    @Option(names = "--python", paramLabel = "PATH", description = "A Python interpreter or environment folder the "
            + "frameworks run in (repeatable); read before VIRTUAL_ENV, CONDA_PREFIX, python3 on PATH, /opt/*/.venv, ~/.venv "
            + "and conda environments. Nothing is run: versions come from the installed packages' files.")
    java.util.List<String> python;

    @Option(names = "--record", paramLabel = "TRACE", description = "Also write every native call the probe makes, with its "
            + "arguments and answer, to TRACE (attach it to a bug report; 'probe --replay TRACE' reproduces this probe anywhere).")
    Path record;

    @Option(names = "--redact", description = "With --record: replace host names, GPU UUIDs and serials, user names in "
            + "paths and addresses in the trace (and in what is printed and written) with the stable pseudonyms of "
            + "'report --redact'; the trace still replays to the same fabric.")
    boolean redact;

    @Option(names = "--replay", paramLabel = "TRACE", description = "Run the probe over a recorded trace instead of this "
            + "machine's driver: shows exactly what the probe showed where the trace was recorded.")
    Path replay;

    @Override
    public Integer call() throws Exception {
        dev.fabricscope.Trace.mark("command parsed");
        var err = spec.commandLine().getErr();
        if (record != null && replay != null) {
            throw CommandFailure.usage("give either --record or --replay, not both");
        }
        if (redact && record == null) {
            throw CommandFailure.usage("--redact redacts the trace --record writes; to redact a trace or report afterwards, "
                    + "use 'fabricscope redact FILE'");
        }
        for (Path target : new Path[] {out, record}) {
            if (target != null) {
                try {
                    dev.fabricscope.io.OutputFile.checkTarget(target);
                } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                    throw CommandFailure.usage((target == out ? "--out " : "--record ") + e.getMessage());
                }
            }
        }
        MachineSnapshot s;
        int written = ExitCodes.OK;
        if (replay != null) {
            s = replay(replay); // an unreadable trace: exit 4, its one line (CliExceptionHandler)
        } else if (record != null) {
            TraceReplay.Recorded r = TraceReplay.record(env.argv(), ncclLib);
            s = r.snapshot();
            NativeTrace trace = r.trace();
            String notice;
            if (redact) {
                Redact.RedactedTrace red = Redact.trace(trace);
                trace = red.trace();
                // what is printed and written is the trace's redacted snapshot: the same pseudonyms as the trace
                s = SnapshotIO.parse(Json.mapper().writeValueAsBytes(trace.snapshot()), "the redacted snapshot");
                notice = "trace " + red.redaction().describe();
            } else {
                notice = Redact.unredactedNotice(trace);
            }
            written = writeRecording(TraceIO.write(trace), trace.calls().size());
            if (written == ExitCodes.OK) {
                ErrorLine.printWrapped(err, notice);
            }
        } else {
            OutputWarmUp.start(json || out != null, !json, wide);
            s = env.liveProbe().probe(env.argv(), ncclLib);
        }
        dev.fabricscope.Trace.mark("probe done");
        String jsonText = json || out != null ? dev.fabricscope.json.RecordJson.write(s) : null;
        var o = spec.commandLine().getOut();
        if (out != null) {
            try {
                OutputFile.write(out, jsonText, o);
            } catch (java.io.IOException e) {
                ErrorLine.print(err, ExitCodes.cannotWrite("--out", out, e)); // the output below still shows what was probed
                written = ExitCodes.CANNOT_WRITE;
            }
        }
        o.print(json ? jsonText : SnapshotText.render(s, wide));
        o.flush();
        dev.fabricscope.Trace.mark("output written");
        if (replay == null && !s.driver().driverPresent()) {
            ErrorLine.print(err, s.driver().message());
            return written != ExitCodes.OK ? written : ExitCodes.NO_DRIVER;
        }
        return written;
    }

    /**
     * Writes the recording to {@code --record}; when that target cannot be written (a full device, a read-only or
     * missing folder) the recording is not lost: it is kept in a new owner-only file in the temporary folder, and
     * one line names the target, why, and where the recording went (exit 8).
     */
    private int writeRecording(String trace, int calls) {
        var err = spec.commandLine().getErr();
        try {
            OutputFile.write(record, trace, spec.commandLine().getOut());
            ErrorLine.print(err, calls + " native calls recorded to " + record);
            return ExitCodes.OK;
        } catch (java.io.IOException e) {
            String line = ExitCodes.cannotWrite("--record", record, e);
            try {
                Path kept = OutputFile.keep(trace, "fabricscope-recording-", ".trace.json");
                ErrorLine.print(err, line + "; the recording (" + calls + " native calls) was kept in " + kept);
            } catch (java.io.IOException again) {
                ErrorLine.print(err, line + "; keeping it in the temporary folder failed too: " + OutputFile.reason(again));
            }
            return ExitCodes.CANNOT_WRITE;
        }
    }

    /** The probe over a trace file's answers. */
    static MachineSnapshot replay(Path trace) throws SnapshotIO.ReadException {
        return dev.fabricscope.usecase.OpenSnapshot.replay(trace);
    }
}
