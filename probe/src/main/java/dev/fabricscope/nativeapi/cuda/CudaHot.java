package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * JNA direct mapping of the few driver calls a timed loop makes (kernel and graph launches, event records, stream
 * queries, context switches): direct calls cost a fraction of an interface-mapped call, which matters when one
 * all-reduce takes a few microseconds. Bound to the library {@link CudaLoader} loaded (first used only after it
 * did). Handles and device pointers are plain {@code long}s (LP64).
 */
final class CudaHot {

    static {
        String name = CudaLoader.loadedName();
        Native.register(CudaHot.class, NativeLibrary.getInstance(name != null ? name : CudaLoader.LIBRARY_NAMES[0]));
    }

    private CudaHot() {
    }

    static native int cuCtxSetCurrent(long ctx);

    static native int cuLaunchKernel(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                                     int sharedBytes, long stream, long kernelParams, long extra);

    static native int cuGraphLaunch(long exec, long stream);

    static native int cuEventRecord(long event, long stream);

    static native int cuStreamQuery(long stream);
}
