package dev.fabricscope.nativeapi.nvml;

import java.util.Map;

/** NVML enum values and their names (nvml.h, 12.6 and 13.x headers). */
public final class NvmlCodes {
    private NvmlCodes() {
    }

    public static final int SUCCESS = 0;
    public static final int ERROR_UNINITIALIZED = 1;
    public static final int ERROR_INVALID_ARGUMENT = 2;
    public static final int ERROR_NOT_SUPPORTED = 3;
    public static final int ERROR_INSUFFICIENT_SIZE = 7;
    public static final int ERROR_FUNCTION_NOT_FOUND = 13;
    public static final int ERROR_ARGUMENT_VERSION_MISMATCH = 25;

    private static final String[] RETURN_NAMES = {
        "NVML_SUCCESS", "NVML_ERROR_UNINITIALIZED", "NVML_ERROR_INVALID_ARGUMENT", "NVML_ERROR_NOT_SUPPORTED",
        "NVML_ERROR_NO_PERMISSION", "NVML_ERROR_ALREADY_INITIALIZED", "NVML_ERROR_NOT_FOUND",
        "NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_INSUFFICIENT_POWER", "NVML_ERROR_DRIVER_NOT_LOADED",
        "NVML_ERROR_TIMEOUT", "NVML_ERROR_IRQ_ISSUE", "NVML_ERROR_LIBRARY_NOT_FOUND", "NVML_ERROR_FUNCTION_NOT_FOUND",
        "NVML_ERROR_CORRUPTED_INFOROM", "NVML_ERROR_GPU_IS_LOST", "NVML_ERROR_RESET_REQUIRED",
        "NVML_ERROR_OPERATING_SYSTEM", "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVML_ERROR_IN_USE", "NVML_ERROR_MEMORY",
        "NVML_ERROR_NO_DATA", "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", "NVML_ERROR_INSUFFICIENT_RESOURCES",
        "NVML_ERROR_FREQ_NOT_SUPPORTED", "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "NVML_ERROR_DEPRECATED",
        "NVML_ERROR_NOT_READY", "NVML_ERROR_GPU_NOT_FOUND", "NVML_ERROR_INVALID_STATE",
        "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED"
    };

    public static String returnName(int code) {
        if (code >= 0 && code < RETURN_NAMES.length) {
            return RETURN_NAMES[code];
        }
        return code == 999 ? "NVML_ERROR_UNKNOWN" : "NVML_ERROR_" + code;
    }

    /** nvmlDeviceArchitecture_t. */
    public static String architectureName(int arch) {
        return switch (arch) {
            case 2 -> "Kepler";
            case 3 -> "Maxwell";
            case 4 -> "Pascal";
            case 5 -> "Volta";
            case 6 -> "Turing";
            case 7 -> "Ampere";
            case 8 -> "Ada";
            case 9 -> "Hopper";
            case 10 -> "Blackwell";
            case 13 -> "Rubin";
            default -> "Unknown (" + Integer.toUnsignedString(arch) + ")";
        };
    }

    /** nvmlGpuVirtualizationMode_t, spelled as nvidia-smi -q prints it. */
    public static String virtualizationName(int mode) {
        return switch (mode) {
            case 0 -> "None";
            case 1 -> "Pass-Through";
            case 2 -> "VGPU";
            case 3 -> "Host VGPU";
            case 4 -> "Host VSGA";
            default -> "Unknown (" + mode + ")";
        };
    }

    /** nvmlGpuTopologyLevel_t → the {@code nvidia-smi topo -m} letter. */
    public static String topologyLetter(int level) {
        return switch (level) {
            case 0 -> "PIX";   // NVML_TOPOLOGY_INTERNAL: same board; nvidia-smi has no own letter for it
            case 10 -> "PIX";
            case 20 -> "PXB";
            case 30 -> "PHB";
            case 40 -> "NODE";
            case 50 -> "SYS";
            default -> "?" + level;
        };
    }

    /** nvmlGpuP2PStatus_t → the {@code nvidia-smi topo -p2p} letters. */
    public static String p2pStatusLetter(int status) {
        return switch (status) {
            case 0 -> "OK";
            case 1 -> "CNS";
            case 2 -> "GNS";
            case 3 -> "TNS";
            case 4 -> "DISABLED_BY_REGKEY";
            case 5 -> "NS";
            default -> "U";
        };
    }

    /** nvmlIntNvLinkDeviceType_t. */
    public static String remoteDeviceTypeName(int type) {
        return switch (type) {
            case 0 -> "GPU";
            case 1 -> "IBMNPU";
            case 2 -> "SWITCH";
            case 0xFF -> "UNKNOWN";
            default -> null;
        };
    }

    public static final Map<Integer, String> FABRIC_STATES =
            Map.of(0, "NOT_SUPPORTED", 1, "NOT_STARTED", 2, "IN_PROGRESS", 3, "COMPLETED");

    public static final Map<Integer, String> FABRIC_HEALTH_SUMMARY =
            Map.of(0, "NOT_SUPPORTED", 1, "HEALTHY", 2, "UNHEALTHY", 3, "LIMITED_CAPACITY");

    /** P2P capability indices (nvmlGpuP2PCapsIndex_t). */
    public static final int P2P_READ = 0;
    public static final int P2P_WRITE = 1;
    public static final int P2P_NVLINK = 2;
    public static final int P2P_ATOMICS = 3;
    public static final int P2P_PROP = 4;

    public static final int NVLINK_CAP_P2P_SUPPORTED = 0;

