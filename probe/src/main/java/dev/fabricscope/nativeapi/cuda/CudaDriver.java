package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

/**
 * Safe facade over the CUDA driver API through JCuda. JCuda fails in its static initialiser when
 * libcuda.so.1 is absent ({@link UnsatisfiedLinkError} first, {@link NoClassDefFoundError} after), so
 * the whole class is opened once through {@link #open()} and every call answers a {@link Reading}.
 */
public final class CudaDriver implements CudaApi {

    private static volatile Result cached;

    private CudaDriver() {
    }

    /**
     * @param driver        the facade when {@code cuInit} succeeded
     * @param libraryLoaded whether libcuda.so.1 was found
     * @param failure       why not, in one line
     * @param initCode      {@code cuInit}'s CUresult, or null when it was never called
     */
    public record Result(CudaApi driver, boolean libraryLoaded, String failure, Integer initCode) {
    }

    /** Loads JCuda and calls {@code cuInit(0)}, once per JVM. */
    public static synchronized Result open() {
        if (cached != null) {
            return cached;
        }
        int rc;
        try {
            JCudaDriver.setExceptionsEnabled(false);
            dev.fabricscope.Trace.mark("jcuda loading");
            rc = JCudaDriver.cuInit(0);
            dev.fabricscope.Trace.mark("cuInit returned");
        } catch (LinkageError e) {
            cached = new Result(null, false, "libcuda.so.1 not loadable: " + loaderLine(e), null);
            return cached;
        }
        if (rc != CuResults.SUCCESS) {
            cached = new Result(null, true, "cuInit → " + CuResults.describe(rc), rc);
        } else {
            cached = new Result(new CudaDriver(), true, null, rc);
        }
        return cached;
    }

    /** The useful line of JCuda's nested loader message (the one naming libcuda). */
    static String loaderLine(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m == null) {
                continue;
            }
            for (String line : m.split("\n")) {
                if (line.contains("libcuda")) {
                    return line.trim();
                }
            }
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse("").trim();
    }

    public static String errorName(int rc) {
        try {
            String[] name = new String[1];
            if (JCudaDriver.cuGetErrorName(rc, name) == CuResults.SUCCESS && name[0] != null) {
                return name[0];
            }
        } catch (LinkageError ignored) {
            // fall through to the table
        }
        return CuResults.name(rc);
    }

    private static <T> Reading<T> read(String call, IntSupplier nativeCall, Supplier<T> value) {
        int rc;
        try {
            rc = nativeCall.getAsInt();
        } catch (LinkageError e) {
            return Reading.missing(new Missing(Missing.Kind.SYMBOL_MISSING, call, null, null, e.getMessage()));
        } catch (RuntimeException e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, call, null, null, e.toString()));
        }
        if (rc == CuResults.SUCCESS) {
            return Reading.of(value.get());
        }
        String name = errorName(rc);
        return Reading.missing(rc == CuResults.NOT_SUPPORTED ? Missing.unsupported(call, name, rc)
                : Missing.error(call, name, rc));
    }

    private final java.util.Map<Integer, Reading<CUdevice>> devices = new java.util.concurrent.ConcurrentHashMap<>();

    private <T> Reading<T> withDevice(int ordinal, java.util.function.Function<CUdevice, Reading<T>> f) {
        Reading<CUdevice> d = devices.computeIfAbsent(ordinal, this::device);
        return d.isPresent() ? f.apply(d.value()) : Reading.missing(d.missing());
    }

    @Override
    public Reading<PciAddress> pciBusId(int ordinal) {
        return withDevice(ordinal, this::pciBusId);
    }

    @Override
    public Reading<Integer> attribute(int ordinal, int attribute) {
        return withDevice(ordinal, d -> attribute(d, attribute));
    }

    @Override
    public Reading<Boolean> canAccessPeer(int ordinal, int peerOrdinal) {
        return withDevice(ordinal, a -> withDevice(peerOrdinal, b -> canAccessPeer(a, b)));
    }

    @Override
    public Reading<Integer> p2pAttribute(int ordinal, int peerOrdinal, int attribute) {
        return withDevice(ordinal, a -> withDevice(peerOrdinal, b -> p2pAttribute(a, b, attribute)));
    }

    /** {@code 13000} → {@code 13.0}. */
    @Override
    public Reading<String> driverVersion() {
        int[] v = new int[1];
        return read("cuDriverGetVersion", () -> JCudaDriver.cuDriverGetVersion(v), () -> (v[0] / 1000) + "." + (v[0] % 1000) / 10);
    }

    @Override
    public Reading<Integer> deviceCount() {
        int[] n = new int[1];
        return read("cuDeviceGetCount", () -> JCudaDriver.cuDeviceGetCount(n), () -> n[0]);
    }

    public Reading<CUdevice> device(int ordinal) {
        CUdevice d = new CUdevice();
        return read("cuDeviceGet", () -> JCudaDriver.cuDeviceGet(d, ordinal), () -> d);
    }

    public Reading<PciAddress> pciBusId(CUdevice d) {
        String[] id = new String[1];
        return read("cuDeviceGetPCIBusId", () -> JCudaDriver.cuDeviceGetPCIBusId(id, 32, d), () -> PciAddress.parse(id[0]));
    }

    public Reading<Integer> attribute(CUdevice d, int attribute) {
        int[] v = new int[1];
        return read("cuDeviceGetAttribute(" + CudaAttribute.name(attribute) + ")",
                () -> JCudaDriver.cuDeviceGetAttribute(v, attribute, d), () -> v[0]);
    }

    public Reading<Boolean> flag(CUdevice d, int attribute) {
        return attribute(d, attribute).map(v -> v != 0);
    }

    public Reading<Boolean> canAccessPeer(CUdevice a, CUdevice b) {
        int[] v = new int[1];
        return read("cuDeviceCanAccessPeer", () -> JCudaDriver.cuDeviceCanAccessPeer(v, a, b), () -> v[0] != 0);
    }

    public Reading<Integer> p2pAttribute(CUdevice a, CUdevice b, int attribute) {
        int[] v = new int[1];
        String name = attribute == CudaAttribute.P2P_PERFORMANCE_RANK ? "PERFORMANCE_RANK"
                : attribute == CudaAttribute.P2P_NATIVE_ATOMIC_SUPPORTED ? "NATIVE_ATOMIC_SUPPORTED" : String.valueOf(attribute);
        return read("cuDeviceGetP2PAttribute(" + name + ")",
                () -> JCudaDriver.cuDeviceGetP2PAttribute(v, attribute, a, b), () -> v[0]);
    }
}
