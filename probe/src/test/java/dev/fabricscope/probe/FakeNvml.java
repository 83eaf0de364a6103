package dev.fabricscope.probe;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
import dev.fabricscope.nativeapi.nvml.NvmlLibrary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An in-memory libnvidia-ml for tests: answers the way real drivers do (struct layouts from nvml.h, error codes
 * as documented), including an old driver's missing symbols and links past the device's count.
 */
final class FakeNvml implements NvmlLibrary {

    static final int SUCCESS = 0;
    static final int INVALID_ARGUMENT = 2;
    static final int NOT_SUPPORTED = 3;
    static final int ARGUMENT_VERSION_MISMATCH = 25;

    /** One NVLink: its far end. */
    record Link(boolean active, int remoteType, String remotePci) {
    }

    static final class Dev {
        final String pci;
        String name = "NVIDIA H100 80GB HBM3";
        String uuid;
        String serial = "1650000000001";
        int ccMajor = 9;
        int ccMinor = 0;
        int arch = 9;
        final List<Link> links = new ArrayList<>();
        boolean linkCountField = true;
        boolean linksSupported = true;
        int fabricState = 3;
        byte[] clusterUuid = new byte[16];
        int cliqueId;
        int maxFabricVersion = 3;
        int healthMask = 0x2 | 0x2 << 2;
        // NVLink signals (issue 24), answered with the struct layouts of nvml.h 13.3.29 (NVIDIA/go-nvml 8b8585b):
        /** bwMode and bIsBest of nvmlNvlinkGetBwMode_v1_t; null answers NOT_SUPPORTED (Hopper: "Blackwell or newer"). */
        Integer bwMode;
        boolean bwBest = true;
        int[] supportedBwModes = {};
        /** isNvleEnabled; null answers NOT_SUPPORTED. */
        Integer nvle;
        /** {ucodeType, major, minor, subMinor} per firmware entry of nvmlNvLinkInfo_v2_t; null: v1 only (v2 → VERSION_MISMATCH). */
        int[][] firmware = {};
        /** NVML_FI_DEV_NVLINK_GET_STATE per link index; missing entries answer NOT_SUPPORTED. */
        java.util.Map<Integer, Integer> linkStates = new java.util.HashMap<>();
        /** Packed BER (exponent 7:0, mantissa 11:8) per link for NVML_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER / _SYMBOL_BER. */
        java.util.Map<Integer, Integer> effectiveBer = new java.util.HashMap<>();
        /** nvmlGpuFabricClique_v1_t entries {type, id} of nvmlGpuFabricInfo_v4_t. */
        int[][] cliques = {};
        /** Return code NVML itself gives for nvmlDeviceGetNvLinkInfo (e.g. 13, FUNCTION_NOT_FOUND); 0 answers. */
        int nvLinkInfoRc = 0;
        // host link (issue 27), nvml.h 13.3.29: nvmlC2cModeInfo_v1_t {isC2cEnabled}, fields 170-172
        /** isC2cEnabled; null answers NOT_SUPPORTED (a GPU without C2C). */
        Integer c2cEnabled;
        /** NVML_FI_DEV_C2C_LINK_COUNT; null answers NOT_SUPPORTED. */
        Integer c2cLinks;
        /** NVML_FI_DEV_C2C_LINK_GET_STATUS of every link, and NVML_FI_DEV_C2C_LINK_GET_MAX_BW (MB/s) of every active one. */
        int c2cStatus = 1;
        int c2cMaxBwMBps;
        /** nvmlDeviceGetNumaNodeId; null answers NOT_SUPPORTED (x86: the GPU is not a NUMA node). */
        Integer ownNumaNode;
        /** Bytes the last nvmlDeviceGetC2cModeInfoV call was given. */
        long c2cBufferSize = -1;

