package dev.fabricscope.check;

/** What every live check answers: a status, one summary line, and the GPU memory audit. */
public interface CheckResult {
    /** {@code preflight}, {@code p2p} or {@code allreduce}. */
    String check();

    CheckStatus status();

    String summary();

    MemoryAudit memory();

    /** The same result with another memory audit (the parent's readings around the worker process added). */
    CheckResult withMemory(MemoryAudit memory);

    /** The result record of the check named {@code check} ({@code preflight}, {@code p2p}, {@code allreduce}), or null. */
    static Class<? extends CheckResult> typeOf(String check) {
        if (check == null) {
            return null;
        }
        return switch (check) {
            case PreflightResult.CHECK -> PreflightResult.class;
            case P2pResult.CHECK -> P2pResult.class;
            case AllReduceResult.CHECK -> AllReduceResult.class;
            default -> null;
        };
    }
}
