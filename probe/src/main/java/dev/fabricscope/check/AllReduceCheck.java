package dev.fabricscope.check;

import dev.fabricscope.check.api.AllReduceMath;
import dev.fabricscope.check.api.AllReduceMath.DType;
import dev.fabricscope.check.api.AllReduceRequest;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.WorkspaceSizing;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.nccl.NcclOps;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * All-reduce over all local GPUs, in one process, timed as NVIDIA's nccl-tests times ({@code src/common.cu}
 * {@code BenchTime}): {@code warmup} untimed operations, then the host clock around {@code iters} back-to-back
 * operations and the wait for all streams (also CUDA events on every stream), per operation; in graph mode the
 * {@code iters} operations are captured once per GPU stream ({@code cuStreamBeginCapture}, thread-local), the graphs
 * instantiated outside the timing and replayed {@code graphLaunches} times. Out of place, then in place. Launched
 * from one thread with one group call per operation (nccl-tests {@code -g}) or from one host thread per GPU.
 * <ul>
 * <li>NCCL: {@code ncclCommInitAll}, {@code ncclAllReduce} per GPU on its own non-blocking stream;</li>
 * <li>one-shot and two-shot: the P2P kernels of {@code native/oneshot_allreduce.cu} ({@link CustomAllReduce}).</li>
 * </ul>
 * Every result is compared element by element with the exact sum. {@code NCCL_NVLS_ENABLE=0} is set before NCCL
 * starts, so NCCL never creates multicast objects.
 */
public final class AllReduceCheck {

