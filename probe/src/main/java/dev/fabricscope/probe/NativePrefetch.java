package dev.fabricscope.probe;

import dev.fabricscope.nativeapi.cuda.CudaDriver;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.util.concurrent.CompletableFuture;

/**
 * Starts loading libcuda (JCuda + {@code cuInit}, the slowest step of a probe) and NVML on background threads
 * as soon as the CLI knows it will probe, so they overlap argument parsing.
 */
public final class NativePrefetch {

    private static CompletableFuture<CudaDriver.Result> cuda;
    private static CompletableFuture<Nvml.Result> nvml;

    private NativePrefetch() {
    }

    public static synchronized void start() {
        if (cuda == null) {
            cuda = CompletableFuture.supplyAsync(CudaDriver::open);
        }
        if (nvml == null) {
            nvml = CompletableFuture.supplyAsync(Nvml::open);
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
