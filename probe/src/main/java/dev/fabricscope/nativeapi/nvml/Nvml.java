package dev.fabricscope.nativeapi.nvml;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Safe facade over {@link NvmlLibrary}: every call returns a {@link Reading} that names the call and its
 * {@code nvmlReturn_t} when it fails, and a missing symbol (older driver) becomes "unsupported by driver X".
 */
public final class Nvml implements AutoCloseable {

    private static final String[] LIBRARY_NAMES = {"libnvidia-ml.so.1", "nvidia-ml"};

    private final NvmlLibrary lib;
    private String driverVersion;

    private Nvml(NvmlLibrary lib) {
        this.lib = lib;
    }

    /** Loads and initialises NVML, or says in one line why it could not. */
    public static Result open() {
        NvmlLibrary lib = null;
        StringBuilder why = new StringBuilder();
        for (String name : LIBRARY_NAMES) {
            try {
                lib = Native.load(name, NvmlLibrary.class);
                break;
            } catch (LinkageError e) {
                if (why.length() == 0) {
                    why.append(firstLine(e.getMessage()));
                }
            }
        }
        if (lib == null) {
            return new Result(null, false, why.toString());
        }
        return initialise(lib);
    }

    /** Initialises NVML through an already loaded library (tests pass a fake one). */
    public static Result initialise(NvmlLibrary lib) {
        int rc;
        try {
            rc = lib.nvmlInit_v2();
        } catch (LinkageError e) {
            return new Result(null, true, "nvmlInit_v2 missing from libnvidia-ml: " + firstLine(e.getMessage()));
        }
        if (rc != NvmlCodes.SUCCESS) {
            return new Result(null, true, "nvmlInit_v2 → " + NvmlCodes.returnName(rc) + " (" + rc + ")"
                    + errorString(lib, rc));
        }
        Nvml nvml = new Nvml(lib);
        nvml.driverVersion = nvml.driverVersion().orElse(null);
        return new Result(nvml, true, null);
    }

    /**
     * @param nvml          the opened facade, or null
     * @param libraryLoaded whether the library file was found (false = no driver at all)
     * @param failure       why it could not be opened
     */
    public record Result(Nvml nvml, boolean libraryLoaded, String failure) {
    }

