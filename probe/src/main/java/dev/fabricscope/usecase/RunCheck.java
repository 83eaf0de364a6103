package dev.fabricscope.usecase;

import dev.fabricscope.check.AllReduceCheck;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.P2pCheck;
import dev.fabricscope.check.PreflightCheck;
import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckListener;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckResults;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightRequest;
import dev.fabricscope.check.CheckTraces;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.io.OutputFile;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.report.ReportChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs the live checks on this machine's GPUs: one check in a child process ({@link CheckProcess}: the caller never
 * loads NCCL nor creates a CUDA context) or, for the child itself, in this process; the three checks of a report
 * ({@code report --with-checks}) and of a node acceptance ({@code check node}). What {@code fabricscope check}, the
 * report and the app's Checks tab share.
 */
public final class RunCheck {

    /** The live checks, with their names on the command line, default time limits and result types. */
    public enum Kind {
        PREFLIGHT(PreflightCheck.NAME, PreflightCheck.DEFAULT_TIMEOUT),
        P2P(P2pCheck.NAME, P2pCheck.DEFAULT_TIMEOUT),
        ALLREDUCE(AllReduceCheck.NAME, AllReduceCheck.DEFAULT_TIMEOUT);

        /** As {@code fabricscope check NAME} names it. */
        public final String check;
        public final Duration defaultTimeout;

        Kind(String check, Duration defaultTimeout) {
            this.check = check;
            this.defaultTimeout = defaultTimeout;
        }
    }

    /**
     * One check to run in a child process.
     *
     * @param arguments the check's own options as {@code fabricscope check NAME} takes them (none: its defaults)
     * @param machine   for {@link Kind#P2P}: this machine's snapshot, for the nominal link figures (handed to the
     *                  child in a temporary file), or null
     */
    public record Request(Kind kind, List<String> arguments, MachineSnapshot machine, CheckOptions options) {
        public Request {
            arguments = List.copyOf(arguments);
        }

        /** The check with its default options and time limit. */
        public static Request defaults(Kind kind, MachineSnapshot machine, CheckListener listener, CheckControl control) {
            return new Request(kind, List.of(), machine, new CheckOptions(kind.defaultTimeout, listener, control));
        }
    }

    private final Supplier<CheckProcess.Launcher> launcher;
    private final Supplier<String> driverMissing;
    private final Supplier<MachineSnapshot> liveMachine;

    /**
     * @param launcher      how a check's child process is started
     * @param driverMissing opens the CUDA driver and says why there is none ({@code no NVIDIA driver: …}), or null
     * @param liveMachine   probes this machine (for the P2P check's nominal figures when no snapshot is given)
     */
    public RunCheck(Supplier<CheckProcess.Launcher> launcher, Supplier<String> driverMissing, Supplier<MachineSnapshot> liveMachine) {
        this.launcher = launcher;
        this.driverMissing = driverMissing;
        this.liveMachine = liveMachine;
    }

    /**
     * Checks that only ever run in child processes (the desktop app): this process neither opens the driver nor
     * probes the machine for them.
     */
    public static RunCheck inChildProcesses(Supplier<CheckProcess.Launcher> launcher) {
        return new RunCheck(launcher, () -> {
            throw new IllegalStateException("the driver is opened only in the check's child process");
        }, () -> {
            throw new IllegalStateException("the machine is probed only in the check's child process");
        });
    }

    /** Why no check can run here ({@code no NVIDIA driver: …}), or null when the CUDA driver opens. */
    public String driverMissing() {
        return driverMissing.get();
    }

