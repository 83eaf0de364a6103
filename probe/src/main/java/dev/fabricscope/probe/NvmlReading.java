package dev.fabricscope.probe;

import java.util.concurrent.CompletableFuture;

/** NVML's read under way: {@code opened} completes when {@code nvmlInit} has returned, {@code read} when all is read. */
record NvmlReading(CompletableFuture<Void> opened, CompletableFuture<NvmlRead> read) {
    static NvmlReading done(NvmlRead r) {
        return new NvmlReading(CompletableFuture.completedFuture(null), CompletableFuture.completedFuture(r));
    }
}
