package dev.fabricscope.nativeapi.cuda;

import com.fasterxml.jackson.annotation.JsonValue;
import com.sun.jna.Memory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A kernel's parameters in native memory, built once and reused by every launch ({@code cuLaunchKernel}'s
 * {@code void** kernelParams}): each argument's bytes, 8-byte aligned, and the array of pointers to them. A trace
 * records the arguments' bytes (device pointers in them are the opaque numbers the trace answered), never the
 * native copy's address.
 */
public final class KernelArgs implements AutoCloseable {

    private final List<byte[]> values = new ArrayList<>();
    private Memory block;
    private Memory pointers;

    /** A by-value struct, as its bytes (little-endian). */
    public KernelArgs bytes(byte[] value) {
        values.add(value.clone());
        return this;
    }

    /** A pointer or 64-bit integer. */
    public KernelArgs u64(long value) {
        byte[] b = new byte[8];
        for (int k = 0; k < 8; k++) {
            b[k] = (byte) (value >>> (8 * k));
        }
        values.add(b);
        return this;
    }

    public KernelArgs i32(int value) {
        values.add(new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)});
        return this;
    }

    /** Each argument's bytes in hex, little-endian: what a trace records of a launch's parameters. */
    @JsonValue
    public List<String> recorded() {
        List<String> out = new ArrayList<>(values.size());
        for (byte[] v : values) {
            out.add(HexFormat.of().formatHex(v));
        }
        return out;
    }

    /** The {@code void**} to pass; builds the native copy on first use. */
    long address() {
        if (pointers == null) {
            long total = 0;
            for (byte[] v : values) {
                total += align(v.length);
            }
            block = new Memory(Math.max(8, total));
            pointers = new Memory(8L * Math.max(1, values.size()));
            long offset = 0;
            for (int k = 0; k < values.size(); k++) {
                block.write(offset, values.get(k), 0, values.get(k).length);
                pointers.setPointer(8L * k, block.share(offset));
                offset += align(values.get(k).length);
            }
        }
        return com.sun.jna.Pointer.nativeValue(pointers);
    }

    private static long align(long n) {
        return (n + 7) & ~7L;
    }

    @Override
    public void close() {
        if (pointers != null) {
            pointers.close();
            block.close();
            pointers = null;
            block = null;
        }
    }
}