    /** Runs the check in a child process; a child that crashes, hangs or gives no result becomes a failed result. */
    public CheckResult inChildProcess(Request r) {
        List<String> args = new ArrayList<>(r.arguments());
        Path file = r.kind() == Kind.P2P && r.machine() != null ? snapshotFile(r.machine()) : null;
        if (file != null) {
            args.addAll(List.of("--snapshot", file.toString()));
        }
        try {
            return CheckProcess.run(launcher.get(), r.kind().check, args, type(r.kind()), r.options(),
                    (status, message, memory) -> failed(r.kind(), status, message, memory));
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    private static Path snapshotFile(MachineSnapshot s) {
        try {
            Path file = Files.createTempFile("fabricscope-snapshot-", ".json");
            OutputFile.write(file, Json.write(s));
            return file;
        } catch (IOException | RuntimeException e) {
            return null; // the child probes the machine itself
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<CheckResult> type(Kind kind) {
        return (Class<CheckResult>) CheckResults.typeOf(kind.check);
    }

    /** A result of the check's own type for a check that did not run or gave none. */
    public static CheckResult failed(Kind kind, CheckStatus status, String message, MemoryAudit memory) {
        return switch (kind) {
            case PREFLIGHT -> new PreflightResult(PreflightCheck.NAME, status, message, null, List.of(), null, List.of(), null,
                    List.of(), memory);
            case P2P -> new P2pResult(P2pCheck.NAME, status, message, null, List.of(), List.of(), List.of(), memory);
            case ALLREDUCE -> new AllReduceResult(AllReduceCheck.NAME, status, message, null, null, null, null, List.of(),
                    List.of(), memory);
        };
    }

    /** The result of a check skipped because there is no driver. */
    public static CheckResult skipped(Kind kind, String why) {
        MemoryAudit none = MemoryAudit.none("no GPU used");
        return kind == Kind.PREFLIGHT ? new PreflightResult(PreflightCheck.NAME, CheckStatus.SKIPPED, why, null, List.of(), null,
                List.of(), why, List.of(), none) : failed(kind, CheckStatus.SKIPPED, why, none);
    }

    // ---- In this process (the child's side, and --in-process)

    public PreflightResult preflightHere(PreflightRequest request, CheckOptions options) {
        return PreflightCheck.run(request, options);
    }

    /**
     * @param snapshotFile this machine's snapshot for the nominal link figures, or null to probe the machine; when
     *                     neither gives one, the figures are unknown and the measurements still run
     */
    public P2pResult p2pHere(P2pRequest request, Path snapshotFile, CheckOptions options) {
        MachineSnapshot snapshot;
        try {
            snapshot = snapshotFile != null ? OpenSnapshot.read(snapshotFile) : liveMachine.get();
        } catch (SnapshotIO.ReadException e) {
            snapshot = null;
        } catch (RuntimeException e) {
            // e.g. NVSwitch far ends whose PCI address reads all-ones: the theoretical link figures are then unknown
            snapshot = null;
            options.listener().onEvent(new CheckEvent(P2pCheck.NAME, CheckEvent.Kind.WARNING,
                    "machine snapshot failed, theoretical link bandwidth unknown: " + e.getMessage(), -1));
        }
        return P2pCheck.run(request, snapshot, options);
    }

    public AllReduceResult allReduceHere(AllReduceRequest request, CheckOptions options) {
        return AllReduceCheck.run(request, options);
    }

    // ---- Recorded here, replayed anywhere ({@code check NAME --record | --replay})

    public CheckTraces.Recorded preflightRecorded(PreflightRequest request, CheckOptions options, List<String> argv) {
        return CheckTraces.preflight(request, options, argv);
    }

    /** @param snapshotFile as {@link #p2pHere}; the snapshot used is kept in the trace for the replay */
    public CheckTraces.Recorded p2pRecorded(P2pRequest request, Path snapshotFile, CheckOptions options, List<String> argv) {
        MachineSnapshot snapshot;
        try {
            snapshot = snapshotFile != null ? OpenSnapshot.read(snapshotFile) : liveMachine.get();
        } catch (SnapshotIO.ReadException | RuntimeException e) {
            snapshot = null;
        }
        return CheckTraces.p2p(request, snapshot, options, argv);
    }

    public CheckTraces.Recorded allReduceRecorded(AllReduceRequest request, CheckOptions options, List<String> argv) {
        return CheckTraces.allReduce(request, options, argv);
    }

    /**
     * The check recorded in the trace {@code file}, run again over its answers with the options it was recorded with;
     * no GPU is touched. A probe's trace, another check's trace or an unreadable file is one line.
     */
    public static CheckResult replay(Path file, Kind expected, CheckOptions options) throws SnapshotIO.ReadException {
        NativeTrace trace = readTrace(file);
        String where = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        try {
            String name = CheckTraces.checkOf(trace, file.toString());
            if (!name.equals(expected.check)) {
                throw new SnapshotIO.ReadException(file + ": a trace of check " + name + ", not of " + expected.check
                        + "; replay it with 'fabricscope check " + name + " --replay " + file + "'");
            }
            return CheckTraces.replay(trace, options, where);
        } catch (TraceIO.TraceFormatException e) {
            throw new SnapshotIO.ReadException(e.getMessage());
        }
    }

    private static NativeTrace readTrace(Path file) throws SnapshotIO.ReadException {
        byte[] bytes = SnapshotIO.readBytes(file);
        SnapshotIO.checkUtf8(bytes, file.toString());
        if (!TraceIO.looksLikeTrace(bytes)) {
            throw new SnapshotIO.ReadException(file + ": not a native-call trace (no \"format\": \"" + NativeTrace.FORMAT
                    + "\"); 'fabricscope check NAME --record FILE' records one");
        }
        try {
            return TraceIO.read(bytes, file.toString());
        } catch (TraceIO.TraceFormatException e) {
            throw new SnapshotIO.ReadException(e.getMessage());
        }
    }

    // ---- The checks of a report and of a node acceptance

    /** Why checks cannot run for {@code s}, or null when they can. */
    public static String cannotRun(MachineSnapshot s) {
        if (!s.isLive()) {
            return "live checks run on this machine's GPUs; a saved snapshot or sample cannot be checked";
        }
        if (!s.driver().driverPresent()) {
            return "no NVIDIA driver on this machine: " + s.driver().message();
        }
        if (s.gpus().isEmpty()) {
            return "no GPUs seen on this machine";
        }
        return null;
    }

    /**
     * The report's checks: the preflight, the P2P matrix and the all-reduce smoke test with their defaults, each in
     * a child process, in turn (stopping early when {@code control} is cancelled); skipped, with why, when
     * {@link #cannotRun} says so.
     *
     * @param worldSize the preflight's world size (the deployment's TP), or null for all local GPUs
     */
    public ReportChecks forReport(MachineSnapshot live, Integer worldSize, CheckListener listener, CheckControl control) {
        String why = cannotRun(live);
        if (why != null) {
            return ReportChecks.skipped(why);
        }
        List<ReportChecks.Entry> entries = new ArrayList<>();
        List<String> preflightArgs = worldSize == null ? List.of() : List.of("--world-size", String.valueOf(worldSize));
        entries.add(entry(inChildProcess(new Request(Kind.PREFLIGHT, preflightArgs, null,
                new CheckOptions(Kind.PREFLIGHT.defaultTimeout, listener, control)))));
        if (!control.isCancelled()) {
            entries.add(entry(inChildProcess(Request.defaults(Kind.P2P, live, listener, control))));
        }
        if (!control.isCancelled()) {
            entries.add(entry(inChildProcess(Request.defaults(Kind.ALLREDUCE, null, listener, control))));
        }
        return new ReportChecks(true, null, entries);
    }

    /**
     * A node acceptance's checks, each in its child process with its command's defaults; the all-reduce sweep NCCL
     * only, plain launches, bf16, up to {@code maxAllReduceBytes}. Not run (and why) without a driver.
     *
     * @param announce told the name of each check as it starts
     */
    public NodeAcceptance.LiveResults forNode(long maxAllReduceBytes, CheckListener listener, java.util.function.Consumer<String> announce) {
        String missing = driverMissing();
        if (missing != null) {
            return new NodeAcceptance.LiveResults(null, null, null, missing);
        }
        announce.accept(Kind.PREFLIGHT.check);
        PreflightResult a = (PreflightResult) inChildProcess(Request.defaults(Kind.PREFLIGHT, null, listener, new CheckControl()));
        announce.accept(Kind.P2P.check);
        P2pResult b = (P2pResult) inChildProcess(Request.defaults(Kind.P2P, null, listener, new CheckControl()));
        announce.accept(Kind.ALLREDUCE.check);
        AllReduceResult c = (AllReduceResult) inChildProcess(new Request(Kind.ALLREDUCE, List.of("--impl", "nccl", "--mode", "plain",
                "--dtype", "bf16", "-e", String.valueOf(maxAllReduceBytes)), null,
                new CheckOptions(Kind.ALLREDUCE.defaultTimeout, listener, new CheckControl())));
        return new NodeAcceptance.LiveResults(a, b, c, null);
    }

    /** A check's result as a report records it. */
    public static ReportChecks.Entry entry(CheckResult r) {
        return new ReportChecks.Entry(r.check(), r.status().name(), r.summary(), Json.mapper().valueToTree(r));
    }

    /** The worst status among a report's check results, or null when none ran. */
    public static CheckStatus worst(ReportChecks c) {
        CheckStatus w = null;
        for (ReportChecks.Entry e : c.results()) {
            CheckStatus s;
            try {
                s = CheckStatus.valueOf(e.status());
            } catch (IllegalArgumentException x) {
                s = CheckStatus.ERROR;
            }
            w = w == null ? s : w.worse(s);
        }
        return w;
    }
}
