package dev.fabricscope.check;

import dev.fabricscope.nativeapi.cuda.CudaOps;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The kernels of {@code native/oneshot_allreduce.cu}, loaded from the bundled PTX (ISA 8.0, sm_70) through the
 * driver's {@code cuModuleLoadData} into one GPU's primary context, so the driver JIT-compiles them for whatever GPU
 * is there. The module is unloaded with the {@link GpuSession}. {@code -Dfabricscope.ptx=FILE} loads another PTX
 * build instead (used on the GPU machine to try a PTX built there before it is committed).
 */
final class PtxKernels {

    static final String RESOURCE = "/dev/fabricscope/check/oneshot_allreduce.ptx";
    static final String OVERRIDE_PROPERTY = "fabricscope.ptx";
    /** Must match FS_MAX_RANKS / FS_MAX_BLOCKS / FS_THREADS in the CUDA source. */
    static final int MAX_RANKS = 8;
    static final int MAX_BLOCKS = 128;
    static final int THREADS = 512;

    final long oneShotBf16;
    final long oneShotF32;
    final long twoShotBf16;
    final long twoShotF32;
    final long pointerChase;

    private PtxKernels(CudaOps cuda, long module) {
        oneShotBf16 = cuda.function(module, "fs_oneshot_bf16");
        oneShotF32 = cuda.function(module, "fs_oneshot_f32");
        twoShotBf16 = cuda.function(module, "fs_twoshot_bf16");
        twoShotF32 = cuda.function(module, "fs_twoshot_f32");
        pointerChase = cuda.function(module, "pointer_chase");
    }

    /** Where the PTX comes from, for the report. */
    static String source() {
        String file = System.getProperty(OVERRIDE_PROPERTY);
        return file == null ? "oneshot_allreduce.ptx (bundled)" : file + " (-D" + OVERRIDE_PROPERTY + ")";
    }

    /** The PTX text, NUL-terminated as cuModuleLoadData wants it. */
    static byte[] image() {
        String file = System.getProperty(OVERRIDE_PROPERTY);
        try {
            byte[] b;
            if (file != null) {
                b = Files.readAllBytes(Path.of(file));
            } else {
                try (InputStream in = PtxKernels.class.getResourceAsStream(RESOURCE)) {
                    if (in == null) {
                        throw new IllegalStateException("PTX resource missing: " + RESOURCE);
                    }
                    b = in.readAllBytes();
                }
            }
            return Arrays.copyOf(b, b.length + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads the module into GPU {@code index}'s context. */
    static PtxKernels load(GpuSession s, int index) {
        s.makeCurrent(index);
        CudaOps cuda = s.cuda();
        long module = cuda.loadModule(image(), "oneshot_allreduce.ptx");
        s.track(index, "module", () -> cuda.unloadModule(module));
        return new PtxKernels(cuda, module);
    }

    /** Blocks covering {@code vectors} 16-byte vectors at one per thread, at most {@link #MAX_BLOCKS}. */
    static int blocks(long vectors) {
        return (int) Math.max(1, Math.min(MAX_BLOCKS, (vectors + THREADS - 1) / THREADS));
    }
}
