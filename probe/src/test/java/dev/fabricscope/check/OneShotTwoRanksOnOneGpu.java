package dev.fabricscope.check;

import com.sun.jna.Memory;
import dev.fabricscope.check.AllReduceMath.DType;
import java.util.List;
import java.util.Locale;
import jcuda.driver.CUstream;

/**
 * Device self-test of the one-shot kernel's multi-rank logic on ONE GPU: two "ranks" run as two concurrent kernels
 * on two streams of the same GPU, each reading both ranks' inputs (all in that GPU's memory) and meeting at the
 * flag barrier. Checks every sum exactly for bf16 and fp32 from 8 B to 1 MiB, then launches rank 0 alone to show
 * that the barrier gives up (error flag) instead of hanging. Run with the fat jar and the test classes on the class
 * path: {@code java -cp fabricscope.jar:test-classes dev.fabricscope.check.OneShotTwoRanksOnOneGpu}. Exit 0 = all good.
 */
public final class OneShotTwoRanksOnOneGpu {

    public static void main(String[] args) throws Exception {
        int ranks = 2;
        long maxBytes = 1 << 20;
        boolean ok = true;
        GpuSession s = GpuSession.open();
        try {
            PtxKernels k = PtxKernels.load(s, 0);
            CUstream[] st = {k.stream(), k.stream()};
            long[] send = new long[ranks];
            long[] recv = new long[ranks];
            long[] signals = new long[ranks];
            long[] errors = new long[ranks];
            long signalBytes = 4L * PtxKernels.MAX_RANKS * PtxKernels.MAX_BLOCKS;
            for (int r = 0; r < ranks; r++) {
                send[r] = s.alloc(0, maxBytes);
                recv[r] = s.alloc(0, maxBytes);
                signals[r] = s.alloc(0, signalBytes);
                errors[r] = s.alloc(0, 4);
                s.cuda().check("cuMemsetD8", s.lib().cuMemsetD8_v2(signals[r], (byte) 0, signalBytes));
                s.cuda().check("cuMemsetD8", s.lib().cuMemsetD8_v2(errors[r], (byte) 0, 4));
            }
            Memory ptrs = new Memory(8L * ranks);
            long inputs = s.alloc(0, 8L * ranks);
            long signalArray = s.alloc(0, 8L * ranks);
            for (int r = 0; r < ranks; r++) {
                ptrs.setLong(8L * r, send[r]);
            }
            s.cuda().check("cuMemcpyHtoD", s.lib().cuMemcpyHtoD_v2(inputs, ptrs, 8L * ranks));
            for (int r = 0; r < ranks; r++) {
                ptrs.setLong(8L * r, signals[r]);
            }
            s.cuda().check("cuMemcpyHtoD", s.lib().cuMemcpyHtoD_v2(signalArray, ptrs, 8L * ranks));
            Memory host = new Memory(maxBytes);
            Memory flag = new Memory(4);
            int epoch = 0;
            System.out.println("# one-shot kernel, 2 ranks as 2 concurrent kernels on GPU0 (" + s.devices().get(0).name() + ")");
            System.out.println("#  dtype        size   time(us)  #wrong  barrier");
            for (DType t : List.of(DType.BF16, DType.FP32)) {
                for (int r = 0; r < ranks; r++) {
                    AllReduceMath.fillInput(host.getByteBuffer(0, maxBytes), t, r, maxBytes / t.size);
                    s.cuda().check("cuMemcpyHtoD", s.lib().cuMemcpyHtoD_v2(send[r], host, maxBytes));
                }
                for (long bytes : AllReduceMath.sizes(8, maxBytes, 2)) {
                    long count = bytes / t.size;
                    for (int r = 0; r < ranks; r++) {
                        s.cuda().check("cuMemsetD8", s.lib().cuMemsetD8_v2(recv[r], (byte) 0xff, bytes));
                    }
                    s.cuda().check("cuCtxSynchronize", s.lib().cuCtxSynchronize());
                    int iters = 20;
                    long t0 = System.nanoTime();
                    for (int it = 0; it < iters; it++) {
                        epoch++;
                        for (int r = 0; r < ranks; r++) {
                            k.launchAllReduce(t == DType.BF16, inputs, signalArray, recv[r], count, r, ranks, epoch, errors[r], st[r]);
                        }
                    }
                    while (!k.done(st[0]) || !k.done(st[1])) {
                        Thread.onSpinWait();
                    }
                    long t1 = System.nanoTime();
                    long wrong = 0;
                    int err = 0;
                    for (int r = 0; r < ranks; r++) {
                        s.cuda().check("cuMemcpyDtoH", s.lib().cuMemcpyDtoH_v2(host, recv[r], bytes));
                        wrong += AllReduceMath.countWrong(host.getByteBuffer(0, bytes), t, ranks, count);
                        s.cuda().check("cuMemcpyDtoH", s.lib().cuMemcpyDtoH_v2(flag, errors[r], 4));
                        err |= flag.getInt(0);
                    }
                    ok &= wrong == 0 && err == 0;
                    System.out.printf(Locale.ROOT, "  %5s  %10d  %9.2f  %6d  %s%n", t.flag, bytes, (t1 - t0) / 1e3 / iters, wrong,
                            err == 0 ? "ok" : "GAVE UP");
                }
            }
            // rank 0 alone: rank 1 never arrives, so the barrier must give up and set the error flag
            epoch++;
            long t0 = System.nanoTime();
            k.launchAllReduce(false, inputs, signalArray, recv[0], 1024, 0, ranks, epoch, errors[0], st[0]);
            while (!k.done(st[0])) {
                if (System.nanoTime() - t0 > 120_000_000_000L) {
                    System.out.println("missing peer: kernel still spinning after 120 s");
                    System.exit(2);
                }
                Thread.sleep(5);
            }
            s.cuda().check("cuMemcpyDtoH", s.lib().cuMemcpyDtoH_v2(flag, errors[0], 4));
            boolean gaveUp = flag.getInt(0) != 0;
            ok &= gaveUp;
            System.out.printf(Locale.ROOT, "missing peer: kernel returned after %.1f s, error flag %s%n",
                    (System.nanoTime() - t0) / 1e9, gaveUp ? "set (barrier gave up, as designed)" : "NOT set");
            host.close();
        } finally {
            s.close();
        }
        s.audit().lines().forEach(System.out::println);
        System.out.println(ok ? "RESULT: OK" : "RESULT: FAILED");
        System.exit(ok ? 0 : 1);
    }
}