    /** Field ids for nvmlDeviceGetFieldValues. */
    public static final int FI_NVLINK_LINK_COUNT = 91;
    public static final int FI_NVLINK_GET_SPEED = 164;
    public static final int FI_NVLINK_GET_STATE = 165;
    /** {@code NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX} / {@code _RX}: KiB, scope = link (nvml.h). */
    public static final int FI_NVLINK_THROUGHPUT_DATA_TX = 138;
    public static final int FI_NVLINK_THROUGHPUT_DATA_RX = 139;
    /** {@code NVML_FI_DEV_GET_GPU_RECOVERY_ACTION} (nvml.h, R560+). */
    public static final int FI_GET_GPU_RECOVERY_ACTION = 230;

    /**
     * {@code NVML_FI_DEV_C2C_LINK_COUNT} (links present), {@code _C2C_LINK_GET_STATUS} (0 INACTIVE, 1 ACTIVE) and
     * {@code _C2C_LINK_GET_MAX_BW} (MB/s for active links): the same ids in nvml.h 12.6.77 (NVIDIA/go-nvml 7ec3ff8,
     * lines 2043-2045) and 13.3.29 (8b8585b, lines 2686-2688); status and speed asked per link (scope = link index).
     */
    public static final int FI_C2C_LINK_COUNT = 170;
    public static final int FI_C2C_LINK_GET_STATUS = 171;
    public static final int FI_C2C_LINK_GET_MAX_BW = 172;

    /** {@code NVML_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER} and {@code _SYMBOL_BER}: packed BER, scope = link (nvml.h 13.3.29). */
    public static final int FI_NVLINK_EFFECTIVE_BER = 220;
    public static final int FI_NVLINK_SYMBOL_BER = 222;

    /**
     * {@code NVML_FI_DEV_NVLINK_GET_STATE} values in nvml.h 13.3.29 ({@code NVML_NVLINK_STATE_INACTIVE 0x0},
     * {@code _ACTIVE 0x1}, {@code _SLEEP 0x2}); null for any other value. NVML 615's change log adds
     * {@code NVML_NVLINK_STATE_ACTIVE_TRAFFIC_DISABLED}, whose value no public source read defines: not NVIDIA/go-nvml
     * 2f9e261 gen/nvml/nvml.h:9390-9392 (CUDA 13.3, the newest), nor the NVML API reference's NvLink Methods page,
     * nor pynvml's {@code NVML_FI_DEV_NVLINK_GET_STATE state enums}, nor DCGM (searched 2026-12-02). A value outside
     * the list is kept raw and judged unknown, never guessed to be it.
     */
    public static String nvLinkStateName(long v) {
        return v == 0 ? "INACTIVE" : v == 1 ? "ACTIVE" : v == 2 ? "SLEEP" : null;
    }

    /** {@code NVLINK_INBAND_BW_MODE_*} (open-gpu-kernel-modules nvlink_inband_msg.h); null outside the list. */
    public static String bwModeName(Integer v) {
        if (v == null) {
            return null;
        }
        return switch (v) {
            case 0 -> "FULL";
            case 1 -> "OFF";
            case 2 -> "MIN";
            case 3 -> "HALF";
            case 4 -> "3QUARTER";
            default -> null;
        };
    }

    /** {@code NVML_NVLINK_FIRMWARE_UCODE_TYPE_*} (nvml.h 13.3.29); null outside the list. */
    public static String ucodeTypeName(int t) {
        return switch (t) {
            case 1 -> "MSE";
            case 2 -> "NETIR";
            case 3 -> "NETIR_UPHY";
            case 4 -> "NETIR_CLN";
            case 5 -> "NETIR_DLN";
            default -> null;
        };
    }

    /**
     * The health mask's Global Fabric Manager field: bits 15:14 ({@code NVLINK_INBAND_FABRIC_HEALTH_MASK_GFM_STATE} in
     * NVIDIA/open-gpu-kernel-modules {@code nvlink_inband_msg.h}, the mask the driver passes to NVML; NVML 615 names
     * it {@code NVML_GPU_FABRIC_HEALTH_MASK_GFM_STATE_*}): 0 NOT_SUPPORTED, 1 CONNECTED, 2 DISCONNECTED.
     */
    public static final int FABRIC_HEALTH_SHIFT_GFM_STATE = 14;
    public static final int FABRIC_HEALTH_WIDTH_GFM_STATE = 0x3;

    public static final Map<Integer, String> GFM_STATES = Map.of(0, "NOT_SUPPORTED", 1, "CONNECTED", 2, "DISCONNECTED");

    /** {@code nvmlDeviceGpuRecoveryAction_t}. */
    public static String recoveryActionName(long v) {
        return switch ((int) Math.max(-1, Math.min(v, 99))) {
            case 0 -> "NONE";
            case 1 -> "GPU_RESET";
            case 2 -> "NODE_REBOOT";
            case 3 -> "DRAIN_P2P";
            case 4 -> "DRAIN_AND_RESET";
            default -> null;
        };
    }

    /** {@code nvmlClocksEventReasons} bits (nvml.h) as nvidia-smi -q names them; unknown bits kept as hex. */
    public static java.util.List<String> clocksEventReasonNames(Long mask) {
        if (mask == null) {
            throw new dev.fabricscope.nativeapi.NativeReads.OutOfRange("null", "no mask");
        }
        String[] names = {"Idle", "Applications Clocks Setting", "SW Power Cap", "HW Slowdown", "Sync Boost",
            "SW Thermal Slowdown", "HW Thermal Slowdown", "HW Power Brake Slowdown", "Display Clock Setting"};
        java.util.List<String> out = new java.util.ArrayList<>();
        long rest = mask;
        for (int b = 0; b < names.length; b++) {
            if ((mask >>> b & 1L) != 0) {
                out.add(names[b]);
                rest &= ~(1L << b);
            }
        }
        if (rest != 0) {
            out.add("0x" + Long.toHexString(rest));
        }
        return out;
    }
}
