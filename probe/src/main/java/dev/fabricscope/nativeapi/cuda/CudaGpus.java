package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The CUDA driver API as the live checks use it, in plain Java types: device pointers, contexts, streams, events,
 * modules, functions and graphs are {@code long} handles; host data is a direct {@link ByteBuffer}. Every failed
 * call throws {@link CudaJna.CudaCallException} naming the call and its CUresult, except the few whose code the
 * checks record as a step ({@link Answer}). Nothing outside {@code nativeapi} needs JNA to drive a GPU.
 */
public final class CudaGpus {

    /** {@code CU_STREAM_NON_BLOCKING}. */
    public static final int STREAM_NON_BLOCKING = 0x1;
    /** {@code CU_STREAM_CAPTURE_MODE_THREAD_LOCAL}: what nccl-tests captures with. */
    public static final int CAPTURE_THREAD_LOCAL = 1;
    /** {@code CUDA_ERROR_NOT_READY}. */
    public static final int NOT_READY = 600;
    /** {@code CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED}. */
    public static final int PEER_ACCESS_ALREADY_ENABLED = 704;

    private final CudaJna cuda;
    private final LibCuda lib;

    private CudaGpus(CudaJna cuda) {
        this.cuda = cuda;
        this.lib = cuda.lib();
    }

    /**
     * @param gpus          the facade, or null
     * @param noDriver      true when there is no usable driver (library absent, stub, no device)
     * @param failure       why not, in one line
     */
    public record Opened(CudaGpus gpus, boolean noDriver, String failure) {
    }

