package dev.fabricscope.probe;

import dev.fabricscope.Trace;
import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.cuda.CudaCalls;
import dev.fabricscope.nativeapi.cuda.CudaDriver;
import dev.fabricscope.nativeapi.cuda.JnaCuda;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Starts the probe's native reads on background threads as soon as the CLI knows it will probe, so they overlap
 * the JVM's start and argument parsing: NVML is opened and read whole (then shut down) while libcuda loads, and
 * {@code cuInit} (the slowest step) starts once NVML's read is done. NVML calls made while {@code cuInit} runs wait
 * for it inside the driver (docs/benchmarks.md, start-up round 2), so the two run one after the other, each alone.
 */
public final class NativePrefetch {

    /** At most this long {@code cuInit} waits for NVML's read (a hung NVML must not hold CUDA back). */
    static final long NVML_WAIT_MS = 1_000;

    private static CompletableFuture<CudaDriver.Result> cuda;
    private static CompletableFuture<LiveProbe.NvmlRead> nvml;

    private NativePrefetch() {
    }

    public static synchronized void start() {
        if (cuda != null || nvml != null) {
            return;
        }
        CompletableFuture<LiveProbe.NvmlRead> read = onThread("fabricscope-nvml-read", () -> {
            Nvml.Result open = Nvml.open();
            Trace.mark("nvml opened");
            LiveProbe.NvmlRead r = LiveProbe.readNvml(open);
            Trace.mark("nvml read and shut down");
            return r;
        });
        nvml = read;
        cuda = onThread("fabricscope-cuda-init", () -> {
            CudaCalls calls = CallGuard.guard(CudaCalls.class, "cuda", new JnaCuda(), CallGuard.defaultTimeout());
            CudaDriver.Result r = CudaDriver.open(calls, () -> {
                Trace.mark("libcuda loaded");
                awaitQuietly(read);
            });
            Trace.mark("cuInit returned");
            return r;
        });
    }

    /** {@code s} on a daemon thread of its own (no fork-join pool: its one worker on a 2-core host could be busy). */
    static <T> CompletableFuture<T> onThread(String name, Supplier<T> s) {
        CompletableFuture<T> f = new CompletableFuture<>();
        // an anonymous class, not a lambda: no invokedynamic bootstrap on the critical path
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    f.complete(s.get());
                } catch (RuntimeException | Error e) {
                    f.completeExceptionally(e);
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** Waits up to {@link #NVML_WAIT_MS} for {@code f}, whatever it ends with. */
    static void awaitQuietly(CompletableFuture<?> f) {
        try {
            f.get(NVML_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // cuInit goes ahead; the NVML side reports its own failure
        }
    }

    /** CUDA's open result: the prefetched one, else opened now, {@code cuInit} after {@code nvmlRead}. */
    static synchronized CompletableFuture<CudaDriver.Result> cuda(CompletableFuture<?> nvmlRead) {
        if (cuda != null) {
            return cuda;
        }
        CudaCalls calls = CallGuard.guard(CudaCalls.class, "cuda", new JnaCuda(), CallGuard.defaultTimeout());
        return onThread("fabricscope-cuda-init", () -> CudaDriver.open(calls, () -> awaitQuietly(nvmlRead)));
    }

    /** The prefetched NVML read, handed over once, else a new one (read now, on its own thread). */
    static synchronized CompletableFuture<LiveProbe.NvmlRead> takeNvml() {
        CompletableFuture<LiveProbe.NvmlRead> f = nvml;
        nvml = null;
        return f != null ? f : onThread("fabricscope-nvml-read", () -> LiveProbe.readNvml(Nvml.open()));
    }
}
