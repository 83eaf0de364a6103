package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.nativeapi.JnaCalls;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.Opened;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** {@link CudaProbeCalls} through JNA ({@link CudaLibrary}, loaded by {@link CudaLoader}). */
public class CudaProbeJna implements CudaProbeCalls {

    CudaLibrary lib;

    @Override
    public NativeAnswer<String> load() {
        Opened<CudaLoader.Loaded> l = CudaLoader.library();
        lib = l.isOpen() ? l.value().library() : null;
        return lib != null ? NativeAnswer.ok(l.value().name()) : NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, l.failure());
    }

    private <T> NativeAnswer<T> call(IntSupplier nativeCall, Supplier<T> outputs) {
        return JnaCalls.call(lib, "libcuda", CuResults.SUCCESS, nativeCall, outputs);
    }

    private NativeAnswer<Integer> intOut(java.util.function.ToIntFunction<IntByReference> f) {
        IntByReference v = new IntByReference();
        return call(() -> f.applyAsInt(v), v::getValue);
    }

    @Override
    public NativeAnswer<Void> cuInit(int flags) {
        return call(() -> lib.cuInit(flags), () -> null);
    }

    @Override
    public NativeAnswer<String> cuGetErrorName(int error) {
        PointerByReference name = new PointerByReference();
        NativeAnswer<String> a = call(() -> lib.cuGetErrorName(error, name), () -> {
            Pointer p = name.getValue();
            return p == null ? null : p.getString(0, StandardCharsets.US_ASCII.name());
        });
        return a;
    }

    @Override
    public NativeAnswer<Integer> cuDriverGetVersion() {
        return intOut(v -> lib.cuDriverGetVersion(v));
    }

    @Override
    public NativeAnswer<Integer> cuDeviceGetCount() {
        return intOut(v -> lib.cuDeviceGetCount(v));
    }

    @Override
    public NativeAnswer<Integer> cuDeviceGet(int ordinal) {
        return intOut(v -> lib.cuDeviceGet(v, ordinal));
    }

    @Override
    public NativeAnswer<String> cuDeviceGetPCIBusId(int device) {
        byte[] buf = new byte[32];
        return call(() -> lib.cuDeviceGetPCIBusId(buf, buf.length, device), () -> {
            int n = 0;
            while (n < buf.length && buf[n] != 0) {
                n++;
            }
            return new String(buf, 0, n, StandardCharsets.UTF_8);
        });
    }

    @Override
    public NativeAnswer<Integer> cuDeviceGetAttribute(int attribute, int device) {
        return intOut(v -> lib.cuDeviceGetAttribute(v, attribute, device));
    }

    @Override
    public NativeAnswer<Integer> cuDeviceCanAccessPeer(int device, int peerDevice) {
        return intOut(v -> lib.cuDeviceCanAccessPeer(v, device, peerDevice));
    }

    @Override
    public NativeAnswer<Integer> cuDeviceGetP2PAttribute(int attribute, int srcDevice, int dstDevice) {
        return intOut(v -> lib.cuDeviceGetP2PAttribute(v, attribute, srcDevice, dstDevice));
    }
}
