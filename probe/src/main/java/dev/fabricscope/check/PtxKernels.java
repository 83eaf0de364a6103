package dev.fabricscope.check;

import dev.fabricscope.nativeapi.cuda.CudaDriver;
import dev.fabricscope.nativeapi.cuda.CudaJna;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * The kernels of {@code native/oneshot_allreduce.cu}, loaded from the bundled PTX (ISA 8.0, sm_70) through JCuda's
 * {@code cuModuleLoadData} into one GPU's primary context (made current through JNA: both bindings drive the same
 * libcuda, whose current context is per thread). Module and streams are released with the {@link GpuSession}.
 */
final class PtxKernels {

    static final String RESOURCE = "/dev/fabricscope/check/oneshot_allreduce.ptx";
    /** Must match FS_MAX_RANKS / FS_MAX_BLOCKS in the CUDA source. */
    static final int MAX_RANKS = 8;
    static final int MAX_BLOCKS = 64;
    static final int THREADS = 512;
    /** {@code CU_STREAM_NON_BLOCKING}. */
    private static final int NON_BLOCKING = 1;

    private final GpuSession session;
    private final int index;
    final CUfunction allReduceF32 = new CUfunction();
    final CUfunction allReduceBf16 = new CUfunction();
    final CUfunction pointerChase = new CUfunction();

    private PtxKernels(GpuSession session, int index) {
        this.session = session;
        this.index = index;
    }

    /** The PTX text, NUL-terminated as cuModuleLoadData wants it. */
    static byte[] image() {
        try (InputStream in = PtxKernels.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("PTX resource missing: " + RESOURCE);
            }
            byte[] b = in.readAllBytes();
            return Arrays.copyOf(b, b.length + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens JCuda once; returns null when it works, else why not. */
    static String jcudaProblem() {
        CudaDriver.Result r = CudaDriver.open();
        return r.driver() != null ? null : "JCuda: " + r.failure();
    }

    /** Loads the module into GPU {@code index}'s context; throws {@link CudaJna.CudaCallException} on failure. */
    static PtxKernels load(GpuSession s, int index) {
        String problem = jcudaProblem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        PtxKernels k = new PtxKernels(s, index);
        s.makeCurrent(index);
        CUmodule module = new CUmodule();
        s.cuda().check("cuModuleLoadData (JCuda, oneshot_allreduce.ptx)", JCudaDriver.cuModuleLoadData(module, image()));
        s.track(index, "module", () -> JCudaDriver.cuModuleUnload(module));
        s.cuda().check("cuModuleGetFunction(oneshot_allreduce_f32)",
                JCudaDriver.cuModuleGetFunction(k.allReduceF32, module, "oneshot_allreduce_f32"));
        s.cuda().check("cuModuleGetFunction(oneshot_allreduce_bf16)",
                JCudaDriver.cuModuleGetFunction(k.allReduceBf16, module, "oneshot_allreduce_bf16"));
        s.cuda().check("cuModuleGetFunction(pointer_chase)",
                JCudaDriver.cuModuleGetFunction(k.pointerChase, module, "pointer_chase"));
        return k;
    }

    /** A JCuda stream on this GPU, destroyed with the session. */
    CUstream stream() {
        session.makeCurrent(index);
        CUstream st = new CUstream();
        session.cuda().check("cuStreamCreate (JCuda)", JCudaDriver.cuStreamCreate(st, NON_BLOCKING));
        session.track(index, "stream", () -> JCudaDriver.cuStreamDestroy(st));
        return st;
    }

    boolean done(CUstream st) {
        int rc = JCudaDriver.cuStreamQuery(st);
        if (rc == CudaJna.NOT_READY) {
            return false;
        }
        session.cuda().check("cuStreamQuery (JCuda)", rc);
        return true;
    }

    /** Blocks for the one-shot kernel: enough to cover the data, at most {@link #MAX_BLOCKS}. */
    static int blocks(long count, int elementsPerVector) {
        long vectors = Math.max(1, (count + elementsPerVector - 1) / elementsPerVector);
        return (int) Math.max(1, Math.min(MAX_BLOCKS, (vectors + THREADS - 1) / THREADS));
    }

    void launchAllReduce(boolean bf16, long inputs, long signals, long out, long count, int rank, int nranks, int epoch,
                         long error, CUstream st) {
        session.makeCurrent(index);
        Pointer params = Pointer.to(Pointer.to(new long[] {inputs}), Pointer.to(new long[] {signals}),
                Pointer.to(new long[] {out}), Pointer.to(new long[] {count}), Pointer.to(new int[] {rank}),
                Pointer.to(new int[] {nranks}), Pointer.to(new int[] {epoch}), Pointer.to(new long[] {error}));
        int grid = blocks(count, bf16 ? 8 : 4);
        session.cuda().check("cuLaunchKernel (JCuda, oneshot_allreduce_" + (bf16 ? "bf16" : "f32") + ")",
                JCudaDriver.cuLaunchKernel(bf16 ? allReduceBf16 : allReduceF32, grid, 1, 1, THREADS, 1, 1, 0, st, params, null));
    }

    void launchPointerChase(long start, long hops, long sink, CUstream st) {
        session.makeCurrent(index);
        Pointer params = Pointer.to(Pointer.to(new long[] {start}), Pointer.to(new long[] {hops}),
                Pointer.to(new long[] {sink}));
        session.cuda().check("cuLaunchKernel (JCuda, pointer_chase)",
                JCudaDriver.cuLaunchKernel(pointerChase, 1, 1, 1, 1, 1, 1, 0, st, params, null));
    }
}