        Dev(String pci) {
            this.pci = pci;
            this.uuid = "GPU-00000000-0000-4000-8000-" + String.format("%12s", pci.replaceAll("[^0-9a-f]", "")).replace(' ', '0');
        }
    }

    final List<Dev> devices = new ArrayList<>();
    /** Exported symbols this "driver" lacks. */
    final Set<String> missingSymbols;
    String driverVersion = "580.159.04";

    FakeNvml(Set<String> missingSymbols) {
        this.missingSymbols = missingSymbols;
    }

    private void need(String symbol) {
        if (missingSymbols.contains(symbol)) {
            throw new UnsatisfiedLinkError("Error looking up function '" + symbol + "': undefined symbol: " + symbol);
        }
    }

    private Dev dev(Pointer p) {
        return devices.get((int) Pointer.nativeValue(p) - 1000);
    }

    private static int str(String v, byte[] buf) {
        byte[] b = v.getBytes(StandardCharsets.UTF_8);
        if (b.length + 1 > buf.length) {
            return 7;
        }
        System.arraycopy(b, 0, buf, 0, b.length);
        buf[b.length] = 0;
        return SUCCESS;
    }

    private static void pci(Memory m, String text) {
        PciAddress a = PciAddress.parse(text);
        byte[] busId = a.toNvmlString().getBytes(StandardCharsets.US_ASCII);
        m.write(0, busId, 0, Math.min(busId.length, 15));
        m.setInt(16, a.domain());
        m.setInt(20, a.bus());
        m.setInt(24, a.device());
        m.setInt(28, 0x233310de);
        m.write(36, busId, 0, busId.length);
        m.setByte(36 + busId.length, (byte) 0);
    }

    @Override public int nvmlInit_v2() { return SUCCESS; }
    @Override public int nvmlShutdown() { return SUCCESS; }
    @Override public String nvmlErrorString(int result) { return "fake error " + result; }
    @Override public int nvmlSystemGetDriverVersion(byte[] v, int len) { return str(driverVersion, v); }
    @Override public int nvmlSystemGetNVMLVersion(byte[] v, int len) { return str("13." + driverVersion, v); }
    @Override public int nvmlSystemGetCudaDriverVersion_v2(IntByReference v) { v.setValue(13000); return SUCCESS; }
    @Override public int nvmlDeviceGetCount_v2(IntByReference c) { c.setValue(devices.size()); return SUCCESS; }

