package dev.fabricscope.nativeapi.nvml;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.nativeapi.JnaCalls;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** {@link NvmlCalls} through JNA: marshals structs, keeps device handles by index, reports missing symbols. */
public final class JnaNvml implements NvmlCalls {

    private static final String[] LIBRARY_NAMES = {"libnvidia-ml.so.1", "nvidia-ml"};

    private NvmlLibrary lib;
    private final Map<Integer, Pointer> handles = new ConcurrentHashMap<>();

    public JnaNvml() {
    }

    /** Over an already loaded (or fake) library. */
    public JnaNvml(NvmlLibrary lib) {
        this.lib = lib;
    }

    @Override
    public NativeAnswer<String> load() {
        if (lib != null) {
            return NativeAnswer.ok("(preloaded)");
        }
        JnaCalls.Loaded<NvmlLibrary> l = JnaCalls.load(NvmlLibrary.class, LIBRARY_NAMES);
        lib = l.library();
        return lib != null ? NativeAnswer.ok(l.name()) : NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, l.failure());
    }

    private <T> NativeAnswer<T> call(IntSupplier nativeCall, Supplier<T> outputs) {
        return JnaCalls.call(lib, "libnvidia-ml", NvmlCodes.SUCCESS, nativeCall, outputs);
    }

    private <T> NativeAnswer<T> onDevice(int device, java.util.function.Function<Pointer, NativeAnswer<T>> f) {
        Pointer h = handles.get(device);
        if (h == null) {
            return NativeAnswer.returned(NvmlCodes.ERROR_INVALID_ARGUMENT, null);
        }
        return f.apply(h);
    }

    private NativeAnswer<String> string(int size, java.util.function.ToIntFunction<byte[]> f) {
        byte[] buf = new byte[size];
        return call(() -> f.applyAsInt(buf), () -> cString(buf, 0, size));
    }

    /** Text up to the first NUL, or the whole buffer when the driver left no terminator. */
    static String cString(byte[] buf, int offset, int length) {
        int n = 0;
        while (n < length && buf[offset + n] != 0) {
            n++;
        }
        return new String(buf, offset, n, StandardCharsets.UTF_8);
    }

    private NativeAnswer<Integer> intOut(java.util.function.ToIntFunction<IntByReference> f) {
        IntByReference v = new IntByReference();
        return call(() -> f.applyAsInt(v), v::getValue);
    }

    @Override
    public NativeAnswer<Void> nvmlInit_v2() {
        return call(() -> lib.nvmlInit_v2(), () -> null);
    }

    @Override
    public NativeAnswer<Void> nvmlShutdown() {
        return call(() -> lib.nvmlShutdown(), () -> null);
    }

    @Override
    public NativeAnswer<String> nvmlErrorString(int result) {
        String[] text = new String[1];
        return call(() -> {
            text[0] = lib.nvmlErrorString(result);
            return 0;
        }, () -> text[0]);
    }

    @Override
    public NativeAnswer<String> nvmlSystemGetDriverVersion() {
        return string(80, b -> lib.nvmlSystemGetDriverVersion(b, b.length));
    }

    @Override
    public NativeAnswer<String> nvmlSystemGetNVMLVersion() {
        return string(80, b -> lib.nvmlSystemGetNVMLVersion(b, b.length));
    }

    @Override
    public NativeAnswer<Integer> nvmlSystemGetCudaDriverVersion_v2() {
        return intOut(v -> lib.nvmlSystemGetCudaDriverVersion_v2(v));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetCount_v2() {
        return intOut(v -> lib.nvmlDeviceGetCount_v2(v));
    }

    @Override
    public NativeAnswer<Void> nvmlDeviceGetHandleByIndex_v2(int index) {
        PointerByReference p = new PointerByReference();
        return call(() -> lib.nvmlDeviceGetHandleByIndex_v2(index, p), () -> {
            handles.put(index, p.getValue());
            return null;
        });
    }

    @Override
    public NativeAnswer<String> nvmlDeviceGetName(int device) {
        return onDevice(device, d -> string(96, b -> lib.nvmlDeviceGetName(d, b, b.length)));
    }

    @Override
    public NativeAnswer<String> nvmlDeviceGetUUID(int device) {
        return onDevice(device, d -> string(96, b -> lib.nvmlDeviceGetUUID(d, b, b.length)));
    }

    @Override
    public NativeAnswer<String> nvmlDeviceGetSerial(int device) {
        return onDevice(device, d -> string(30, b -> lib.nvmlDeviceGetSerial(d, b, b.length)));
    }

    @Override
    public NativeAnswer<int[]> nvmlDeviceGetCudaComputeCapability(int device) {
        IntByReference major = new IntByReference();
        IntByReference minor = new IntByReference();
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetCudaComputeCapability(d, major, minor),
                () -> new int[] {major.getValue(), minor.getValue()}));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetArchitecture(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetArchitecture(d, v)));
    }

    @Override
    public NativeAnswer<long[]> nvmlDeviceGetMemoryInfo(int device) {
        Memory m = zeroed(24);
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetMemoryInfo(d, m),
                () -> new long[] {m.getLong(0), m.getLong(8), m.getLong(16)}));
    }

    @Override
    public NativeAnswer<PciInfo> nvmlDeviceGetPciInfo_v3(int device) {
        Memory m = zeroed(68);
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetPciInfo_v3(d, m), () -> pciInfo(m)));
    }

    /** {@code nvmlPciInfo_t}: busIdLegacy[16], domain, bus, device, pciDeviceId, pciSubSystemId (u32), busId[32]. */
    static PciInfo pciInfo(Memory m) {
        byte[] busId = m.getByteArray(36, 32);
        return new PciInfo(cString(busId, 0, busId.length), m.getInt(16) & 0xffffffffL, m.getInt(20) & 0xffffffffL,
                m.getInt(24) & 0xffffffffL, m.getInt(28) & 0xffffffffL, m.getInt(32) & 0xffffffffL);
    }

    @Override
    public NativeAnswer<int[]> nvmlDeviceGetMigMode(int device) {
        IntByReference cur = new IntByReference();
        IntByReference pending = new IntByReference();
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetMigMode(d, cur, pending),
                () -> new int[] {cur.getValue(), pending.getValue()}));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetNumaNodeId(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetNumaNodeId(d, v)));
    }

    @Override
    public NativeAnswer<long[]> nvmlDeviceGetCpuAffinity(int device, int words) {
        long[] set = new long[Math.max(0, words)];
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetCpuAffinity(d, set.length, set), set::clone));
    }

    @Override
    public NativeAnswer<long[]> nvmlDeviceGetMemoryAffinity(int device, int words, int scope) {
        long[] set = new long[Math.max(0, words)];
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetMemoryAffinity(d, set.length, set, scope), set::clone));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetVirtualizationMode(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetVirtualizationMode(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetPersistenceMode(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetPersistenceMode(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetNvLinkState(int device, int link) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetNvLinkState(d, link, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetNvLinkVersion(int device, int link) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetNvLinkVersion(d, link, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetNvLinkCapability(int device, int link, int capability) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetNvLinkCapability(d, link, capability, v)));
    }

    @Override
    public NativeAnswer<PciInfo> nvmlDeviceGetNvLinkRemotePciInfo_v2(int device, int link) {
        Memory m = zeroed(68);
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetNvLinkRemotePciInfo_v2(d, link, m), () -> pciInfo(m)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetNvLinkRemoteDeviceType(int device, int link) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetNvLinkRemoteDeviceType(d, link, v)));
    }

    @Override
    public NativeAnswer<List<FieldValue>> nvmlDeviceGetFieldValues(int device, int[][] fields) {
        int n = fields.length;
        Memory m = zeroed(40L * Math.max(1, n));
        for (int i = 0; i < n; i++) {
            m.setInt(40L * i, fields[i][0]);
            m.setInt(40L * i + 4, fields[i][1]);
        }
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetFieldValues(d, n, m), () -> {
            List<FieldValue> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long base = 40L * i;
                out.add(new FieldValue(m.getInt(base), m.getInt(base + 4), m.getInt(base + 28), m.getInt(base + 24),
                        m.getLong(base + 32)));
            }
            return out;
        }));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetTopologyCommonAncestor(int device1, int device2) {
        return onDevice(device1, a -> onDevice(device2, b -> intOut(v -> lib.nvmlDeviceGetTopologyCommonAncestor(a, b, v))));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetP2PStatus(int device1, int device2, int capsIndex) {
        return onDevice(device1, a -> onDevice(device2, b -> intOut(v -> lib.nvmlDeviceGetP2PStatus(a, b, capsIndex, v))));
    }

    @Override
    public NativeAnswer<FabricStruct> nvmlDeviceGetGpuFabricInfoV(int device, int version) {
        int size = version >= 3 ? 40 : 36;
        Memory m = zeroed(size);
        m.setInt(0, size | (version << 24));
        // v2/v3: version u32, clusterUuid[16], status u32 @20, cliqueId u32 @24, state u8 @28, healthMask u32 @32, summary u8 @36
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetGpuFabricInfoV(d, m), () -> new FabricStruct(
                HexFormat.of().formatHex(m.getByteArray(4, 16)), m.getInt(20), m.getInt(24) & 0xffffffffL,
                m.getByte(28) & 0xff, m.getInt(32) & 0xffffffffL, version >= 3 ? (m.getByte(36) & 0xff) : null)));
    }

    @Override
    public NativeAnswer<FabricStruct> nvmlDeviceGetGpuFabricInfo(int device) {
        Memory m = zeroed(28);
        // clusterUuid[16], status u32 @16, cliqueId u32 @20, state u8 @24
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetGpuFabricInfo(d, m), () -> new FabricStruct(
                HexFormat.of().formatHex(m.getByteArray(0, 16)), m.getInt(16), m.getInt(20) & 0xffffffffL,
                m.getByte(24) & 0xff, null, null)));
    }

    /** {@code NVML_STRUCT_VERSION}: sizeof | version << 24. */
    static int structVersion(int size, int version) {
        return size | (version << 24);
    }

    @Override
    public NativeAnswer<Integer> nvmlSystemGetNvlinkBwMode() {
        return intOut(v -> lib.nvmlSystemGetNvlinkBwMode(v));
    }

    @Override
    public NativeAnswer<BwModes> nvmlDeviceGetNvlinkSupportedBwModes(int device) {
        // version u32 @0, bwModes u8[23] @4, totalBwModes u8 @27 (28 bytes)
        Memory m = zeroed(28);
        m.setInt(0, structVersion(28, 1));
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetNvlinkSupportedBwModes(d, m), () -> {
            int total = m.getByte(27) & 0xff;
            List<Integer> modes = new ArrayList<>();
            for (int i = 0; i < Math.min(total, 23); i++) {
                modes.add(m.getByte(4 + i) & 0xff);
            }
            return new BwModes(modes, total);
        }));
    }

    @Override
    public NativeAnswer<BwMode> nvmlDeviceGetNvlinkBwMode(int device) {
        // version u32 @0, bIsBest u32 @4, bwMode u8 @8 (12 bytes)
        Memory m = zeroed(12);
        m.setInt(0, structVersion(12, 1));
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetNvlinkBwMode(d, m),
                () -> new BwMode(m.getInt(4) & 0xffffffffL, m.getByte(8) & 0xff)));
    }

    @Override
    public NativeAnswer<NvLinkInfo> nvmlDeviceGetNvLinkInfo(int device, int version) {
        // version u32 @0, isNvleEnabled u32 @4; v2: firmwareVersion[100] of {u8 ucodeType, u32 major, minor, subMinor}
        // (16 bytes each) @8, numValidEntries u32 @1608 (1612 bytes)
        int size = version >= 2 ? 1612 : 8;
        Memory m = zeroed(size);
        m.setInt(0, structVersion(size, version));
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetNvLinkInfo(d, m), () -> {
            List<FirmwareVersion> fw = null;
            if (version >= 2) {
                fw = new ArrayList<>();
                long n = m.getInt(1608) & 0xffffffffL;
                for (int i = 0; i < Math.min(n, 100); i++) {
                    long b = 8 + 16L * i;
                    fw.add(new FirmwareVersion(m.getByte(b) & 0xff, m.getInt(b + 4) & 0xffffffffL, m.getInt(b + 8) & 0xffffffffL,
                            m.getInt(b + 12) & 0xffffffffL));
                }
            }
            return new NvLinkInfo(version, m.getInt(4) & 0xffffffffL, fw);
        }));
    }

    @Override
    public NativeAnswer<FabricV4> nvmlDeviceGetGpuFabricInfo_v4(int device) {
        // clusterUuid[16] @0, status @16, cliques[64] of {u8 type, u32 id} @20, numCliques @532, state u8 @536,
        // healthMask @540, healthSummary u8 @544 (548 bytes). The buffer is larger, so a driver whose struct has grown
        // cannot write past it.
        Memory m = zeroed(4096);
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetGpuFabricInfo_v4(d, m), () -> {
            long n = m.getInt(532) & 0xffffffffL;
            List<Clique> cliques = new ArrayList<>();
            for (int i = 0; i < Math.min(n, 64); i++) {
                cliques.add(new Clique(m.getByte(20 + 8L * i) & 0xff, m.getInt(24 + 8L * i) & 0xffffffffL));
            }
            return new FabricV4(HexFormat.of().formatHex(m.getByteArray(0, 16)), m.getInt(16), cliques, n,
                    m.getByte(536) & 0xff, m.getInt(540) & 0xffffffffL, m.getByte(544) & 0xff);
        }));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetMaxClockInfo(int device, int clockType) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetMaxClockInfo(d, clockType, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetMemoryBusWidth(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetMemoryBusWidth(d, v)));
    }

    private NativeAnswer<Long> longOut(java.util.function.ToIntFunction<com.sun.jna.ptr.LongByReference> f) {
        com.sun.jna.ptr.LongByReference v = new com.sun.jna.ptr.LongByReference();
        return call(() -> f.applyAsInt(v), v::getValue);
    }

    @Override
    public NativeAnswer<Long> nvmlDeviceGetNvLinkErrorCounter(int device, int link, int counter) {
        return onDevice(device, d -> longOut(v -> lib.nvmlDeviceGetNvLinkErrorCounter(d, link, counter, v)));
    }

    @Override
    public NativeAnswer<int[]> nvmlDeviceGetEccMode(int device) {
        IntByReference cur = new IntByReference();
        IntByReference pending = new IntByReference();
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetEccMode(d, cur, pending),
                () -> new int[] {cur.getValue(), pending.getValue()}));
    }

    @Override
    public NativeAnswer<Long> nvmlDeviceGetTotalEccErrors(int device, int errorType, int counterType) {
        return onDevice(device, d -> longOut(v -> lib.nvmlDeviceGetTotalEccErrors(d, errorType, counterType, v)));
    }

    @Override
    public NativeAnswer<int[]> nvmlDeviceGetRemappedRows(int device) {
        IntByReference corr = new IntByReference();
        IntByReference unc = new IntByReference();
        IntByReference pending = new IntByReference();
        IntByReference failed = new IntByReference();
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetRemappedRows(d, corr, unc, pending, failed),
                () -> new int[] {corr.getValue(), unc.getValue(), pending.getValue(), failed.getValue()}));
    }

    /** Asks for the size first (count 0); when pages exist, asks again with room for them: the count is the answer. */
    @Override
    public NativeAnswer<Integer> nvmlDeviceGetRetiredPages_v2(int device, int cause) {
        return onDevice(device, d -> {
            IntByReference count = new IntByReference(0);
            NativeAnswer<Integer> first = call(() -> lib.nvmlDeviceGetRetiredPages_v2(d, cause, count, null, null), count::getValue);
            if (first.fault() != null || first.rc() != NvmlCodes.ERROR_INSUFFICIENT_SIZE) {
                return first;
            }
            int n = Math.max(0, Math.min(count.getValue(), 1 << 16));
            IntByReference room = new IntByReference(n);
            return call(() -> lib.nvmlDeviceGetRetiredPages_v2(d, cause, room, new long[Math.max(1, n)], new long[Math.max(1, n)]),
                    room::getValue);
        });
    }

    @Override
    public NativeAnswer<Long> nvmlDeviceGetCurrentClocksEventReasons(int device) {
        return onDevice(device, d -> longOut(v -> lib.nvmlDeviceGetCurrentClocksEventReasons(d, v)));
    }

    @Override
    public NativeAnswer<Long> nvmlDeviceGetCurrentClocksThrottleReasons(int device) {
        return onDevice(device, d -> longOut(v -> lib.nvmlDeviceGetCurrentClocksThrottleReasons(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetPowerManagementLimit(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetPowerManagementLimit(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetEnforcedPowerLimit(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetEnforcedPowerLimit(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetCurrPcieLinkGeneration(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetCurrPcieLinkGeneration(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetCurrPcieLinkWidth(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetCurrPcieLinkWidth(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetMaxPcieLinkGeneration(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetMaxPcieLinkGeneration(d, v)));
    }

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetMaxPcieLinkWidth(int device) {
        return onDevice(device, d -> intOut(v -> lib.nvmlDeviceGetMaxPcieLinkWidth(d, v)));
    }

    /** Bytes handed to {@code nvmlDeviceGetC2cModeInfoV}: its 4-byte struct, with room to spare should a driver grow it. */
    static final int C2C_MODE_BUFFER = 16;

    @Override
    public NativeAnswer<Integer> nvmlDeviceGetC2cModeInfoV(int device) {
        // isC2cEnabled u32 @0 (sizeof 4 by gcc on nvml.h 13.3.29: bench/nvml-c2c.c); the rest stays zero, unread
        Memory m = zeroed(C2C_MODE_BUFFER);
        return onDevice(device, d -> call(() -> lib.nvmlDeviceGetC2cModeInfoV(d, m), () -> m.getInt(0)));
    }

    private static Memory zeroed(long size) {
        Memory m = new Memory(size);
        m.clear();
        return m;
    }
}
