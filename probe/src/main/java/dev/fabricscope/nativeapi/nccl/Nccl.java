package dev.fabricscope.nativeapi.nccl;

/** The names of {@code libnccl.so.2}'s result codes, and the data types and operation the all-reduce check uses. */
public final class Nccl {

    public static final int SUCCESS = 0;
    public static final int IN_PROGRESS = 7;
    /** {@code ncclDataType_t}. */
    public static final int FLOAT16 = 6;
    public static final int FLOAT32 = 7;
    public static final int BFLOAT16 = 9;
    /** {@code ncclRedOp_t}. */
    public static final int SUM = 0;

    private static final String[] RESULT_NAMES = {"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError",
            "ncclInternalError", "ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
            "ncclTimeout"};

    private Nccl() {
    }

    public static String resultName(int rc) {
        return rc >= 0 && rc < RESULT_NAMES.length ? RESULT_NAMES[rc] : "ncclResult(" + rc + ")";
    }
}
