package dev.fabricscope.nativeapi.nvml;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * Raw JNA mapping of the part of {@code libnvidia-ml.so.1} Fabricscope reads. Declarations only; exact
 * exported (versioned) C names. Used only by {@link JnaNvml}, the seam's driver backend.
 */
public interface NvmlLibrary extends Library {
    int nvmlInit_v2();

    int nvmlShutdown();

    String nvmlErrorString(int result);

    int nvmlSystemGetDriverVersion(byte[] version, int length);

    int nvmlSystemGetNVMLVersion(byte[] version, int length);

    int nvmlSystemGetCudaDriverVersion_v2(IntByReference version);

    int nvmlDeviceGetCount_v2(IntByReference count);

    int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

    int nvmlDeviceGetName(Pointer device, byte[] name, int length);

    int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

    int nvmlDeviceGetSerial(Pointer device, byte[] serial, int length);

    int nvmlDeviceGetCudaComputeCapability(Pointer device, IntByReference major, IntByReference minor);

    int nvmlDeviceGetArchitecture(Pointer device, IntByReference arch);

    /** {@code nvmlMemory_t}: total, free, used (3 × u64). */
    int nvmlDeviceGetMemoryInfo(Pointer device, Memory memory);

    /** {@code nvmlPciInfo_t}, 68 bytes. */
    int nvmlDeviceGetPciInfo_v3(Pointer device, Memory pci);

    int nvmlDeviceGetMigMode(Pointer device, IntByReference current, IntByReference pending);

    int nvmlDeviceGetNumaNodeId(Pointer device, IntByReference node);

    int nvmlDeviceGetCpuAffinity(Pointer device, int cpuSetSize, long[] cpuSet);

    int nvmlDeviceGetMemoryAffinity(Pointer device, int nodeSetSize, long[] nodeSet, int scope);

    int nvmlDeviceGetVirtualizationMode(Pointer device, IntByReference mode);

    int nvmlDeviceGetPersistenceMode(Pointer device, IntByReference mode);

    int nvmlDeviceGetNvLinkState(Pointer device, int link, IntByReference isActive);

    int nvmlDeviceGetNvLinkVersion(Pointer device, int link, IntByReference version);

    int nvmlDeviceGetNvLinkCapability(Pointer device, int link, int capability, IntByReference result);

    int nvmlDeviceGetNvLinkRemotePciInfo_v2(Pointer device, int link, Memory pci);

    int nvmlDeviceGetNvLinkRemoteDeviceType(Pointer device, int link, IntByReference type);

    /** {@code nvmlFieldValue_t[count]}, 40 bytes each. */
    int nvmlDeviceGetFieldValues(Pointer device, int count, Memory values);

    int nvmlDeviceGetTopologyCommonAncestor(Pointer device1, Pointer device2, IntByReference level);

    int nvmlDeviceGetP2PStatus(Pointer device1, Pointer device2, int capsIndex, IntByReference status);

    /** {@code nvmlGpuFabricInfoV_t} (v2 36 bytes, v3 40 bytes, version set by the caller). */
    int nvmlDeviceGetGpuFabricInfoV(Pointer device, Memory info);

    /** {@code nvmlGpuFabricInfo_t}, 28 bytes (R525+, deprecated in 13.0). */
    int nvmlDeviceGetGpuFabricInfo(Pointer device, Memory info);

    int nvmlDeviceGetMaxClockInfo(Pointer device, int clockType, IntByReference mhz);

    int nvmlDeviceGetMemoryBusWidth(Pointer device, IntByReference bits);

    int nvmlDeviceGetNvLinkErrorCounter(Pointer device, int link, int counter, com.sun.jna.ptr.LongByReference value);

    int nvmlDeviceGetEccMode(Pointer device, IntByReference current, IntByReference pending);

    int nvmlDeviceGetTotalEccErrors(Pointer device, int errorType, int counterType, com.sun.jna.ptr.LongByReference count);

    int nvmlDeviceGetRemappedRows(Pointer device, IntByReference corrRows, IntByReference uncRows, IntByReference isPending,
                                  IntByReference failureOccurred);

    /** count in/out; addresses and timestamps may be null when count is 0. */
    int nvmlDeviceGetRetiredPages_v2(Pointer device, int cause, IntByReference pageCount, long[] addresses, long[] timestamps);

    int nvmlDeviceGetCurrentClocksEventReasons(Pointer device, com.sun.jna.ptr.LongByReference reasons);

    int nvmlDeviceGetCurrentClocksThrottleReasons(Pointer device, com.sun.jna.ptr.LongByReference reasons);

    int nvmlDeviceGetPowerManagementLimit(Pointer device, IntByReference limit);

    int nvmlDeviceGetEnforcedPowerLimit(Pointer device, IntByReference limit);

    int nvmlDeviceGetCurrPcieLinkGeneration(Pointer device, IntByReference gen);

    int nvmlDeviceGetCurrPcieLinkWidth(Pointer device, IntByReference width);

    int nvmlDeviceGetMaxPcieLinkGeneration(Pointer device, IntByReference gen);

    int nvmlDeviceGetMaxPcieLinkWidth(Pointer device, IntByReference width);

    int nvmlSystemGetNvlinkBwMode(IntByReference mode);

    /** {@code nvmlNvlinkSupportedBwModes_v1_t}, version set by the caller. */
    int nvmlDeviceGetNvlinkSupportedBwModes(Pointer device, Memory modes);

    /** {@code nvmlNvlinkGetBwMode_v1_t}, version set by the caller. */
    int nvmlDeviceGetNvlinkBwMode(Pointer device, Memory mode);

    /** {@code nvmlNvLinkInfo_v1_t} / {@code _v2_t}, version set by the caller. */
    int nvmlDeviceGetNvLinkInfo(Pointer device, Memory info);

    /** {@code nvmlGpuFabricInfo_v4_t} (NVML 615; absent from R580 drivers). */
    int nvmlDeviceGetGpuFabricInfo_v4(Pointer device, Memory info);

    /** {@code nvmlC2cModeInfo_v1_t}: {@code unsigned int isC2cEnabled}, no version member. */
    int nvmlDeviceGetC2cModeInfoV(Pointer device, Memory info);
}
