package dev.fabricscope.check.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceMath.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

class AllReduceMathTest {

    @Test
    void busBandwidthFollowsNcclTests() {
        // nccl-tests doc/PERFORMANCE.md: AllReduce busbw = algbw * 2*(n-1)/n
        assertEquals(0.0, AllReduceMath.busFactor(1));
        assertEquals(1.0, AllReduceMath.busFactor(2));
        assertEquals(1.5, AllReduceMath.busFactor(4));
        assertEquals(1.75, AllReduceMath.busFactor(8));
        assertEquals(175.0, AllReduceMath.busBandwidth(100.0, 8), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> AllReduceMath.busFactor(0));
    }

    @Test
    void algorithmBandwidthUsesDecimalGigabytes() {
        // 1 GiB in 1 ms = 1073.741824 GB/s (GB = 1e9)
        assertEquals(1073.741824, AllReduceMath.algBandwidth(1L << 30, 1e-3), 1e-9);
        assertEquals(0.0, AllReduceMath.algBandwidth(8, 0));
    }

    @Test
    void defaultSweepIsEightBytesTo256MibDoubling() {
        List<Long> s = AllReduceMath.sizes(8, 256L << 20, 2);
        assertEquals(26, s.size());
        assertEquals(8L, s.get(0));
        assertEquals(16L, s.get(1));
        assertEquals(268_435_456L, s.get(25));
        assertEquals(List.of(8L, 16L, 32L), AllReduceMath.sizes(8, 63, 2));
        assertThrows(IllegalArgumentException.class, () -> AllReduceMath.sizes(16, 8, 2));
    }

    @Test
    void countRoundsDown() {
        assertEquals(2, AllReduceMath.count(8, DType.FP32));
        assertEquals(4, AllReduceMath.count(8, DType.BF16));
        assertEquals(0, AllReduceMath.count(2, DType.FP32));
    }

    @Test
    void bf16ConversionRoundsToNearestEven() {
        assertEquals((short) 0x3f80, AllReduceMath.toBf16(1f));
        assertEquals((short) 0xc170, AllReduceMath.toBf16(-15f));
        assertEquals((short) 0x42f0, AllReduceMath.toBf16(120f));
        assertEquals((short) 0x3f80, AllReduceMath.toBf16(1.00390625f)); // tie → even
        assertEquals((short) 0x3f81, AllReduceMath.toBf16(1.005859375f)); // 1 + 3·2^-9 → up
        assertTrue(Float.isNaN(AllReduceMath.fromBf16(AllReduceMath.toBf16(Float.NaN))));
        assertEquals(-15f, AllReduceMath.fromBf16(AllReduceMath.toBf16(-15f)));
    }

    @Test
    void fp16EncodesSmallIntegersExactly() {
        assertEquals((short) 0x0000, AllReduceMath.toFp16(0));
        assertEquals((short) 0x3c00, AllReduceMath.toFp16(1));
        assertEquals((short) 0xc000, AllReduceMath.toFp16(-2));
        assertEquals((short) 0x4b80, AllReduceMath.toFp16(15));
        assertEquals((short) 0x5780, AllReduceMath.toFp16(120));
        assertEquals((short) 0xd780, AllReduceMath.toFp16(-120));
    }

    @Test
    void inputsAreSmallAndSumsExact() {
        for (int r = 0; r < 8; r++) {
            for (long k = 0; k < 100; k++) {
                int v = AllReduceMath.input(r, k);
                assertTrue(v >= -15 && v <= 15);
                assertEquals(v, AllReduceMath.input(r, k + 31 * 1000)); // period 31
            }
        }
        assertEquals(AllReduceMath.input(0, 5) + AllReduceMath.input(1, 5) + AllReduceMath.input(2, 5),
                AllReduceMath.expectedSum(3, 5));
        // not all ranks equal, so a wrong rank order or a missing rank changes the sum
        assertTrue(AllReduceMath.input(0, 0) != AllReduceMath.input(1, 0));
    }

    @Test
    void fillWritesEveryElementAcrossChunkBoundaries() {
        long count = 31 * 4096 * 2 + 17; // more than two fill chunks, ragged end
        for (DType t : DType.values()) {
            ByteBuffer b = ByteBuffer.allocate((int) (count * t.size));
            AllReduceMath.fillInput(b, t, 3, count);
            ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            for (long k : new long[] {0, 1, 30, 31, 31 * 4096 - 1, 31 * 4096, 31 * 4096 + 1, count - 1}) {
                int want = AllReduceMath.input(3, k);
                float got = switch (t) {
                    case FP32 -> le.getFloat((int) k * 4);
                    case BF16 -> AllReduceMath.fromBf16(le.getShort((int) k * 2));
                    case FP16 -> le.getShort((int) k * 2) == AllReduceMath.toFp16(want) ? want : Float.NaN;
                };
                assertEquals(want, got, 0.0, t + " element " + k);
            }
        }
    }

    @Test
    void checkerCountsEveryWrongElement() {
        int ranks = 4;
        long count = 1000;
        for (DType t : DType.values()) {
            ByteBuffer b = ByteBuffer.allocate((int) (count * t.size)).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < count; k++) {
                int sum = 0;
                for (int r = 0; r < ranks; r++) {
                    sum += ((k * 13 + r * 7) % 31) - 15; // independent of AllReduceMath.input
                }
                switch (t) {
                    case FP32 -> b.putFloat(k * 4, sum);
                    case BF16 -> b.putShort(k * 2, (short) (Float.floatToIntBits(sum) >>> 16));
                    case FP16 -> b.putShort(k * 2, AllReduceMath.toFp16(sum));
                }
            }
            assertEquals(0, AllReduceMath.countWrong(b, t, ranks, count), t.flag);
            long lastRankNonZero = 0;
            for (int k = 0; k < count; k++) {
                if ((k * 13 + (ranks - 1) * 7) % 31 != 15) {
                    lastRankNonZero++;
                }
            }
            assertEquals(lastRankNonZero, AllReduceMath.countWrong(b, t, ranks - 1, count),
                    t.flag + ": a missing rank makes every element where it is non-zero wrong");
            if (t == DType.FP32) {
                b.putFloat(7 * 4, b.getFloat(7 * 4) + 1);
                b.putInt(999 * 4, 0xffffffff);
            } else {
                b.putShort(7 * 2, (short) (b.getShort(7 * 2) ^ 1));
                b.putShort(999 * 2, (short) 0xffff);
            }
            assertEquals(2, AllReduceMath.countWrong(b, t, ranks, count), t.flag);
        }
    }

    @Test
    void dtypeNamesMatchNcclTests() {
        assertEquals("bfloat16", DType.BF16.ncclTestsName);
        assertEquals("float", DType.FP32.ncclTestsName);
        assertEquals(9, DType.BF16.ncclType);
        assertEquals(7, DType.FP32.ncclType);
        assertThrows(IllegalArgumentException.class, () -> DType.parse("int8"));
    }
}
