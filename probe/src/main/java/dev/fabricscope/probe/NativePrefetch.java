package dev.fabricscope.probe;

import dev.fabricscope.nativeapi.cuda.CudaDriver;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.util.concurrent.CompletableFuture;

/**
 * Starts loading libcuda ({@code cuInit}, the slowest step of a probe) and NVML on background threads
 * as soon as the CLI knows it will probe, so they overlap argument parsing.
 */
public final class NativePrefetch {

    private static CompletableFuture<CudaDriver.Result> cuda;
    private static CompletableFuture<Nvml.Result> nvml;

    private NativePrefetch() {
    }

    public static synchronized void start() {
        // Plain daemon threads and anonymous classes: no fork-join pool or lambda bootstrap on the critical path.
        if (cuda == null) {
            cuda = new CompletableFuture<>();
            daemon("fabricscope-cuda-init", new Runnable() {
                @Override
                public void run() {
                    complete(cuda, CudaDriver::open);
                }
            });
        }
        if (nvml == null) {
            nvml = new CompletableFuture<>();
            daemon("fabricscope-nvml-init", new Runnable() {
                @Override
                public void run() {
                    complete(nvml, Nvml::open);
                }
            });
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private static <T> void complete(CompletableFuture<T> f, java.util.function.Supplier<T> s) {
        try {
            f.complete(s.get());
        } catch (RuntimeException | Error e) {
            f.completeExceptionally(e);
        }
    }

    /** CUDA's open result (cached for the JVM's life by {@link CudaDriver#open()}). */
    static synchronized CompletableFuture<CudaDriver.Result> cuda() {
        return cuda != null ? cuda : CompletableFuture.supplyAsync(CudaDriver::open);
    }

    /** A prefetched NVML session, handed over once (the caller closes it), else a new one. */
    static Nvml.Result takeNvml() {
        CompletableFuture<Nvml.Result> f;
        synchronized (NativePrefetch.class) {
            f = nvml;
            nvml = null;
        }
        return f != null ? f.join() : Nvml.open();
    }
}
