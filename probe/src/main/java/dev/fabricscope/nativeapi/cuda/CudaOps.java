package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.Opened;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CUDA driver as the live checks use it, over the seam {@link CudaCheckCalls} (the driver, or a trace being
 * recorded or replayed), in plain Java types: device pointers, contexts, streams, events, modules, functions and
 * graphs are {@code long} handles; host data is a direct {@link ByteBuffer}. Every failed call throws
 * {@link CudaCallException} naming the call and its CUresult, except the few whose code the checks record as a
 * step ({@link Answer}). Nothing outside {@code nativeapi} needs JNA to drive a GPU.
 */
public final class CudaOps {

    /** {@code CU_STREAM_NON_BLOCKING}. */
    public static final int STREAM_NON_BLOCKING = 0x1;
    /** {@code CU_STREAM_CAPTURE_MODE_THREAD_LOCAL}: what nccl-tests captures with. */
    public static final int CAPTURE_THREAD_LOCAL = 1;
    /** {@code CUDA_ERROR_NOT_READY}. */
    public static final int NOT_READY = 600;
    /** {@code CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED}. */
    public static final int PEER_ACCESS_ALREADY_ENABLED = 704;
    /** The code of a call that returned none (a fault: missing symbol, not in the trace…). */
    public static final int NO_CODE = -1;

    private final CudaCheckCalls calls;
    private final Map<Integer, String> errorNames = new ConcurrentHashMap<>();

    private CudaOps(CudaCheckCalls calls) {
        this.calls = calls;
    }

    /** The driver through JNA: loads libcuda ({@link CudaLoader}) and calls {@code cuInit}. */
    public static Opened<CudaOps> open() {
        return open(new CudaCheckJna());
    }

    /** Over any backend of the seam (a trace being recorded or replayed). */
    public static Opened<CudaOps> open(CudaCheckCalls calls) {
        return CudaLoader.open(calls, () -> { }, CudaOps::new);
    }

    /** A CUresult and, when it is CUDA_SUCCESS, the value. */
    public record Answer<T>(int code, String codeName, T value) {
        public boolean ok() {
            return code == CuResults.SUCCESS;
        }
    }

    /** One device as the driver names it. */
    public record Device(int ordinal, String pciBusId, String name, int ccMajor, int ccMinor) {
    }

    /** A failed driver call: the call and its CUresult (or, without one, what went wrong instead). */
    public static final class CudaCallException extends RuntimeException {
        private final String call;
        private final int code;
        private final String codeName;

