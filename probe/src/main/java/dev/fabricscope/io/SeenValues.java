package dev.fabricscope.io;

import java.util.Arrays;

/**
 * Objects and lists {@link JsonByteChecker} checked before (in this file or another of a folder), by their bytes: the
 * nodes of a cluster repeat most of their per-link readings byte for byte. JSON values delimit themselves, so bytes at
 * p that equal a value checked at the same depth (compared, not only hashed) are that value, valid; comparing them is
 * many times cheaper than checking them. One per reading thread (not thread-safe); bounded to {@link #SLOTS} values of
 * at most {@link #MAX_LENGTH} bytes.
 */
public final class SeenValues {

    /** Bytes of a value the key hashes: a value shorter than this is checked, not remembered. */
    static final int PREFIX = 16;
    static final int SLOTS = 512;
    static final int MAX_LENGTH = 4_096;
    private final long[] keys = new long[SLOTS];
    private final int[] depths = new int[SLOTS];
    private final byte[][] values = new byte[SLOTS][];

    /**
     * A hash of a value's first 16 bytes (read as two little-endian words), its depth and the name of its member
     * (values of one member repeat).
     */
    static long key(long first, long second, int depth, int name) {
        long h = first * 0x9E3779B97F4A7C15L ^ second * 0xC2B2AE3D27D4EB4FL ^ ((long) name << 8) ^ depth;
        return h ^ (h >>> 29);
    }

    /** The length of the value at p when it is the one remembered under {@code key}, else 0. */
    int match(long key, int depth, byte[] b, int p, int n) {
        int slot = (int) key & (SLOTS - 1);
        byte[] v = values[slot];
        if (v == null || keys[slot] != key || depths[slot] != depth || p + v.length > n) {
            return 0;
        }
        return Arrays.equals(b, p, p + v.length, v, 0, v.length) ? v.length : 0;
    }

    void remember(long key, int depth, byte[] b, int start, int end) {
        if (end - start < PREFIX || end - start > MAX_LENGTH) {
            return;
        }
        int slot = (int) key & (SLOTS - 1);
        keys[slot] = key;
        depths[slot] = depth;
        values[slot] = Arrays.copyOfRange(b, start, end);
    }
}