    public static final String NAME = AllReduceResult.CHECK;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);
    static final byte POISON = (byte) 0xff;

    /** Per-operation times: host clock and CUDA events (slowest GPU), µs. */
    record Timing(double hostUs, double eventUs) {
    }

    private AllReduceCheck() {
    }

    /** On this machine's GPUs. */
    public static AllReduceResult run(AllReduceRequest req, CheckOptions options) {
        return run(req, options, CheckBackends.live(System.getenv()));
    }

    /** Through {@code backends}: the driver, or a trace being recorded or replayed. */
    public static AllReduceResult run(AllReduceRequest req, CheckOptions options, CheckBackends backends) {
        return CheckRunner.run(NAME, options, ctx -> new Run(req, ctx, backends).execute(), (status, message) ->
                new AllReduceResult(NAME, status, message, null, null, null, null, List.of(), List.of(),
                        MemoryAudit.none("not measured: " + message)));
    }

    /** One run's state. */
    private static final class Run {
        final AllReduceRequest req;
        final CheckContext ctx;
        final CheckBackends backends;
        final List<AllReduceResult.Row> rows = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<Long> sizes;
        GpuSession s;
        CudaOps cuda;
        int n;
        long[] send;
        long[] recv;
        long[] streams;
        long[] startEvents;
        long[] endEvents;
        ByteBuffer host;
        ExecutorService threads;
        int stepsDone;
        int stepsTotal;

        Run(AllReduceRequest req, CheckContext ctx, CheckBackends backends) {
            this.req = req;
            this.ctx = ctx;
            this.backends = backends;
            this.sizes = AllReduceMath.sizes(req.minBytes(), req.maxBytes(), 2);
        }

        AllReduceResult execute() {
            try {
                s = GpuSession.open(backends);
            } catch (NoDriverException e) {
                return new AllReduceResult(NAME, CheckStatus.SKIPPED, e.getMessage(), null, null, null, null, List.of(),
                        List.of(), MemoryAudit.none("no GPU used"));
            }
            cuda = s.cuda();
            n = s.size();
            AllReduceResult.Params params = new AllReduceResult.Params(n, req.minBytes(), req.maxBytes(),
                    req.dtypes().stream().map(d -> d.flag).toList(), req.warmup(), req.iters(), req.modes(),
                    req.graphLaunches(), req.threadPerGpu() ? "per-gpu" : "group");
            stepsTotal = req.impls().size() * req.dtypes().size() * req.modes().size() * sizes.size();
            AllReduceResult.Impl[] impls = new AllReduceResult.Impl[3];
            String[] details = new String[3];
            CheckStatus abortStatus = null;
            String abortMessage = null;
            NcclPart ncclPart = null;
            try {
                long bytes = WorkspaceSizing.ceilAlign(req.maxBytes(), 16);
                send = new long[n];
                recv = new long[n];
                streams = new long[n];
                startEvents = new long[n];
                endEvents = new long[n];
                for (int i = 0; i < n; i++) {
                    send[i] = s.alloc(i, bytes);
                    recv[i] = s.alloc(i, bytes);
                    streams[i] = s.stream(i);
                    startEvents[i] = s.event(i);
                    endEvents[i] = s.event(i);
                }
                host = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 16, bytes));
                if (req.threadPerGpu()) {
                    threads = Executors.newFixedThreadPool(n, r -> {
                        Thread t = new Thread(r, "fabricscope-allreduce-rank");
                        t.setDaemon(true);
                        return t;
                    });
                }
                if (req.impls().contains("nccl")) {
                    ncclPart = new NcclPart();
                    impls[0] = ncclPart.run();
                    details[0] = ncclPart.detail;
                }
                boolean one = req.impls().contains("oneshot");
                boolean two = req.impls().contains("twoshot");
                if (one || two) {
                    CustomPart custom = new CustomPart();
                    String skip = custom.unavailable();
                    for (int k = 1; k <= 2; k++) {
                        boolean wanted = k == 1 ? one : two;
                        if (!wanted) {
                            continue;
                        }
                        String name = k == 1 ? "oneshot" : "twoshot";
                        if (skip != null) {
                            impls[k] = new AllReduceResult.Impl(name, CheckStatus.SKIPPED, skip);
                            stepsDone += req.dtypes().size() * req.modes().size() * sizes.size();
                            continue;
                        }
                        try {
                            impls[k] = custom.run(k == 2);
                        } catch (CheckAbortedException e) {
                            details[k] = custom.detail;
                            throw e;
                        } catch (RuntimeException e) {
                            impls[k] = new AllReduceResult.Impl(name, CheckStatus.ERROR,
                                    (custom.detail == null ? "" : custom.detail + "; ") + e.getMessage());
                        }
                        details[k] = custom.detail;
                        if (impls[k].status() == CheckStatus.FAILED && impls[k].detail().contains("barrier gave up")) {
                            skip = "not run: the " + name + " kernel's barrier gave up before";
                        }
                    }
                }
            } catch (CheckAbortedException e) {
                abortStatus = e.status();
                abortMessage = e.getMessage();
            } catch (RuntimeException e) {
                abortStatus = CheckStatus.ERROR;
                abortMessage = e.getMessage();
            } finally {
                if (abortStatus != null && ncclPart != null && ncclPart.abortIfRunning()) {
                    notes.add("ncclCommAbort called on " + n + " communicator(s) after: " + abortMessage);
                }
                if (threads != null) {
                    threads.shutdownNow();
                }
                s.close();
            }
            if (abortStatus != null) {
                // the part that was running when the check stopped: keep what it had found
                for (int k = 0; k < 3; k++) {
                    String name = AllReduceRequest.IMPLS.get(k);
                    if (impls[k] == null && req.impls().contains(name)) {
                        impls[k] = new AllReduceResult.Impl(name, abortStatus, (details[k] == null ? "" : details[k] + "; ")
                                + "stopped: " + abortMessage);
                        break;
                    }
                }
            }
            if (n == 1) {
                notes.add("World size 1: one GPU, so NCCL's all-reduce is a local copy and the custom kernels read only "
                        + "their own buffer; busbw = algbw × 2(n−1)/n = 0 by the nccl-tests formula.");
            }
            notes.add("Timing as nccl-tests: before each sweep " + req.warmup() + " warm-up operations at every size "
                    + "(nccl-tests' 'warm-up for all sizes') and the first size's whole timing, untimed, until two passes agree within "
                    + "10 %, so no size "
                    + "pays a warm-up the others do not; then per size " + req.warmup() + " warm-up, the host clock around " + req.iters()
                    + " back-to-back operations and the wait for every stream, per operation (time); CUDA events on every "
                    + "stream around the same operations, slowest GPU (event); graph mode: the " + req.iters()
                    + " operations captured once per GPU, replayed " + req.graphLaunches() + "×, per operation. "
                    + (req.threadPerGpu() ? "One host thread per GPU." : "One host thread, one group call per operation "
                    + "(nccl-tests -g " + n + ").") + " algbw = bytes / time (GB = 1e9); busbw = algbw × 2(n−1)/n; "
                    + "#wrong = elements, over all ranks, that differ from the exact sum.");
            if (!s.cleanupErrors().isEmpty()) {
                notes.add("Clean-up problems: " + String.join("; ", s.cleanupErrors()));
            }
            CheckStatus status;
            String summary;
            if (abortStatus != null) {
                status = abortStatus;
                summary = abortMessage;
            } else {
                status = CheckStatus.PASSED;
                boolean anyRan = false;
                for (AllReduceResult.Impl impl : impls) {
                    if (impl != null && impl.status() != CheckStatus.SKIPPED) {
                        anyRan = true;
                        status = status.worse(impl.status());
                    }
                }
                if (!anyRan) {
                    status = CheckStatus.SKIPPED;
                }
                long wrong = rows.stream().mapToLong(AllReduceResult.Row::totalWrong).sum();
                if (wrong > 0) {
                    status = status.worse(CheckStatus.FAILED);
                }
                summary = summary(impls, wrong);
            }
            return new AllReduceResult(NAME, status, summary, params, impls[0], impls[1], impls[2], rows, notes, s.audit());
        }

        String summary(AllReduceResult.Impl[] impls, long wrong) {
            List<String> parts = new ArrayList<>();
            for (AllReduceResult.Impl impl : impls) {
                if (impl != null) {
                    parts.add(impl.name() + " " + impl.status().name().toLowerCase(Locale.ROOT));
                }
            }
            return "world size " + n + ": " + String.join(", ", parts) + "; " + rows.size() + " measurements, "
                    + (wrong == 0 ? "all results exact" : wrong + " wrong element(s)");
        }

        void fill(DType t) {
            long count = Math.min(req.maxBytes(), host.capacity()) / t.size;
            for (int i = 0; i < n; i++) {
                ctx.checkpoint();
                AllReduceMath.fillInput(host, t, i, count);
                s.makeCurrent(i);
                cuda.copyToDevice(send[i], host, count * t.size);
            }
        }

        void poison(long bytes) {
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                cuda.memset8(recv[i], POISON, Math.min(bytes + 16, WorkspaceSizing.ceilAlign(req.maxBytes(), 16)));
                cuda.synchronize();
            }
        }

        long wrong(DType t, long count) {
            long wrong = 0;
            long bytes = count * t.size;
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                cuda.copyToHost(host, recv[i], bytes);
                wrong += AllReduceMath.countWrong(host, t, n, count);
            }
            return wrong;
        }

        /** recv ← send on every GPU (stream-ordered), for the in-place runs. */
        void copySendToRecv(long bytes) {
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                cuda.copyAsync(recv[i], send[i], bytes, streams[i]);
            }
        }

        void awaitAll(PreparedAllReduce op, String what) {
            ctx.await(what, () -> {
                for (long st : streams) {
                    if (!s.streamDone(st)) {
                        return false;
                    }
                }
                return true;
            }, op::asyncError);
        }

        void recordAll(long[] events) {
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                cuda.recordEvent(events[i], streams[i]);
            }
        }

        double slowestEventUs(int ops) {
            double worst = 0;
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                worst = Math.max(worst, s.elapsedMs(startEvents[i], endEvents[i]));
            }
            return worst * 1e3 / ops;
        }

        /** Warm-up, then the timed operations (plain or graph), as nccl-tests. */
        Timing time(PreparedAllReduce op, boolean graph, String what) {
            for (int w = 0; w < req.warmup(); w++) {
                op.all();
            }
            awaitAll(op, what + " (warm-up)");
            if (req.threadPerGpu()) {
                return timeThreads(op, graph, what);
            }
            long[] execs = null;
            if (graph) {
                execs = new long[n];
                long[] graphs = new long[n];
                for (int i = 0; i < n; i++) {
                    s.makeCurrent(i);
                    cuda.beginCapture(streams[i]);
                }
                try {
                    for (int it = 0; it < req.iters(); it++) {
                        op.all();
                    }
                } finally {
                    for (int i = 0; i < n; i++) {
                        s.makeCurrent(i);
                        graphs[i] = cuda.endCapture(streams[i]);
                    }
                }
                for (int i = 0; i < n; i++) {
                    s.makeCurrent(i);
                    execs[i] = cuda.instantiate(graphs[i]);
                    cuda.destroyGraph(graphs[i]);
                }
            }
            try {
                recordAll(startEvents);
                long t0 = s.nanoTime(-1);
                if (graph) {
                    for (int l = 0; l < req.graphLaunches(); l++) {
                        for (int i = 0; i < n; i++) {
                            s.makeCurrent(i);
                            cuda.launchGraph(execs[i], streams[i]);
                        }
                    }
                } else {
                    for (int it = 0; it < req.iters(); it++) {
                        op.all();
                    }
                }
                recordAll(endEvents);
                awaitAll(op, what);
                long t1 = s.nanoTime(-1);
                int ops = req.iters() * (graph ? req.graphLaunches() : 1);
                return new Timing((t1 - t0) / 1e3 / ops, slowestEventUs(ops));
            } finally {
                if (execs != null) {
                    for (int i = 0; i < n; i++) {
                        s.makeCurrent(i);
                        cuda.destroyGraphExec(execs[i]);
                    }
                }
            }
        }

        /** One host thread per GPU, started together; the slowest thread's host time. */
        Timing timeThreads(PreparedAllReduce op, boolean graph, String what) {
            CyclicBarrier together = new CyclicBarrier(n);
            AtomicBoolean stop = new AtomicBoolean();
            List<Future<Long>> futures = new ArrayList<>();
            int ops = req.iters() * (graph ? req.graphLaunches() : 1);
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(threads.submit(() -> {
                    s.makeCurrent(rank);
                    long exec = 0;
                    if (graph) {
                        cuda.beginCapture(streams[rank]);
                        try {
                            for (int it = 0; it < req.iters(); it++) {
                                op.rank(rank);
                            }
                        } finally {
                            long g = cuda.endCapture(streams[rank]);
                            exec = cuda.instantiate(g);
                            cuda.destroyGraph(g);
                        }
                    }
                    try {
                        together.await();
                        cuda.recordEvent(startEvents[rank], streams[rank]);
                        long t0 = s.nanoTime(rank);
                        if (graph) {
                            for (int l = 0; l < req.graphLaunches(); l++) {
                                cuda.launchGraph(exec, streams[rank]);
                            }
                        } else {
                            for (int it = 0; it < req.iters(); it++) {
                                op.rank(rank);
                            }
                        }
                        cuda.recordEvent(endEvents[rank], streams[rank]);
                        while (!cuda.streamDone(streams[rank]) && !stop.get()) {
                            Thread.onSpinWait();
                        }
                        return s.nanoTime(rank) - t0;
                    } finally {
                        if (exec != 0) {
                            cuda.destroyGraphExec(exec);
                        }
                    }
                }));
            }
            long worst = 0;
            try {
                for (Future<Long> f : futures) {
                    while (!f.isDone()) {
                        ctx.checkpoint();
                        String e = op.asyncError();
                        if (e != null) {
                            throw new IllegalStateException(what + ": " + e);
                        }
                        Thread.sleep(0, 200_000);
                    }
                    worst = Math.max(worst, f.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CheckAbortedException(CheckStatus.CANCELLED, "interrupted during: " + what);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable c = e.getCause() == null ? e : e.getCause();
                throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
            } finally {
                stop.set(true);
            }
            return new Timing(worst / 1e3 / ops, slowestEventUs(ops));
        }

        /**
         * Before a sweep, as nccl-tests before its own (common.cu, "Warm-up for all sizes"): {@code -w} operations at
         * every size; then the first size's whole timing (plain or graph) once, untimed: the JVM compiles the launch
         * path on use, so without it the first timed size would run slower code than every later one.
         */
        void warmUp(String impl, String mode, DType t,
                    java.util.function.LongFunction<java.util.function.BiFunction<long[], long[], PreparedAllReduce>> prepare) {
            boolean first = true;
            for (long bytes : sizes) {
                long count = AllReduceMath.count(bytes, t);
                if (count == 0) {
                    continue;
                }
                ctx.checkpoint();
                String what = impl + " " + mode + " " + t.flag + " " + bytes + " B (sweep warm-up)";
                try (PreparedAllReduce op = prepare.apply(count).apply(send, recv)) {
                    for (int w = 0; w < req.warmup(); w++) {
                        op.all();
                    }
                    awaitAll(op, what);
                    if (first) {
                        rehearse(op, mode.equals("graph"), what);
                        first = false;
                    }
                }
            }
        }

        /** Most untimed passes of the first size's timing before a sweep. */
        static final int MAX_REHEARSALS = 8;

        /**
         * The whole timing of one size, untimed, until two passes in a row agree within 10 % (at most
         * {@link #MAX_REHEARSALS}): by then the JVM has compiled the launch path and the first timed size runs the
         * code every later size runs (one pass was not enough on the H200: docs/benchmarks.md, issue 31).
         */
        void rehearse(PreparedAllReduce op, boolean graph, String what) {
            double last = Double.NaN;
            for (int k = 0; k < MAX_REHEARSALS; k++) {
                double t = time(op, graph, what).hostUs();
                if (Math.abs(t - last) <= 0.1 * t) {
                    return;
                }
                last = t;
            }
        }

        /** Out of place and in place at one size, one row. */
        void measure(String impl, String mode, DType t, long bytes, long count, java.util.function.BiFunction<long[], long[], PreparedAllReduce> prepare) {
            ctx.checkpoint();
            boolean graph = mode.equals("graph");
            String what = impl + " " + mode + " " + t.flag + " " + bytes + " B";
            poison(bytes);
            Timing out;
            long outWrong;
            try (PreparedAllReduce op = prepare.apply(send, recv)) {
                out = time(op, graph, what);
                outWrong = wrong(t, count);
            }
            Timing in;
            long inWrong;
            try (PreparedAllReduce op = prepare.apply(recv, recv)) {
                copySendToRecv(count * t.size);
                in = time(op, graph, what + " in place");
                copySendToRecv(count * t.size);
                op.all();
                awaitAll(op, what + " in place (check)");
                inWrong = wrong(t, count);
            }
            double alg = AllReduceMath.algBandwidth(bytes, out.hostUs() / 1e6);
            double inAlg = AllReduceMath.algBandwidth(bytes, in.hostUs() / 1e6);
            rows.add(new AllReduceResult.Row(impl, t.flag, bytes, count, round(out.hostUs(), 2), round(alg, 2),
                    round(AllReduceMath.busBandwidth(alg, n), 2), outWrong, round(in.hostUs(), 2), round(inAlg, 2),
                    round(AllReduceMath.busBandwidth(inAlg, n), 2), inWrong, mode, round(out.eventUs(), 2),
                    round(in.eventUs(), 2)));
            ctx.progress(String.format(Locale.ROOT, "%s %s %s %d B: %.2f us, %d wrong", impl, mode, t.flag, bytes,
                    out.hostUs(), outWrong + inWrong), (double) ++stepsDone / Math.max(1, stepsTotal));
        }

        /** The NCCL part. */
        final class NcclPart {
            String detail;
            NcclOps nccl;
            long[] comms;
            final AtomicBoolean aborted = new AtomicBoolean();
            volatile boolean live;

            AllReduceResult.Impl run() {
                Opened<NcclOps> o = NcclOps.open(backends.nccl(), req.ncclLib());
                if (!o.isOpen()) {
                    return skip(o.failure());
                }
                nccl = o.value();
                String nvls = nccl.setEnvironment("NCCL_NVLS_ENABLE", "0");
                detail = "NCCL " + nccl.version() + " from " + nccl.path() + "; NCCL_NVLS_ENABLE=0"
                        + (nvls == null ? " (was unset)" : " (was " + nvls + ")");
                int[] devs = new int[n];
                for (int i = 0; i < n; i++) {
                    devs[i] = s.devices().get(i).ordinal();
                }
                ctx.progress("ncclCommInitAll over " + n + " GPU(s)", -1);
                try {
                    comms = nccl.initAll(devs);
                } catch (NcclOps.NcclCallException e) {
                    return new AllReduceResult.Impl("nccl", CheckStatus.ERROR, detail + "; " + e.getMessage());
                }
                live = true;
                ctx.onAbort(this::abortIfRunning);
                s.track(0, "NCCL communicators", () -> {
                    if (!aborted.get()) {
                        for (long c : comms) {
                            nccl.destroy(c);
                        }
                    }
                    live = false;
                });
                try {
                    for (DType t : req.dtypes()) {
                        fill(t);
                        for (String mode : req.modes()) {
                            warmUp("nccl", mode, t, count -> (from, to) -> new Op(t, count, from, to));
                            for (long bytes : sizes) {
                                long count = AllReduceMath.count(bytes, t);
                                if (count == 0) {
                                    stepsDone++;
                                    continue;
                                }
                                measure("nccl", mode, t, bytes, count, (from, to) -> new Op(t, count, from, to));
                            }
                        }
                    }
                } catch (CheckAbortedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    boolean abortedNow = abortIfRunning();
                    return new AllReduceResult.Impl("nccl", CheckStatus.ERROR, detail + "; " + e.getMessage()
                            + (abortedNow ? "; ncclCommAbort called on " + n + " communicator(s)" : ""));
                }
                return new AllReduceResult.Impl("nccl", CheckStatus.PASSED, detail);
            }

            AllReduceResult.Impl skip(String why) {
                stepsDone += req.dtypes().size() * req.modes().size() * sizes.size();
                return new AllReduceResult.Impl("nccl", CheckStatus.SKIPPED, why);
            }

            /** Each rank's name in an error, made once: no string is built per timed call. */
            final String[] labels = java.util.stream.IntStream.range(0, n).mapToObj(i -> "GPU" + i).toArray(String[]::new);

            /** One all-reduce per GPU: from[i] → to[i]. */
            final class Op implements PreparedAllReduce {
                final DType t;
                final long count;
                final long[] from;
                final long[] to;

                Op(DType t, long count, long[] from, long[] to) {
                    this.t = t;
                    this.count = count;
                    this.from = from;
                    this.to = to;
                }

                @Override
                public void all() {
                    nccl.groupStart();
                    try {
                        for (int i = 0; i < n; i++) {
                            nccl.allReduce(from[i], to[i], count, t.ncclType, comms[i], streams[i], labels[i]);
                        }
                    } finally {
                        nccl.groupEnd();
                    }
                }

                @Override
                public void rank(int r) {
                    nccl.allReduce(from[r], to[r], count, t.ncclType, comms[r], streams[r], labels[r]);
                }

                @Override
                public String asyncError() {
                    for (int i = 0; i < n; i++) {
                        String e = nccl.asyncError(comms[i]);
                        if (e != null) {
                            return "GPU" + i + " asynchronous error " + e;
                        }
                    }
                    return null;
                }

                @Override
                public void close() {
                }
            }

            /** Aborts every communicator once, if they are live; true when it did. */
            boolean abortIfRunning() {
                if (!live || !aborted.compareAndSet(false, true)) {
                    return false;
                }
                for (long c : comms) {
                    try {
                        nccl.abort(c);
                    } catch (RuntimeException | LinkageError ignored) {
                        // keep aborting the others
                    }
                }
                return true;
            }
        }

        /** The one-shot and two-shot kernels (set up once, shared). */
        final class CustomPart {
            String detail;
            CustomAllReduce kernels;

            /** Why the kernels cannot run here, or null. */
            String unavailable() {
                if (n > PtxKernels.MAX_RANKS) {
                    return "the kernels support at most " + PtxKernels.MAX_RANKS + " GPUs";
                }
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (i != j && !s.canAccessPeer(i, j)) {
                            return "no P2P: cuDeviceCanAccessPeer(GPU" + i + ", GPU" + j + ") = 0, so a GPU cannot read "
                                    + "its peers' buffers; custom all-reduce kernels (vLLM, SGLang, TensorRT-LLM) cannot "
                                    + "run here";
                        }
                    }
                }
                return null;
            }

            AllReduceResult.Impl run(boolean twoShot) {
                String name = twoShot ? "twoshot" : "oneshot";
                if (kernels == null) {
                    kernels = new CustomAllReduce(s, WorkspaceSizing.ceilAlign(req.maxBytes(), 16));
                }
                detail = PtxKernels.source() + " (PTX ISA 8.0, sm_70) loaded with cuModuleLoadData on " + n + " GPU(s); "
                        + (twoShot ? "reduce-scatter + all-gather, two flag barriers per operation"
                        : "every rank sums all ranks' staged inputs, one flag barrier per operation")
                        + "; buffers and peer pointers set up once";
                for (DType t : req.dtypes()) {
                    if (t == DType.FP16) {
                        notes.add(name + " kernel: fp16 not implemented (bf16 and fp32 only); fp16 rows are NCCL only");
                        stepsDone += req.modes().size() * sizes.size();
                        continue;
                    }
                    fill(t);
                    for (String mode : req.modes()) {
                        warmUp(name, mode, t, count -> (from, to) -> kernels.new Op(twoShot, t, count, from, to, streams));
                        for (long bytes : sizes) {
                            long count = AllReduceMath.count(bytes, t);
                            if (count == 0) {
                                stepsDone++;
                                continue;
                            }
                            measure(name, mode, t, bytes, count,
                                    (from, to) -> kernels.new Op(twoShot, t, count, from, to, streams));
                            String barrier = kernels.barrierError();
                            if (barrier != null) {
                                return new AllReduceResult.Impl(name, CheckStatus.FAILED, detail + "; " + barrier
                                        + " at " + mode + " " + t.flag + " " + bytes + " B");
                            }
                        }
                    }
                }
                return new AllReduceResult.Impl(name, CheckStatus.PASSED, detail);
            }
        }
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
