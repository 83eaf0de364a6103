package dev.fabricscope.check;

import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.cuda.CuMemAllocationProp;
import dev.fabricscope.nativeapi.cuda.CuMulticastObjectProp;
import dev.fabricscope.nativeapi.cuda.CuResults;
import dev.fabricscope.nativeapi.cuda.CudaAttribute;
import dev.fabricscope.nativeapi.cuda.CudaCheckCalls;
import dev.fabricscope.nativeapi.cuda.HostData;
import dev.fabricscope.nativeapi.cuda.KernelArgs;
import dev.fabricscope.nativeapi.cuda.ModuleImage;
import dev.fabricscope.nativeapi.host.CheckHostCalls;
import dev.fabricscope.nativeapi.nccl.Nccl;
import dev.fabricscope.nativeapi.nccl.NcclCheckCalls;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SYNTHETIC: one simulated GPU behind the checks' seams, for tests without a GPU. Its CUDA answers follow cuda.h
 * 13.0 and what the H200 VM answered to the same preflight (captured/h200-vm-2026-11-29-checks/preflight.json:
 * attribute 128 = 1, RECOMMENDED granularity 2 MiB, cuMulticastGetGranularity → CUDA_ERROR_NOT_SUPPORTED (801),
 * cuMemCreate with FABRIC handles → CUDA_ERROR_NOT_PERMITTED (800)); device memory is simulated byte for byte, so the
 * all-reduce's readback is what a world-size-1 all-reduce gives (the input: the sum over one rank). NCCL answers as
 * nccl.h 2.27 says for one communicator; streams answer CUDA_ERROR_NOT_READY twice before each CUDA_SUCCESS; events
 * and the host clock tick by fixed steps. NVML is absent (its load fails), so the memory audit says so.
 */
final class SimulatedGpus {

    private final TreeMap<Long, byte[]> memory = new TreeMap<>();
    private final Map<Long, String> functions = new HashMap<>();
    private final Map<Long, Integer> streamPolls = new HashMap<>();
    private long nextHandle = 0x7f00_0000_0000L;
    private long clock = 1_000_000_000L;
    private int events;
    /** The process environment the simulated host answers. */
    Map<String, String> env = Map.of();
    /** Every CUDA call made, by name, in order. */
    final List<String> cudaCalls = new ArrayList<>();

    CheckBackends backends() {
        return new CheckBackends(cuda(), new Nccl2(), noNvml(), new CheckHostCalls() {
            @Override public NativeAnswer<Long> nanoTime(int lane) { return NativeAnswer.ok(clock += 1_000 + 10L * (lane + 2)); }
            @Override public NativeAnswer<String> getenv(String name) { return NativeAnswer.ok(env.get(name)); }
            @Override public NativeAnswer<String> osArch() { return NativeAnswer.ok("amd64"); }
        });
    }

    private synchronized long handle(long size) {
        long h = nextHandle;
        nextHandle += Math.max(0x1000, (size + 0xfff) & ~0xfffL) + 0x1000;
        return h;
    }

    private byte[] block(long ptr, long bytes, long[] offset) {
        Map.Entry<Long, byte[]> e = memory.floorEntry(ptr);
        if (e == null || ptr - e.getKey() + bytes > e.getValue().length) {
            throw new IllegalStateException("simulated GPU: " + bytes + " B at 0x" + Long.toHexString(ptr) + " outside any allocation");
        }
        offset[0] = ptr - e.getKey();
        return e.getValue();
    }

    void copy(long dst, long src, long bytes) {
        long[] so = new long[1];
        long[] dO = new long[1];
        byte[] s = block(src, bytes, so);
        byte[] d = block(dst, bytes, dO);
        System.arraycopy(s, (int) so[0], d, (int) dO[0], (int) bytes);
    }

    private static long u64(String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        long v = 0;
        for (int k = 7; k >= 0; k--) {
            v = v << 8 | (b[k] & 0xff);
        }
        return v;
    }

    private static final NativeAnswer<Void> OK = NativeAnswer.returned(0, null);

