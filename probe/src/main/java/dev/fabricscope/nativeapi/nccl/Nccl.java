package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.nio.file.Path;

/** Loaded {@code libnccl.so.2} with its version, and the names of its result codes and types. */
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

    private final NcclCollectivesLibrary lib;
    private final Path path;
    private final int versionCode;

    private Nccl(NcclCollectivesLibrary lib, Path path, int versionCode) {
        this.lib = lib;
        this.path = path;
        this.versionCode = versionCode;
    }

    /** Loads the library at {@code path}; throws {@link IllegalStateException} with one line when it cannot. */
    public static Nccl load(Path path) {
        NcclCollectivesLibrary lib;
        try {
            lib = Native.load(path.toString(), NcclCollectivesLibrary.class);
        } catch (LinkageError e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalStateException("cannot load " + path + ": " + m);
        }
        IntByReference v = new IntByReference();
        int rc = lib.ncclGetVersion(v);
        if (rc != SUCCESS) {
            throw new IllegalStateException("ncclGetVersion → " + resultName(rc) + " (" + rc + ")");
        }
        return new Nccl(lib, path, v.getValue());
    }

    public NcclCollectivesLibrary lib() {
        return lib;
    }

    public Path path() {
        return path;
    }

    public String version() {
        return NcclLocator.versionString(versionCode);
    }

    public static String resultName(int rc) {
        return rc >= 0 && rc < RESULT_NAMES.length ? RESULT_NAMES[rc] : "ncclResult(" + rc + ")";
    }

    /** {@code ncclInvalidUsage (5): <ncclGetErrorString>}. */
    public String describe(int rc) {
        String text;
        try {
            text = lib.ncclGetErrorString(rc);
        } catch (LinkageError | RuntimeException e) {
            text = null;
        }
        return resultName(rc) + " (" + rc + ")" + (text == null || text.isBlank() ? "" : ": " + text);
    }
}
