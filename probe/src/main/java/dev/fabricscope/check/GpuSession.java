package dev.fabricscope.check;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.cuda.CudaAttribute;
import dev.fabricscope.nativeapi.cuda.CudaJna;
import dev.fabricscope.nativeapi.cuda.LibCuda;
import dev.fabricscope.nativeapi.nvml.Nvml;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The GPUs a check works on, through the driver API (JNA): primary contexts, tracked allocations, streams and
 * events, and any other resource registered with {@link #track}. {@link #close()} frees everything in reverse
 * order, reads NVML's used memory again and releases the contexts, so the check can report whether GPU memory
 * went back to its starting level. Use from one thread (CUDA's current context is per thread).
 */
public final class GpuSession implements AutoCloseable {

    /** {@code CU_STREAM_NON_BLOCKING}: no implicit sync with the legacy default stream. */
    static final int STREAM_NON_BLOCKING = 0x1;
    /** {@code CU_EVENT_DEFAULT}. */
    static final int EVENT_DEFAULT = 0x0;

    /**
     * One visible GPU.
     *
     * @param ordinal CUDA ordinal (under CUDA_VISIBLE_DEVICES)
     * @param pci     PCI address from the driver
     * @param name    device name
     * @param ccMajor compute capability major
     * @param ccMinor compute capability minor
     */
    public record Device(int ordinal, PciAddress pci, String name, int ccMajor, int ccMinor) {
        public String label() {
            return "GPU" + ordinal;
        }
    }

    private record Resource(int ordinal, String what, Runnable release) {
    }

    private final CudaJna cuda;
    private final LibCuda lib;
    private final List<Device> devices;
    private final Pointer[] contexts;
    private final Nvml.NvmlDevice[] nvmlHandles;
    private final Nvml nvml;
    private final String nvmlFailure;
    private final Long[] usedBeforeContext;
    private final Long[] usedBefore;
    private final Deque<Resource> resources = new ArrayDeque<>();
    private final List<String> cleanupErrors = new ArrayList<>();
    private MemoryAudit audit;
    private boolean closed;

    private GpuSession(CudaJna cuda, List<Device> devices, Nvml nvml, String nvmlFailure) {
        this.cuda = cuda;
        this.lib = cuda.lib();
        this.devices = List.copyOf(devices);
        this.contexts = new Pointer[devices.size()];
        this.nvmlHandles = new Nvml.NvmlDevice[devices.size()];
        this.nvml = nvml;
        this.nvmlFailure = nvmlFailure;
        this.usedBeforeContext = new Long[devices.size()];
        this.usedBefore = new Long[devices.size()];
    }

    /** Opens the driver and every visible GPU's primary context. */
    public static GpuSession open() throws NoDriverException {
        CudaJna.Result r = CudaJna.open();
        if (r.cuda() == null) {
            if (r.noDriver()) {
                throw new NoDriverException("no NVIDIA driver: " + r.failure());
            }
            throw new IllegalStateException(r.failure());
        }
        CudaJna cuda = r.cuda();
        LibCuda lib = cuda.lib();
        IntByReference n = new IntByReference();
        cuda.check("cuDeviceGetCount", lib.cuDeviceGetCount(n));
        if (n.getValue() == 0) {
            throw new NoDriverException("no NVIDIA GPU visible to CUDA (cuDeviceGetCount = 0)");
        }
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < n.getValue(); i++) {
            IntByReference dev = new IntByReference();
            cuda.check("cuDeviceGet(" + i + ")", lib.cuDeviceGet(dev, i));
            byte[] name = new byte[256];
            cuda.check("cuDeviceGetName", lib.cuDeviceGetName(name, name.length, dev.getValue()));
            byte[] bus = new byte[32];
            cuda.check("cuDeviceGetPCIBusId", lib.cuDeviceGetPCIBusId(bus, bus.length, dev.getValue()));
            IntByReference major = new IntByReference();
            IntByReference minor = new IntByReference();
            cuda.check("cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)",
                    lib.cuDeviceGetAttribute(major, CudaAttribute.COMPUTE_CAPABILITY_MAJOR, dev.getValue()));
            cuda.check("cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)",
                    lib.cuDeviceGetAttribute(minor, CudaAttribute.COMPUTE_CAPABILITY_MINOR, dev.getValue()));
            devices.add(new Device(dev.getValue(), PciAddress.parse(cString(bus)), cString(name), major.getValue(),
                    minor.getValue()));
        }
        Nvml.Result nr = Nvml.open();
        GpuSession s = new GpuSession(cuda, devices, nr.nvml(), nr.nvml() == null ? "NVML: " + nr.failure() : null);
        s.mapNvml();
        for (int i = 0; i < devices.size(); i++) {
            s.usedBeforeContext[i] = s.usedBytes(i).orElse(null);
        }
        try {
            for (int i = 0; i < devices.size(); i++) {
                PointerByReference ctx = new PointerByReference();
                cuda.check("cuDevicePrimaryCtxRetain(" + i + ")", lib.cuDevicePrimaryCtxRetain(ctx, devices.get(i).ordinal()));
                s.contexts[i] = ctx.getValue();
                s.makeCurrent(i);
                // the context is created lazily: a sync forces it into being before the baseline is read
                cuda.check("cuCtxSynchronize", lib.cuCtxSynchronize());
            }
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        for (int i = 0; i < devices.size(); i++) {
            s.usedBefore[i] = s.usedBytes(i).orElse(null);
        }
        return s;
    }

    private void mapNvml() {
        if (nvml == null) {
            return;
        }
        int count = nvml.deviceCount().orElse(0);
        for (int k = 0; k < count; k++) {
            Nvml.NvmlDevice h = nvml.handle(k).orElse(null);
            if (h == null) {
                continue;
            }
            PciAddress pci = nvml.pci(h).orElse(null);
            for (int i = 0; i < devices.size(); i++) {
                if (devices.get(i).pci().sameDevice(pci)) {
                    nvmlHandles[i] = h;
                }
            }
        }
    }

    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8).trim();
    }

    public CudaJna cuda() {
        return cuda;
    }

    public LibCuda lib() {
        return lib;
    }

    public List<Device> devices() {
        return devices;
    }

    public int size() {
        return devices.size();
    }

    public Pointer context(int index) {
        return contexts[index];
    }

    /** NVML's handle of the GPU, or null when NVML could not be matched to it. */
    public Nvml.NvmlDevice nvmlHandle(int index) {
        return nvmlHandles[index];
    }

    public Nvml nvml() {
        return nvml;
    }

    public void makeCurrent(int index) {
        cuda.check("cuCtxSetCurrent", lib.cuCtxSetCurrent(contexts[index]));
    }

    /** NVML used memory of the GPU. */
    public Reading<Long> usedBytes(int index) {
        if (nvml == null) {
            return Reading.unavailable(nvmlFailure);
        }
        if (nvmlHandles[index] == null) {
            return Reading.unavailable("no NVML device with PCI address " + devices.get(index).pci());
        }
        return nvml.memoryUsed(nvmlHandles[index]);
    }

    /** Registers a resource to release at {@link #close()} (in reverse order, with its GPU's context current). */
    public void track(int index, String what, Runnable release) {
        resources.push(new Resource(index, what, release));
    }

    /** Plain device memory ({@code cuMemAlloc}), freed at close. */
    public long alloc(int index, long bytes) {
        makeCurrent(index);
        LongByReference p = new LongByReference();
        cuda.check("cuMemAlloc(" + bytes + " B on GPU" + index + ")", lib.cuMemAlloc_v2(p, bytes));
        long ptr = p.getValue();
        track(index, "device memory", () -> cuda.check("cuMemFree", lib.cuMemFree_v2(ptr)));
        return ptr;
    }

    /** A non-blocking stream on the GPU, destroyed at close. */
    public Pointer stream(int index) {
        makeCurrent(index);
        PointerByReference s = new PointerByReference();
        cuda.check("cuStreamCreate", lib.cuStreamCreate(s, STREAM_NON_BLOCKING));
        Pointer stream = s.getValue();
        track(index, "stream", () -> cuda.check("cuStreamDestroy", lib.cuStreamDestroy_v2(stream)));
        return stream;
    }

    /** A timing event on the GPU, destroyed at close. */
    public Pointer event(int index) {
        makeCurrent(index);
        PointerByReference e = new PointerByReference();
        cuda.check("cuEventCreate", lib.cuEventCreate(e, EVENT_DEFAULT));
        Pointer event = e.getValue();
        track(index, "event", () -> cuda.check("cuEventDestroy", lib.cuEventDestroy_v2(event)));
        return event;
    }

    /** True once all work queued on the stream has finished; throws on an error. */
    public boolean streamDone(Pointer stream) {
        int rc = lib.cuStreamQuery(stream);
        if (rc == CudaJna.NOT_READY) {
            return false;
        }
        cuda.check("cuStreamQuery", rc);
        return true;
    }

    /** Milliseconds between two recorded events: {@code cuEventElapsedTime_v2} where the driver has it (12.8+). */
    public float elapsedMs(Pointer start, Pointer end) {
        com.sun.jna.ptr.FloatByReference ms = new com.sun.jna.ptr.FloatByReference();
        int rc;
        try {
            rc = lib.cuEventElapsedTime_v2(ms, start, end);
        } catch (UnsatisfiedLinkError e) {
            rc = lib.cuEventElapsedTime(ms, start, end);
        }
        cuda.check("cuEventElapsedTime", rc);
        return ms.getValue();
    }

    /** Enables peer access from {@code from} to {@code to}'s memory (already enabled counts as success). */
    public void enablePeerAccess(int from, int to) {
        makeCurrent(from);
        int rc = lib.cuCtxEnablePeerAccess(contexts[to], 0);
        if (rc == 704) { // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
            return;
        }
        cuda.check("cuCtxEnablePeerAccess(GPU" + from + " → GPU" + to + ")", rc);
        track(from, "peer access", () -> lib.cuCtxDisablePeerAccess(contexts[to]));
    }

    public boolean canAccessPeer(int from, int to) {
        IntByReference v = new IntByReference();
        cuda.check("cuDeviceCanAccessPeer", lib.cuDeviceCanAccessPeer(v, devices.get(from).ordinal(), devices.get(to).ordinal()));
        return v.getValue() != 0;
    }

    /** The audit taken at close (null before). */
    public MemoryAudit audit() {
        return audit;
    }

    /** Problems met while releasing resources (empty when all went well). */
    public List<String> cleanupErrors() {
        return List.copyOf(cleanupErrors);
    }

    /** Frees everything, reads NVML again, releases the primary contexts. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < devices.size(); i++) {
            if (contexts[i] != null) {
                try {
                    makeCurrent(i);
                    cuda.check("cuCtxSynchronize", lib.cuCtxSynchronize());
                } catch (RuntimeException e) {
                    cleanupErrors.add("GPU" + i + ": " + e.getMessage());
                }
            }
        }
        while (!resources.isEmpty()) {
            Resource r = resources.pop();
            try {
                if (contexts[r.ordinal()] != null) {
                    makeCurrent(r.ordinal());
                }
                r.release().run();
            } catch (RuntimeException | LinkageError e) {
                cleanupErrors.add("GPU" + r.ordinal() + " " + r.what() + ": " + e.getMessage());
            }
        }
        Long[] after = new Long[devices.size()];
        String[] missing = new String[devices.size()];
        for (int i = 0; i < devices.size(); i++) {
            Reading<Long> r = usedBytes(i);
            after[i] = r.orElse(null);
            missing[i] = r.isPresent() ? (usedBefore[i] == null ? "no reading before the check" : null) : r.missing().describe();
        }
        lib.cuCtxSetCurrent(Pointer.NULL);
        for (int i = 0; i < devices.size(); i++) {
            if (contexts[i] != null) {
                lib.cuDevicePrimaryCtxRelease_v2(devices.get(i).ordinal());
                contexts[i] = null;
            }
        }
        List<MemoryAudit.Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < devices.size(); i++) {
            IntByReference flags = new IntByReference();
            IntByReference active = new IntByReference();
            Boolean stillActive = lib.cuDevicePrimaryCtxGetState(devices.get(i).ordinal(), flags, active) == 0
                    ? active.getValue() != 0 : null;
            gpus.add(new MemoryAudit.Gpu(devices.get(i).ordinal(), devices.get(i).pci().toString(), usedBeforeContext[i],
                    usedBefore[i], after[i], usedBytes(i).orElse(null), stillActive, missing[i]));
        }
        audit = MemoryAudit.of(gpus);
        if (nvml != null) {
            nvml.close();
        }
    }
}
