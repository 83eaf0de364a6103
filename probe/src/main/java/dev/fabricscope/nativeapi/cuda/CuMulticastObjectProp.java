package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Memory;

/**
 * {@code CUmulticastObjectProp} (cuda.h, 32 bytes): {@code numDevices}@0 (uint, then 4 bytes padding),
 * {@code size}@8, {@code handleTypes}@16, {@code flags}@24 (must be 0). Only ever passed to
 * {@code cuMulticastGetGranularity}, a query.
 */
public record CuMulticastObjectProp(int numDevices, long size, long handleTypes) {

    public static final int SIZE = 32;

    public Memory toNative() {
        Memory m = new Memory(SIZE);
        m.clear();
        m.setInt(0, numDevices);
        m.setLong(8, size);
        m.setLong(16, handleTypes);
        m.setLong(24, 0L);
        return m;
    }
}
