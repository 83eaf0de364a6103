package dev.fabricscope.check;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.fabricscope.check.AllReduceMath.DType;
import dev.fabricscope.nativeapi.cuda.CudaJna;
import dev.fabricscope.nativeapi.cuda.LibCuda;
import dev.fabricscope.nativeapi.nccl.Nccl;
import dev.fabricscope.nativeapi.nccl.NcclCollectivesLibrary;
import dev.fabricscope.nativeapi.nccl.NcclEnvironment;
import dev.fabricscope.nativeapi.nccl.NcclLocator;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import jcuda.driver.CUstream;

/**
 * All-reduce smoke test over all local GPUs, in one process:
 * <ul>
 * <li>NCCL through JNA: {@code ncclCommInitAll}, then per size {@code ncclGroupStart}, one {@code ncclAllReduce}
 *     per GPU on its own non-blocking stream, {@code ncclGroupEnd} (NVIDIA's single-thread multi-GPU pattern);</li>
 * <li>the one-shot P2P kernel of {@code native/oneshot_allreduce.cu}: each GPU reads every GPU's input over P2P
 *     and sums, with a flag barrier on entry and exit.</li>
 * </ul>
 * Timing as nccl-tests: warm-up, then the host clock around {@code iters} back-to-back operations and a busy-wait
 * for completion; the result of the last operation is compared element by element with the exact sum.
 * {@code NCCL_NVLS_ENABLE=0} is set before NCCL starts, so NCCL never creates multicast objects.
 */
public final class AllReduceCheck {

