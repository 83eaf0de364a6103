package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.Opened;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Safe facade over the CUDA driver seam ({@link CudaProbeCalls}) for the probe: every call answers a {@link Reading}
 * naming the call and its CUresult; out-of-range answers keep their raw value. Never throws.
 */
public final class CudaReader implements CudaReadings {

    /** More CUDA devices than any host has: a count above is not believed. */
    public static final int MAX_DEVICES = 4096;

    private final CudaProbeCalls calls;
    private final NativeReads reads;
    private final Map<Integer, Reading<Integer>> devices = new ConcurrentHashMap<>();
    private final Map<Integer, String> errorNames = new ConcurrentHashMap<>();

    private CudaReader(CudaProbeCalls calls) {
        this.calls = calls;
        this.reads = new NativeReads(CuResults.SUCCESS, CuResults.NOT_SUPPORTED, this::errorName);
    }

    /** The driver's libcuda through JNA, each call guarded by the default time-out. */
    public static Opened<CudaReadings> open() {
        return open(CallGuard.guard(CudaProbeCalls.class, "cuda", new CudaProbeJna(), CallGuard.defaultTimeout()));
    }

    /** Loads the library and calls {@code cuInit(0)} through the seam. */
    public static Opened<CudaReadings> open(CudaProbeCalls calls) {
        return open(calls, () -> { });
    }

    /** Loads the library, runs {@code beforeInit} (the probe waits there for NVML's read), then calls {@code cuInit(0)}. */
    public static Opened<CudaReadings> open(CudaProbeCalls calls, Runnable beforeInit) {
        return CudaLoader.open(calls, beforeInit, CudaReader::new);
    }

    /** The driver's name for a CUresult, else the table's. */
    public String errorName(int rc) {
        return errorNames.computeIfAbsent(rc, code -> CudaLoader.errorName(calls, code));
    }

    private Reading<Integer> device(int ordinal) {
        return devices.computeIfAbsent(ordinal, o -> reads.read("cuDeviceGet", () -> calls.cuDeviceGet(o), v -> v));
    }

    private <T> Reading<T> withDevice(int ordinal, java.util.function.IntFunction<Reading<T>> f) {
        Reading<Integer> d = device(ordinal);
        return d.isPresent() ? f.apply(d.value()) : Reading.missing(d.missing());
    }

    /** {@code 13000} → {@code 13.0}. */
    @Override
    public Reading<String> driverVersion() {
        return reads.read("cuDriverGetVersion", calls::cuDriverGetVersion, NativeReads::cudaVersion);
    }

    @Override
    public Reading<Integer> deviceCount() {
        return reads.read("cuDeviceGetCount", calls::cuDeviceGetCount, n -> NativeReads.inRange(n, 0, MAX_DEVICES, "device count"));
    }

    @Override
    public Reading<PciAddress> pciBusId(int ordinal) {
        return withDevice(ordinal, d -> reads.read("cuDeviceGetPCIBusId", () -> calls.cuDeviceGetPCIBusId(d), text -> {
            try {
                return PciAddress.parse(text);
            } catch (IllegalArgumentException e) {
                throw new NativeReads.OutOfRange("'" + text + "'", "not a PCI address");
            }
        }));
    }

    @Override
    public Reading<Integer> attribute(int ordinal, int attribute) {
        return withDevice(ordinal, d -> reads.read("cuDeviceGetAttribute(" + CudaAttribute.name(attribute) + ")",
                () -> calls.cuDeviceGetAttribute(attribute, d), v -> v));
    }

    @Override
    public Reading<Boolean> canAccessPeer(int ordinal, int peerOrdinal) {
        return withDevice(ordinal, a -> withDevice(peerOrdinal, b -> reads.read("cuDeviceCanAccessPeer",
                () -> calls.cuDeviceCanAccessPeer(a, b), v -> NativeReads.flag(v, "cuDeviceCanAccessPeer"))));
    }

    @Override
    public Reading<Integer> p2pAttribute(int ordinal, int peerOrdinal, int attribute) {
        String name = attribute == CudaAttribute.P2P_PERFORMANCE_RANK ? "PERFORMANCE_RANK"
                : attribute == CudaAttribute.P2P_NATIVE_ATOMIC_SUPPORTED ? "NATIVE_ATOMIC_SUPPORTED"
                : attribute == CudaAttribute.P2P_ACCESS_SUPPORTED ? "ACCESS_SUPPORTED" : String.valueOf(attribute);
        return withDevice(ordinal, a -> withDevice(peerOrdinal, b -> reads.read("cuDeviceGetP2PAttribute(" + name + ")",
                () -> calls.cuDeviceGetP2PAttribute(attribute, a, b), v -> v)));
    }

    /** Missing reading for a CUresult (used by callers that already hold a code). */
    public Missing missing(String call, int rc) {
        String n = errorName(rc);
        return rc == CuResults.NOT_SUPPORTED ? Missing.unsupported(call, n, rc) : Missing.error(call, n, rc);
    }
}