    /** Loads libcuda and calls cuInit once per process. */
    public static Opened open() {
        CudaJna.Result r = CudaJna.open();
        if (r.cuda() == null) {
            return new Opened(null, r.noDriver(), r.failure());
        }
        return new Opened(new CudaGpus(r.cuda()), false, null);
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

    public void check(String call, int rc) {
        cuda.check(call, rc);
    }

    public String errorName(int rc) {
        return cuda.errorName(rc);
    }

    /** {@code CUDA_ERROR_NOT_SUPPORTED (801)}. */
    public String describe(int rc) {
        return cuda.describe(rc);
    }

    public int deviceCount() {
        IntByReference n = new IntByReference();
        check("cuDeviceGetCount", lib.cuDeviceGetCount(n));
        return n.getValue();
    }

    public Device device(int ordinal) {
        IntByReference dev = new IntByReference();
        check("cuDeviceGet(" + ordinal + ")", lib.cuDeviceGet(dev, ordinal));
        byte[] name = new byte[256];
        check("cuDeviceGetName", lib.cuDeviceGetName(name, name.length, dev.getValue()));
        byte[] bus = new byte[32];
        check("cuDeviceGetPCIBusId", lib.cuDeviceGetPCIBusId(bus, bus.length, dev.getValue()));
        int major = attribute(CudaAttribute.COMPUTE_CAPABILITY_MAJOR, dev.getValue());
        int minor = attribute(CudaAttribute.COMPUTE_CAPABILITY_MINOR, dev.getValue());
        return new Device(dev.getValue(), cString(bus), cString(name), major, minor);
    }

    public int attribute(int attribute, int device) {
        IntByReference v = new IntByReference();
        check("cuDeviceGetAttribute(" + attribute + ", dev " + device + ")", lib.cuDeviceGetAttribute(v, attribute, device));
        return v.getValue();
    }

    /** The attribute with its CUresult, for checks that record the call. */
    public Answer<Integer> attributeAnswer(int attribute, int device) {
        IntByReference v = new IntByReference();
        int rc = lib.cuDeviceGetAttribute(v, attribute, device);
        return answer(rc, rc == 0 ? v.getValue() : null);
    }

    public boolean canAccessPeer(int device, int peer) {
        IntByReference v = new IntByReference();
        check("cuDeviceCanAccessPeer(" + device + ", " + peer + ")", lib.cuDeviceCanAccessPeer(v, device, peer));
        return v.getValue() != 0;
    }

    // --- contexts ---

    public long retainPrimaryContext(int device) {
        PointerByReference ctx = new PointerByReference();
        check("cuDevicePrimaryCtxRetain(" + device + ")", lib.cuDevicePrimaryCtxRetain(ctx, device));
        return Pointer.nativeValue(ctx.getValue());
    }

    public int releasePrimaryContext(int device) {
        return lib.cuDevicePrimaryCtxRelease_v2(device);
    }

    /** Whether the device's primary context is active, or null when the driver does not say. */
    public Boolean primaryContextActive(int device) {
        IntByReference flags = new IntByReference();
        IntByReference active = new IntByReference();
        return lib.cuDevicePrimaryCtxGetState(device, flags, active) == 0 ? active.getValue() != 0 : null;
    }

    public void setCurrent(long ctx) {
        check("cuCtxSetCurrent", CudaHot.cuCtxSetCurrent(ctx));
    }

    public void synchronize() {
        check("cuCtxSynchronize", lib.cuCtxSynchronize());
    }

    /** Enables access from the current context to {@code peerCtx}; false when it was already enabled. */
    public boolean enablePeerAccess(long peerCtx, String what) {
        int rc = lib.cuCtxEnablePeerAccess(new Pointer(peerCtx), 0);
        if (rc == PEER_ACCESS_ALREADY_ENABLED) {
            return false;
        }
        check("cuCtxEnablePeerAccess(" + what + ")", rc);
        return true;
    }

    public void disablePeerAccess(long peerCtx) {
        check("cuCtxDisablePeerAccess", lib.cuCtxDisablePeerAccess(new Pointer(peerCtx)));
    }

    // --- plain device memory (current context) ---

    public long alloc(long bytes) {
        LongByReference p = new LongByReference();
        check("cuMemAlloc(" + bytes + " B)", lib.cuMemAlloc_v2(p, bytes));
        return p.getValue();
    }

    public void free(long dptr) {
        check("cuMemFree", lib.cuMemFree_v2(dptr));
    }

    public void memset8(long dptr, byte value, long bytes) {
        check("cuMemsetD8", lib.cuMemsetD8_v2(dptr, value, bytes));
    }

    /** Copies {@code bytes} from the start of a direct buffer to the device. */
    public void copyToDevice(long dst, ByteBuffer src, long bytes) {
        check("cuMemcpyHtoD", lib.cuMemcpyHtoD_v2(dst, direct(src, bytes), bytes));
    }

    /** Copies {@code bytes} from the device into the start of a direct buffer. */
    public void copyToHost(ByteBuffer dst, long src, long bytes) {
        check("cuMemcpyDtoH", lib.cuMemcpyDtoH_v2(direct(dst, bytes), src, bytes));
    }

    public void copyAsync(long dst, long src, long bytes, long stream) {
        check("cuMemcpyAsync", lib.cuMemcpyAsync(dst, src, bytes, new Pointer(stream)));
    }

    private static Pointer direct(ByteBuffer b, long bytes) {
        if (!b.isDirect() || b.capacity() < bytes) {
            throw new IllegalArgumentException("need a direct buffer of at least " + bytes + " bytes");
        }
        return Native.getDirectBufferPointer(b);
    }

    // --- streams and events ---

    public long createStream() {
        PointerByReference s = new PointerByReference();
        check("cuStreamCreate", lib.cuStreamCreate(s, STREAM_NON_BLOCKING));
        return Pointer.nativeValue(s.getValue());
    }

    public void destroyStream(long stream) {
        check("cuStreamDestroy", lib.cuStreamDestroy_v2(new Pointer(stream)));
    }

    /** True once the stream's work is done; throws on an error. */
    public boolean streamDone(long stream) {
        int rc = CudaHot.cuStreamQuery(stream);
        if (rc == NOT_READY) {
            return false;
        }
        check("cuStreamQuery", rc);
        return true;
    }

    public long createEvent() {
        PointerByReference e = new PointerByReference();
        check("cuEventCreate", lib.cuEventCreate(e, 0));
        return Pointer.nativeValue(e.getValue());
    }

    public void destroyEvent(long event) {
        check("cuEventDestroy", lib.cuEventDestroy_v2(new Pointer(event)));
    }

    public void recordEvent(long event, long stream) {
        check("cuEventRecord", CudaHot.cuEventRecord(event, stream));
    }

    /** Milliseconds between two recorded events ({@code cuEventElapsedTime_v2} where the driver has it). */
    public float elapsedMs(long start, long end) {
        FloatByReference ms = new FloatByReference();
        int rc;
        try {
            rc = lib.cuEventElapsedTime_v2(ms, new Pointer(start), new Pointer(end));
        } catch (UnsatisfiedLinkError e) {
            rc = lib.cuEventElapsedTime(ms, new Pointer(start), new Pointer(end));
        }
        check("cuEventElapsedTime", rc);
        return ms.getValue();
    }

    // --- modules and kernels ---

    /** Loads a PTX or cubin image (NUL-terminated for PTX) into the current context; {@code what} names it. */
    public long loadModule(byte[] image, String what) {
        PointerByReference m = new PointerByReference();
        try (Memory mem = new Memory(image.length)) {
            mem.write(0, image, 0, image.length);
            check("cuModuleLoadData(" + what + ")", lib.cuModuleLoadData(m, mem));
        }
        return Pointer.nativeValue(m.getValue());
    }

    public void unloadModule(long module) {
        check("cuModuleUnload", lib.cuModuleUnload(new Pointer(module)));
    }

    public long function(long module, String name) {
        PointerByReference f = new PointerByReference();
        check("cuModuleGetFunction(" + name + ")", lib.cuModuleGetFunction(f, new Pointer(module), name));
        return Pointer.nativeValue(f.getValue());
    }

    /** A one-dimensional launch; {@code what} names the kernel in the error. */
    public void launch(long function, int grid, int block, long stream, KernelArgs args, String what) {
        int rc = CudaHot.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, stream, args.address(), 0);
        if (rc != CuResults.SUCCESS) {
            check("cuLaunchKernel(" + what + ")", rc);
        }
    }

