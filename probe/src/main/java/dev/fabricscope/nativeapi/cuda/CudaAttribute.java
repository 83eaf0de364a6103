package dev.fabricscope.nativeapi.cuda;

/** CUdevice_attribute values read by Fabricscope (cuda.h 13.0). */
public final class CudaAttribute {
    private CudaAttribute() {
    }

    public static final int MULTIPROCESSOR_COUNT = 16;
    public static final int UNIFIED_ADDRESSING = 41;
    public static final int COMPUTE_CAPABILITY_MAJOR = 75;
    public static final int COMPUTE_CAPABILITY_MINOR = 76;
    public static final int VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102;
    public static final int HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103;
    public static final int GPU_DIRECT_RDMA_SUPPORTED = 116;
    public static final int HANDLE_TYPE_FABRIC_SUPPORTED = 128;
    public static final int MULTICAST_SUPPORTED = 132;
    public static final int HOST_NUMA_ID = 134;

    /** CUdevice_P2PAttribute. */
    public static final int P2P_PERFORMANCE_RANK = 1;
    public static final int P2P_ACCESS_SUPPORTED = 2;
    public static final int P2P_NATIVE_ATOMIC_SUPPORTED = 3;

    public static String name(int attribute) {
        return switch (attribute) {
            case MULTIPROCESSOR_COUNT -> "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT";
            case UNIFIED_ADDRESSING -> "CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING";
            case COMPUTE_CAPABILITY_MAJOR -> "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR";
            case COMPUTE_CAPABILITY_MINOR -> "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR";
            case VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED -> "CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED";
            case HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED -> "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED";
            case GPU_DIRECT_RDMA_SUPPORTED -> "CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED";
            case HANDLE_TYPE_FABRIC_SUPPORTED -> "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED";
            case MULTICAST_SUPPORTED -> "CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED";
            case HOST_NUMA_ID -> "CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID";
            default -> "CU_DEVICE_ATTRIBUTE_" + attribute;
        };
    }
}
