package dev.fabricscope.check;

import dev.fabricscope.check.api.AllReduceMath.DType;
import dev.fabricscope.check.api.WorkspaceSizing;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.cuda.KernelArgs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The one-shot and two-shot kernels of {@code native/oneshot_allreduce.cu}, set up once per check: the module on
 * every GPU, peer access between all pairs, and per GPU a signal area, a double-buffered staging buffer and a gather
 * buffer; every rank's pointers go into an {@code FsPeers} block passed by value to each launch. After that an
 * operation is one kernel launch per GPU, with no host synchronisation between ranks.
 */
final class CustomAllReduce {

    /** {@code sizeof(FsSignal)}: arrive[2][128][8] + epoch[128], uint32, rounded up. */
    static final long SIGNAL_BYTES = 16 << 10;
    /** {@code sizeof(FsPeers)}. */
    static final int PEERS_BYTES = 216;

    private final GpuSession s;
    private final int n;
    private final PtxKernels[] kernels;
    private final long[] errors;
    private final byte[][] peers;

    CustomAllReduce(GpuSession s, long maxBytes) {
        this.s = s;
        this.n = s.size();
        if (n > PtxKernels.MAX_RANKS) {
            throw new IllegalArgumentException("the kernels support at most " + PtxKernels.MAX_RANKS + " GPUs");
        }
        long half = WorkspaceSizing.ceilAlign(Math.max(16, maxBytes), 256);
        kernels = new PtxKernels[n];
        errors = new long[n];
        long[] signal = new long[n];
        long[] stage = new long[n];
        long[] gather = new long[n];
        CudaOps cuda = s.cuda();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i != j) {
                    s.enablePeerAccess(i, j);
                }
            }
            kernels[i] = PtxKernels.load(s, i);
            signal[i] = s.alloc(i, SIGNAL_BYTES);
            stage[i] = s.alloc(i, 2 * half);
            gather[i] = s.alloc(i, 2 * half);
            errors[i] = s.alloc(i, 16);
            cuda.memset8(signal[i], (byte) 0, SIGNAL_BYTES);
            cuda.memset8(errors[i], (byte) 0, 16);
            cuda.synchronize();
        }
        peers = new byte[n][];
        for (int r = 0; r < n; r++) {
            peers[r] = peersBlock(signal, stage, gather, half, errors[r], r, n);
        }
    }

    /** The {@code FsPeers} struct of rank {@code rank}, little-endian, as the kernel reads it. */
    static byte[] peersBlock(long[] signal, long[] stage, long[] gather, long half, long error, int rank, int nranks) {
        ByteBuffer b = ByteBuffer.allocate(PEERS_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < PtxKernels.MAX_RANKS; k++) {
            b.putLong(k < nranks ? signal[k] : 0);
        }
        for (int k = 0; k < PtxKernels.MAX_RANKS; k++) {
            b.putLong(k < nranks ? stage[k] : 0);
        }
        for (int k = 0; k < PtxKernels.MAX_RANKS; k++) {
            b.putLong(k < nranks ? gather[k] : 0);
        }
        b.putLong(half).putLong(error).putInt(rank).putInt(nranks);
        return b.array();
    }

    /** Grid size for {@code count} elements of {@code t}: one 16-byte vector per thread (per segment for two-shot). */
    static int grid(boolean twoShot, DType t, long count, int nranks) {
        long vectors = count / (16 / t.size);
        return PtxKernels.blocks(twoShot ? (vectors + nranks - 1) / nranks : vectors);
    }

    /** One prepared operation: every rank's launch parameters built once. */
    final class Op implements PreparedAllReduce {
        private final long[] functions = new long[n];
        private final KernelArgs[] args = new KernelArgs[n];
        private final long[] streams;
        private final int grid;
        private final String name;

        Op(boolean twoShot, DType t, long count, long[] from, long[] to, long[] streams) {
            this.streams = streams;
            this.grid = grid(twoShot, t, count, n);
            this.name = (twoShot ? "fs_twoshot_" : "fs_oneshot_") + (t == DType.BF16 ? "bf16" : "f32");
            for (int r = 0; r < n; r++) {
                PtxKernels k = kernels[r];
                functions[r] = twoShot ? (t == DType.BF16 ? k.twoShotBf16 : k.twoShotF32)
                        : (t == DType.BF16 ? k.oneShotBf16 : k.oneShotF32);
                args[r] = new KernelArgs().bytes(peers[r]).u64(from[r]).u64(to[r]).u64(count);
            }
        }

        @Override
        public void all() {
            for (int r = 0; r < n; r++) {
                rank(r);
            }
        }

        @Override
        public void rank(int r) {
            s.makeCurrent(r);
            s.cuda().launch(functions[r], grid, PtxKernels.THREADS, streams[r], args[r], name);
        }

        @Override
        public String asyncError() {
            return null;
        }

        @Override
        public void close() {
            for (KernelArgs a : args) {
                a.close();
            }
        }
    }

    /** A rank whose barrier gave up waiting (its error word set), or null. */
    String barrierError() {
        ByteBuffer flag = ByteBuffer.allocateDirect(16);
        for (int i = 0; i < n; i++) {
            s.makeCurrent(i);
            s.cuda().copyToHost(flag, errors[i], 4);
            if (flag.order(ByteOrder.LITTLE_ENDIAN).getInt(0) != 0) {
                return "GPU" + i + "'s barrier gave up waiting for a peer (10 s without its flag)";
            }
        }
        return null;
    }

    PtxKernels kernels(int rank) {
        return kernels[rank];
    }
}
