package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * Raw JNA mapping of the parts of {@code libcuda.so.1} the probe and the live checks use (names as exported: cuda.h
 * remaps several to {@code _v2}), loaded once by {@link CudaLoader}; VMM structs are written explicitly zeroed
 * ({@link CuMemAllocationProp}). Only the seams' JNA backends ({@link CudaProbeJna}, {@link CudaCheckJna}) call it.
 *
 * <p>{@code cuMulticastCreate}, {@code cuMulticastAddDevice} and {@code cuMulticastBind*} are deliberately
 * absent: Fabricscope only ever queries multicast granularity, it never creates a multicast object.
 * {@code CUdeviceptr} and {@code size_t} are mapped to {@code long} (LP64).
 */
public interface CudaLibrary extends Library {
    int cuInit(int flags);

    int cuDriverGetVersion(IntByReference version);

    int cuGetErrorName(int error, PointerByReference name);

    int cuDeviceGetCount(IntByReference count);

    int cuDeviceGet(IntByReference device, int ordinal);

    int cuDeviceGetName(byte[] name, int len, int device);

    int cuDeviceGetPCIBusId(byte[] busId, int len, int device);

    int cuDeviceGetAttribute(IntByReference value, int attribute, int device);

    int cuDeviceCanAccessPeer(IntByReference canAccess, int device, int peer);

    int cuDeviceGetP2PAttribute(IntByReference value, int attrib, int srcDevice, int dstDevice);

    // --- primary contexts ---

    int cuDevicePrimaryCtxRetain(PointerByReference ctx, int device);

    int cuDevicePrimaryCtxRelease_v2(int device);

    int cuDevicePrimaryCtxGetState(int device, IntByReference flags, IntByReference active);

    int cuCtxSetCurrent(Pointer ctx);

    int cuCtxSynchronize();

    int cuCtxEnablePeerAccess(Pointer peerContext, int flags);

    int cuCtxDisablePeerAccess(Pointer peerContext);

    // --- plain device memory ---

    int cuMemAlloc_v2(LongByReference dptr, long bytes);

    int cuMemFree_v2(long dptr);

    int cuMemGetInfo_v2(LongByReference free, LongByReference total);

    int cuMemsetD8_v2(long dptr, byte value, long count);

    int cuMemcpyHtoD_v2(long dst, Pointer src, long bytes);

    int cuMemcpyDtoH_v2(Pointer dst, long src, long bytes);

    /** Unified-addressing copy: device to device, also between peers. */
    int cuMemcpyAsync(long dst, long src, long bytes, Pointer stream);

    // --- streams and events ---

    int cuStreamCreate(PointerByReference stream, int flags);

    int cuStreamDestroy_v2(Pointer stream);

    int cuStreamQuery(Pointer stream);

    int cuStreamSynchronize(Pointer stream);

    int cuEventCreate(PointerByReference event, int flags);

    int cuEventDestroy_v2(Pointer event);

    int cuEventRecord(Pointer event, Pointer stream);

    int cuEventQuery(Pointer event);

    /** The original symbol; CUDA 12.8+ headers map the name to {@link #cuEventElapsedTime_v2}. */
    int cuEventElapsedTime(FloatByReference ms, Pointer start, Pointer end);

    int cuEventElapsedTime_v2(FloatByReference ms, Pointer start, Pointer end);

    int cuStreamWaitEvent(Pointer stream, Pointer event, int flags);

    // --- virtual memory management (query, create, export, release) ---

    int cuMemGetAllocationGranularity(LongByReference granularity, Pointer prop, int option);

    int cuMemCreate(LongByReference handle, long size, Pointer prop, long flags);

    int cuMemRelease(long handle);

    int cuMemExportToShareableHandle(Pointer shareableHandle, long handle, int handleType, long flags);

    /** Query only: creates nothing. */
    int cuMulticastGetGranularity(LongByReference granularity, Pointer prop, int option);

    // --- modules, kernels and CUDA graphs (the live checks' PTX; launches go through CudaHot) ---

    int cuModuleLoadData(PointerByReference module, Pointer image);

    int cuModuleUnload(Pointer module);

    int cuModuleGetFunction(PointerByReference function, Pointer module, String name);

    /** {@code mode}: CU_STREAM_CAPTURE_MODE_GLOBAL 0, THREAD_LOCAL 1, RELAXED 2. */
    int cuStreamBeginCapture_v2(Pointer stream, int mode);

    int cuStreamEndCapture(Pointer stream, PointerByReference graph);

    int cuGraphInstantiateWithFlags(PointerByReference exec, Pointer graph, long flags);

    int cuGraphExecDestroy(Pointer exec);

    int cuGraphDestroy(Pointer graph);

    int cuEventSynchronize(Pointer event);
}
