package dev.fabricscope.check;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The ring a latency probe follows: {@code nodes} 8-byte nodes, {@code stride} bytes apart, linked in one random
 * cycle (Sattolo's algorithm), each holding the device address of the next. Random order and a span larger than
 * the L2 cache make every hop a dependent miss, as nvbandwidth's pointer-chase latency test intends.
 */
final class PointerChaseRing {

    private PointerChaseRing() {
    }

    /** A random single cycle over 0..n-1: {@code next[k]} is the node after k. */
    static int[] cycle(int n, long seed) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i); // Sattolo: j < i gives one cycle
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[order[i]] = order[(i + 1) % n];
        }
        return next;
    }

    /** Host image of the ring for a device buffer at {@code deviceBase}; node 0 is the start. */
    static ByteBuffer image(long deviceBase, int nodes, int stride, long seed) {
        int[] next = cycle(nodes, seed);
        ByteBuffer m = ByteBuffer.allocateDirect(nodes * stride).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < nodes; k++) {
            m.putLong(k * stride, deviceBase + (long) next[k] * stride);
        }
        return m;
    }
}