    // --- CUDA graphs ---

    public void beginCapture(long stream) {
        check("cuStreamBeginCapture", lib.cuStreamBeginCapture_v2(new Pointer(stream), CAPTURE_THREAD_LOCAL));
    }

    /** Ends the capture; returns the graph. */
    public long endCapture(long stream) {
        PointerByReference g = new PointerByReference();
        check("cuStreamEndCapture", lib.cuStreamEndCapture(new Pointer(stream), g));
        return Pointer.nativeValue(g.getValue());
    }

    public long instantiate(long graph) {
        PointerByReference e = new PointerByReference();
        check("cuGraphInstantiateWithFlags", lib.cuGraphInstantiateWithFlags(e, new Pointer(graph), 0));
        return Pointer.nativeValue(e.getValue());
    }

    public void launchGraph(long exec, long stream) {
        int rc = CudaHot.cuGraphLaunch(exec, stream);
        if (rc != CuResults.SUCCESS) {
            check("cuGraphLaunch", rc);
        }
    }

    public void destroyGraphExec(long exec) {
        check("cuGraphExecDestroy", lib.cuGraphExecDestroy(new Pointer(exec)));
    }

    public void destroyGraph(long graph) {
        check("cuGraphDestroy", lib.cuGraphDestroy(new Pointer(graph)));
    }

    // --- virtual memory management, for SGLang's FlashInfer preflight (no multicast object is ever created) ---

    public Answer<Long> allocationGranularity(int device, int handleTypes, int option) {
        try (Memory prop = CuMemAllocationProp.pinnedOnDevice(device, handleTypes, true).toNative()) {
            LongByReference g = new LongByReference();
            int rc = lib.cuMemGetAllocationGranularity(g, prop, option);
            return answer(rc, rc == 0 ? g.getValue() : null);
        }
    }

    /** Query only: {@code cuMulticastGetGranularity}. */
    public Answer<Long> multicastGranularity(int numDevices, long size, int handleTypes, int option) {
        try (Memory prop = new CuMulticastObjectProp(numDevices, size, handleTypes).toNative()) {
            LongByReference g = new LongByReference();
            int rc = lib.cuMulticastGetGranularity(g, prop, option);
            return answer(rc, rc == 0 ? g.getValue() : null);
        }
    }

    /** {@code cuMemCreate} of pinned device memory with RDMA capability; the value is the handle. */
    public Answer<Long> memCreate(int device, int handleTypes, long size) {
        try (Memory prop = CuMemAllocationProp.pinnedOnDevice(device, handleTypes, true).toNative()) {
            LongByReference h = new LongByReference();
            int rc = lib.cuMemCreate(h, size, prop, 0);
            return answer(rc, rc == 0 ? h.getValue() : null);
        }
    }

    public int memRelease(long handle) {
        return lib.cuMemRelease(handle);
    }

    /** {@code cuMemExportToShareableHandle} into a scratch 64-byte fabric handle; returns the CUresult. */
    public int exportFabricHandle(long handle) {
        try (Memory fabricHandle = new Memory(CuMemAllocationProp.FABRIC_HANDLE_SIZE)) {
            fabricHandle.clear();
            return lib.cuMemExportToShareableHandle(fabricHandle, handle, CuMemAllocationProp.HANDLE_FABRIC, 0);
        }
    }

    private <T> Answer<T> answer(int rc, T value) {
        return new Answer<>(rc, errorName(rc), value);
    }

    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8).trim();
    }
}
