package dev.fabricscope.nativeapi.cuda;

import com.sun.jna.Memory;

/**
 * {@code CUmemAllocationProp} (cuda.h, 32 bytes, align 8), written field by field into explicitly zeroed
 * native memory: {@code type}@0, {@code requestedHandleTypes}@4, {@code location.type}@8, {@code location.id}@12,
 * {@code win32HandleMetaData}@16 (NULL), {@code allocFlags.compressionType}@24, {@code gpuDirectRDMACapable}@25,
 * {@code usage}@26, {@code reserved[4]}@28 (zero).
 *
 * @param type                  {@link #TYPE_PINNED}
 * @param requestedHandleTypes  bitmask of {@code CU_MEM_HANDLE_TYPE_*}
 * @param locationType          {@link #LOCATION_DEVICE}
 * @param locationId            CUDA device ordinal
 * @param gpuDirectRdmaCapable  {@code allocFlags.gpuDirectRDMACapable}
 */
public record CuMemAllocationProp(int type, int requestedHandleTypes, int locationType, int locationId,
                                  boolean gpuDirectRdmaCapable) {

    public static final int SIZE = 32;
    public static final int TYPE_PINNED = 1;
    public static final int LOCATION_DEVICE = 1;
    public static final int HANDLE_NONE = 0x0;
    public static final int HANDLE_POSIX_FILE_DESCRIPTOR = 0x1;
    public static final int HANDLE_FABRIC = 0x8;
    /** {@code CUmemAllocationGranularity_flags} / {@code CUmulticastGranularity_flags}. */
    public static final int GRANULARITY_MINIMUM = 0x0;
    public static final int GRANULARITY_RECOMMENDED = 0x1;
    /** {@code sizeof(CUmemFabricHandle)}. */
    public static final int FABRIC_HANDLE_SIZE = 64;

    /** Pinned device memory on {@code ordinal} with the given handle types. */
    public static CuMemAllocationProp pinnedOnDevice(int ordinal, int handleTypes, boolean gpuDirectRdmaCapable) {
        return new CuMemAllocationProp(TYPE_PINNED, handleTypes, LOCATION_DEVICE, ordinal, gpuDirectRdmaCapable);
    }

    /** The native struct, every byte not set here zero. */
    public Memory toNative() {
        Memory m = new Memory(SIZE);
        m.clear();
        m.setInt(0, type);
        m.setInt(4, requestedHandleTypes);
        m.setInt(8, locationType);
        m.setInt(12, locationId);
        m.setLong(16, 0L);
        m.setByte(24, (byte) 0);
        m.setByte(25, (byte) (gpuDirectRdmaCapable ? 1 : 0));
        m.setShort(26, (short) 0);
        m.setInt(28, 0);
        return m;
    }

    /** {@code CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR} etc. */
    public static String handleTypeName(int handleTypes) {
        return switch (handleTypes) {
            case HANDLE_NONE -> "CU_MEM_HANDLE_TYPE_NONE";
            case HANDLE_POSIX_FILE_DESCRIPTOR -> "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR";
            case 0x2 -> "CU_MEM_HANDLE_TYPE_WIN32";
            case 0x4 -> "CU_MEM_HANDLE_TYPE_WIN32_KMT";
            case HANDLE_FABRIC -> "CU_MEM_HANDLE_TYPE_FABRIC";
            default -> "0x" + Integer.toHexString(handleTypes);
        };
    }
}
