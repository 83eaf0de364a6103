package dev.fabricscope.nativeapi.backends;

import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.cuda.CudaProbeCalls;
import dev.fabricscope.nativeapi.cuda.CudaProbeJna;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import dev.fabricscope.nativeapi.nccl.JnaNccl;
import dev.fabricscope.nativeapi.nccl.NcclCalls;
import dev.fabricscope.nativeapi.nvml.JnaNvml;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The probe's four seams, one per source: NVML, the CUDA driver, the NCCL loader and the host. Everything the probe
 * reads passes through one of them, so the same probe runs on the driver, records a trace, or replays one.
 */
public record NativeBackends(NvmlCalls nvml, CudaProbeCalls cuda, NcclCalls nccl, HostCalls host) {

    public static final String NVML = "nvml";
    public static final String CUDA = "cuda";
    public static final String NCCL = "nccl";
    public static final String HOST = "host";

    /**
     * This machine: the driver through JNA and the file system, every call guarded by {@code timeout}; the host seam
     * answers the variables {@code getenvAllowed} names, its {@code environment()} those {@code environmentAllowed} names.
     */
    public static NativeBackends live(Map<String, String> env, Predicate<String> getenvAllowed, Predicate<String> environmentAllowed,
                                      Duration timeout) {
        return new NativeBackends(new JnaNvml(), new CudaProbeJna(), new JnaNccl(env),
                new FileHost(Paths.get("/"), env, getenvAllowed, environmentAllowed))
                .guarded(timeout);
    }

    /** Answers from a trace, no hardware touched. */
    public static NativeBackends replay(NativeTrace trace) {
        TraceReplayer r = new TraceReplayer(trace);
        return new NativeBackends(r.proxy(NvmlCalls.class, NVML), r.proxy(CudaProbeCalls.class, CUDA),
                r.proxy(NcclCalls.class, NCCL), r.proxy(HostCalls.class, HOST));
    }

    /** The same backends, each call appended to {@code recorder}. */
    public NativeBackends recordedBy(TraceRecorder recorder) {
        return new NativeBackends(recorder.wrap(NvmlCalls.class, NVML, nvml), recorder.wrap(CudaProbeCalls.class, CUDA, cuda),
                recorder.wrap(NcclCalls.class, NCCL, nccl), recorder.wrap(HostCalls.class, HOST, host));
    }

    /** The same backends, each call abandoned after {@code timeout} (a hung call answers TIMED_OUT). */
    public NativeBackends guarded(Duration timeout) {
        return new NativeBackends(CallGuard.guard(NvmlCalls.class, NVML, nvml, timeout),
                CallGuard.guard(CudaProbeCalls.class, CUDA, cuda, timeout), CallGuard.guard(NcclCalls.class, NCCL, nccl, timeout),
                CallGuard.guard(HostCalls.class, HOST, host, timeout));
    }
}
