package dev.fabricscope.cli;

import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.api.AllReduceMath;
import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.CheckControl;
import dev.fabricscope.check.api.CheckListener;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.check.api.PreflightRequest;
import dev.fabricscope.check.CheckTraces;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.CheckText;
import dev.fabricscope.usecase.RunCheck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope check preflight|p2p|allreduce}: live checks on this machine's GPUs. */
@Command(name = "check", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
        description = "Run live checks on the local GPUs: SGLang's FlashInfer workspace preflight, the P2P matrix, "
                + "all-reduce smoke tests (NCCL and a one-shot P2P kernel).",
        subcommands = {CheckCommand.Preflight.class, CheckCommand.P2p.class, CheckCommand.AllReduce.class,
                CheckCommand.Memory.class, CheckNodeCommand.class})
public final class CheckCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Options every check takes. */
    static final class Common {
        @Option(names = "--json", description = "Print the result as JSON.")
        boolean json;

        @Option(names = "--timeout", paramLabel = "SECONDS", description = "Time limit; a hung collective is aborted.")
        Integer timeoutSeconds;

        @Option(names = "--progress", negatable = true,
                description = "Progress on stderr (default: on a terminal, rewritten in place; none when piped).")
        Boolean progress;

        @Option(names = "--wide", description = "Do not wrap long lines to 120 columns.")
        boolean wide;

        @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON result to FILE (atomically).")
        java.nio.file.Path out;

        @Option(names = "--in-process", description = "Run the check in this process instead of a child process.")
        boolean inProcess;

        @Option(names = "--record", paramLabel = "TRACE", description = "Also write every CUDA, NCCL and NVML call the "
                + "check makes and every time it takes to TRACE (run in this process; device memory is not recorded, "
                + "only what the check reads back); 'check NAME --replay TRACE' gives the same result anywhere.")
        java.nio.file.Path record;

        @Option(names = "--replay", paramLabel = "TRACE", description = "Run the check over a recorded trace instead of "
                + "this machine's GPUs, with the options it was recorded with (the others given here are not used).")
        java.nio.file.Path replay;

        /** The child side of {@link CheckProcess}: JSON lines on stdout (progress events, then the result). */
        @Option(names = "--worker", hidden = true)
        boolean worker;
    }

    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        Common common = new Common();

        final RunCheck checks;
        final List<String> argv;

        Base(CliEnvironment env) {
            this.checks = env.runCheck();
            this.argv = env.argv();
        }

        abstract RunCheck.Kind kind();

        String name() {
            return kind().check;
        }

        Duration defaultTimeout() {
            return kind().defaultTimeout;
        }

        /** Runs the check in this process. */
        abstract CheckResult runCheck(CheckOptions options);

        /** Runs the check in this process through recording seams ({@code --record}). */
        abstract CheckTraces.Recorded recordCheck(CheckOptions options);

        /** This check's options as the worker process gets them (without --json, --out, --progress, --timeout). */
        abstract List<String> workerArgs();

        /** Runs the check in a child process (the default) or here (--in-process, --worker). */
        CheckResult runSomewhere(CheckOptions options) {
            if (common.inProcess || common.worker) {
                return runCheck(options);
            }
            return checks.inChildProcess(new RunCheck.Request(kind(), workerArgs(), null, options));
        }

        @Override
        public Integer call() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
            if (common.worker) {
                return worker();
            }
            var out = spec.commandLine().getOut();
            var err = spec.commandLine().getErr();
            if (common.record != null && common.replay != null) {
                throw CommandFailure.usage("give either --record or --replay, not both");
            }
            for (java.nio.file.Path target : new java.nio.file.Path[] {common.out, common.record}) {
                if (target == null) {
                    continue;
                }
                try {
                    dev.fabricscope.io.OutputFile.checkTarget(target); // before the check runs, as probe and report do
                } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                    throw CommandFailure.usage((target == common.out ? "--out " : "--record ") + e.getMessage());
                }
            }
            String message = common.replay != null ? null : checks.driverMissing();
            if (message != null) {
                if (common.json) {
                    out.print(Json.write(RunCheck.skipped(kind(), message)));
                    out.flush();
                }
                throw CommandFailure.of(ExitCodes.NO_DRIVER, "check " + name() + " skipped — " + message);
            }
            Duration timeout = common.timeoutSeconds == null ? defaultTimeout() : Duration.ofSeconds(common.timeoutSeconds);
            Progress progress = Progress.of(err, common.progress);
            CheckListener listener = progress != null ? e -> progress.update(e.check(), e.message(), e.fraction()) : CheckListener.NONE;
            CheckControl control = new CheckControl();
            Thread hook = new Thread(control::cancel);
            Runtime.getRuntime().addShutdownHook(hook);
            CheckResult r;
            String trace = null;
            int calls = 0;
            try {
                CheckOptions options = new CheckOptions(timeout, listener, control);
                if (common.replay != null) {
                    r = RunCheck.replay(common.replay, kind(), options);
                } else if (common.record != null) {
                    CheckTraces.Recorded rec = recordCheck(options);
                    r = rec.result();
                    trace = TraceIO.write(rec.trace());
                    calls = rec.trace().calls().stream().mapToInt(dev.fabricscope.nativeapi.trace.TraceCall::count).sum();
                } else {
                    r = runSomewhere(options);
                }
            } finally {
                if (progress != null) {
                    progress.done();
                }
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException ignored) {
                    // shutting down already
                }
            }
            String json = Json.write(r);
            boolean unwritten = false;
            if (common.out != null) {
                try {
                    dev.fabricscope.io.OutputFile.write(common.out, json, out);
                } catch (java.io.IOException e) {
                    ErrorLine.print(err, ExitCodes.cannotWrite("--out", common.out, e)); // the result still shown below
                    unwritten = true;
                }
            }
            if (trace != null) {
                try {
                    dev.fabricscope.io.OutputFile.write(common.record, trace, out);
                    ErrorLine.print(err, calls + " native calls recorded to " + common.record);
                } catch (java.io.IOException e) {
                    ErrorLine.print(err, ExitCodes.cannotWrite("--record", common.record, e)); // the result still shown below
                    unwritten = true;
                }
            }
            // The answer first (the same status line ends the text), then the details, fitted to 120 columns.
            String head = r.status() + ": " + r.summary() + "\n\n";
            out.print(common.json ? json : common.wide ? head + CheckText.render(r, true)
                    : dev.fabricscope.render.Fit.wrap(head, dev.fabricscope.render.Fit.WIDTH) + CheckText.render(r, false));
            out.flush();
            return unwritten ? ExitCodes.CANNOT_WRITE : ExitCodes.of(r.status());
        }

        /** The child side: events and the result as JSON lines; SIGTERM cancels the check and lets it clean up. */
        Integer worker() {
            var out = spec.commandLine().getOut();
            Object lock = new Object();
            Duration timeout = common.timeoutSeconds == null ? defaultTimeout() : Duration.ofSeconds(common.timeoutSeconds);
            CheckListener listener = e -> {
                synchronized (lock) {
                    out.println(CheckProcess.WorkerLine.event(e));
                    out.flush();
                }
            };
            CheckControl control = new CheckControl();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Thread hook = new Thread(() -> {
                control.cancel();
                try {
                    done.await(8, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            CheckResult r;
            try {
                String missing = checks.driverMissing();
                r = missing != null ? RunCheck.skipped(kind(), missing) : runCheck(new CheckOptions(timeout, listener, control));
                synchronized (lock) {
                    out.println(CheckProcess.WorkerLine.result(r));
                    out.flush();
                }
            } finally {
                done.countDown();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
            return ExitCodes.of(r.status());
        }
    }

    @Command(name = "memory", hidden = true, description = "NVML used memory per GPU as one worker line (no CUDA context).")
    static final class Memory implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--worker", hidden = true)
        boolean worker;

        @Override
        public Integer call() {
            java.util.Map<String, Long> used = new java.util.LinkedHashMap<>();
            String failure = null;
            try (dev.fabricscope.nativeapi.nvml.NvmlGpus nvml = dev.fabricscope.nativeapi.nvml.NvmlGpus.open()) {
                if (!nvml.available()) {
                    failure = "NVML not available";
                }
                for (dev.fabricscope.model.PciAddress pci : nvml.devices()) {
                    var r = nvml.usedBytes(pci);
                    if (r.isPresent()) {
                        used.put(pci.toString(), r.value());
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                failure = e.getMessage();
            }
            spec.commandLine().getOut().println(CheckProcess.WorkerLine.memory(used, failure));
            spec.commandLine().getOut().flush();
            return failure == null ? ExitCodes.OK : ExitCodes.NO_DRIVER;
        }
    }

    @Command(name = "preflight", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = "Run SGLang's FlashInfer workspace preflight (granularity queries, multicast granularity, "
                    + "cuMemCreate sequence) on every local GPU, plus the fabric-handle export check.")
    static final class Preflight extends Base {
        @Option(names = "--world-size", paramLabel = "N", description = "Tensor-parallel world size (default: local GPUs).")
        Integer worldSize;

        @Option(names = "--max-tokens", paramLabel = "N", defaultValue = "2048",
                description = "max_token_num (SGLang: FUSE_ALLREDUCE_MAX_BATCH_SIZE = ${DEFAULT-VALUE}).")
        long maxTokens;

        @Option(names = "--hidden", paramLabel = "N", defaultValue = "4096", description = "The model's hidden size (default ${DEFAULT-VALUE}).")
        long hidden;

        @Option(names = "--dtype", paramLabel = "bf16|fp16|fp32", defaultValue = "bf16", description = "Model dtype (default ${DEFAULT-VALUE}).")
        String dtype;

        Preflight(CliEnvironment env) {
            super(env);
        }

        @Override
        RunCheck.Kind kind() {
            return RunCheck.Kind.PREFLIGHT;
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            return checks.preflightHere(request(), options);
        }

        @Override
        CheckTraces.Recorded recordCheck(CheckOptions options) {
            return checks.preflightRecorded(request(), options, argv);
        }

        @Override
        List<String> workerArgs() {
            List<String> a = new java.util.ArrayList<>(List.of("--max-tokens", String.valueOf(maxTokens), "--hidden",
                    String.valueOf(hidden), "--dtype", dtype));
            if (worldSize != null) {
                a.addAll(List.of("--world-size", String.valueOf(worldSize)));
            }
            return a;
        }

        PreflightRequest request() {
            try {
                return new PreflightRequest(worldSize, maxTokens, hidden, dtype);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
            request();
            return super.call();
        }
    }

    @Command(name = "p2p", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = "Peer access, copy bandwidth (uni- and bidirectional) and latency for every GPU pair, "
                    + "device-local figures per GPU, next to the theoretical link bandwidth.")
    static final class P2p extends Base {
        @Option(names = "--buffer", paramLabel = "BYTES", defaultValue = "256M", converter = SizeConverter.class,
                description = "Bytes per copy (default ${DEFAULT-VALUE}).")
        long buffer;

        @Option(names = "--reps", paramLabel = "N", defaultValue = "10", description = "Timed copies per figure (default ${DEFAULT-VALUE}).")
        int reps;

        @Option(names = "--hops", paramLabel = "N", defaultValue = "100000", description = "Pointer-chase hops per latency figure.")
        long hops;

        @Option(names = "--snapshot", paramLabel = "FILE", description = "This machine's snapshot (probe --json) for the "
                + "nominal link figures, instead of probing again.")
        java.nio.file.Path snapshotFile;

        @Override
        List<String> workerArgs() {
            List<String> a = new java.util.ArrayList<>(List.of("--buffer", String.valueOf(buffer), "--reps",
                    String.valueOf(reps), "--hops", String.valueOf(hops)));
            if (snapshotFile != null) {
                a.addAll(List.of("--snapshot", snapshotFile.toString()));
            }
            return a;
        }

        P2p(CliEnvironment env) {
            super(env);
        }

        @Override
        RunCheck.Kind kind() {
            return RunCheck.Kind.P2P;
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            return checks.p2pHere(request(), snapshotFile, options);
        }

        @Override
        CheckTraces.Recorded recordCheck(CheckOptions options) {
            return checks.p2pRecorded(request(), snapshotFile, options, argv);
        }

        P2pRequest request() {
            try {
                return new P2pRequest(buffer, reps, hops);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
            request();
            return super.call();
        }
    }

    @Command(name = "allreduce", mixinStandardHelpOptions = true, footer = ExitCodes.HELP_FOOTER,
            description = "All-reduce over all local GPUs: NCCL (ncclCommInitAll) and the one-shot P2P kernel, sizes swept "
                    + "like nccl-tests, results checked against exact sums.")
    static final class AllReduce extends Base {
        @Option(names = "--impl", paramLabel = "nccl,oneshot,twoshot|all", defaultValue = "all",
                description = "Implementations, comma-separated (default ${DEFAULT-VALUE}).")
        String impl;

        @Option(names = "--mode", paramLabel = "plain,graph|both", defaultValue = "both",
                description = "Plain launches and/or CUDA-graph replays (nccl-tests -G) (default ${DEFAULT-VALUE}).")
        String mode;

        @Option(names = {"--graph-launches", "-G"}, paramLabel = "N", defaultValue = "1",
                description = "Graph replays timed per size in graph mode (default ${DEFAULT-VALUE}).")
        int graphLaunches;

        @Option(names = "--thread-per-gpu", description = "One host thread per GPU (nccl-tests -t N) instead of one "
                + "thread with one group call per operation (nccl-tests -g N).")
        boolean threadPerGpu;

        @Option(names = {"--min-bytes", "-b"}, paramLabel = "B", defaultValue = "8", converter = SizeConverter.class,
                description = "First size, suffixes K/M/G allowed (default ${DEFAULT-VALUE}).")
        long minBytes;

        @Option(names = {"--max-bytes", "-e"}, paramLabel = "B", defaultValue = "256M", converter = SizeConverter.class,
                description = "Last size (default ${DEFAULT-VALUE}); sizes double from the first.")
        long maxBytes;

        @Option(names = "--dtype", paramLabel = "bf16|fp16|fp32", split = ",", defaultValue = "bf16,fp32",
                description = "Data types, comma-separated or repeated (default ${DEFAULT-VALUE}).")
        List<String> dtypes;

        @Option(names = {"--iters", "-n"}, paramLabel = "N", defaultValue = "20", description = "Timed iterations per size (default ${DEFAULT-VALUE}).")
        int iters;

        @Option(names = {"--warmup", "-w"}, paramLabel = "N", defaultValue = "5", description = "Warm-up iterations per size (default ${DEFAULT-VALUE}).")
        int warmup;

        @Option(names = "--nccl-lib", paramLabel = "PATH", description = "libnccl.so.2 to use instead of the one found on the search path.")
        String ncclLib;

        AllReduce(CliEnvironment env) {
            super(env);
        }

        @Override
        RunCheck.Kind kind() {
            return RunCheck.Kind.ALLREDUCE;
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            return checks.allReduceHere(request(), options);
        }

        @Override
        CheckTraces.Recorded recordCheck(CheckOptions options) {
            return checks.allReduceRecorded(request(), options, argv);
        }

        @Override
        List<String> workerArgs() {
            List<String> a = new java.util.ArrayList<>(List.of("--impl", impl, "--mode", mode, "-G",
                    String.valueOf(graphLaunches), "-b", String.valueOf(minBytes), "-e", String.valueOf(maxBytes),
                    "--dtype", String.join(",", dtypes), "-n", String.valueOf(iters), "-w", String.valueOf(warmup)));
            if (threadPerGpu) {
                a.add("--thread-per-gpu");
            }
            if (ncclLib != null) {
                a.addAll(List.of("--nccl-lib", ncclLib));
            }
            return a;
        }

        AllReduceRequest request() {
            try {
                List<AllReduceMath.DType> types = dtypes.stream().map(String::trim).map(AllReduceMath.DType::parse).distinct().toList();
                return new AllReduceRequest(AllReduceRequest.parseImpls(impl), minBytes, maxBytes, types, warmup,
                        iters, AllReduceRequest.parseModes(mode), graphLaunches, threadPerGpu, ncclLib);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() throws CommandFailure, dev.fabricscope.io.SnapshotIO.ReadException {
            request();
            return super.call();
        }
    }
}