        public CudaCallException(String call, int code, String codeName) {
            super(call + " → " + codeName + (code == NO_CODE ? "" : " (" + code + ")"));
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

    /** The driver's name for a CUresult ({@code cuGetErrorName}), or the table's. */
    public String errorName(int rc) {
        return rc == NO_CODE ? "no code" : errorNames.computeIfAbsent(rc, code -> CudaLoader.errorName(calls, code));
    }

    /** {@code CUDA_ERROR_NOT_SUPPORTED (801)}. */
    public String describe(int rc) {
        return errorName(rc) + " (" + rc + ")";
    }

    /** Throws {@link CudaCallException} unless {@code rc} is CUDA_SUCCESS. */
    public void check(String call, int rc) {
        if (rc != CuResults.SUCCESS) {
            throw new CudaCallException(call, rc, errorName(rc));
        }
    }

    /** The answer's value; throws unless the call returned CUDA_SUCCESS. */
    private <T> T value(String call, NativeAnswer<T> a) {
        if (a.fault() != null) {
            throw new CudaCallException(call, NO_CODE, NativeReads.faultText(a));
        }
        if (a.rc() != CuResults.SUCCESS) {
            throw new CudaCallException(call, a.rc(), errorName(a.rc()));
        }
        return a.value();
    }

    /** The answer's CUresult, {@link #NO_CODE} for a fault. */
    private static int code(NativeAnswer<?> a) {
        return a.fault() != null ? NO_CODE : a.rc();
    }

    private <T> Answer<T> answer(NativeAnswer<T> a) {
        int rc = code(a);
        return new Answer<>(rc, a.fault() != null ? NativeReads.faultText(a) : errorName(rc), rc == 0 ? a.value() : null);
    }

    public int deviceCount() {
        return value("cuDeviceGetCount", calls.cuDeviceGetCount());
    }

    public Device device(int ordinal) {
        int dev = value("cuDeviceGet(" + ordinal + ")", calls.cuDeviceGet(ordinal));
        String name = value("cuDeviceGetName", calls.cuDeviceGetName(dev));
        String bus = value("cuDeviceGetPCIBusId", calls.cuDeviceGetPCIBusId(dev));
        int major = attribute(CudaAttribute.COMPUTE_CAPABILITY_MAJOR, dev);
        int minor = attribute(CudaAttribute.COMPUTE_CAPABILITY_MINOR, dev);
        return new Device(dev, bus.trim(), name, major, minor);
    }

    public int attribute(int attribute, int device) {
        return value("cuDeviceGetAttribute(" + attribute + ", dev " + device + ")", calls.cuDeviceGetAttribute(attribute, device));
    }

    /** The attribute with its CUresult, for checks that record the call. */
    public Answer<Integer> attributeAnswer(int attribute, int device) {
        return answer(calls.cuDeviceGetAttribute(attribute, device));
    }

    public boolean canAccessPeer(int device, int peer) {
        return value("cuDeviceCanAccessPeer(" + device + ", " + peer + ")", calls.cuDeviceCanAccessPeer(device, peer)) != 0;
    }

    // --- contexts ---

    public long retainPrimaryContext(int device) {
        return value("cuDevicePrimaryCtxRetain(" + device + ")", calls.cuDevicePrimaryCtxRetain(device));
    }

    public int releasePrimaryContext(int device) {
        return code(calls.cuDevicePrimaryCtxRelease_v2(device));
    }

    /** Whether the device's primary context is active, or null when the driver does not say. */
    public Boolean primaryContextActive(int device) {
        NativeAnswer<int[]> a = calls.cuDevicePrimaryCtxGetState(device);
        return a.succeeded() && a.value() != null && a.value().length == 2 ? a.value()[1] != 0 : null;
    }

    public void setCurrent(long ctx) {
        NativeAnswer<Void> a = calls.cuCtxSetCurrent(ctx);
        if (!a.succeeded()) {
            value("cuCtxSetCurrent", a);
        }
    }

    public void synchronize() {
        value("cuCtxSynchronize", calls.cuCtxSynchronize());
    }

    /** Enables access from the current context to {@code peerCtx}; false when it was already enabled. */
    public boolean enablePeerAccess(long peerCtx, String what) {
        NativeAnswer<Void> a = calls.cuCtxEnablePeerAccess(peerCtx, 0);
        if (a.fault() == null && a.rc() == PEER_ACCESS_ALREADY_ENABLED) {
            return false;
        }
        value("cuCtxEnablePeerAccess(" + what + ")", a);
        return true;
    }

    public void disablePeerAccess(long peerCtx) {
        value("cuCtxDisablePeerAccess", calls.cuCtxDisablePeerAccess(peerCtx));
    }

    // --- plain device memory (current context) ---

    public long alloc(long bytes) {
        return value("cuMemAlloc(" + bytes + " B)", calls.cuMemAlloc_v2(bytes));
    }

    public void free(long dptr) {
        value("cuMemFree", calls.cuMemFree_v2(dptr));
    }

    public void memset8(long dptr, byte value, long bytes) {
        value("cuMemsetD8", calls.cuMemsetD8_v2(dptr, value, bytes));
    }

    /** Copies {@code bytes} from the start of a direct buffer to the device. */
    public void copyToDevice(long dst, ByteBuffer src, long bytes) {
        if (src.capacity() < bytes) {
            throw new IllegalArgumentException("need a direct buffer of at least " + bytes + " bytes");
        }
        value("cuMemcpyHtoD", calls.cuMemcpyHtoD_v2(dst, new HostData(src), bytes));
    }

    /** Copies {@code bytes} from the device into the start of a direct buffer. */
    public void copyToHost(ByteBuffer dst, long src, long bytes) {
        if (dst.capacity() < bytes) {
            throw new IllegalArgumentException("need a direct buffer of at least " + bytes + " bytes");
        }
        ByteBuffer read = value("cuMemcpyDtoH", calls.cuMemcpyDtoH_v2(new HostData(dst), src, bytes));
        if (read == null || read.remaining() != bytes) {
            throw new CudaCallException("cuMemcpyDtoH", NO_CODE, "answered " + (read == null ? "no" : read.remaining())
                    + " bytes, not " + bytes);
        }
        if (!read.isDirect()) { // a trace's bytes; the driver's answer is dst itself, written in place
            dst.put(0, read, read.position(), (int) bytes);
        }
    }

    public void copyAsync(long dst, long src, long bytes, long stream) {
        value("cuMemcpyAsync", calls.cuMemcpyAsync(dst, src, bytes, stream));
    }

    // --- streams and events ---

    public long createStream() {
        return value("cuStreamCreate", calls.cuStreamCreate(STREAM_NON_BLOCKING));
    }

    public void destroyStream(long stream) {
        value("cuStreamDestroy", calls.cuStreamDestroy_v2(stream));
    }

    /** True once the stream's work is done; throws on an error. */
    public boolean streamDone(long stream) {
        NativeAnswer<Void> a = calls.cuStreamQuery(stream);
        if (a.fault() == null && (a.rc() == CuResults.SUCCESS || a.rc() == NOT_READY)) {
            return a.rc() == CuResults.SUCCESS;
        }
        value("cuStreamQuery", a);
        return true;
    }

    public long createEvent() {
        return value("cuEventCreate", calls.cuEventCreate(0));
    }

    public void destroyEvent(long event) {
        value("cuEventDestroy", calls.cuEventDestroy_v2(event));
    }

    public void recordEvent(long event, long stream) {
        NativeAnswer<Void> a = calls.cuEventRecord(event, stream);
        if (!a.succeeded()) {
            value("cuEventRecord", a);
        }
    }

    /** Milliseconds between two recorded events. */
    public float elapsedMs(long start, long end) {
        Float ms = value("cuEventElapsedTime", calls.cuEventElapsedTime(start, end));
        if (ms == null) {
            throw new CudaCallException("cuEventElapsedTime", NO_CODE, "answered no time");
        }
        return ms;
    }

    // --- modules and kernels ---

    /** Loads a PTX or cubin image (NUL-terminated for PTX) into the current context; {@code what} names it. */
    public long loadModule(byte[] image, String what) {
        return value("cuModuleLoadData(" + what + ")", calls.cuModuleLoadData(new ModuleImage(what, image)));
    }

    public void unloadModule(long module) {
        value("cuModuleUnload", calls.cuModuleUnload(module));
    }

    public long function(long module, String name) {
        return value("cuModuleGetFunction(" + name + ")", calls.cuModuleGetFunction(module, name));
    }

    /** A one-dimensional launch; {@code what} names the kernel in the error. */
    public void launch(long function, int grid, int block, long stream, KernelArgs args, String what) {
        NativeAnswer<Void> a = calls.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, stream, args);
        if (!a.succeeded()) {
            value("cuLaunchKernel(" + what + ")", a);
        }
    }

