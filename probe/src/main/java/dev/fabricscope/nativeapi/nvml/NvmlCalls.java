package dev.fabricscope.nativeapi.nvml;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.util.List;

/**
 * The seam to {@code libnvidia-ml.so.1}: every NVML call Fabricscope makes, named as in {@code nvml.h}, with plain
 * Java arguments and raw outputs (nothing decoded or validated here). A device is named by its NVML index; the
 * backend keeps the handles. Backends: {@link JnaNvml} (the driver), a recorded trace (replay), recording wrappers.
 * {@link Nvml} turns the answers into readings.
 */
public interface NvmlCalls {

    /** Loads the library; answers the file name loaded, or {@link NativeAnswer.Fault#LOAD_FAILED} with the loader's words. */
    NativeAnswer<String> load();

    NativeAnswer<Void> nvmlInit_v2();

    NativeAnswer<Void> nvmlShutdown();

    /** rc is always 0; the value is NVML's text for {@code result}. */
    NativeAnswer<String> nvmlErrorString(int result);

    NativeAnswer<String> nvmlSystemGetDriverVersion();

    NativeAnswer<String> nvmlSystemGetNVMLVersion();

    NativeAnswer<Integer> nvmlSystemGetCudaDriverVersion_v2();

    NativeAnswer<Integer> nvmlDeviceGetCount_v2();

    /** Looks the handle up and keeps it under {@code index}. */
    NativeAnswer<Void> nvmlDeviceGetHandleByIndex_v2(int index);

    NativeAnswer<String> nvmlDeviceGetName(int device);

    NativeAnswer<String> nvmlDeviceGetUUID(int device);

    NativeAnswer<String> nvmlDeviceGetSerial(int device);

    /** {major, minor}. */
    NativeAnswer<int[]> nvmlDeviceGetCudaComputeCapability(int device);

    /** {@code nvmlDeviceArchitecture_t}, raw. */
    NativeAnswer<Integer> nvmlDeviceGetArchitecture(int device);

    /** {@code nvmlMemory_t}: {total, free, used} bytes (unsigned 64-bit, raw). */
    NativeAnswer<long[]> nvmlDeviceGetMemoryInfo(int device);

    NativeAnswer<PciInfo> nvmlDeviceGetPciInfo_v3(int device);

    /** {current, pending}. */
    NativeAnswer<int[]> nvmlDeviceGetMigMode(int device);

    NativeAnswer<Integer> nvmlDeviceGetNumaNodeId(int device);

    /** CPU bit mask, {@code words} 64-bit words. */
    NativeAnswer<long[]> nvmlDeviceGetCpuAffinity(int device, int words);

    /** NUMA node bit mask. */
    NativeAnswer<long[]> nvmlDeviceGetMemoryAffinity(int device, int words, int scope);

    NativeAnswer<Integer> nvmlDeviceGetVirtualizationMode(int device);

    NativeAnswer<Integer> nvmlDeviceGetPersistenceMode(int device);

    NativeAnswer<Integer> nvmlDeviceGetNvLinkState(int device, int link);

    NativeAnswer<Integer> nvmlDeviceGetNvLinkVersion(int device, int link);

    NativeAnswer<Integer> nvmlDeviceGetNvLinkCapability(int device, int link, int capability);

    NativeAnswer<PciInfo> nvmlDeviceGetNvLinkRemotePciInfo_v2(int device, int link);

    NativeAnswer<Integer> nvmlDeviceGetNvLinkRemoteDeviceType(int device, int link);

    /** One entry per requested {fieldId, scopeId}, each with its own return code. */
    NativeAnswer<List<FieldValue>> nvmlDeviceGetFieldValues(int device, int[][] fields);

    NativeAnswer<Integer> nvmlDeviceGetTopologyCommonAncestor(int device1, int device2);

    NativeAnswer<Integer> nvmlDeviceGetP2PStatus(int device1, int device2, int capsIndex);

    /** {@code nvmlGpuFabricInfoV_t} of the given struct version (2 or 3). */
    NativeAnswer<FabricStruct> nvmlDeviceGetGpuFabricInfoV(int device, int version);

    /** {@code nvmlGpuFabricInfo_t} (R525+, deprecated in 13.0). */
    NativeAnswer<FabricStruct> nvmlDeviceGetGpuFabricInfo(int device);

    NativeAnswer<Integer> nvmlDeviceGetMaxClockInfo(int device, int clockType);

    NativeAnswer<Integer> nvmlDeviceGetMemoryBusWidth(int device);

    // --- health (issue 19): each named as in nvml.h, raw answers ---

    /** One NVLink error counter ({@code nvmlNvLinkErrorCounter_t}: 0 replay, 1 recovery, 2 CRC flit, 3 CRC data, 4 ECC data). */
    NativeAnswer<Long> nvmlDeviceGetNvLinkErrorCounter(int device, int link, int counter);

    /** {current, pending} ({@code nvmlEnableState_t}). */
    NativeAnswer<int[]> nvmlDeviceGetEccMode(int device);

    /** @param errorType 0 corrected, 1 uncorrected; @param counterType 0 volatile, 1 aggregate */
    NativeAnswer<Long> nvmlDeviceGetTotalEccErrors(int device, int errorType, int counterType);

    /** {corrRows, uncRows, isPending, failureOccurred}. */
    NativeAnswer<int[]> nvmlDeviceGetRemappedRows(int device);

