package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.nativeapi.JnaCalls;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.Opened;
import java.util.function.Function;

/**
 * The one place {@code libcuda.so.1} is loaded, once per JVM: the probe's and the checks' JNA backends and the
 * direct-mapped hot calls ({@link CudaHot}) all bind to the library found here.
 */
public final class CudaLoader {

    static final String[] LIBRARY_NAMES = {"libcuda.so.1", "cuda"};
    /** {@code CUDA_ERROR_STUB_LIBRARY}, {@code CUDA_ERROR_NO_DEVICE}: a driver API without a driver or a GPU. */
    private static final int STUB_LIBRARY = 34;
    private static final int NO_DEVICE = 100;

    private static volatile Loaded loaded;

    private CudaLoader() {
    }

    /** The loaded library and the name it was found by. */
    record Loaded(CudaLibrary library, String name) {
    }

    /**
     * Loads the library (the first call; later calls answer the same), or answers the loader's own line for why it
     * could not (the probe's trace records that line; {@link #notLoadable} words it for a reader).
     */
    static synchronized Opened<Loaded> library() {
        if (loaded != null) {
            return Opened.of(loaded, null);
        }
        JnaCalls.Loaded<CudaLibrary> l = JnaCalls.load(CudaLibrary.class, LIBRARY_NAMES);
        if (l.library() == null) {
            return Opened.notLoaded(l.failure() == null ? "unknown reason" : l.failure());
        }
        loaded = new Loaded(l.library(), l.name());
        return Opened.of(loaded, null);
    }

    /** The name the library was loaded by, for binding {@link CudaHot}; null before it was loaded. */
    static String loadedName() {
        Loaded l = loaded;
        return l == null ? null : l.name();
    }

    /** {@code libcuda.so.1 not loadable: <the loader's line>}. */
    public static String notLoadable(String loaderLine) {
        return "libcuda.so.1 not loadable: " + (loaderLine == null || loaderLine.isBlank() ? "unknown reason" : loaderLine);
    }

    /** True when there is no usable driver: the library absent, a stub, no device, or cuInit gave no code. */
    public static boolean noDriver(Opened<?> o) {
        return !o.isOpen() && (!o.libraryLoaded() || o.initCode() == null || o.initCode() == STUB_LIBRARY
                || o.initCode() == NO_DEVICE);
    }

    /**
     * Opens a facade over a CUDA seam: loads the library through it, runs {@code beforeInit} (the probe waits there
     * for NVML's read), calls {@code cuInit(0)}, and makes the facade once that succeeded.
     */
    public static <C extends CudaProbeCalls, T> Opened<T> open(C calls, Runnable beforeInit, Function<C, T> facade) {
        NativeAnswer<String> loaded = calls.load();
        if (loaded.fault() != null) {
            return Opened.notLoaded(notLoadable(loaded.detail()));
        }
        beforeInit.run();
        NativeAnswer<Void> init = calls.cuInit(0);
        if (init.fault() != null) {
            return Opened.notInitialised("cuInit: " + NativeReads.faultText(init), null);
        }
        if (init.rc() != CuResults.SUCCESS) {
            return Opened.notInitialised("cuInit → " + errorName(calls, init.rc()) + " (" + init.rc() + ")", init.rc());
        }
        return Opened.of(facade.apply(calls), init.rc());
    }

    /** The driver's name for a CUresult ({@code cuGetErrorName} through the seam), else the table's. */
    public static String errorName(CudaProbeCalls calls, int rc) {
        NativeAnswer<String> a = calls.cuGetErrorName(rc);
        String name = a.succeeded() ? a.value() : null;
        return name != null && name.matches("CUDA_[A-Z0-9_]{1,80}") ? name : CuResults.name(rc);
    }
}
