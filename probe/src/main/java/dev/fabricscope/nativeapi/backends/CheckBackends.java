package dev.fabricscope.nativeapi.backends;

import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.cuda.CudaCheckCalls;
import dev.fabricscope.nativeapi.cuda.CudaCheckJna;
import dev.fabricscope.nativeapi.host.CheckHostCalls;
import dev.fabricscope.nativeapi.nccl.NcclCheckCalls;
import dev.fabricscope.nativeapi.nccl.NcclCheckJna;
import dev.fabricscope.nativeapi.nvml.JnaNvml;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceRecorder;
import dev.fabricscope.nativeapi.trace.TraceReplayer;
import java.util.Map;

/**
 * The live checks' four seams: the CUDA driver, NCCL, NVML (the memory audit, the fabric state, the DRAM peak) and
 * the host (its clock, the settings a check reads). Every native call and every time a check takes passes through
 * one of them, so the same check runs on the GPUs, records a trace, or replays one on a machine without a GPU.
 * Unlike the probe's, the CUDA and NCCL calls are not guarded by a time-out thread each (a timed loop cannot afford
 * one); the check runner's deadline and abort hooks stand in for it.
 */
public record CheckBackends(CudaCheckCalls cuda, NcclCheckCalls nccl, NvmlCalls nvml, CheckHostCalls host) {

    public static final String CUDA = NativeBackends.CUDA;
    public static final String NCCL = NativeBackends.NCCL;
    public static final String NVML = NativeBackends.NVML;
    public static final String HOST = "host";

    /**
     * This machine: the driver, NCCL and NVML through JNA (NVML's calls, outside every timed loop, guarded by the
     * default time-out as the probe's), this host; {@code env} says where NCCL is.
     */
    public static CheckBackends live(Map<String, String> env) {
        return new CheckBackends(new CudaCheckJna(), new NcclCheckJna(env),
                CallGuard.guard(NvmlCalls.class, NVML, new JnaNvml(), CallGuard.defaultTimeout()), CheckHostCalls.SYSTEM);
    }

    /** Answers from a trace, no hardware touched. */
    public static CheckBackends replay(NativeTrace trace) {
        TraceReplayer r = new TraceReplayer(trace);
        return new CheckBackends(r.proxy(CudaCheckCalls.class, CUDA), r.proxy(NcclCheckCalls.class, NCCL),
                r.proxy(NvmlCalls.class, NVML), r.proxy(CheckHostCalls.class, HOST));
    }

    /** The same backends, each call appended to {@code recorder}. */
    public CheckBackends recordedBy(TraceRecorder recorder) {
        return new CheckBackends(recorder.wrap(CudaCheckCalls.class, CUDA, cuda), recorder.wrap(NcclCheckCalls.class, NCCL, nccl),
                recorder.wrap(NvmlCalls.class, NVML, nvml), recorder.wrap(CheckHostCalls.class, HOST, host));
    }
}