    /** The loader's useful line: the one that says why the shared object could not be opened. */
    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        String[] lines = s.split("\n");
        for (String line : lines) {
            if (line.contains("cannot open shared object") || line.contains("undefined symbol") || line.contains("wrong ELF")) {
                return line.trim();
            }
        }
        return lines[0].trim();
    }

    private static String errorString(NvmlLibrary lib, int rc) {
        try {
            String s = lib.nvmlErrorString(rc);
            return s == null ? "" : ": " + s;
        } catch (LinkageError e) {
            return "";
        }
    }

    @FunctionalInterface
    private interface NativeCall {
        int invoke();
    }

    /** Runs one NVML call; on success maps its outputs, else records why. */
    private <T> Reading<T> read(String call, NativeCall nativeCall, java.util.function.Supplier<T> value) {
        int rc;
        try {
            rc = nativeCall.invoke();
        } catch (UnsatisfiedLinkError e) {
            return Reading.missing(Missing.symbolMissing(call, driverVersion));
        } catch (RuntimeException | Error e) {
            return Reading.missing(new Missing(Missing.Kind.ERROR, call, null, null, e.toString()));
        }
        if (rc == NvmlCodes.SUCCESS) {
            T v = value.get();
            return v == null ? Reading.missing(new Missing(Missing.Kind.ERROR, call, null, null, "empty answer"))
                    : Reading.of(v);
        }
        return Reading.missing(missing(call, rc));
    }

    public static Missing missing(String call, int rc) {
        String name = NvmlCodes.returnName(rc);
        return rc == NvmlCodes.ERROR_NOT_SUPPORTED ? Missing.unsupported(call, name, rc)
                : rc == NvmlCodes.ERROR_FUNCTION_NOT_FOUND
                ? new Missing(Missing.Kind.SYMBOL_MISSING, call, name, rc, null)
                : Missing.error(call, name, rc);
    }

    private static String cString(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.UTF_8).trim();
    }

    private Reading<String> string(String call, int size, java.util.function.ToIntFunction<byte[]> f) {
        byte[] buf = new byte[size];
        return read(call, () -> f.applyAsInt(buf), () -> cString(buf));
    }

    // --- system ---

    public Reading<String> driverVersion() {
        return string("nvmlSystemGetDriverVersion", 80, b -> lib.nvmlSystemGetDriverVersion(b, b.length));
    }

    public Reading<String> nvmlVersion() {
        return string("nvmlSystemGetNVMLVersion", 80, b -> lib.nvmlSystemGetNVMLVersion(b, b.length));
    }

    /** {@code 13000} → {@code 13.0}. */
    public Reading<String> cudaDriverVersion() {
        IntByReference v = new IntByReference();
        return read("nvmlSystemGetCudaDriverVersion_v2", () -> lib.nvmlSystemGetCudaDriverVersion_v2(v),
                () -> (v.getValue() / 1000) + "." + (v.getValue() % 1000) / 10);
    }

    public Reading<Integer> deviceCount() {
        IntByReference n = new IntByReference();
        return read("nvmlDeviceGetCount_v2", () -> lib.nvmlDeviceGetCount_v2(n), n::getValue);
    }

    public Reading<Pointer> handle(int index) {
        PointerByReference p = new PointerByReference();
        return read("nvmlDeviceGetHandleByIndex_v2", () -> lib.nvmlDeviceGetHandleByIndex_v2(index, p), p::getValue);
    }

    // --- device identity ---

    public Reading<String> name(Pointer d) {
        return string("nvmlDeviceGetName", 96, b -> lib.nvmlDeviceGetName(d, b, b.length));
    }

    public Reading<String> uuid(Pointer d) {
        return string("nvmlDeviceGetUUID", 96, b -> lib.nvmlDeviceGetUUID(d, b, b.length));
    }

    public Reading<String> serial(Pointer d) {
        return string("nvmlDeviceGetSerial", 30, b -> lib.nvmlDeviceGetSerial(d, b, b.length));
    }

    public Reading<String> computeCapability(Pointer d) {
        IntByReference major = new IntByReference();
        IntByReference minor = new IntByReference();
        return read("nvmlDeviceGetCudaComputeCapability", () -> lib.nvmlDeviceGetCudaComputeCapability(d, major, minor),
                () -> major.getValue() + "." + minor.getValue());
    }

    public Reading<String> architecture(Pointer d) {
        IntByReference a = new IntByReference();
        return read("nvmlDeviceGetArchitecture", () -> lib.nvmlDeviceGetArchitecture(d, a),
                () -> NvmlCodes.architectureName(a.getValue()));
    }

    public Reading<Long> memoryTotal(Pointer d) {
        Memory m = new Memory(24);
        m.clear();
        return read("nvmlDeviceGetMemoryInfo", () -> lib.nvmlDeviceGetMemoryInfo(d, m), () -> m.getLong(0));
    }

    /** Used framebuffer bytes (for the checks' memory-returns-to-baseline test). */
    public Reading<Long> memoryUsed(Pointer d) {
        Memory m = new Memory(24);
        m.clear();
        return read("nvmlDeviceGetMemoryInfo", () -> lib.nvmlDeviceGetMemoryInfo(d, m), () -> m.getLong(16));
    }

    public Reading<PciAddress> pci(Pointer d) {
        Memory m = new Memory(68);
        m.clear();
        return read("nvmlDeviceGetPciInfo_v3", () -> lib.nvmlDeviceGetPciInfo_v3(d, m), () -> pciFrom(m));
    }

    /** Reads domain/bus/device numerically (offsets 16/20/24 of nvmlPciInfo_t). */
    static PciAddress pciFrom(Memory m) {
        return new PciAddress(m.getInt(16), m.getInt(20) & 0xff, m.getInt(24) & 0x1f, 0);
    }

    public Reading<String> migMode(Pointer d) {
        IntByReference cur = new IntByReference();
        IntByReference pending = new IntByReference();
        return read("nvmlDeviceGetMigMode", () -> lib.nvmlDeviceGetMigMode(d, cur, pending),
                () -> (cur.getValue() == 1 ? "Enabled" : "Disabled")
                        + (pending.getValue() != cur.getValue() ? " (pending " + (pending.getValue() == 1 ? "Enabled" : "Disabled") + ")" : ""));
    }

    public Reading<Integer> numaNodeId(Pointer d) {
        IntByReference n = new IntByReference();
        return read("nvmlDeviceGetNumaNodeId", () -> lib.nvmlDeviceGetNumaNodeId(d, n), n::getValue);
    }

    /** Host NUMA node nearest the GPU (memory affinity, node scope): the lowest set bit. */
    public Reading<Integer> memoryAffinityNode(Pointer d) {
        long[] set = new long[16];
        return read("nvmlDeviceGetMemoryAffinity", () -> lib.nvmlDeviceGetMemoryAffinity(d, set.length, set, 0),
                () -> {
                    List<Integer> bits = bits(set);
                    return bits.isEmpty() ? null : bits.get(0);
                });
    }

    public Reading<String> cpuAffinity(Pointer d) {
        long[] set = new long[64];
        return read("nvmlDeviceGetCpuAffinity", () -> lib.nvmlDeviceGetCpuAffinity(d, set.length, set),
                () -> cpuList(bits(set)));
    }

    public Reading<String> virtualizationMode(Pointer d) {
        IntByReference m = new IntByReference();
        return read("nvmlDeviceGetVirtualizationMode", () -> lib.nvmlDeviceGetVirtualizationMode(d, m),
                () -> NvmlCodes.virtualizationName(m.getValue()));
    }

    public Reading<Boolean> persistenceMode(Pointer d) {
        IntByReference m = new IntByReference();
        return read("nvmlDeviceGetPersistenceMode", () -> lib.nvmlDeviceGetPersistenceMode(d, m), () -> m.getValue() == 1);
    }

    static List<Integer> bits(long[] words) {
        List<Integer> out = new ArrayList<>();
        for (int w = 0; w < words.length; w++) {
            for (int b = 0; b < 64; b++) {
                if ((words[w] >>> b & 1L) != 0) {
                    out.add(w * 64 + b);
                }
            }
        }
        return out;
    }

    /** {@code [0,1,2,3,8]} → {@code 0-3,8}. */
    public static String cpuList(List<Integer> cpus) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < cpus.size()) {
            int start = cpus.get(i);
            int end = start;
            while (i + 1 < cpus.size() && cpus.get(i + 1) == end + 1) {
                end = cpus.get(++i);
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(start);
            if (end != start) {
                sb.append('-').append(end);
            }
            i++;
        }
        return sb.toString();
    }

    // --- NVLink ---

    public Reading<Boolean> nvLinkActive(Pointer d, int link) {
        IntByReference a = new IntByReference();
        return read("nvmlDeviceGetNvLinkState", () -> lib.nvmlDeviceGetNvLinkState(d, link, a), () -> a.getValue() == 1);
    }

    public Reading<Integer> nvLinkVersion(Pointer d, int link) {
        IntByReference v = new IntByReference();
        return read("nvmlDeviceGetNvLinkVersion", () -> lib.nvmlDeviceGetNvLinkVersion(d, link, v), v::getValue);
    }

    public Reading<Boolean> nvLinkP2pSupported(Pointer d, int link) {
        IntByReference v = new IntByReference();
        return read("nvmlDeviceGetNvLinkCapability",
                () -> lib.nvmlDeviceGetNvLinkCapability(d, link, NvmlCodes.NVLINK_CAP_P2P_SUPPORTED, v), () -> v.getValue() != 0);
    }

    public Reading<String> nvLinkRemoteType(Pointer d, int link) {
        IntByReference t = new IntByReference();
        return read("nvmlDeviceGetNvLinkRemoteDeviceType", () -> lib.nvmlDeviceGetNvLinkRemoteDeviceType(d, link, t),
                () -> NvmlCodes.remoteDeviceTypeName(t.getValue()));
    }

    /** Far end's PCI address; an empty or unprintable busId (switch hidden in a VM) is reported as missing. */
    public Reading<PciAddress> nvLinkRemotePci(Pointer d, int link) {
        Memory m = new Memory(68);
        m.clear();
        String call = "nvmlDeviceGetNvLinkRemotePciInfo_v2";
        Reading<Memory> r = read(call, () -> lib.nvmlDeviceGetNvLinkRemotePciInfo_v2(d, link, m), () -> m);
        if (!r.isPresent()) {
            return Reading.missing(r.missing());
        }
        byte[] busId = m.getByteArray(36, 32);
        String text = cString(busId);
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return Reading.missing(new Missing(Missing.Kind.NOT_APPLICABLE, call, null, null,
                    "far end has no PCI address (switch not visible to this OS)"));
        }
        try {
            return Reading.of(PciAddress.parse(text));
        } catch (IllegalArgumentException e) {
            return Reading.of(pciFrom(m));
        }
    }

    /**
     * Reads scalar field values ({@code nvmlDeviceGetFieldValues}); each entry answers or fails on its own.
     *
     * @param fields pairs of {fieldId, scopeId}
     */
    public List<Reading<Long>> fieldValues(Pointer d, int[][] fields) {
        Memory m = new Memory(40L * fields.length);
        m.clear();
        for (int i = 0; i < fields.length; i++) {
            m.setInt(40L * i, fields[i][0]);
            m.setInt(40L * i + 4, fields[i][1]);
        }
        String call = "nvmlDeviceGetFieldValues";
        Reading<Memory> whole = read(call, () -> lib.nvmlDeviceGetFieldValues(d, fields.length, m), () -> m);
        List<Reading<Long>> out = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            if (!whole.isPresent()) {
                out.add(Reading.missing(whole.missing()));
                continue;
            }
            long base = 40L * i;
            int rc = m.getInt(base + 28);
            String fieldCall = call + "(field " + fields[i][0] + ", scope " + fields[i][1] + ")";
            if (rc != NvmlCodes.SUCCESS) {
                out.add(Reading.missing(missing(fieldCall, rc)));
                continue;
            }
            int type = m.getInt(base + 24);
            long v = switch (type) {
                case 0 -> (long) m.getDouble(base + 32);
                case 1 -> m.getInt(base + 32) & 0xffffffffL;
                case 5 -> m.getInt(base + 32);
                case 6 -> m.getShort(base + 32) & 0xffffL;
                default -> m.getLong(base + 32);
            };
            out.add(Reading.of(v));
        }
        return out;
    }

    // --- topology and P2P ---

    public Reading<String> commonAncestor(Pointer a, Pointer b) {
        IntByReference l = new IntByReference();
        return read("nvmlDeviceGetTopologyCommonAncestor", () -> lib.nvmlDeviceGetTopologyCommonAncestor(a, b, l),
                () -> NvmlCodes.topologyLetter(l.getValue()));
    }

    public Reading<String> p2pStatus(Pointer a, Pointer b, int capsIndex) {
        IntByReference s = new IntByReference();
        return read("nvmlDeviceGetP2PStatus", () -> lib.nvmlDeviceGetP2PStatus(a, b, capsIndex, s),
                () -> NvmlCodes.p2pStatusLetter(s.getValue()));
    }

    // --- GPU fabric (MNNVL) ---

    /** Raw fabric reading, decoded from whichever struct version the driver accepted. */
    public record FabricReading(String api, int state, int status, long cliqueId, byte[] clusterUuid,
                                Long healthMask, Integer healthSummary) {
    }

    /**
     * Tries {@code nvmlDeviceGetGpuFabricInfoV} with v3 (R580+), then v2, then the older unversioned call.
     * Returns the last failure when none answers.
     */
    public Reading<FabricReading> fabricInfo(Pointer d) {
        Map<String, Missing> failures = new HashMap<>();
        for (int version : new int[] {3, 2}) {
            int size = version == 3 ? 40 : 36;
            Memory m = new Memory(size);
            m.clear();
            m.setInt(0, size | (version << 24));
            String call = "nvmlDeviceGetGpuFabricInfoV";
            Reading<FabricReading> r = read(call, () -> lib.nvmlDeviceGetGpuFabricInfoV(d, m), () -> new FabricReading(
                    call + " v" + version, m.getByte(28) & 0xff, m.getInt(20), m.getInt(24) & 0xffffffffL,
                    m.getByteArray(4, 16), m.getInt(32) & 0xffffffffL, version == 3 ? (m.getByte(36) & 0xff) : null));
            if (r.isPresent()) {
                return r;
            }
            Missing why = r.missing();
            if (why.kind() == Missing.Kind.SYMBOL_MISSING) {
                break;
            }
            if (!Integer.valueOf(NvmlCodes.ERROR_ARGUMENT_VERSION_MISMATCH).equals(why.codeValue())) {
                return r;
            }
            failures.put(call, why);
        }
        Memory m = new Memory(28);
        m.clear();
        String call = "nvmlDeviceGetGpuFabricInfo";
        return read(call, () -> lib.nvmlDeviceGetGpuFabricInfo(d, m), () -> new FabricReading(
                call, m.getByte(24) & 0xff, m.getInt(16), m.getInt(20) & 0xffffffffL, m.getByteArray(0, 16), null, null));
    }


    @Override
    public void close() {
        try {
            lib.nvmlShutdown();
        } catch (LinkageError ignored) {
            // nothing to release
        }
    }
}