    /** Pages retired for {@code cause} (0 multiple single-bit, 1 double-bit): the count only. */
    NativeAnswer<Integer> nvmlDeviceGetRetiredPages_v2(int device, int cause);

    /** {@code nvmlClocksEventReasons} bit mask (R535+). */
    NativeAnswer<Long> nvmlDeviceGetCurrentClocksEventReasons(int device);

    /** The same mask under its older, deprecated name (drivers before R535). */
    NativeAnswer<Long> nvmlDeviceGetCurrentClocksThrottleReasons(int device);

    /** mW. */
    NativeAnswer<Integer> nvmlDeviceGetPowerManagementLimit(int device);

    /** mW. */
    NativeAnswer<Integer> nvmlDeviceGetEnforcedPowerLimit(int device);

    NativeAnswer<Integer> nvmlDeviceGetCurrPcieLinkGeneration(int device);

    NativeAnswer<Integer> nvmlDeviceGetCurrPcieLinkWidth(int device);

    NativeAnswer<Integer> nvmlDeviceGetMaxPcieLinkGeneration(int device);

    NativeAnswer<Integer> nvmlDeviceGetMaxPcieLinkWidth(int device);

    // --- NVLink signals of NVML 570-615 (issue 24): struct layouts of nvml.h 13.3.29 (NVIDIA/go-nvml 8b8585b) ---

    /** The machine-wide NVLink bandwidth mode ({@code unsigned int}; Hopper and newer, root only). */
    NativeAnswer<Integer> nvmlSystemGetNvlinkBwMode();

    /** {@code nvmlNvlinkSupportedBwModes_v1_t} (28 bytes, version word 0x0100001C): the modes the device offers. */
    NativeAnswer<BwModes> nvmlDeviceGetNvlinkSupportedBwModes(int device);

    /** {@code nvmlNvlinkGetBwMode_v1_t} (12 bytes, version word 0x0100000C): the reduced-bandwidth mode in force. */
    NativeAnswer<BwMode> nvmlDeviceGetNvlinkBwMode(int device);

    /**
     * {@code nvmlNvLinkInfo_v2_t} (1612 bytes, 0x0200064C: NVLE and firmware versions) or {@code nvmlNvLinkInfo_v1_t}
     * (8 bytes, 0x01000008: NVLE only).
     */
    NativeAnswer<NvLinkInfo> nvmlDeviceGetNvLinkInfo(int device, int version);

    /**
     * {@code nvmlGpuFabricInfo_v4_t} (NVML 615; layout of docs.nvidia.com/deploy/nvml-api/api/structnvmlGpuFabricInfo__v4__t.html,
     * which lists no version member: 548 bytes by gcc).
     */
    NativeAnswer<FabricV4> nvmlDeviceGetGpuFabricInfo_v4(int device);

    // --- the GPU's link to its host CPU (issue 27) ---

    /**
     * {@code nvmlC2cModeInfo_v1_t} of nvml.h 12.6.77 and 13.3.29: one {@code unsigned int isC2cEnabled} (4 bytes; the
     * header defines {@code nvmlC2cModeInfo_v1} but the struct has no version member, so none is passed). Raw value.
     */
    NativeAnswer<Integer> nvmlDeviceGetC2cModeInfoV(int device);

    /** @param modes the first {@code total} entries of {@code bwModes[23]} */
    record BwModes(List<Integer> modes, int total) {
    }

    /** @param isBest {@code bIsBest}, raw; @param mode {@code bwMode} */
    record BwMode(long isBest, int mode) {
    }

    /** @param nvleEnabled {@code isNvleEnabled}, raw; @param firmware the valid entries (v2), null for v1 */
    record NvLinkInfo(int version, long nvleEnabled, List<FirmwareVersion> firmware) {
    }

    /** {@code nvmlNvlinkFirmwareVersion_t}: ucode type (1 MSE, 2 NETIR, 3 NETIR_UPHY, 4 NETIR_CLN, 5 NETIR_DLN). */
    record FirmwareVersion(int ucodeType, long major, long minor, long subMinor) {
    }

    /** {@code nvmlGpuFabricInfo_v4_t}: cliques are the first {@code numCliques} (type, id) entries. */
    record FabricV4(String clusterUuid, int status, List<Clique> cliques, long numCliques, int state, long healthMask,
                    int healthSummary) {
    }

    /** {@code nvmlGpuFabricClique_v1_t}. */
    record Clique(int type, long id) {
    }

    /**
     * {@code nvmlPciInfo_t} as the driver filled it, unsigned fields widened to long.
     *
     * @param busId the NUL-terminated text at offset 36 (what nvidia-smi prints)
     */
    record PciInfo(String busId, long domain, long bus, long device, long pciDeviceId, long pciSubSystemId) {
    }

    /**
     * {@code nvmlFieldValue_t}: the value union's 8 bytes as raw bits, decoded by {@code valueType}.
     */
    record FieldValue(int fieldId, int scopeId, int nvmlReturn, int valueType, long valueBits) {
    }

    /**
     * The GPU fabric struct, any version.
     *
     * @param clusterUuid   16 bytes, hex
     * @param healthMask    v2+ only
     * @param healthSummary v3 only
     */
    record FabricStruct(String clusterUuid, int status, long cliqueId, int state, Long healthMask, Integer healthSummary) {
    }
}
