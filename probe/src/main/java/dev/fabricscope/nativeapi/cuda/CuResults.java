package dev.fabricscope.nativeapi.cuda;

import java.util.Map;

/** CUresult names (cuda.h 13.0), used when the driver cannot name a code itself. */
public final class CuResults {
    private CuResults() {
    }

    public static final int SUCCESS = 0;
    public static final int INVALID_VALUE = 1;
    public static final int NOT_SUPPORTED = 801;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(0, "CUDA_SUCCESS"), Map.entry(1, "CUDA_ERROR_INVALID_VALUE"),
            Map.entry(2, "CUDA_ERROR_OUT_OF_MEMORY"), Map.entry(3, "CUDA_ERROR_NOT_INITIALIZED"),
            Map.entry(4, "CUDA_ERROR_DEINITIALIZED"), Map.entry(34, "CUDA_ERROR_STUB_LIBRARY"),
            Map.entry(36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"), Map.entry(46, "CUDA_ERROR_DEVICE_UNAVAILABLE"),
            Map.entry(100, "CUDA_ERROR_NO_DEVICE"), Map.entry(101, "CUDA_ERROR_INVALID_DEVICE"),
            Map.entry(201, "CUDA_ERROR_INVALID_CONTEXT"), Map.entry(217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"),
            Map.entry(220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"), Map.entry(400, "CUDA_ERROR_INVALID_HANDLE"),
            Map.entry(500, "CUDA_ERROR_NOT_FOUND"), Map.entry(700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
            Map.entry(704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"), Map.entry(719, "CUDA_ERROR_LAUNCH_FAILED"),
            Map.entry(800, "CUDA_ERROR_NOT_PERMITTED"), Map.entry(801, "CUDA_ERROR_NOT_SUPPORTED"),
            Map.entry(802, "CUDA_ERROR_SYSTEM_NOT_READY"), Map.entry(803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
            Map.entry(804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"), Map.entry(999, "CUDA_ERROR_UNKNOWN"));

    public static String name(int code) {
        return NAMES.getOrDefault(code, "CUDA_ERROR_" + code);
    }

    /** {@code CUDA_ERROR_NOT_SUPPORTED (801)}. */
    public static String describe(int code) {
        return name(code) + " (" + code + ")";
    }
}
