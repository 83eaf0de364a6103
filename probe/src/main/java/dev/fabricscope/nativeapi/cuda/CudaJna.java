package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * Loads {@code libcuda.so.1} through JNA and calls {@code cuInit(0)}, once per JVM. The live checks use it for
 * everything JCuda cannot do right (VMM structs, multicast granularity) and for plain memory, streams and events.
 */
public final class CudaJna {

    private static final String[] LIBRARY_NAMES = {"libcuda.so.1", "cuda"};
    private static volatile Result cached;

    private final LibCuda lib;

    private CudaJna(LibCuda lib) {
        this.lib = lib;
    }

    /**
     * @param cuda          the facade when cuInit succeeded
     * @param libraryLoaded whether libcuda.so.1 was found
     * @param failure       why not, in one line
     * @param initCode      cuInit's CUresult, or null when it was never called
     */
    public record Result(CudaJna cuda, boolean libraryLoaded, String failure, Integer initCode) {
        /** True when there is no usable driver: library absent, a stub, or no device. */
        public boolean noDriver() {
            return cuda == null && (!libraryLoaded || initCode == null || initCode == 34 || initCode == 100);
        }
    }

    /** Loads and initialises the driver API, or says in one line why it could not. */
    public static synchronized Result open() {
        if (cached != null) {
            return cached;
        }
        dev.fabricscope.nativeapi.JnaCalls.Loaded<LibCuda> loaded = dev.fabricscope.nativeapi.JnaCalls.load(LibCuda.class, LIBRARY_NAMES);
        LibCuda lib = loaded.library();
        if (lib == null) {
            cached = new Result(null, false, "libcuda.so.1 not loadable: " + loaded.failure(), null);
            return cached;
        }
        int rc;
        try {
            rc = lib.cuInit(0);
        } catch (LinkageError e) {
            cached = new Result(null, true, "cuInit missing from libcuda: " + e.getMessage(), null);
            return cached;
        }
        CudaJna cuda = new CudaJna(lib);
        cached = rc == CuResults.SUCCESS ? new Result(cuda, true, null, rc)
                : new Result(null, true, "cuInit → " + cuda.describe(rc), rc);
        return cached;
    }

    public LibCuda lib() {
        return lib;
    }

    /** The driver's name for a CUresult ({@code cuGetErrorName}), or the table's. */
    public String errorName(int rc) {
        try {
            PointerByReference p = new PointerByReference();
            if (lib.cuGetErrorName(rc, p) == CuResults.SUCCESS && p.getValue() != null) {
                return p.getValue().getString(0);
            }
        } catch (LinkageError | RuntimeException ignored) {
            // fall back to the table
        }
        return CuResults.name(rc);
    }

    /** {@code CUDA_ERROR_NOT_SUPPORTED (801)}. */
    public String describe(int rc) {
        return errorName(rc) + " (" + rc + ")";
    }

    /** {@code 13000} → {@code 13.0}, or null. */
    public String driverVersion() {
        IntByReference v = new IntByReference();
        return lib.cuDriverGetVersion(v) == CuResults.SUCCESS ? (v.getValue() / 1000) + "." + (v.getValue() % 1000) / 10 : null;
    }

    /** A CUDA_ERROR_NOT_READY answer from a stream or event query. */
    public static final int NOT_READY = 600;

    /** Thrown by {@link #check}: names the call and the CUresult. */
    public static final class CudaCallException extends RuntimeException {
        private final String call;
        private final int code;
        private final String codeName;

        public CudaCallException(String call, int code, String codeName) {
            super(call + " → " + codeName + " (" + code + ")");
            this.call = call;
            this.code = code;
            this.codeName = codeName;
        }

        public String call() {
            return call;
        }

        public int code() {
            return code;
        }

        public String codeName() {
            return codeName;
        }
    }

    /** Throws {@link CudaCallException} unless {@code rc} is CUDA_SUCCESS. */
    public void check(String call, int rc) {
        if (rc != CuResults.SUCCESS) {
            throw new CudaCallException(call, rc, errorName(rc));
        }
    }

    /** A device pointer as a JNA pointer (for NCCL and other C APIs that take {@code void*}). */
    public static Pointer devicePointer(long address) {
        return new Pointer(address);
    }
}
