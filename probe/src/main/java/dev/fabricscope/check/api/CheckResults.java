package dev.fabricscope.check.api;

/** The result records by check name, apart from {@link CheckResult} so that the interface does not name its records. */
public final class CheckResults {

    private CheckResults() {
    }

    /** The result record of the check named {@code check} (preflight, p2p, allreduce), or null. */
    public static Class<? extends CheckResult> typeOf(String check) {
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
