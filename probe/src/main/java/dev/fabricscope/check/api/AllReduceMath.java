package dev.fabricscope.check.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The arithmetic of the all-reduce check, free of native calls: the size sweep and bandwidth formulas of
 * nccl-tests ({@code NVIDIA/nccl-tests doc/PERFORMANCE.md}, {@code src/all_reduce.cu}: algbw = bytes / time with
 * GB = 1e9, AllReduce busbw = algbw × 2(n−1)/n), the input pattern and its exactly known sums, and the checker.
 */
public final class AllReduceMath {

    private AllReduceMath() {
    }

    /** Data types the check runs, with NCCL's {@code ncclDataType_t} and element size. */
    public enum DType {
        BF16("bf16", "bfloat16", 9, 2),
        FP16("fp16", "half", 6, 2),
        FP32("fp32", "float", 7, 4);

        public final String flag;
        /** The name nccl-tests prints. */
        public final String ncclTestsName;
        public final int ncclType;
        public final int size;

        DType(String flag, String ncclTestsName, int ncclType, int size) {
            this.flag = flag;
            this.ncclTestsName = ncclTestsName;
            this.ncclType = ncclType;
            this.size = size;
        }

        public static DType parse(String s) {
            for (DType d : values()) {
                if (d.flag.equals(s)) {
                    return d;
                }
            }
            throw new IllegalArgumentException("unknown dtype '" + s + "' (bf16, fp16, fp32)");
        }
    }

    /** nccl-tests' sweep: {@code min}, then ×{@code factor} while ≤ {@code max}. */
    public static List<Long> sizes(long min, long max, int factor) {
        if (min < 1 || max < min || factor < 2) {
            throw new IllegalArgumentException("need 1 ≤ min ≤ max and factor ≥ 2");
        }
        List<Long> out = new ArrayList<>();
        for (long s = min; s <= max; s = Math.multiplyExact(s, (long) factor)) {
            out.add(s);
            if (s > Long.MAX_VALUE / factor) {
                break;
            }
        }
        return out;
    }

    /** Elements in {@code bytes} (rounded down, as nccl-tests does). */
    public static long count(long bytes, DType t) {
        return bytes / t.size;
    }

    /** GB/s with GB = 1e9. */
    public static double algBandwidth(long bytes, double seconds) {
        return seconds <= 0 ? 0 : bytes / seconds / 1e9;
    }

    /** AllReduce bus-bandwidth factor 2(n−1)/n; 0 for one rank. */
    public static double busFactor(int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks must be positive");
        }
        return 2.0 * (ranks - 1) / ranks;
    }

    public static double busBandwidth(double algBandwidth, int ranks) {
        return algBandwidth * busFactor(ranks);
    }

    /** Rank {@code rank}'s input at element {@code k}: a small integer in [-15, 15], exact in bf16/fp16/fp32. */
    public static int input(int rank, long k) {
        return (int) ((k * 13 + rank * 7L) % 31) - 15;
    }

    /** The exact sum over {@code ranks} ranks at element {@code k} (|sum| ≤ 15 × ranks, exact for ranks ≤ 8). */
    public static int expectedSum(int ranks, long k) {
        int s = 0;
        for (int r = 0; r < ranks; r++) {
            s += input(r, k);
        }
        return s;
    }

    /** IEEE float → bfloat16 bits, round to nearest even (NaN kept quiet). */
    public static short toBf16(float f) {
        int u = Float.floatToRawIntBits(f);
        if ((u & 0x7fffffff) > 0x7f800000) {
            return (short) ((u >>> 16) | 0x40);
        }
        u += 0x7fff + ((u >>> 16) & 1);
        return (short) (u >>> 16);
    }

    public static float fromBf16(short h) {
        return Float.intBitsToFloat((h & 0xffff) << 16);
    }

    /** IEEE float → binary16 bits for small integers (exact for |v| ≤ 2048; the check only stores such values). */
    public static short toFp16(int v) {
        if (v == 0) {
            return 0;
        }
        int sign = v < 0 ? 0x8000 : 0;
        int a = Math.abs(v);
        if (a > 2048) {
            throw new IllegalArgumentException("not exact in fp16: " + v);
        }
        int e = 31 - Integer.numberOfLeadingZeros(a);
        int mant = (a << (10 - e)) & 0x3ff;
        return (short) (sign | ((e + 15) << 10) | mant);
    }

    /** Element bits of value {@code v} in type {@code t}, little-endian as the GPU stores them. */
    static void put(ByteBuffer b, int index, DType t, int v) {
        switch (t) {
            case FP32 -> b.putFloat(index * 4, v);
            case BF16 -> b.putShort(index * 2, toBf16(v));
            case FP16 -> b.putShort(index * 2, toFp16(v));
            default -> throw new IllegalStateException();
        }
    }

    /** Fills {@code b} (little-endian) with rank {@code rank}'s first {@code count} inputs. */
    public static void fillInput(ByteBuffer b, DType t, int rank, long count) {
        // the pattern repeats every 31 elements: build a chunk of whole periods, then copy it forward
        int periods = 4096;
        ByteBuffer chunk = ByteBuffer.allocate(31 * periods * t.size).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < 31 * periods; k++) {
            put(chunk, k, t, input(rank, k));
        }
        byte[] bytes = chunk.array();
        long total = count * t.size;
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (long pos = 0; pos < total; pos += bytes.length) {
            le.put((int) pos, bytes, 0, (int) Math.min(bytes.length, total - pos));
        }
    }

    /**
     * Counts elements of {@code result} (little-endian, {@code count} elements of type {@code t}) that differ from
     * the exact sum over {@code ranks} ranks — bit for bit: the sums are small integers, exact in every type.
     */
    public static long countWrong(ByteBuffer result, DType t, int ranks, long count) {
        ByteBuffer le = result.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int[] sums = new int[31];
        for (int k = 0; k < 31; k++) {
            sums[k] = expectedSum(ranks, k);
        }
        long wrong = 0;
        switch (t) {
            case FP32 -> {
                int[] bits = new int[31];
                for (int k = 0; k < 31; k++) {
                    bits[k] = Float.floatToRawIntBits(sums[k]);
                }
                for (int k = 0; k < count; k++) {
                    if (le.getInt(k * 4) != bits[k % 31]) {
                        wrong++;
                    }
                }
            }
            case BF16, FP16 -> {
                short[] bits = new short[31];
                for (int k = 0; k < 31; k++) {
                    bits[k] = t == DType.BF16 ? toBf16(sums[k]) : toFp16(sums[k]);
                }
                for (int k = 0; k < count; k++) {
                    if (le.getShort(k * 2) != bits[k % 31]) {
                        wrong++;
                    }
                }
            }
            default -> throw new IllegalStateException();
        }
        return wrong;
    }
}
