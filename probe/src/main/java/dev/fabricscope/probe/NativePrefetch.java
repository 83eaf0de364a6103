package dev.fabricscope.probe;

import dev.fabricscope.Trace;
import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.cuda.CudaReadings;
import dev.fabricscope.nativeapi.cuda.CudaProbeCalls;
import dev.fabricscope.nativeapi.cuda.CudaReader;
import dev.fabricscope.nativeapi.cuda.CudaProbeJna;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Starts the probe's native reads on background threads as soon as the CLI knows it will probe, so they overlap
 * the JVM's start and argument parsing: NVML is opened ({@code nvmlInit}, ~10 ms) while libcuda loads, then
 * {@code cuInit} (the slowest step, ~185 ms, the driver's own cost) starts and NVML is read beside it. An
 * {@code nvmlInit} made while {@code cuInit} runs waits for all of it, so NVML is opened first; NVML's reads may
 * wait on the driver while {@code cuInit} runs, but their Java side (class loading, JNA's first calls) does not.
 */
public final class NativePrefetch {

    /** At most this long {@code cuInit} waits for {@code nvmlInit} (a hung NVML must not hold CUDA back). */
    static final long NVML_WAIT_MS = 1_000;

    private static CompletableFuture<Opened<CudaReadings>> cuda;
    private static NvmlReading nvml;

    private NativePrefetch() {
    }

    public static synchronized void start() {
        if (cuda != null || nvml != null) {
            return;
        }
        NvmlReading reading = readNvml(Nvml::open);
        nvml = reading;
        cuda = onThread("fabricscope-cuda-init", () -> {
            CudaProbeCalls calls = CallGuard.guard(CudaProbeCalls.class, "cuda", new CudaProbeJna(), CallGuard.defaultTimeout());
            Opened<CudaReadings> r = CudaReader.open(calls, () -> {
                Trace.mark("libcuda loaded");
                // -Dfabricscope.nvmlBeforeCuInit=true: cuInit after NVML's whole read (docs/benchmarks.md compares)
                awaitQuietly(Boolean.getBoolean("fabricscope.nvmlBeforeCuInit") ? reading.read() : reading.opened());
            });
            Trace.mark("cuInit returned");
            return r;
        });
    }

    /** NVML opened and read whole on a thread of its own, shut down after. */
    static NvmlReading readNvml(Supplier<Opened<Nvml>> opener) {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        CompletableFuture<NvmlRead> read = onThread("fabricscope-nvml-read", () -> {
            Opened<Nvml> open;
            try {
                open = opener.get();
            } finally {
                opened.complete(null);
            }
            Trace.mark("nvml opened");
            NvmlRead r = NvmlRead.of(open);
            Trace.mark("nvml read and shut down");
            return r;
        });
        return new NvmlReading(opened, read);
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

    /** CUDA's open result: the prefetched one, else opened now, {@code cuInit} once {@code nvml} is open. */
    static synchronized CompletableFuture<Opened<CudaReadings>> cuda(NvmlReading nvml) {
        if (cuda != null) {
            return cuda;
        }
        CudaProbeCalls calls = CallGuard.guard(CudaProbeCalls.class, "cuda", new CudaProbeJna(), CallGuard.defaultTimeout());
        return onThread("fabricscope-cuda-init", () -> CudaReader.open(calls, () -> awaitQuietly(nvml.opened())));
    }

    /** The prefetched NVML read, handed over once, else a new one. */
    static synchronized NvmlReading takeNvml() {
        NvmlReading r = nvml;
        nvml = null;
        return r != null ? r : readNvml(Nvml::open);
    }
}
