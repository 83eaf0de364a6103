package dev.fabricscope.check;

import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.cuda.CudaLoader;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.nvml.NvmlGpus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The GPUs a check works on, through the check's seams ({@link CheckBackends}: the driver, or a trace being recorded
 * or replayed) and {@link CudaOps}: primary contexts, tracked allocations, streams and events, and
 * any other resource registered with {@link #track}. {@link #close()} frees everything in reverse order, reads NVML's
 * used memory again and releases the contexts, so the check can report whether GPU memory went back to its starting
 * level. Context switches are per thread: a thread that drives GPU i calls {@link #makeCurrent} first.
 */
public final class GpuSession implements AutoCloseable {

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

    private record Resource(int index, String what, Runnable release) {
    }

    private final CudaOps cuda;
    private final List<Device> devices;
    private final long[] contexts;
    private final NvmlGpus nvml;
    private final CheckBackends backends;
    private final Long[] usedBeforeContext;
    private final Long[] usedBefore;
    private final Deque<Resource> resources = new ArrayDeque<>();
    private final List<String> cleanupErrors = new ArrayList<>();
    private MemoryAudit audit;
    private boolean closed;

    private GpuSession(CheckBackends backends, CudaOps cuda, List<Device> devices, NvmlGpus nvml) {
        this.backends = backends;
        this.cuda = cuda;
        this.devices = List.copyOf(devices);
        this.contexts = new long[devices.size()];
        this.nvml = nvml;
        this.usedBeforeContext = new Long[devices.size()];
        this.usedBefore = new Long[devices.size()];
    }

    /** Opens the driver through {@code backends} and every visible GPU's primary context. */
    public static GpuSession open(CheckBackends backends) throws NoDriverException {
        Opened<CudaOps> r = CudaOps.open(backends.cuda());
        if (!r.isOpen()) {
            if (CudaLoader.noDriver(r)) {
                throw new NoDriverException("no NVIDIA driver: " + r.failure());
            }
            throw new IllegalStateException(r.failure());
        }
        CudaOps cuda = r.value();
        int n = cuda.deviceCount();
        if (n == 0) {
            throw new NoDriverException("no NVIDIA GPU visible to CUDA (cuDeviceGetCount = 0)");
        }
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CudaOps.Device d = cuda.device(i);
            devices.add(new Device(d.ordinal(), PciAddress.parse(d.pciBusId()), d.name(), d.ccMajor(), d.ccMinor()));
        }
        GpuSession s = new GpuSession(backends, cuda, devices, NvmlGpus.open(backends.nvml()));
        for (int i = 0; i < devices.size(); i++) {
            s.usedBeforeContext[i] = s.usedBytes(i).orElse(null);
        }
        try {
            for (int i = 0; i < devices.size(); i++) {
                s.contexts[i] = cuda.retainPrimaryContext(devices.get(i).ordinal());
                s.makeCurrent(i);
                // the context is created lazily: a sync forces it into being before the baseline is read
                cuda.synchronize();
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

    public CudaOps cuda() {
        return cuda;
    }

    public CheckBackends backends() {
        return backends;
    }

    /**
     * The host clock, through the seam (a replayed check gets the recorded times); {@code lane} keys a host thread
     * that times its own rank, -1 for one thread.
     */
    public long nanoTime(int lane) {
        var a = backends.host().nanoTime(lane);
        if (!a.succeeded() || a.value() == null) {
            throw new IllegalStateException("host clock: " + (a.fault() != null
                    ? dev.fabricscope.nativeapi.NativeReads.faultText(a) : "no time"));
        }
        return a.value();
    }

    /** An environment variable of the process the check runs in (recorded; a replay gets the recorded one), or null. */
    public String getenv(String name) {
        var a = backends.host().getenv(name);
        if (a.fault() != null) {
            throw new IllegalStateException("getenv(" + name + "): " + dev.fabricscope.nativeapi.NativeReads.faultText(a));
        }
        return a.value();
    }

    /** The CPU architecture ({@code os.arch}) the check runs on (recorded, as {@link #getenv}). */
    public String osArch() {
        var a = backends.host().osArch();
        if (!a.succeeded() || a.value() == null) {
            throw new IllegalStateException("os.arch: " + (a.fault() != null
                    ? dev.fabricscope.nativeapi.NativeReads.faultText(a) : "none"));
        }
        return a.value();
    }

    public List<Device> devices() {
        return devices;
    }

    public int size() {
        return devices.size();
    }

    public NvmlGpus nvml() {
        return nvml;
    }

    public void makeCurrent(int index) {
        cuda.setCurrent(contexts[index]);
    }

    /** NVML used memory of the GPU. */
    public Reading<Long> usedBytes(int index) {
        return nvml.usedBytes(devices.get(index).pci());
    }

    /** Registers a resource to release at {@link #close()} (in reverse order, with its GPU's context current). */
    public synchronized void track(int index, String what, Runnable release) {
        resources.push(new Resource(index, what, release));
    }

    /** Plain device memory ({@code cuMemAlloc}), freed at close. */
    public long alloc(int index, long bytes) {
        makeCurrent(index);
        long ptr = cuda.alloc(bytes);
        track(index, "device memory", () -> cuda.free(ptr));
        return ptr;
    }

    /** A non-blocking stream on the GPU, destroyed at close. */
    public long stream(int index) {
        makeCurrent(index);
        long stream = cuda.createStream();
        track(index, "stream", () -> cuda.destroyStream(stream));
        return stream;
    }

    /** A timing event on the GPU, destroyed at close. */
    public long event(int index) {
        makeCurrent(index);
        long event = cuda.createEvent();
        track(index, "event", () -> cuda.destroyEvent(event));
        return event;
    }

    public boolean streamDone(long stream) {
        return cuda.streamDone(stream);
    }

    public float elapsedMs(long start, long end) {
        return cuda.elapsedMs(start, end);
    }

    /** Enables peer access from {@code from} to {@code to}'s memory (already enabled counts as success). */
    public void enablePeerAccess(int from, int to) {
        makeCurrent(from);
        if (cuda.enablePeerAccess(contexts[to], "GPU" + from + " → GPU" + to)) {
            long peer = contexts[to];
            track(from, "peer access", () -> cuda.disablePeerAccess(peer));
        }
    }

    public boolean canAccessPeer(int from, int to) {
        return cuda.canAccessPeer(devices.get(from).ordinal(), devices.get(to).ordinal());
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
            if (contexts[i] != 0) {
                try {
                    makeCurrent(i);
                    cuda.synchronize();
                } catch (RuntimeException e) {
                    cleanupErrors.add("GPU" + i + ": " + e.getMessage());
                }
            }
        }
        while (!resources.isEmpty()) {
            Resource r = resources.pop();
            try {
                if (contexts[r.index()] != 0) {
                    makeCurrent(r.index());
                }
                r.release().run();
            } catch (RuntimeException | LinkageError e) {
                cleanupErrors.add("GPU" + r.index() + " " + r.what() + ": " + e.getMessage());
            }
        }
        Long[] after = new Long[devices.size()];
        String[] missing = new String[devices.size()];
        for (int i = 0; i < devices.size(); i++) {
            Reading<Long> r = usedBytes(i);
            after[i] = r.orElse(null);
            missing[i] = r.isPresent() ? (usedBefore[i] == null ? "no reading before the check" : null) : r.missing().describe();
        }
        try {
            cuda.setCurrent(0);
        } catch (RuntimeException e) {
            cleanupErrors.add("cuCtxSetCurrent(NULL): " + e.getMessage());
        }
        for (int i = 0; i < devices.size(); i++) {
            if (contexts[i] != 0) {
                cuda.releasePrimaryContext(devices.get(i).ordinal());
                contexts[i] = 0;
            }
        }
        List<MemoryAudit.Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < devices.size(); i++) {
            gpus.add(new MemoryAudit.Gpu(devices.get(i).ordinal(), devices.get(i).pci().toString(), usedBeforeContext[i],
                    usedBefore[i], after[i], usedBytes(i).orElse(null), cuda.primaryContextActive(devices.get(i).ordinal()),
                    missing[i], null));
        }
        audit = MemoryAudit.of(gpus);
        nvml.close();
    }
}