    private CudaCheckCalls cuda() {
        CudaCheckCalls impl = new CudaCheckCalls() {
            @Override public NativeAnswer<String> load() { return NativeAnswer.ok("libcuda.so.1"); }
            @Override public NativeAnswer<Void> cuInit(int flags) { return OK; }
            @Override public NativeAnswer<String> cuGetErrorName(int error) { return NativeAnswer.ok(CuResults.name(error)); }
            @Override public NativeAnswer<Integer> cuDriverGetVersion() { return NativeAnswer.ok(13000); }
            @Override public NativeAnswer<Integer> cuDeviceGetCount() { return NativeAnswer.ok(1); }
            @Override public NativeAnswer<Integer> cuDeviceGet(int ordinal) {
                return ordinal == 0 ? NativeAnswer.ok(0) : NativeAnswer.returned(101, null);
            }
            @Override public NativeAnswer<String> cuDeviceGetPCIBusId(int device) { return NativeAnswer.ok("0000:18:00.0"); }
            @Override public NativeAnswer<Integer> cuDeviceGetAttribute(int attribute, int device) {
                return switch (attribute) {
                    case CudaAttribute.COMPUTE_CAPABILITY_MAJOR -> NativeAnswer.ok(9);
                    case CudaAttribute.COMPUTE_CAPABILITY_MINOR -> NativeAnswer.ok(0);
                    case CudaAttribute.HANDLE_TYPE_FABRIC_SUPPORTED -> NativeAnswer.ok(1);
                    default -> NativeAnswer.ok(0);
                };
            }
            @Override public NativeAnswer<Integer> cuDeviceCanAccessPeer(int device, int peerDevice) { return NativeAnswer.ok(0); }
            @Override public NativeAnswer<Integer> cuDeviceGetP2PAttribute(int attribute, int srcDevice, int dstDevice) {
                return NativeAnswer.ok(0);
            }
            @Override public NativeAnswer<String> cuDeviceGetName(int device) { return NativeAnswer.ok("NVIDIA H200"); }
            @Override public NativeAnswer<Long> cuDevicePrimaryCtxRetain(int device) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Void> cuDevicePrimaryCtxRelease_v2(int device) { return OK; }
            @Override public NativeAnswer<int[]> cuDevicePrimaryCtxGetState(int device) {
                return NativeAnswer.ok(new int[] {0, 0});
            }
            @Override public NativeAnswer<Void> cuCtxSetCurrent(long ctx) { return OK; }
            @Override public NativeAnswer<Void> cuCtxSynchronize() { return OK; }
            @Override public NativeAnswer<Void> cuCtxEnablePeerAccess(long peerContext, int flags) { return NativeAnswer.returned(217, null); }
            @Override public NativeAnswer<Void> cuCtxDisablePeerAccess(long peerContext) { return OK; }
            @Override public NativeAnswer<Long> cuMemAlloc_v2(long bytes) {
                long p = handle(bytes);
                memory.put(p, new byte[(int) bytes]);
                return NativeAnswer.ok(p);
            }
            @Override public NativeAnswer<Void> cuMemFree_v2(long dptr) {
                return memory.remove(dptr) != null ? OK : NativeAnswer.returned(1, null);
            }
            @Override public NativeAnswer<Void> cuMemsetD8_v2(long dptr, byte value, long count) {
                long[] o = new long[1];
                byte[] b = block(dptr, count, o);
                java.util.Arrays.fill(b, (int) o[0], (int) (o[0] + count), value);
                return OK;
            }
            @Override public NativeAnswer<Void> cuMemcpyHtoD_v2(long dst, HostData src, long bytes) {
                long[] o = new long[1];
                byte[] b = block(dst, bytes, o);
                src.buffer().get(0, b, (int) o[0], (int) bytes);
                return OK;
            }
            @Override public NativeAnswer<java.nio.ByteBuffer> cuMemcpyDtoH_v2(HostData dst, long src, long bytes) {
                long[] o = new long[1];
                byte[] b = block(src, bytes, o);
                dst.buffer().put(0, b, (int) o[0], (int) bytes); // in place, as the driver answers
                return NativeAnswer.ok(dst.buffer().slice(0, (int) bytes));
            }
            @Override public NativeAnswer<Void> cuMemcpyAsync(long dst, long src, long bytes, long stream) {
                copy(dst, src, bytes);
                return OK;
            }
            @Override public NativeAnswer<Long> cuStreamCreate(int flags) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Void> cuStreamDestroy_v2(long stream) { return OK; }
            @Override public NativeAnswer<Void> cuStreamQuery(long stream) {
                int k = streamPolls.merge(stream, 1, Integer::sum);
                return k % 3 == 0 ? OK : NativeAnswer.returned(600, null);
            }
            @Override public NativeAnswer<Long> cuEventCreate(int flags) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Void> cuEventDestroy_v2(long event) { return OK; }
            @Override public NativeAnswer<Void> cuEventRecord(long event, long stream) { return OK; }
            @Override public NativeAnswer<Float> cuEventElapsedTime(long start, long end) {
                return NativeAnswer.ok(0.02f + 0.001f * (events++ % 7));
            }
            @Override public NativeAnswer<Long> cuModuleLoadData(ModuleImage image) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Void> cuModuleUnload(long module) { return OK; }
            @Override public NativeAnswer<Long> cuModuleGetFunction(long module, String name) {
                long f = handle(0);
                functions.put(f, name);
                return NativeAnswer.ok(f);
            }
            @Override public NativeAnswer<Void> cuLaunchKernel(long function, int gridX, int gridY, int gridZ, int blockX,
                                                              int blockY, int blockZ, long stream, KernelArgs params) {
                String name = functions.get(function);
                List<String> a = params.recorded();
                if ("pointer_chase".equals(name)) {
                    return OK; // the latency kernel writes only its sink, which no check reads back
                }
                if (name == null || !name.startsWith("fs_") || a.size() != 4) {
                    return NativeAnswer.returned(400, null);
                }
                long size = name.endsWith("bf16") ? 2 : 4;
                copy(u64(a.get(2)), u64(a.get(1)), u64(a.get(3)) * size); // one rank: the sum is the input
                return OK;
            }
            @Override public NativeAnswer<Void> cuStreamBeginCapture_v2(long stream, int mode) { return OK; }
            @Override public NativeAnswer<Long> cuStreamEndCapture(long stream) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Long> cuGraphInstantiateWithFlags(long graph, long flags) { return NativeAnswer.ok(handle(0)); }
            @Override public NativeAnswer<Void> cuGraphLaunch(long exec, long stream) { return OK; }
            @Override public NativeAnswer<Void> cuGraphExecDestroy(long exec) { return OK; }
            @Override public NativeAnswer<Void> cuGraphDestroy(long graph) { return OK; }
            @Override public NativeAnswer<Long> cuMemGetAllocationGranularity(CuMemAllocationProp prop, int option) {
                return NativeAnswer.ok(2L << 20);
            }
            @Override public NativeAnswer<Long> cuMulticastGetGranularity(CuMulticastObjectProp prop, int option) {
                return NativeAnswer.returned(CuResults.NOT_SUPPORTED, null);
            }
            @Override public NativeAnswer<Long> cuMemCreate(long size, CuMemAllocationProp prop, long flags) {
                return prop.requestedHandleTypes() == CuMemAllocationProp.HANDLE_FABRIC ? NativeAnswer.returned(800, null)
                        : NativeAnswer.ok(handle(size));
            }
            @Override public NativeAnswer<Void> cuMemRelease(long handle) { return OK; }
            @Override public NativeAnswer<Void> cuMemExportToShareableHandle(long handle, int handleType, long flags) {
                return NativeAnswer.returned(800, null);
            }
        };
        return (CudaCheckCalls) Proxy.newProxyInstance(CudaCheckCalls.class.getClassLoader(), new Class<?>[] {CudaCheckCalls.class},
                (p, m, args) -> {
                    if (m.getDeclaringClass() != Object.class) {
                        cudaCalls.add(m.getName());
                    }
                    try {
                        return m.invoke(impl, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** NCCL 2.27.3 over one simulated GPU. */
    private final class Nccl2 implements NcclCheckCalls {
        @Override public NativeAnswer<String> load(String explicitPath) { return NativeAnswer.ok("/synthetic/libnccl.so.2"); }
        @Override public NativeAnswer<Integer> ncclGetVersion() { return NativeAnswer.ok(22703); }
        @Override public NativeAnswer<String> ncclGetErrorString(int result) { return NativeAnswer.ok(Nccl.resultName(result)); }
        @Override public NativeAnswer<String> ncclGetLastError() { return NativeAnswer.ok(null); }
        @Override public NativeAnswer<String> setenv(String name, String value) { return NativeAnswer.ok(null); }
        @Override public NativeAnswer<long[]> ncclCommInitAll(int[] devices) {
            long[] c = new long[devices.length];
            for (int i = 0; i < c.length; i++) {
                c[i] = handle(0);
            }
            return NativeAnswer.ok(c);
        }
        @Override public NativeAnswer<Void> ncclGroupStart() { return OK; }
        @Override public NativeAnswer<Void> ncclGroupEnd() { return OK; }
        @Override public NativeAnswer<Void> ncclAllReduce(long send, long recv, long count, int datatype, int op, long comm, long stream) {
            long size = datatype == Nccl.FLOAT32 ? 4 : 2;
            copy(recv, send, count * size); // one rank: the sum is the input
            return OK;
        }
        @Override public NativeAnswer<Integer> ncclCommGetAsyncError(long comm) { return NativeAnswer.ok(0); }
        @Override public NativeAnswer<Void> ncclCommAbort(long comm) { return OK; }
        @Override public NativeAnswer<Void> ncclCommDestroy(long comm) { return OK; }
    }

    /** NVML that cannot be loaded: the checks read no used memory and no fabric state. */
    private static NvmlCalls noNvml() {
        return (NvmlCalls) Proxy.newProxyInstance(NvmlCalls.class.getClassLoader(), new Class<?>[] {NvmlCalls.class},
                (p, m, args) -> m.getDeclaringClass() == Object.class ? m.invoke(new Object(), args)
                        : NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, "libnvidia-ml.so.1: cannot open shared object file"));
    }
}
