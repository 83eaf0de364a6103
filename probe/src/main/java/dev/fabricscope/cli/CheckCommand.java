package dev.fabricscope.cli;

import dev.fabricscope.check.AllReduceCheck;
import dev.fabricscope.check.AllReduceMath;
import dev.fabricscope.check.AllReduceResult;
import dev.fabricscope.check.CheckControl;
import dev.fabricscope.check.CheckListener;
import dev.fabricscope.check.CheckOptions;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.CheckResult;
import dev.fabricscope.check.CheckStatus;
import dev.fabricscope.check.MemoryAudit;
import dev.fabricscope.check.P2pCheck;
import dev.fabricscope.check.P2pResult;
import dev.fabricscope.check.PreflightCheck;
import dev.fabricscope.check.PreflightResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.cuda.CudaJna;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.render.CheckText;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** Where the commands learn whether a driver is there (replaced in tests). */
    static volatile Supplier<CudaJna.Result> driverProbe = CudaJna::open;

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

        /** The child side of {@link CheckProcess}: JSON lines on stdout (progress events, then the result). */
        @Option(names = "--worker", hidden = true)
        boolean worker;
    }

    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        Common common = new Common();

        abstract String name();

        abstract Duration defaultTimeout();

        abstract CheckResult noDriver(String message);

        abstract CheckResult runCheck(CheckOptions options);

        /** This check's options as the worker process gets them (without --json, --out, --progress, --timeout). */
        abstract List<String> workerArgs();

        abstract Class<? extends CheckResult> resultType();

        /** A result of this check's type, for a worker that gave none. */
        abstract CheckResult failed(CheckStatus status, String message, MemoryAudit memory);

        /** Runs the check in a child process (the default) or here (--in-process, --worker). */
        CheckResult runSomewhere(CheckOptions options) {
            if (common.inProcess || common.worker) {
                return runCheck(options);
            }
            @SuppressWarnings("unchecked")
            Class<CheckResult> type = (Class<CheckResult>) resultType();
            return CheckProcess.run(launcher.get(), name(), workerArgs(), type, options, this::failed);
        }

        @Override
        public Integer call() {
            if (common.worker) {
                return worker();
            }
            var out = spec.commandLine().getOut();
            var err = spec.commandLine().getErr();
            if (common.out != null) {
                try {
                    dev.fabricscope.io.OutputFile.checkTarget(common.out); // before the check runs, as probe and report do
                } catch (dev.fabricscope.io.OutputFile.NotAFileException e) {
                    err.println("fabricscope: --out " + e.getMessage());
                    err.println("Try 'fabricscope check " + name() + " --help'.");
                    err.flush();
                    return ExitCodes.USAGE;
                }
            }
            CudaJna.Result driver = driverProbe.get();
            if (driver.cuda() == null && driver.noDriver()) {
                String message = "no NVIDIA driver: " + driver.failure();
                if (common.json) {
                    out.print(Json.write(noDriver(message)));
                    out.flush();
                }
                err.println("fabricscope: check " + name() + " skipped — " + message);
                err.flush();
                return ExitCodes.NO_DRIVER;
            }
            Duration timeout = common.timeoutSeconds == null ? defaultTimeout() : Duration.ofSeconds(common.timeoutSeconds);
            Progress progress = Progress.of(err, common.progress);
            CheckListener listener = progress != null ? e -> progress.update(e.check(), e.message(), e.fraction()) : CheckListener.NONE;
            CheckControl control = new CheckControl();
            Thread hook = new Thread(control::cancel);
            Runtime.getRuntime().addShutdownHook(hook);
            CheckResult r;
            try {
                r = runSomewhere(new CheckOptions(timeout, listener, control));
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
            if (common.out != null) {
                try {
                    dev.fabricscope.io.SnapshotIO.writeAtomically(common.out, json);
                } catch (java.io.IOException | RuntimeException e) {
                    err.println("fabricscope: cannot write " + common.out + ": " + e.getMessage());
                    return ExitCodes.FAILURE;
                }
            }
            // The answer first (the same status line ends the text), then the details, fitted to 120 columns.
            String text = r.status() + ": " + r.summary() + "\n\n" + CheckText.render(r);
            out.print(common.json ? json : common.wide ? text : dev.fabricscope.render.Fit.wrap(text, dev.fabricscope.render.Fit.WIDTH));
            out.flush();
            return exitCode(r.status());
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
                CudaJna.Result driver = driverProbe.get();
                r = driver.cuda() == null && driver.noDriver() ? noDriver("no NVIDIA driver: " + driver.failure())
                        : runCheck(new CheckOptions(timeout, listener, control));
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
            return exitCode(r.status());
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
            try (dev.fabricscope.nativeapi.NvmlGpus nvml = dev.fabricscope.nativeapi.NvmlGpus.open()) {
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

    /** Where a check's child process is started from (replaced in tests). */
    static volatile Supplier<CheckProcess.Launcher> launcher = CheckProcess.Launcher::current;

    static int exitCode(CheckStatus s) {
        return switch (s) {
            case PASSED, SKIPPED -> ExitCodes.OK;
            case FAILED, TIMED_OUT, CANCELLED -> ExitCodes.CHECK_FAILED;
            case ERROR -> ExitCodes.FAILURE;
        };
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

        @Override
        String name() {
            return PreflightCheck.NAME;
        }

        @Override
        Duration defaultTimeout() {
            return PreflightCheck.DEFAULT_TIMEOUT;
        }

        @Override
        CheckResult noDriver(String message) {
            return new PreflightResult(PreflightCheck.NAME, CheckStatus.SKIPPED, message, null, List.of(), null, List.of(),
                    message, List.of(), MemoryAudit.none("no GPU used"));
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            return PreflightCheck.run(request(), options);
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

        @Override
        Class<? extends CheckResult> resultType() {
            return PreflightResult.class;
        }

        @Override
        CheckResult failed(CheckStatus status, String message, MemoryAudit memory) {
            return new PreflightResult(PreflightCheck.NAME, status, message, null, List.of(), null, List.of(), null,
                    List.of(), memory);
        }

        PreflightCheck.Request request() {
            try {
                return new PreflightCheck.Request(worldSize, maxTokens, hidden, dtype);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() {
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

        @Override
        Class<? extends CheckResult> resultType() {
            return P2pResult.class;
        }

        @Override
        CheckResult failed(CheckStatus status, String message, MemoryAudit memory) {
            return new P2pResult(P2pCheck.NAME, status, message, null, List.of(), List.of(), List.of(), memory);
        }

        @Override
        String name() {
            return P2pCheck.NAME;
        }

        @Override
        Duration defaultTimeout() {
            return P2pCheck.DEFAULT_TIMEOUT;
        }

        @Override
        CheckResult noDriver(String message) {
            return new P2pResult(P2pCheck.NAME, CheckStatus.SKIPPED, message, null, List.of(), List.of(), List.of(),
                    MemoryAudit.none("no GPU used"));
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            MachineSnapshot snapshot;
            try {
                snapshot = snapshotFile != null ? dev.fabricscope.io.SnapshotIO.read(snapshotFile)
                        : new LiveProbe(Main.argv, null).probe();
            } catch (dev.fabricscope.io.SnapshotIO.ReadException e) {
                snapshot = null;
            } catch (RuntimeException e) {
                // e.g. NVSwitch far ends whose PCI address reads all-ones (fixed in the probe by issue 11): the
                // theoretical link figures are then unknown, the measurements still run
                snapshot = null;
                options.listener().onEvent(new dev.fabricscope.check.CheckEvent(P2pCheck.NAME,
                        dev.fabricscope.check.CheckEvent.Kind.WARNING, "machine snapshot failed, theoretical link "
                        + "bandwidth unknown: " + e.getMessage(), -1));
            }
            return P2pCheck.run(request(), snapshot, options);
        }

        P2pCheck.Request request() {
            try {
                return new P2pCheck.Request(buffer, reps, hops);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() {
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

        @Override
        String name() {
            return AllReduceCheck.NAME;
        }

        @Override
        Duration defaultTimeout() {
            return AllReduceCheck.DEFAULT_TIMEOUT;
        }

        @Override
        CheckResult noDriver(String message) {
            return new AllReduceResult(AllReduceCheck.NAME, CheckStatus.SKIPPED, message, null, null, null, null,
                    List.of(), List.of(), MemoryAudit.none("no GPU used"));
        }

        @Override
        CheckResult runCheck(CheckOptions options) {
            return AllReduceCheck.run(request(), options);
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

        @Override
        Class<? extends CheckResult> resultType() {
            return AllReduceResult.class;
        }

        @Override
        CheckResult failed(CheckStatus status, String message, MemoryAudit memory) {
            return new AllReduceResult(AllReduceCheck.NAME, status, message, null, null, null, null, List.of(), List.of(),
                    memory);
        }

        AllReduceCheck.Request request() {
            try {
                List<AllReduceMath.DType> types = dtypes.stream().map(String::trim).map(AllReduceMath.DType::parse).distinct().toList();
                return new AllReduceCheck.Request(AllReduceCheck.Request.parseImpls(impl), minBytes, maxBytes, types, warmup,
                        iters, AllReduceCheck.Request.parseModes(mode), graphLaunches, threadPerGpu, ncclLib);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        @Override
        public Integer call() {
            request();
            return super.call();
        }
    }

    /** {@code 8}, {@code 64K}, {@code 256M}, {@code 1G} (binary multiples, as nccl-tests reads them). */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        private static final Pattern FORM = Pattern.compile("^(\\d+)([kKmMgG]?)[bB]?$");

        @Override
        public Long convert(String value) {
            Matcher m = FORM.matcher(value.trim());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("not a size: '" + value + "' (e.g. 8, 64K, 256M, 1G)");
            }
            long v = Long.parseLong(m.group(1));
            int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
                case "K" -> 10;
                case "M" -> 20;
                case "G" -> 30;
                default -> 0;
            };
            if (v > (Long.MAX_VALUE >> shift)) {
                throw new CommandLine.TypeConversionException("size too large: " + value);
            }
            return v << shift;
        }
    }
}
