package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.nativeapi.JnaCalls;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * {@link CudaCheckCalls} through JNA: {@link CudaLibrary} for most calls, the direct-mapped {@link CudaHot} for the
 * calls a timed loop makes (context switch, launches, event records, stream queries), which answer shared answer
 * objects for their usual codes so that a timed call allocates nothing.
 */
public final class CudaCheckJna extends CudaProbeJna implements CudaCheckCalls {

    private static final NativeAnswer<Void> SUCCESS = NativeAnswer.returned(CuResults.SUCCESS, null);
    private static final NativeAnswer<Void> NOT_READY = NativeAnswer.returned(CudaOps.NOT_READY, null);

    /** A hot call's answer: no allocation for CUDA_SUCCESS and CUDA_ERROR_NOT_READY. */
    private static NativeAnswer<Void> hot(int rc) {
        return rc == CuResults.SUCCESS ? SUCCESS : rc == CudaOps.NOT_READY ? NOT_READY : NativeAnswer.returned(rc, null);
    }

    private <T> NativeAnswer<T> call(IntSupplier nativeCall, Supplier<T> outputs) {
        return JnaCalls.call(lib, "libcuda", CuResults.SUCCESS, nativeCall, outputs);
    }

    private NativeAnswer<Void> plain(IntSupplier nativeCall) {
        return call(nativeCall, () -> null);
    }

    private NativeAnswer<Long> handleOut(java.util.function.ToIntFunction<PointerByReference> f) {
        PointerByReference p = new PointerByReference();
        return call(() -> f.applyAsInt(p), () -> Pointer.nativeValue(p.getValue()));
    }

    private NativeAnswer<Long> longOut(java.util.function.ToIntFunction<LongByReference> f) {
        LongByReference v = new LongByReference();
        return call(() -> f.applyAsInt(v), v::getValue);
    }

    @Override
    public NativeAnswer<String> cuDeviceGetName(int device) {
        byte[] name = new byte[256];
        return call(() -> lib.cuDeviceGetName(name, name.length, device), () -> cString(name));
    }

    @Override
    public NativeAnswer<Long> cuDevicePrimaryCtxRetain(int device) {
        return handleOut(p -> lib.cuDevicePrimaryCtxRetain(p, device));
    }

    @Override
    public NativeAnswer<Void> cuDevicePrimaryCtxRelease_v2(int device) {
        return plain(() -> lib.cuDevicePrimaryCtxRelease_v2(device));
    }

    @Override
    public NativeAnswer<int[]> cuDevicePrimaryCtxGetState(int device) {
        IntByReference flags = new IntByReference();
        IntByReference active = new IntByReference();
        return call(() -> lib.cuDevicePrimaryCtxGetState(device, flags, active),
                () -> new int[] {flags.getValue(), active.getValue()});
    }

    @Override
    public NativeAnswer<Void> cuCtxSetCurrent(long ctx) {
        return hot(CudaHot.cuCtxSetCurrent(ctx));
    }

    @Override
    public NativeAnswer<Void> cuCtxSynchronize() {
        return plain(() -> lib.cuCtxSynchronize());
    }

    @Override
    public NativeAnswer<Void> cuCtxEnablePeerAccess(long peerContext, int flags) {
        return plain(() -> lib.cuCtxEnablePeerAccess(new Pointer(peerContext), flags));
    }

    @Override
    public NativeAnswer<Void> cuCtxDisablePeerAccess(long peerContext) {
        return plain(() -> lib.cuCtxDisablePeerAccess(new Pointer(peerContext)));
    }

    @Override
    public NativeAnswer<Long> cuMemAlloc_v2(long bytes) {
        return longOut(p -> lib.cuMemAlloc_v2(p, bytes));
    }

    @Override
    public NativeAnswer<Void> cuMemFree_v2(long dptr) {
        return plain(() -> lib.cuMemFree_v2(dptr));
    }

    @Override
    public NativeAnswer<Void> cuMemsetD8_v2(long dptr, byte value, long count) {
        return plain(() -> lib.cuMemsetD8_v2(dptr, value, count));
    }

    @Override
    public NativeAnswer<Void> cuMemcpyHtoD_v2(long dst, HostData src, long bytes) {
        if (src.buffer().capacity() < bytes) {
            throw new IllegalArgumentException("need a direct buffer of at least " + bytes + " bytes");
        }
        return plain(() -> lib.cuMemcpyHtoD_v2(dst, Native.getDirectBufferPointer(src.buffer()), bytes));
    }

    @Override
    public NativeAnswer<java.nio.ByteBuffer> cuMemcpyDtoH_v2(HostData dst, long src, long bytes) {
        if (bytes < 0 || dst.buffer().capacity() < bytes) {
            throw new IllegalArgumentException("need a direct buffer of at least " + bytes + " bytes");
        }
        return call(() -> lib.cuMemcpyDtoH_v2(Native.getDirectBufferPointer(dst.buffer()), src, bytes),
                () -> dst.buffer().slice(0, (int) bytes));
    }

