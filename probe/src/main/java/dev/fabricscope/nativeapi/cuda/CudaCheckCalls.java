package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * The seam to {@code libcuda.so.1} for the live checks: the probe's calls and every further driver call a check
 * makes, named as exported by {@code libcuda} ({@code _v2} where cuda.h remaps), with plain arguments. Contexts,
 * device pointers, streams, events, modules, functions, graphs and VMM handles are opaque {@code long}s. Host data
 * sent to the device is not part of the call ({@link HostData}); what a check reads back is the answer of
 * {@link #cuMemcpyDtoH_v2}. Backends: {@link CudaCheckJna} (the driver; the timed calls direct-mapped), a recorded
 * trace. {@link CudaOps} is the checks' facade.
 *
 * <p>No multicast object is ever created: {@code cuMulticastCreate}, {@code cuMulticastAddDevice} and
 * {@code cuMulticastBind*} are absent; {@link #cuMulticastGetGranularity} is a query.
 */
public interface CudaCheckCalls extends CudaProbeCalls {

    NativeAnswer<String> cuDeviceGetName(int device);

    // --- primary contexts ---

    NativeAnswer<Long> cuDevicePrimaryCtxRetain(int device);

    NativeAnswer<Void> cuDevicePrimaryCtxRelease_v2(int device);

    /** {@code {flags, active}}. */
    NativeAnswer<int[]> cuDevicePrimaryCtxGetState(int device);

    NativeAnswer<Void> cuCtxSetCurrent(long ctx);

    NativeAnswer<Void> cuCtxSynchronize();

    NativeAnswer<Void> cuCtxEnablePeerAccess(long peerContext, int flags);

    NativeAnswer<Void> cuCtxDisablePeerAccess(long peerContext);

    // --- plain device memory (the current context) ---

    NativeAnswer<Long> cuMemAlloc_v2(long bytes);

    NativeAnswer<Void> cuMemFree_v2(long dptr);

    NativeAnswer<Void> cuMemsetD8_v2(long dptr, byte value, long count);

    /** The first {@code bytes} of {@code src} to the device; the data is not recorded. */
    NativeAnswer<Void> cuMemcpyHtoD_v2(long dst, HostData src, long bytes);

    /**
     * {@code bytes} read back from the device into the start of {@code dst}; the answer holds them: from the driver a
     * direct view of {@code dst} (written in place, nothing copied), from a trace the recorded bytes.
     */
    NativeAnswer<java.nio.ByteBuffer> cuMemcpyDtoH_v2(HostData dst, long src, long bytes);

    NativeAnswer<Void> cuMemcpyAsync(long dst, long src, long bytes, long stream);

    // --- streams and events ---

    NativeAnswer<Long> cuStreamCreate(int flags);

    NativeAnswer<Void> cuStreamDestroy_v2(long stream);

    /** {@code CUDA_SUCCESS} when the stream's work is done, {@code CUDA_ERROR_NOT_READY} (600) while it runs. */
    NativeAnswer<Void> cuStreamQuery(long stream);

    NativeAnswer<Long> cuEventCreate(int flags);

    NativeAnswer<Void> cuEventDestroy_v2(long event);

    NativeAnswer<Void> cuEventRecord(long event, long stream);

    /** Milliseconds between two recorded events ({@code cuEventElapsedTime_v2} where the driver has it). */
    NativeAnswer<Float> cuEventElapsedTime(long start, long end);

    // --- modules, kernels and CUDA graphs ---

    NativeAnswer<Long> cuModuleLoadData(ModuleImage image);

    NativeAnswer<Void> cuModuleUnload(long module);

    NativeAnswer<Long> cuModuleGetFunction(long module, String name);

    /** A launch without shared memory and {@code extra}; the parameters' values are part of the call. */
    NativeAnswer<Void> cuLaunchKernel(long function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                                      long stream, KernelArgs params);

    /** {@code mode}: CU_STREAM_CAPTURE_MODE_GLOBAL 0, THREAD_LOCAL 1, RELAXED 2. */
    NativeAnswer<Void> cuStreamBeginCapture_v2(long stream, int mode);

    NativeAnswer<Long> cuStreamEndCapture(long stream);

    NativeAnswer<Long> cuGraphInstantiateWithFlags(long graph, long flags);

    NativeAnswer<Void> cuGraphLaunch(long exec, long stream);

    NativeAnswer<Void> cuGraphExecDestroy(long exec);

    NativeAnswer<Void> cuGraphDestroy(long graph);

    // --- virtual memory management: queries, create, export, release ---

    NativeAnswer<Long> cuMemGetAllocationGranularity(CuMemAllocationProp prop, int option);

    /** Query only: creates nothing. */
    NativeAnswer<Long> cuMulticastGetGranularity(CuMulticastObjectProp prop, int option);

    /** The answer is the allocation handle. */
    NativeAnswer<Long> cuMemCreate(long size, CuMemAllocationProp prop, long flags);

    NativeAnswer<Void> cuMemRelease(long handle);

    /** Exports into a scratch handle of {@code handleType}'s size; the handle's bytes are not kept. */
    NativeAnswer<Void> cuMemExportToShareableHandle(long handle, int handleType, long flags);
}
