package dev.fabricscope.check.api;

/** What every live check answers: a status, one summary line, and the GPU memory audit. */
public interface CheckResult {
    /** {@code preflight}, {@code p2p} or {@code allreduce}. */
    String check();

    CheckStatus status();

    String summary();

    MemoryAudit memory();

    /** The same result with another memory audit (the parent's readings around the worker process added). */
    CheckResult withMemory(MemoryAudit memory);
}