    @Override
    public NativeAnswer<Void> cuMemcpyAsync(long dst, long src, long bytes, long stream) {
        return plain(() -> lib.cuMemcpyAsync(dst, src, bytes, new Pointer(stream)));
    }

    @Override
    public NativeAnswer<Long> cuStreamCreate(int flags) {
        return handleOut(p -> lib.cuStreamCreate(p, flags));
    }

    @Override
    public NativeAnswer<Void> cuStreamDestroy_v2(long stream) {
        return plain(() -> lib.cuStreamDestroy_v2(new Pointer(stream)));
    }

    @Override
    public NativeAnswer<Void> cuStreamQuery(long stream) {
        return hot(CudaHot.cuStreamQuery(stream));
    }

    @Override
    public NativeAnswer<Long> cuEventCreate(int flags) {
        return handleOut(p -> lib.cuEventCreate(p, flags));
    }

    @Override
    public NativeAnswer<Void> cuEventDestroy_v2(long event) {
        return plain(() -> lib.cuEventDestroy_v2(new Pointer(event)));
    }

    @Override
    public NativeAnswer<Void> cuEventRecord(long event, long stream) {
        return hot(CudaHot.cuEventRecord(event, stream));
    }

    @Override
    public NativeAnswer<Float> cuEventElapsedTime(long start, long end) {
        FloatByReference ms = new FloatByReference();
        return call(() -> {
            try {
                return lib.cuEventElapsedTime_v2(ms, new Pointer(start), new Pointer(end));
            } catch (UnsatisfiedLinkError e) {
                return lib.cuEventElapsedTime(ms, new Pointer(start), new Pointer(end));
            }
        }, ms::getValue);
    }

    @Override
    public NativeAnswer<Long> cuModuleLoadData(ModuleImage image) {
        byte[] b = image.shared();
        try (Memory mem = new Memory(Math.max(1, b.length))) {
            mem.write(0, b, 0, b.length);
            return handleOut(p -> lib.cuModuleLoadData(p, mem));
        }
    }

    @Override
    public NativeAnswer<Void> cuModuleUnload(long module) {
        return plain(() -> lib.cuModuleUnload(new Pointer(module)));
    }

    @Override
    public NativeAnswer<Long> cuModuleGetFunction(long module, String name) {
        return handleOut(p -> lib.cuModuleGetFunction(p, new Pointer(module), name));
    }

    @Override
    public NativeAnswer<Void> cuLaunchKernel(long function, int gridX, int gridY, int gridZ, int blockX, int blockY,
                                             int blockZ, long stream, KernelArgs params) {
        return hot(CudaHot.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, 0, stream,
                params.address(), 0));
    }

    @Override
    public NativeAnswer<Void> cuStreamBeginCapture_v2(long stream, int mode) {
        return plain(() -> lib.cuStreamBeginCapture_v2(new Pointer(stream), mode));
    }

    @Override
    public NativeAnswer<Long> cuStreamEndCapture(long stream) {
        return handleOut(p -> lib.cuStreamEndCapture(new Pointer(stream), p));
    }

    @Override
    public NativeAnswer<Long> cuGraphInstantiateWithFlags(long graph, long flags) {
        return handleOut(p -> lib.cuGraphInstantiateWithFlags(p, new Pointer(graph), flags));
    }

    @Override
    public NativeAnswer<Void> cuGraphLaunch(long exec, long stream) {
        return hot(CudaHot.cuGraphLaunch(exec, stream));
    }

    @Override
    public NativeAnswer<Void> cuGraphExecDestroy(long exec) {
        return plain(() -> lib.cuGraphExecDestroy(new Pointer(exec)));
    }

    @Override
    public NativeAnswer<Void> cuGraphDestroy(long graph) {
        return plain(() -> lib.cuGraphDestroy(new Pointer(graph)));
    }

    @Override
    public NativeAnswer<Long> cuMemGetAllocationGranularity(CuMemAllocationProp prop, int option) {
        try (Memory p = prop.toNative()) {
            return longOut(g -> lib.cuMemGetAllocationGranularity(g, p, option));
        }
    }

    @Override
    public NativeAnswer<Long> cuMulticastGetGranularity(CuMulticastObjectProp prop, int option) {
        try (Memory p = prop.toNative()) {
            return longOut(g -> lib.cuMulticastGetGranularity(g, p, option));
        }
    }

    @Override
    public NativeAnswer<Long> cuMemCreate(long size, CuMemAllocationProp prop, long flags) {
        try (Memory p = prop.toNative()) {
            return longOut(h -> lib.cuMemCreate(h, size, p, flags));
        }
    }

    @Override
    public NativeAnswer<Void> cuMemRelease(long handle) {
        return plain(() -> lib.cuMemRelease(handle));
    }

    @Override
    public NativeAnswer<Void> cuMemExportToShareableHandle(long handle, int handleType, long flags) {
        try (Memory scratch = new Memory(CuMemAllocationProp.FABRIC_HANDLE_SIZE)) {
            scratch.clear();
            return plain(() -> lib.cuMemExportToShareableHandle(scratch, handle, handleType, flags));
        }
    }

    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8).trim();
    }
}