    // --- CUDA graphs ---

    public void beginCapture(long stream) {
        value("cuStreamBeginCapture", calls.cuStreamBeginCapture_v2(stream, CAPTURE_THREAD_LOCAL));
    }

    /** Ends the capture; returns the graph. */
    public long endCapture(long stream) {
        return value("cuStreamEndCapture", calls.cuStreamEndCapture(stream));
    }

    public long instantiate(long graph) {
        return value("cuGraphInstantiateWithFlags", calls.cuGraphInstantiateWithFlags(graph, 0));
    }

    public void launchGraph(long exec, long stream) {
        NativeAnswer<Void> a = calls.cuGraphLaunch(exec, stream);
        if (!a.succeeded()) {
            value("cuGraphLaunch", a);
        }
    }

    public void destroyGraphExec(long exec) {
        value("cuGraphExecDestroy", calls.cuGraphExecDestroy(exec));
    }

    public void destroyGraph(long graph) {
        value("cuGraphDestroy", calls.cuGraphDestroy(graph));
    }

    // --- virtual memory management, for SGLang's FlashInfer preflight (no multicast object is ever created) ---

    public Answer<Long> allocationGranularity(int device, int handleTypes, int option) {
        return answer(calls.cuMemGetAllocationGranularity(CuMemAllocationProp.pinnedOnDevice(device, handleTypes, true), option));
    }

    /** Query only: {@code cuMulticastGetGranularity}. */
    public Answer<Long> multicastGranularity(int numDevices, long size, int handleTypes, int option) {
        return answer(calls.cuMulticastGetGranularity(new CuMulticastObjectProp(numDevices, size, handleTypes), option));
    }

    /** {@code cuMemCreate} of pinned device memory with RDMA capability; the value is the handle. */
    public Answer<Long> memCreate(int device, int handleTypes, long size) {
        return answer(calls.cuMemCreate(size, CuMemAllocationProp.pinnedOnDevice(device, handleTypes, true), 0));
    }

    public int memRelease(long handle) {
        return code(calls.cuMemRelease(handle));
    }

    /** {@code cuMemExportToShareableHandle} into a scratch 64-byte fabric handle; returns the CUresult. */
    public int exportFabricHandle(long handle) {
        return code(calls.cuMemExportToShareableHandle(handle, CuMemAllocationProp.HANDLE_FABRIC, 0));
    }
}