    public static final String NAME = "allreduce";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);
    static final byte POISON = (byte) 0xff;

    /**
     * @param impl     nccl, oneshot or all
     * @param minBytes first size
     * @param maxBytes last size
     * @param dtypes   data types
     * @param warmup   untimed iterations per size
     * @param iters    timed iterations per size
     * @param ncclLib  explicit libnccl.so.2, or null to search
     */
    public record Request(String impl, long minBytes, long maxBytes, List<DType> dtypes, int warmup, int iters,
                          String ncclLib) {
        public Request {
            if (!List.of("nccl", "oneshot", "all").contains(impl)) {
                throw new IllegalArgumentException("--impl must be nccl, oneshot or all");
            }
            AllReduceMath.sizes(minBytes, maxBytes, 2);
            if (maxBytes > (1L << 30)) {
                throw new IllegalArgumentException("--max-bytes is limited to 1 GiB");
            }
            if (dtypes == null || dtypes.isEmpty()) {
                throw new IllegalArgumentException("at least one --dtype");
            }
            dtypes = List.copyOf(dtypes);
            if (warmup < 0 || iters < 1) {
                throw new IllegalArgumentException("--iters must be ≥ 1 and --warmup ≥ 0");
            }
        }

        public static Request defaults() {
            return new Request("all", 8, 256L << 20, List.of(DType.BF16, DType.FP32), 5, 20, null);
        }

        boolean nccl() {
            return !impl.equals("oneshot");
        }

        boolean oneShot() {
            return !impl.equals("nccl");
        }
    }

    private AllReduceCheck() {
    }

    public static AllReduceResult run(Request req, CheckOptions options) {
        return CheckRunner.run(NAME, options, ctx -> new Run(req, ctx).execute(), (status, message) ->
                new AllReduceResult(NAME, status, message, null, null, null, List.of(), List.of(),
                        MemoryAudit.none("not measured: " + message)));
    }

    /** One run's state. */
    private static final class Run {
        final Request req;
        final CheckContext ctx;
        final List<AllReduceResult.Row> rows = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<Long> sizes;
        GpuSession s;
        int n;
        long[] send;
        long[] recv;
        Memory host;
        int stepsDone;
        int stepsTotal;

        Run(Request req, CheckContext ctx) {
            this.req = req;
            this.ctx = ctx;
            this.sizes = AllReduceMath.sizes(req.minBytes(), req.maxBytes(), 2);
        }

        AllReduceResult execute() {
            try {
                s = GpuSession.open();
            } catch (NoDriverException e) {
                return new AllReduceResult(NAME, CheckStatus.SKIPPED, e.getMessage(), null, null, null, List.of(),
                        List.of(), MemoryAudit.none("no GPU used"));
            }
            n = s.size();
            AllReduceResult.Params params = new AllReduceResult.Params(n, req.minBytes(), req.maxBytes(),
                    req.dtypes().stream().map(d -> d.flag).toList(), req.warmup(), req.iters());
            stepsTotal = ((req.nccl() ? 1 : 0) + (req.oneShot() ? 1 : 0)) * req.dtypes().size() * sizes.size();
            AllReduceResult.Impl nccl = null;
            AllReduceResult.Impl oneShot = null;
            CheckStatus abortStatus = null;
            String abortMessage = null;
            NcclPart ncclPart = null;
            OneShotPart oneShotPart = null;
            try {
                long bytes = WorkspaceSizing.ceilAlign(req.maxBytes(), 16);
                send = new long[n];
                recv = new long[n];
                for (int i = 0; i < n; i++) {
                    send[i] = s.alloc(i, bytes);
                    recv[i] = s.alloc(i, bytes);
                }
                host = new Memory(bytes);
                if (req.nccl()) {
                    ncclPart = new NcclPart();
                    nccl = ncclPart.run();
                }
                if (req.oneShot()) {
                    try {
                        oneShotPart = new OneShotPart();
                        oneShot = oneShotPart.run();
                    } catch (CheckAbortedException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        oneShot = new AllReduceResult.Impl("oneshot", CheckStatus.ERROR, e.getMessage());
                    }
                }
            } catch (CheckAbortedException e) {
                abortStatus = e.status();
                abortMessage = e.getMessage();
                if (ncclPart != null && ncclPart.abortIfRunning()) {
                    notes.add("ncclCommAbort called on " + n + " communicator(s) after: " + e.getMessage());
                }
            } catch (RuntimeException e) {
                abortStatus = CheckStatus.ERROR;
                abortMessage = e.getMessage();
                if (ncclPart != null && ncclPart.abortIfRunning()) {
                    notes.add("ncclCommAbort called on " + n + " communicator(s) after: " + e.getMessage());
                }
            } finally {
                if (host != null) {
                    host.close();
                }
                s.close();
            }
            if (abortStatus != null) {
                // the part that was running when the check stopped: keep what it had found
                if (ncclPart != null && nccl == null) {
                    nccl = new AllReduceResult.Impl("nccl", abortStatus, (ncclPart.detail == null ? "" : ncclPart.detail
                            + "; ") + "stopped: " + abortMessage);
                } else if (oneShotPart != null && oneShot == null) {
                    oneShot = new AllReduceResult.Impl("oneshot", abortStatus, (oneShotPart.detail == null ? ""
                            : oneShotPart.detail + "; ") + "stopped: " + abortMessage);
                }
            }
            if (n == 1) {
                notes.add("World size 1: one GPU, so NCCL's all-reduce is a local copy and the one-shot kernel reads only its "
                        + "own buffer; busbw = algbw × 2(n−1)/n = 0 by the nccl-tests formula.");
            }
            notes.add("Out-of-place; time = host clock over " + req.iters() + " back-to-back operations after " + req.warmup()
                    + " warm-up, per operation (as nccl-tests); algbw = bytes / time (GB = 1e9); busbw = algbw × 2(n−1)/n; "
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
                for (AllReduceResult.Impl impl : new AllReduceResult.Impl[] {nccl, oneShot}) {
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
                summary = summary(nccl, oneShot, wrong);
            }
            return new AllReduceResult(NAME, status, summary, params, nccl, oneShot, rows, notes, s.audit());
        }

        String summary(AllReduceResult.Impl nccl, AllReduceResult.Impl oneShot, long wrong) {
            List<String> parts = new ArrayList<>();
            for (AllReduceResult.Impl impl : new AllReduceResult.Impl[] {nccl, oneShot}) {
                if (impl != null) {
                    parts.add(impl.name() + " " + impl.status().name().toLowerCase(Locale.ROOT));
                }
            }
            return "world size " + n + ": " + String.join(", ", parts) + "; " + rows.size() + " measurements, "
                    + (wrong == 0 ? "all results exact" : wrong + " wrong element(s)");
        }

        void fill(DType t) {
            long count = req.maxBytes() / t.size;
            ByteBuffer b = host.getByteBuffer(0, count * t.size);
            for (int i = 0; i < n; i++) {
                ctx.checkpoint();
                AllReduceMath.fillInput(b, t, i, count);
                s.makeCurrent(i);
                s.cuda().check("cuMemcpyHtoD", s.lib().cuMemcpyHtoD_v2(send[i], host, count * t.size));
            }
        }

        void poison(long bytes) {
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                s.cuda().check("cuMemsetD8", s.lib().cuMemsetD8_v2(recv[i], POISON, Math.min(bytes + 16, req.maxBytes())));
                s.cuda().check("cuCtxSynchronize", s.lib().cuCtxSynchronize());
            }
        }

        long wrong(DType t, long count) {
            long wrong = 0;
            long bytes = count * t.size;
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                s.cuda().check("cuMemcpyDtoH", s.lib().cuMemcpyDtoH_v2(host, recv[i], bytes));
                wrong += AllReduceMath.countWrong(host.getByteBuffer(0, bytes), t, n, count);
            }
            return wrong;
        }

        /** Times {@code op} as nccl-tests does: warm-up, then the host clock around {@code iters} operations. */
        long time(Runnable op, Runnable await) {
            for (int w = 0; w < req.warmup(); w++) {
                op.run();
            }
            await.run();
            long t0 = System.nanoTime();
            for (int it = 0; it < req.iters(); it++) {
                op.run();
            }
            await.run();
            return System.nanoTime() - t0;
        }

        /** One row; {@code inPlaceNanos}/{@code inPlaceWrong} null when there is no in-place variant. */
        void record(String impl, DType t, long bytes, long count, long nanos, long wrong, Long inPlaceNanos, Long inPlaceWrong) {
            double seconds = nanos / 1e9 / req.iters();
            double alg = AllReduceMath.algBandwidth(bytes, seconds);
            Double inTime = null;
            Double inAlg = null;
            Double inBus = null;
            if (inPlaceNanos != null) {
                double s2 = inPlaceNanos / 1e9 / req.iters();
                inTime = round(s2 * 1e6, 2);
                inAlg = round(AllReduceMath.algBandwidth(bytes, s2), 2);
                inBus = round(AllReduceMath.busBandwidth(AllReduceMath.algBandwidth(bytes, s2), n), 2);
            }
            rows.add(new AllReduceResult.Row(impl, t.flag, bytes, count, round(seconds * 1e6, 2), round(alg, 2),
                    round(AllReduceMath.busBandwidth(alg, n), 2), wrong, inTime, inAlg, inBus, inPlaceWrong));
            ctx.progress(String.format(Locale.ROOT, "%s %s %d B: %.2f us, %d wrong", impl, t.flag, bytes, seconds * 1e6,
                    wrong + (inPlaceWrong == null ? 0 : inPlaceWrong)), (double) ++stepsDone / Math.max(1, stepsTotal));
        }

        /** recv ← send on every GPU (stream-ordered), for the in-place runs. */
        void copySendToRecv(Pointer[] streams, long bytes) {
            for (int i = 0; i < n; i++) {
                s.makeCurrent(i);
                s.cuda().check("cuMemcpyAsync", s.lib().cuMemcpyAsync(recv[i], send[i], bytes, streams[i]));
            }
        }

        /** The NCCL half. */
        final class NcclPart {
            String detail;
            Nccl nccl;
            Pointer[] comms;
            Pointer[] streams;
            final AtomicBoolean aborted = new AtomicBoolean();
            boolean live;

            AllReduceResult.Impl run() {
                List<Path> found = NcclLocator.candidates(req.ncclLib(), System.getenv());
                if (found.isEmpty() || !Files.isRegularFile(found.get(0))) {
                    return skip(found.isEmpty() ? "libnccl.so.2 not found (searched Python wheels, LD_LIBRARY_PATH and "
                            + "system library paths; give --nccl-lib PATH)" : "no such file: " + found.get(0));
                }
                try {
                    nccl = Nccl.load(found.get(0));
                } catch (IllegalStateException e) {
                    return skip(e.getMessage());
                }
                String nvls = NcclEnvironment.get("NCCL_NVLS_ENABLE");
                NcclEnvironment.set("NCCL_NVLS_ENABLE", "0");
                detail = "NCCL " + nccl.version() + " from " + nccl.path() + "; NCCL_NVLS_ENABLE=0"
                        + (nvls == null ? " (was unset)" : " (was " + nvls + ")");
                NcclCollectivesLibrary lib = nccl.lib();
                streams = new Pointer[n];
                for (int i = 0; i < n; i++) {
                    streams[i] = s.stream(i);
                }
                Memory commMem = new Memory(8L * n);
                commMem.clear();
                int[] devs = new int[n];
                for (int i = 0; i < n; i++) {
                    devs[i] = s.devices().get(i).ordinal();
                }
                ctx.progress("ncclCommInitAll over " + n + " GPU(s)", -1);
                int rc = lib.ncclCommInitAll(commMem, n, devs);
                if (rc != Nccl.SUCCESS) {
                    return new AllReduceResult.Impl("nccl", CheckStatus.ERROR, detail + "; ncclCommInitAll → " + nccl.describe(rc));
                }
                comms = commMem.getPointerArray(0, n);
                live = true;
                ctx.onAbort(this::abortIfRunning);
                s.track(0, "NCCL communicators", () -> {
                    if (!aborted.get()) {
                        for (Pointer c : comms) {
                            lib.ncclCommDestroy(c);
                        }
                    }
                    live = false;
                });
                try {
                    for (DType t : req.dtypes()) {
                        fill(t);
                        for (long bytes : sizes) {
                            long count = AllReduceMath.count(bytes, t);
                            if (count == 0) {
                                stepsDone++;
                                continue;
                            }
                            ctx.checkpoint();
                            poison(bytes);
                            long outNanos = time(() -> allReduce(t, count, send), () -> await(t, bytes));
                            long outWrong = wrong(t, count);
                            // in place (send = recv): time on a copy of the inputs, then check one fresh operation
                            copySendToRecv(streams, count * t.size);
                            long inNanos = time(() -> allReduce(t, count, recv), () -> await(t, bytes));
                            copySendToRecv(streams, count * t.size);
                            allReduce(t, count, recv);
                            await(t, bytes);
                            record("nccl", t, bytes, count, outNanos, outWrong, inNanos, wrong(t, count));
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
                stepsDone += req.dtypes().size() * sizes.size();
                return new AllReduceResult.Impl("nccl", CheckStatus.SKIPPED, why);
            }

            /** One all-reduce on every GPU inside a group; {@code from} = send (out of place) or recv (in place). */
            void allReduce(DType t, long count, long[] from) {
                NcclCollectivesLibrary lib = nccl.lib();
                check("ncclGroupStart", lib.ncclGroupStart());
                for (int i = 0; i < n; i++) {
                    int rc = lib.ncclAllReduce(CudaJna.devicePointer(from[i]), CudaJna.devicePointer(recv[i]), count,
                            t.ncclType, Nccl.SUM, comms[i], streams[i]);
                    if (rc != Nccl.SUCCESS) {
                        lib.ncclGroupEnd();
                        check("ncclAllReduce(GPU" + i + ")", rc);
                    }
                }
                check("ncclGroupEnd", lib.ncclGroupEnd());
            }

            void await(DType t, long bytes) {
                ctx.await("NCCL all-reduce " + t.flag + " " + bytes + " B", () -> {
                    for (Pointer st : streams) {
                        if (!s.streamDone(st)) {
                            return false;
                        }
                    }
                    return true;
                }, this::asyncError);
            }

            String asyncError() {
                IntByReference e = new IntByReference();
                for (int i = 0; i < n; i++) {
                    int rc = nccl.lib().ncclCommGetAsyncError(comms[i], e);
                    if (rc != Nccl.SUCCESS) {
                        return "ncclCommGetAsyncError → " + nccl.describe(rc);
                    }
                    if (e.getValue() != Nccl.SUCCESS && e.getValue() != Nccl.IN_PROGRESS) {
                        return "GPU" + i + " asynchronous error " + nccl.describe(e.getValue());
                    }
                }
                return null;
            }

            void check(String call, int rc) {
                if (rc != Nccl.SUCCESS) {
                    String last = null;
                    try {
                        last = nccl.lib().ncclGetLastError(null);
                    } catch (LinkageError | RuntimeException ignored) {
                        // older NCCL
                    }
                    throw new NcclFailure(call + " → " + nccl.describe(rc) + (last == null || last.isBlank() ? "" : " (" + last + ")"));
                }
            }

            /** Aborts every communicator once, if they are live; true when it did. */
            boolean abortIfRunning() {
                if (!live || !aborted.compareAndSet(false, true)) {
                    return false;
                }
                for (Pointer c : comms) {
                    try {
                        nccl.lib().ncclCommAbort(c);
                    } catch (RuntimeException | LinkageError ignored) {
                        // keep aborting the others
                    }
                }
                return true;
            }
        }

        /** The one-shot kernel half. */
        final class OneShotPart {
            String detail;

            AllReduceResult.Impl run() {
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (i != j && !s.canAccessPeer(i, j)) {
                            return skip("no P2P: cuDeviceCanAccessPeer(GPU" + i + ", GPU" + j + ") = 0, so a GPU cannot "
                                    + "read its peers' buffers; the one-shot kernel (like the custom all-reduce kernels "
                                    + "of vLLM, SGLang and TensorRT-LLM) cannot run here");
                        }
                    }
                }
                String jcuda = PtxKernels.jcudaProblem();
                if (jcuda != null) {
                    return skip(jcuda);
                }
                if (n > PtxKernels.MAX_RANKS) {
                    return skip("the kernel supports at most " + PtxKernels.MAX_RANKS + " GPUs");
                }
                LibCuda lib = s.lib();
                PtxKernels[] k = new PtxKernels[n];
                CUstream[] st = new CUstream[n];
                long[] inputs = new long[n];
                long[] signalArrays = new long[n];
                long[] signals = new long[n];
                long[] errors = new long[n];
                long signalBytes = 4L * PtxKernels.MAX_RANKS * PtxKernels.MAX_BLOCKS;
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (i != j) {
                            s.enablePeerAccess(i, j);
                        }
                    }
                    k[i] = PtxKernels.load(s, i);
                    st[i] = k[i].stream();
                    signals[i] = s.alloc(i, signalBytes);
                    s.cuda().check("cuMemsetD8", lib.cuMemsetD8_v2(signals[i], (byte) 0, signalBytes));
                    errors[i] = s.alloc(i, 4);
                    s.cuda().check("cuMemsetD8", lib.cuMemsetD8_v2(errors[i], (byte) 0, 4));
                }
                Memory ptrs = new Memory(8L * n);
                for (int i = 0; i < n; i++) {
                    inputs[i] = s.alloc(i, 8L * n);
                    signalArrays[i] = s.alloc(i, 8L * n);
                    s.makeCurrent(i);
                    for (int r = 0; r < n; r++) {
                        ptrs.setLong(8L * r, send[r]);
                    }
                    s.cuda().check("cuMemcpyHtoD", lib.cuMemcpyHtoD_v2(inputs[i], ptrs, 8L * n));
                    for (int r = 0; r < n; r++) {
                        ptrs.setLong(8L * r, signals[r]);
                    }
                    s.cuda().check("cuMemcpyHtoD", lib.cuMemcpyHtoD_v2(signalArrays[i], ptrs, 8L * n));
                    s.cuda().check("cuCtxSynchronize", lib.cuCtxSynchronize());
                }
                detail = "oneshot_allreduce.ptx (PTX ISA 8.0, sm_70) loaded with JCuda cuModuleLoadData on " + n
                        + " GPU(s); " + (n == 1 ? "world size 1: reads its own buffer only" : "reads " + (n - 1)
                        + " peer buffer(s) over P2P") + "; flag barrier on entry and exit";
                int[] epoch = {0};
                for (DType t : req.dtypes()) {
                    if (t == DType.FP16) {
                        notes.add("one-shot kernel: fp16 not implemented (bf16 and fp32 only); fp16 rows are NCCL only");
                        stepsDone += sizes.size();
                        continue;
                    }
                    fill(t);
                    for (long bytes : sizes) {
                        long count = AllReduceMath.count(bytes, t);
                        if (count == 0) {
                            stepsDone++;
                            continue;
                        }
                        ctx.checkpoint();
                        poison(bytes);
                        Runnable once = () -> {
                            epoch[0]++;
                            for (int i = 0; i < n; i++) {
                                k[i].launchAllReduce(t == DType.BF16, inputs[i], signalArrays[i], recv[i], count, i, n,
                                        epoch[0], errors[i], st[i]);
                            }
                        };
                        long nanos = time(once, () -> awaitAll(k, st, t, bytes));
                        String barrier = barrierError(errors);
                        if (barrier != null) {
                            return new AllReduceResult.Impl("oneshot", CheckStatus.FAILED, detail + "; " + barrier
                                    + " at " + t.flag + " " + bytes + " B");
                        }
                        record("oneshot", t, bytes, count, nanos, wrong(t, count), null, null);
                    }
                }
                return new AllReduceResult.Impl("oneshot", CheckStatus.PASSED, detail);
            }

            AllReduceResult.Impl skip(String why) {
                stepsDone += req.dtypes().size() * sizes.size();
                return new AllReduceResult.Impl("oneshot", CheckStatus.SKIPPED, why);
            }

            void awaitAll(PtxKernels[] k, CUstream[] st, DType t, long bytes) {
                ctx.await("one-shot all-reduce " + t.flag + " " + bytes + " B", () -> {
                    for (int i = 0; i < n; i++) {
                        if (!k[i].done(st[i])) {
                            return false;
                        }
                    }
                    return true;
                }, () -> null);
            }

            String barrierError(long[] errors) {
                Memory flag = new Memory(4);
                for (int i = 0; i < n; i++) {
                    s.makeCurrent(i);
                    s.cuda().check("cuMemcpyDtoH", s.lib().cuMemcpyDtoH_v2(flag, errors[i], 4));
                    if (flag.getInt(0) != 0) {
                        return "GPU" + i + "'s barrier gave up waiting for a peer (spin limit reached)";
                    }
                }
                return null;
            }
        }
    }

    /** An NCCL call failed (not a time-out). */
    static final class NcclFailure extends RuntimeException {
        NcclFailure(String message) {
            super(message);
        }
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