    @Override
    public int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device) {
        if (index >= devices.size()) return INVALID_ARGUMENT;
        device.setValue(new Pointer(1000 + index));
        return SUCCESS;
    }

    @Override public int nvmlDeviceGetName(Pointer d, byte[] n, int l) { return str(dev(d).name, n); }
    @Override public int nvmlDeviceGetUUID(Pointer d, byte[] u, int l) { return str(dev(d).uuid, u); }
    @Override public int nvmlDeviceGetSerial(Pointer d, byte[] s, int l) { return dev(d).serial == null ? NOT_SUPPORTED : str(dev(d).serial, s); }

    @Override
    public int nvmlDeviceGetCudaComputeCapability(Pointer d, IntByReference major, IntByReference minor) {
        major.setValue(dev(d).ccMajor);
        minor.setValue(dev(d).ccMinor);
        return SUCCESS;
    }

    @Override public int nvmlDeviceGetArchitecture(Pointer d, IntByReference a) { a.setValue(dev(d).arch); return SUCCESS; }

    @Override
    public int nvmlDeviceGetMemoryInfo(Pointer d, Memory m) {
        m.setLong(0, 85899345920L);
        m.setLong(8, 85000000000L);
        m.setLong(16, 899345920L);
        return SUCCESS;
    }

    @Override public int nvmlDeviceGetPciInfo_v3(Pointer d, Memory m) { pci(m, dev(d).pci); return SUCCESS; }

    @Override
    public int nvmlDeviceGetMigMode(Pointer d, IntByReference cur, IntByReference pending) {
        cur.setValue(0);
        pending.setValue(0);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetNumaNodeId(Pointer d, IntByReference n) {
        need("nvmlDeviceGetNumaNodeId");
        if (dev(d).ownNumaNode == null) return NOT_SUPPORTED;
        n.setValue(dev(d).ownNumaNode);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetCpuAffinity(Pointer d, int size, long[] set) {
        set[0] = 0xFFL;
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetMemoryAffinity(Pointer d, int size, long[] set, int scope) {
        set[0] = devices.indexOf(dev(d)) < devices.size() / 2 ? 1L : 2L;
        return SUCCESS;
    }

    @Override public int nvmlDeviceGetVirtualizationMode(Pointer d, IntByReference m) { m.setValue(0); return SUCCESS; }
    @Override public int nvmlDeviceGetPersistenceMode(Pointer d, IntByReference m) { m.setValue(1); return SUCCESS; }

    private int link(Pointer d, int link) {
        Dev x = dev(d);
        if (!x.linksSupported) return NOT_SUPPORTED;
        return link < x.links.size() ? SUCCESS : INVALID_ARGUMENT;
    }

    @Override
    public int nvmlDeviceGetNvLinkState(Pointer d, int l, IntByReference a) {
        int rc = link(d, l);
        if (rc == SUCCESS) a.setValue(dev(d).links.get(l).active() ? 1 : 0);
        return rc;
    }

    @Override
    public int nvmlDeviceGetNvLinkVersion(Pointer d, int l, IntByReference v) {
        int rc = link(d, l);
        if (rc == SUCCESS) v.setValue(7);
        return rc;
    }

    @Override
    public int nvmlDeviceGetNvLinkCapability(Pointer d, int l, int cap, IntByReference r) {
        int rc = link(d, l);
        if (rc == SUCCESS) r.setValue(1);
        return rc;
    }

    @Override
    public int nvmlDeviceGetNvLinkRemotePciInfo_v2(Pointer d, int l, Memory m) {
        int rc = link(d, l);
        if (rc == SUCCESS && dev(d).links.get(l).remotePci() != null) {
            pci(m, dev(d).links.get(l).remotePci());
        }
        return rc;
    }

    @Override
    public int nvmlDeviceGetNvLinkRemoteDeviceType(Pointer d, int l, IntByReference t) {
        int rc = link(d, l);
        if (rc == SUCCESS) t.setValue(dev(d).links.get(l).remoteType());
        return rc;
    }

    @Override
    public int nvmlDeviceGetFieldValues(Pointer d, int count, Memory values) {
        for (int i = 0; i < count; i++) {
            long base = 40L * i;
            int field = values.getInt(base);
            int scope = values.getInt(base + 4);
            Integer signal = field == 165 ? dev(d).linkStates.get(scope) : field == 220 ? dev(d).effectiveBer.get(scope) : null;
            Dev x = dev(d);
            if (x.c2cLinks != null && (field == 170 || (field == 171 || field == 172) && scope < x.c2cLinks)) {
                signal = field == 170 ? x.c2cLinks : field == 171 ? x.c2cStatus : x.c2cStatus == 1 ? x.c2cMaxBwMBps : 0;
            }
            if (field == 91 && dev(d).linkCountField) {
                values.setInt(base + 24, 1);
                values.setInt(base + 28, SUCCESS);
                values.setInt(base + 32, dev(d).links.size());
            } else if (signal != null) {
                values.setInt(base + 24, 1);
                values.setInt(base + 28, SUCCESS);
                values.setInt(base + 32, signal);
            } else {
                values.setInt(base + 28, NOT_SUPPORTED);
            }
        }
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetTopologyCommonAncestor(Pointer a, Pointer b, IntByReference level) {
        int ia = devices.indexOf(dev(a));
        int ib = devices.indexOf(dev(b));
        level.setValue((ia < devices.size() / 2) == (ib < devices.size() / 2) ? 40 : 50);
        return SUCCESS;
    }

    @Override public int nvmlDeviceGetP2PStatus(Pointer a, Pointer b, int idx, IntByReference s) { s.setValue(0); return SUCCESS; }

    @Override
    public int nvmlDeviceGetGpuFabricInfoV(Pointer d, Memory info) {
        need("nvmlDeviceGetGpuFabricInfoV");
        int version = info.getInt(0) >>> 24;
        if (version > dev(d).maxFabricVersion) return ARGUMENT_VERSION_MISMATCH;
        info.write(4, dev(d).clusterUuid, 0, 16);
        info.setInt(20, SUCCESS);
        info.setInt(24, dev(d).cliqueId);
        info.setByte(28, (byte) dev(d).fabricState);
        info.setInt(32, dev(d).healthMask);
        if (version >= 3) info.setByte(36, (byte) 1);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetGpuFabricInfo(Pointer d, Memory info) {
        info.write(0, dev(d).clusterUuid, 0, 16);
        info.setInt(16, SUCCESS);
        info.setInt(20, dev(d).cliqueId);
        info.setByte(24, (byte) dev(d).fabricState);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetMaxClockInfo(Pointer d, int clockType, IntByReference mhz) {
        return NvmlCodes.ERROR_NOT_SUPPORTED;
    }

    @Override
    public int nvmlDeviceGetMemoryBusWidth(Pointer d, IntByReference bits) {
        return NvmlCodes.ERROR_NOT_SUPPORTED;
    }

    // Health readings (issue 19): a healthy H100 as nvidia-smi -q shows one; link counters all zero but CRC data.

    @Override
    public int nvmlDeviceGetNvLinkErrorCounter(Pointer d, int link, int counter, com.sun.jna.ptr.LongByReference v) {
        int rc = link(d, link);
        if (rc != SUCCESS) return rc;
        v.setValue(counter == 3 ? 2 : 0);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetEccMode(Pointer d, IntByReference cur, IntByReference pending) {
        cur.setValue(1);
        pending.setValue(1);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetTotalEccErrors(Pointer d, int errorType, int counterType, com.sun.jna.ptr.LongByReference count) {
        count.setValue(0);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetRemappedRows(Pointer d, IntByReference corr, IntByReference unc, IntByReference pending, IntByReference failed) {
        corr.setValue(0);
        unc.setValue(0);
        pending.setValue(0);
        failed.setValue(0);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetRetiredPages_v2(Pointer d, int cause, IntByReference count, long[] addresses, long[] timestamps) {
        return NOT_SUPPORTED;
    }

    @Override
    public int nvmlDeviceGetCurrentClocksEventReasons(Pointer d, com.sun.jna.ptr.LongByReference reasons) {
        if (missingSymbols.contains("nvmlDeviceGetCurrentClocksEventReasons")) throw new UnsatisfiedLinkError("undefined symbol: nvmlDeviceGetCurrentClocksEventReasons");
        reasons.setValue(1);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetCurrentClocksThrottleReasons(Pointer d, com.sun.jna.ptr.LongByReference reasons) {
        reasons.setValue(1);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetPowerManagementLimit(Pointer d, IntByReference limit) {
        limit.setValue(700000);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetEnforcedPowerLimit(Pointer d, IntByReference limit) {
        limit.setValue(700000);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetCurrPcieLinkGeneration(Pointer d, IntByReference v) {
        v.setValue(5);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetCurrPcieLinkWidth(Pointer d, IntByReference v) {
        v.setValue(16);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetMaxPcieLinkGeneration(Pointer d, IntByReference v) {
        v.setValue(5);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetMaxPcieLinkWidth(Pointer d, IntByReference v) {
        v.setValue(16);
        return SUCCESS;
    }

    // --- NVLink signals (issue 24): nvml.h 13.3.29 layouts, version words checked as NVML_STRUCT_VERSION ---

    /** nvmlSystemGetNvlinkBwMode's answer; null answers NOT_SUPPORTED. */
    Integer systemBwMode = 0;

    @Override
    public int nvmlSystemGetNvlinkBwMode(IntByReference mode) {
        need("nvmlSystemGetNvlinkBwMode");
        if (systemBwMode == null) return NOT_SUPPORTED;
        mode.setValue(systemBwMode);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetNvlinkSupportedBwModes(Pointer d, Memory m) {
        need("nvmlDeviceGetNvlinkSupportedBwModes");
        if (m.getInt(0) != (28 | 1 << 24)) return ARGUMENT_VERSION_MISMATCH;
        if (dev(d).bwMode == null) return NOT_SUPPORTED;
        int[] modes = dev(d).supportedBwModes;
        for (int i = 0; i < modes.length; i++) m.setByte(4 + i, (byte) modes[i]);
        m.setByte(27, (byte) modes.length);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetNvlinkBwMode(Pointer d, Memory m) {
        need("nvmlDeviceGetNvlinkBwMode");
        if (m.getInt(0) != (12 | 1 << 24)) return ARGUMENT_VERSION_MISMATCH;
        if (dev(d).bwMode == null) return NOT_SUPPORTED;
        m.setInt(4, dev(d).bwBest ? 1 : 0);
        m.setByte(8, (byte) (int) dev(d).bwMode);
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetNvLinkInfo(Pointer d, Memory m) {
        need("nvmlDeviceGetNvLinkInfo");
        if (dev(d).nvLinkInfoRc != 0) return dev(d).nvLinkInfoRc;
        int version = m.getInt(0);
        boolean v2 = version == (1612 | 2 << 24);
        if (!v2 && version != (8 | 1 << 24)) return ARGUMENT_VERSION_MISMATCH;
        if (v2 && dev(d).firmware == null) return ARGUMENT_VERSION_MISMATCH;
        if (dev(d).nvle == null) return NOT_SUPPORTED;
        m.setInt(4, dev(d).nvle);
        if (v2) {
            int[][] fw = dev(d).firmware;
            for (int i = 0; i < fw.length; i++) {
                long b = 8 + 16L * i;
                m.setByte(b, (byte) fw[i][0]);
                m.setInt(b + 4, fw[i][1]);
                m.setInt(b + 8, fw[i][2]);
                m.setInt(b + 12, fw[i][3]);
            }
            m.setInt(1608, fw.length);
        }
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetC2cModeInfoV(Pointer d, Memory m) {
        need("nvmlDeviceGetC2cModeInfoV");
        dev(d).c2cBufferSize = m.size();
        if (dev(d).c2cEnabled == null) return NOT_SUPPORTED;
        m.setInt(0, dev(d).c2cEnabled); // isC2cEnabled u32 @0, the whole struct
        return SUCCESS;
    }

    @Override
    public int nvmlDeviceGetGpuFabricInfo_v4(Pointer d, Memory m) {
        need("nvmlDeviceGetGpuFabricInfo_v4");
        // docs.nvidia.com structnvmlGpuFabricInfo__v4__t: clusterUuid[16] @0, status @16, cliques[64] {u8 type, u32 id} @20,
        // numCliques @532, state u8 @536, healthMask @540, healthSummary u8 @544
        m.write(0, dev(d).clusterUuid, 0, 16);
        m.setInt(16, SUCCESS);
        int[][] c = dev(d).cliques;
        for (int i = 0; i < c.length; i++) {
            m.setByte(20 + 8L * i, (byte) c[i][0]);
            m.setInt(24 + 8L * i, c[i][1]);
        }
        m.setInt(532, c.length);
        m.setByte(536, (byte) dev(d).fabricState);
        m.setInt(540, dev(d).healthMask);
        m.setByte(544, (byte) 1);
        return SUCCESS;
    }
}
