package dev.fabricscope.nativeapi.nvml;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.Opened;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Safe facade over the NVML seam ({@link NvmlCalls}): every call returns a {@link Reading} that names the call and
 * its {@code nvmlReturn_t} when it fails, a missing symbol (older driver) becomes "unsupported by driver X", and an
 * answer out of range becomes an {@link Missing.Kind#INVALID} reading that keeps the raw value. Never throws.
 */
public final class Nvml implements AutoCloseable {

    /** More GPUs than NVML can enumerate on one host (NVML_MAX_GPUS is far lower): a count above is not believed. */
    public static final int MAX_DEVICES = 4096;
    /** NVLinks per GPU; NVML_NVLINK_MAX_LINKS is 18 in R580 headers: leave room for later parts. */
    public static final int MAX_LINKS = 64;

    private final NvmlCalls calls;
    private final NativeReads reads;

    private Nvml(NvmlCalls calls) {
        this.calls = calls;
        this.reads = new NativeReads(NvmlCodes.SUCCESS, NvmlCodes.ERROR_NOT_SUPPORTED, NvmlCodes::returnName);
    }

    /** A device as NVML numbers it; the seam's backend holds the native handle. */
    public record NvmlDevice(int index) {
    }

    /** The driver's NVML, each call guarded by the default time-out. */
    public static Opened<Nvml> open() {
        return open(CallGuard.guard(NvmlCalls.class, "nvml", new JnaNvml(), CallGuard.defaultTimeout()));
    }

    /** Initialises NVML through an already loaded library (tests pass a fake one). */
    public static Opened<Nvml> initialise(NvmlLibrary lib) {
        return open(new JnaNvml(lib));
    }

    /** Loads and initialises NVML through the seam, or says in one line why it could not. */
    public static Opened<Nvml> open(NvmlCalls calls) {
        NativeAnswer<String> loaded = calls.load();
        if (loaded.fault() != null) {
            return Opened.notLoaded(loaded.detail() == null ? "libnvidia-ml.so.1 not loadable" : loaded.detail());
        }
        NativeAnswer<Void> init = calls.nvmlInit_v2();
        if (init.fault() != null) {
            return Opened.notInitialised("nvmlInit_v2: " + NativeReads.faultText(init), null);
        }
        if (init.rc() != NvmlCodes.SUCCESS) {
            NativeAnswer<String> text = calls.nvmlErrorString(init.rc());
            String words = text.succeeded() && text.value() != null ? ": " + text.value() : "";
            return Opened.notInitialised("nvmlInit_v2 → " + NvmlCodes.returnName(init.rc()) + " (" + init.rc() + ")" + words,
                    init.rc());
        }
        Nvml nvml = new Nvml(calls);
        nvml.reads.driverVersion(nvml.driverVersion().orElse(null));
        return Opened.of(nvml, init.rc());
    }

    public static Missing missing(String call, int rc) {
        String name = NvmlCodes.returnName(rc);
        return rc == NvmlCodes.ERROR_NOT_SUPPORTED ? Missing.unsupported(call, name, rc)
                : rc == NvmlCodes.ERROR_FUNCTION_NOT_FOUND
                ? new Missing(Missing.Kind.SYMBOL_MISSING, call, name, rc, null)
                : Missing.error(call, name, rc);
    }

    /** A call's reading; NVML's own {@code FUNCTION_NOT_FOUND} (13) reads as a missing entry point, as a missing symbol does. */
    private <T, R> Reading<R> read(String call, Supplier<NativeAnswer<T>> nativeCall, Function<T, R> decode) {
        Reading<R> r = reads.read(call, nativeCall, decode);
        Missing m = r.missing();
        if (m != null && m.kind() == Missing.Kind.ERROR && Integer.valueOf(NvmlCodes.ERROR_FUNCTION_NOT_FOUND).equals(m.codeValue())) {
            return Reading.missing(missing(call, NvmlCodes.ERROR_FUNCTION_NOT_FOUND));
        }
        return r;
    }

    // --- system ---

    public Reading<String> driverVersion() {
        return read("nvmlSystemGetDriverVersion", calls::nvmlSystemGetDriverVersion, NativeReads::text);
    }

    public Reading<String> nvmlVersion() {
        return read("nvmlSystemGetNVMLVersion", calls::nvmlSystemGetNVMLVersion, NativeReads::text);
    }

    /** {@code 13000} → {@code 13.0}. */
    public Reading<String> cudaDriverVersion() {
        return read("nvmlSystemGetCudaDriverVersion_v2", calls::nvmlSystemGetCudaDriverVersion_v2, NativeReads::cudaVersion);
    }

    public Reading<Integer> deviceCount() {
        return read("nvmlDeviceGetCount_v2", calls::nvmlDeviceGetCount_v2,
                n -> NativeReads.inRange(n, 0, MAX_DEVICES, "device count"));
    }

    public Reading<NvmlDevice> handle(int index) {
        return read("nvmlDeviceGetHandleByIndex_v2", () -> calls.nvmlDeviceGetHandleByIndex_v2(index), v -> new NvmlDevice(index));
    }

    // --- device identity ---

    public Reading<String> name(NvmlDevice d) {
        return read("nvmlDeviceGetName", () -> calls.nvmlDeviceGetName(d.index()), NativeReads::text);
    }

    public Reading<String> uuid(NvmlDevice d) {
        return read("nvmlDeviceGetUUID", () -> calls.nvmlDeviceGetUUID(d.index()), NativeReads::text);
    }

    public Reading<String> serial(NvmlDevice d) {
        return read("nvmlDeviceGetSerial", () -> calls.nvmlDeviceGetSerial(d.index()), NativeReads::text);
    }

    public Reading<String> computeCapability(NvmlDevice d) {
        return read("nvmlDeviceGetCudaComputeCapability", () -> calls.nvmlDeviceGetCudaComputeCapability(d.index()), v -> {
            NativeReads.length(v, 2, "{major, minor}");
            NativeReads.inRange(v[0], 1, 99, "compute capability major");
            NativeReads.inRange(v[1], 0, 99, "compute capability minor");
            return v[0] + "." + v[1];
        });
    }

    public Reading<String> architecture(NvmlDevice d) {
        return read("nvmlDeviceGetArchitecture", () -> calls.nvmlDeviceGetArchitecture(d.index()), NvmlCodes::architectureName);
    }

    public Reading<Long> memoryTotal(NvmlDevice d) {
        return read("nvmlDeviceGetMemoryInfo", () -> calls.nvmlDeviceGetMemoryInfo(d.index()),
                v -> NativeReads.nonNegative(NativeReads.length(v, 3, "{total, free, used}")[0], "total memory"));
    }

    /** Used framebuffer bytes (for the checks' memory-returns-to-baseline test). */
    public Reading<Long> memoryUsed(NvmlDevice d) {
        return read("nvmlDeviceGetMemoryInfo", () -> calls.nvmlDeviceGetMemoryInfo(d.index()),
                v -> NativeReads.nonNegative(NativeReads.length(v, 3, "{total, free, used}")[2], "used memory"));
    }

    public Reading<PciAddress> pci(NvmlDevice d) {
        return read("nvmlDeviceGetPciInfo_v3", () -> calls.nvmlDeviceGetPciInfo_v3(d.index()), Nvml::pciAddress);
    }

    /** Domain, bus and device as numbers (the text form of busId is only a fallback's source, never parsed here). */
    static PciAddress pciAddress(NvmlCalls.PciInfo p) {
        if (p.domain() > Integer.MAX_VALUE || p.domain() < 0 || p.bus() < 0 || p.bus() > 0xff || p.device() < 0 || p.device() > 0x1f) {
            throw new NativeReads.OutOfRange(rawPci(p), "not a PCI address (domain, bus or device out of range)");
        }
        return new PciAddress((int) p.domain(), (int) p.bus(), (int) p.device(), 0);
    }

    /** The answer as NVML printed it, e.g. {@code FFFFFFFF:FF:FF.0 (device id 0xFFFFFFFF)}. */
    static String rawPci(NvmlCalls.PciInfo p) {
        String busId = p.busId() == null || p.busId().isEmpty()
                ? String.format("%08X:%02X:%02X.0", p.domain(), p.bus(), p.device()) : p.busId();
        return busId + " (domain 0x" + Long.toHexString(p.domain()).toUpperCase() + ", bus 0x" + Long.toHexString(p.bus()).toUpperCase()
                + ", device 0x" + Long.toHexString(p.device()).toUpperCase() + ", device id 0x" + Long.toHexString(p.pciDeviceId()).toUpperCase() + ")";
    }

    public Reading<String> migMode(NvmlDevice d) {
        return read("nvmlDeviceGetMigMode", () -> calls.nvmlDeviceGetMigMode(d.index()), v -> {
            NativeReads.length(v, 2, "{current, pending}");
            String cur = migName(v[0]);
            return cur + (v[1] != v[0] ? " (pending " + migName(v[1]) + ")" : "");
        });
    }

    private static String migName(int mode) {
        return switch (mode) {
            case 0 -> "Disabled";
            case 1 -> "Enabled";
            default -> throw new NativeReads.OutOfRange(String.valueOf(mode), "MIG mode is 0 or 1");
        };
    }

    public Reading<Integer> numaNodeId(NvmlDevice d) {
        return read("nvmlDeviceGetNumaNodeId", () -> calls.nvmlDeviceGetNumaNodeId(d.index()),
                n -> NativeReads.inRange(n, 0, 1 << 16, "NUMA node"));
    }

    /** Host NUMA node nearest the GPU (memory affinity, node scope): the lowest set bit. */
    public Reading<Integer> memoryAffinityNode(NvmlDevice d) {
        return read("nvmlDeviceGetMemoryAffinity", () -> calls.nvmlDeviceGetMemoryAffinity(d.index(), 16, 0), set -> {
            List<Integer> bits = bits(set);
            if (bits.isEmpty()) {
                throw new NativeReads.OutOfRange("empty mask", "no NUMA node in the affinity mask");
            }
            return bits.get(0);
        });
    }

    public Reading<String> cpuAffinity(NvmlDevice d) {
        return read("nvmlDeviceGetCpuAffinity", () -> calls.nvmlDeviceGetCpuAffinity(d.index(), 64), set -> {
            List<Integer> bits = bits(set);
            if (bits.isEmpty()) {
                throw new NativeReads.OutOfRange("empty mask", "no CPU in the affinity mask");
            }
            return cpuList(bits);
        });
    }

    public Reading<String> virtualizationMode(NvmlDevice d) {
        return read("nvmlDeviceGetVirtualizationMode", () -> calls.nvmlDeviceGetVirtualizationMode(d.index()),
                NvmlCodes::virtualizationName);
    }

    public Reading<Boolean> persistenceMode(NvmlDevice d) {
        return read("nvmlDeviceGetPersistenceMode", () -> calls.nvmlDeviceGetPersistenceMode(d.index()),
                m -> NativeReads.flag(m, "persistence mode"));
    }

    static List<Integer> bits(long[] words) {
        List<Integer> out = new ArrayList<>();
        int limit = Math.min(words.length, 1024);
        for (int w = 0; w < limit; w++) {
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

    public Reading<Boolean> nvLinkActive(NvmlDevice d, int link) {
        return read("nvmlDeviceGetNvLinkState", () -> calls.nvmlDeviceGetNvLinkState(d.index(), link),
                v -> NativeReads.flag(v, "NVLink state"));
    }

    public Reading<Integer> nvLinkVersion(NvmlDevice d, int link) {
        return read("nvmlDeviceGetNvLinkVersion", () -> calls.nvmlDeviceGetNvLinkVersion(d.index(), link),
                v -> NativeReads.inRange(v, 0, 1000, "NVLink version code"));
    }

    public Reading<Boolean> nvLinkP2pSupported(NvmlDevice d, int link) {
        return read("nvmlDeviceGetNvLinkCapability",
                () -> calls.nvmlDeviceGetNvLinkCapability(d.index(), link, NvmlCodes.NVLINK_CAP_P2P_SUPPORTED), v -> v != 0);
    }

    public Reading<String> nvLinkRemoteType(NvmlDevice d, int link) {
        return read("nvmlDeviceGetNvLinkRemoteDeviceType", () -> calls.nvmlDeviceGetNvLinkRemoteDeviceType(d.index(), link), t -> {
            String name = NvmlCodes.remoteDeviceTypeName(t);
            if (name == null) {
                throw new NativeReads.OutOfRange(String.valueOf(t), "not an nvmlIntNvLinkDeviceType_t value");
            }
            return name;
        });
    }

    /**
     * Far end's PCI address. An all-ones answer ({@code FFFFFFFF:FF:FF.0}, what NVML gives for NVSwitches a VM does
     * not expose) and any other out-of-range address become a missing reading that keeps the raw answer.
     */
    public Reading<PciAddress> nvLinkRemotePci(NvmlDevice d, int link) {
        String call = "nvmlDeviceGetNvLinkRemotePciInfo_v2";
        return read(call, () -> calls.nvmlDeviceGetNvLinkRemotePciInfo_v2(d.index(), link), p -> {
            if (isAllOnes(p)) {
                throw new NativeReads.NotVisible(rawPci(p), HIDDEN_FAR_END);
            }
            return pciAddress(p);
        });
    }

    /** What a hidden far end's reading says; {@code Topology} recognises hidden switches by it. */
    public static final String HIDDEN_FAR_END = "far end's PCI address reads all-ones: the device is not visible from this OS (an NVSwitch inside a VM)";

    static boolean isAllOnes(NvmlCalls.PciInfo p) {
        return p.domain() == 0xffffffffL && p.bus() == 0xff && p.device() == 0xff
                || p.busId() != null && p.busId().toUpperCase().startsWith("FFFFFFFF:FF:FF");
    }

    /**
     * Reads scalar field values ({@code nvmlDeviceGetFieldValues}); each entry answers or fails on its own.
     *
     * @param fields pairs of {fieldId, scopeId}
     */
    public List<Reading<Long>> fieldValues(NvmlDevice d, int[][] fields) {
        String call = "nvmlDeviceGetFieldValues";
        Reading<List<NvmlCalls.FieldValue>> whole = read(call, () -> calls.nvmlDeviceGetFieldValues(d.index(), fields), v -> v);
        List<Reading<Long>> out = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            String fieldCall = call + "(field " + fields[i][0] + ", scope " + fields[i][1] + ")";
            if (!whole.isPresent()) {
                out.add(Reading.missing(whole.missing()));
                continue;
            }
            List<NvmlCalls.FieldValue> values = whole.value();
            NvmlCalls.FieldValue f = i < values.size() ? values.get(i) : null;
            if (f == null) {
                out.add(Reading.missing(Missing.invalid(fieldCall, values.size() + " entries", "no entry for this field in the answer")));
            } else if (f.nvmlReturn() != NvmlCodes.SUCCESS) {
                out.add(Reading.missing(missing(fieldCall, f.nvmlReturn())));
            } else {
                out.add(Reading.of(fieldValue(f)));
            }
        }
        return out;
    }

    /** The union decoded by {@code nvmlValueType_t}. */
    static long fieldValue(NvmlCalls.FieldValue f) {
        long bits = f.valueBits();
        return switch (f.valueType()) {
            case 0 -> (long) Double.longBitsToDouble(bits);
            case 1 -> bits & 0xffffffffL;
            case 5 -> (int) bits;
            case 6 -> bits & 0xffffL;
            default -> bits;
        };
    }

    // --- topology and P2P ---

    public Reading<String> commonAncestor(NvmlDevice a, NvmlDevice b) {
        return read("nvmlDeviceGetTopologyCommonAncestor", () -> calls.nvmlDeviceGetTopologyCommonAncestor(a.index(), b.index()),
                NvmlCodes::topologyLetter);
    }

    public Reading<String> p2pStatus(NvmlDevice a, NvmlDevice b, int capsIndex) {
        return read("nvmlDeviceGetP2PStatus", () -> calls.nvmlDeviceGetP2PStatus(a.index(), b.index(), capsIndex),
                NvmlCodes::p2pStatusLetter);
    }

    // --- memory bandwidth (for the P2P check's local peak) ---

    /** {@code nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM)}, MHz. */
    public Reading<Integer> maxMemoryClockMhz(NvmlDevice d) {
        return read("nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM)", () -> calls.nvmlDeviceGetMaxClockInfo(d.index(), 2),
                v -> NativeReads.inRange(v, 1, 1_000_000, "memory clock"));
    }

    public Reading<Integer> memoryBusWidthBits(NvmlDevice d) {
        return read("nvmlDeviceGetMemoryBusWidth", () -> calls.nvmlDeviceGetMemoryBusWidth(d.index()),
                v -> NativeReads.inRange(v, 1, 1_000_000, "memory bus width"));
    }

    // --- health (issue 19) ---

    /** Counter values are cumulative 64-bit counts: any unsigned value is a count, one past 2^63 is not believed. */
    private static long count(Long v, String what) {
        if (v == null || v < 0) {
            throw new NativeReads.OutOfRange(v == null ? "null" : Long.toUnsignedString(v), what + " beyond 2^63");
        }
        return v;
    }

    /** @param counter {@code nvmlNvLinkErrorCounter_t}: 0 replay, 1 recovery, 2 CRC flit, 3 CRC data, 4 ECC data */
    public Reading<Long> nvLinkErrorCounter(NvmlDevice d, int link, int counter) {
        return read("nvmlDeviceGetNvLinkErrorCounter", () -> calls.nvmlDeviceGetNvLinkErrorCounter(d.index(), link, counter),
                v -> count(v, "NVLink error counter"));
    }

    /** {current, pending} ECC mode. */
    public Reading<boolean[]> eccMode(NvmlDevice d) {
        return read("nvmlDeviceGetEccMode", () -> calls.nvmlDeviceGetEccMode(d.index()), v -> {
            NativeReads.length(v, 2, "{current, pending}");
            return new boolean[] {NativeReads.flag(v[0], "ECC mode"), NativeReads.flag(v[1], "pending ECC mode")};
        });
    }

    /** @param uncorrected error type 1, else 0; @param aggregate counter type 1 (lifetime), else 0 (volatile) */
    public Reading<Long> totalEccErrors(NvmlDevice d, boolean uncorrected, boolean aggregate) {
        return read("nvmlDeviceGetTotalEccErrors", () -> calls.nvmlDeviceGetTotalEccErrors(d.index(), uncorrected ? 1 : 0, aggregate ? 1 : 0),
                v -> count(v, "ECC error count"));
    }

    public Reading<dev.fabricscope.model.GpuHealth.RemappedRows> remappedRows(NvmlDevice d) {
        return read("nvmlDeviceGetRemappedRows", () -> calls.nvmlDeviceGetRemappedRows(d.index()), v -> {
            NativeReads.length(v, 4, "{correctable, uncorrectable, pending, failure}");
            return new dev.fabricscope.model.GpuHealth.RemappedRows(NativeReads.inRange(v[0], 0, 1 << 20, "remapped rows"),
                    NativeReads.inRange(v[1], 0, 1 << 20, "remapped rows"), NativeReads.flag(v[2], "remap pending"),
                    NativeReads.flag(v[3], "remap failure"));
        });
    }

    /** @param cause 0 multiple single-bit ECC errors, 1 double-bit ECC error */
    public Reading<Integer> retiredPages(NvmlDevice d, int cause) {
        return read("nvmlDeviceGetRetiredPages_v2", () -> calls.nvmlDeviceGetRetiredPages_v2(d.index(), cause),
                v -> NativeReads.inRange(v, 0, 1 << 16, "retired page count"));
    }

    /** The clocks event (throttle) reason mask; the pre-R535 name is asked when the driver lacks the new symbol. */
    public Reading<List<String>> clocksEventReasons(NvmlDevice d) {
        Reading<List<String>> r = read("nvmlDeviceGetCurrentClocksEventReasons",
                () -> calls.nvmlDeviceGetCurrentClocksEventReasons(d.index()), NvmlCodes::clocksEventReasonNames);
        if (!r.isPresent() && r.missing().kind() == Missing.Kind.SYMBOL_MISSING) {
            return read("nvmlDeviceGetCurrentClocksThrottleReasons", () -> calls.nvmlDeviceGetCurrentClocksThrottleReasons(d.index()),
                    NvmlCodes::clocksEventReasonNames);
        }
        return r;
    }

    /** Watts. */
    public Reading<Double> powerLimitWatts(NvmlDevice d) {
        return read("nvmlDeviceGetPowerManagementLimit", () -> calls.nvmlDeviceGetPowerManagementLimit(d.index()),
                mw -> NativeReads.inRange(mw, 1, 100_000_000, "power limit (mW)") / 1000.0);
    }

    public Reading<Double> enforcedPowerLimitWatts(NvmlDevice d) {
        return read("nvmlDeviceGetEnforcedPowerLimit", () -> calls.nvmlDeviceGetEnforcedPowerLimit(d.index()),
                mw -> NativeReads.inRange(mw, 1, 100_000_000, "power limit (mW)") / 1000.0);
    }

    /** {@code Gen5 x16}: the current (or, with {@code max}, the maximum) PCIe generation and width. */
    public Reading<String> pcieLink(NvmlDevice d, boolean max) {
        String genCall = max ? "nvmlDeviceGetMaxPcieLinkGeneration" : "nvmlDeviceGetCurrPcieLinkGeneration";
        String widthCall = max ? "nvmlDeviceGetMaxPcieLinkWidth" : "nvmlDeviceGetCurrPcieLinkWidth";
        Reading<Integer> gen = read(genCall, () -> max ? calls.nvmlDeviceGetMaxPcieLinkGeneration(d.index())
                : calls.nvmlDeviceGetCurrPcieLinkGeneration(d.index()), v -> NativeReads.inRange(v, 1, 16, "PCIe generation"));
        Reading<Integer> width = read(widthCall, () -> max ? calls.nvmlDeviceGetMaxPcieLinkWidth(d.index())
                : calls.nvmlDeviceGetCurrPcieLinkWidth(d.index()), v -> NativeReads.inRange(v, 1, 64, "PCIe width"));
        if (!gen.isPresent()) {
            return Reading.missing(gen.missing());
        }
        if (!width.isPresent()) {
            return Reading.missing(width.missing());
        }
        return Reading.of("Gen" + gen.value() + " x" + width.value());
    }

    /** {@code NVML_FI_DEV_GET_GPU_RECOVERY_ACTION} (field 230, R560+) by name. */
    public Reading<String> recoveryAction(NvmlDevice d) {
        Reading<Long> v = fieldValues(d, new int[][] {{NvmlCodes.FI_GET_GPU_RECOVERY_ACTION, 0}}).get(0);
        if (!v.isPresent()) {
            return Reading.missing(v.missing());
        }
        String name = NvmlCodes.recoveryActionName(v.value());
        return name != null ? Reading.of(name) : Reading.missing(Missing.invalid(
                "nvmlDeviceGetFieldValues(NVML_FI_DEV_GET_GPU_RECOVERY_ACTION)", String.valueOf(v.value()), "not an nvmlDeviceGpuRecoveryAction_t"));
    }

    // --- NVLink signals (issue 24) ---

    /**
     * {@code nvmlSystemGetNvlinkBwMode}, the machine-wide mode (nvml.h: Hopper or newer; what {@code nvidia-smi nvlink
     * -gBwMode} prints), named as the driver's in-band messages name the modes ({@code NVLINK_INBAND_BW_MODE_*},
     * NVIDIA/open-gpu-kernel-modules {@code nvlink_inband_msg.h}): {@code FULL (0)}.
     */
    public Reading<String> systemNvLinkBwMode() {
        return read("nvmlSystemGetNvlinkBwMode", calls::nvmlSystemGetNvlinkBwMode, v -> {
            String name = NvmlCodes.bwModeName(v);
            if (name == null) {
                throw new NativeReads.OutOfRange(String.valueOf(v), "not an NVLINK_INBAND_BW_MODE value (0 FULL .. 4 3QUARTER)");
            }
            return name + " (" + v + ")";
        });
    }

    /** {@code nvmlDeviceGetC2cModeInfoV}: whether NVLink-C2C to the host CPU is enabled (Grace superchips). */
    public Reading<Boolean> c2cMode(NvmlDevice d) {
        return read("nvmlDeviceGetC2cModeInfoV", () -> calls.nvmlDeviceGetC2cModeInfoV(d.index()),
                v -> NativeReads.flag(v, "isC2cEnabled"));
    }

    /** {@code nvmlDeviceGetNvlinkBwMode}: the reduced-bandwidth mode and whether it is the best. */
    public Reading<dev.fabricscope.model.NvLinkSignals.BwMode> nvLinkBwMode(NvmlDevice d) {
        return read("nvmlDeviceGetNvlinkBwMode", () -> calls.nvmlDeviceGetNvlinkBwMode(d.index()),
                v -> new dev.fabricscope.model.NvLinkSignals.BwMode(v.mode(), NativeReads.flag((int) v.isBest(), "bIsBest")));
    }

    /** {@code nvmlDeviceGetNvlinkSupportedBwModes}: at most {@code NVML_NVLINK_TOTAL_SUPPORTED_BW_MODES} (23). */
    public Reading<List<Integer>> nvLinkSupportedBwModes(NvmlDevice d) {
        return read("nvmlDeviceGetNvlinkSupportedBwModes", () -> calls.nvmlDeviceGetNvlinkSupportedBwModes(d.index()), v -> {
            NativeReads.inRange(v.total(), 0, 23, "totalBwModes");
            return List.copyOf(v.modes());
        });
    }

    /**
     * {@code nvmlDeviceGetNvLinkInfo} v2 (NVLE and firmware), v1 (NVLE only) when the driver refuses v2 with
     * {@code ARGUMENT_VERSION_MISMATCH}.
     */
    public Reading<NvmlCalls.NvLinkInfo> nvLinkInfo(NvmlDevice d) {
        Reading<NvmlCalls.NvLinkInfo> r = null;
        for (int version : new int[] {2, 1}) {
            r = read("nvmlDeviceGetNvLinkInfo", () -> calls.nvmlDeviceGetNvLinkInfo(d.index(), version), v -> {
                NativeReads.flag((int) v.nvleEnabled(), "isNvleEnabled");
                return v;
            });
            if (r.isPresent() || !Integer.valueOf(NvmlCodes.ERROR_ARGUMENT_VERSION_MISMATCH).equals(r.missing().codeValue())) {
                return r;
            }
        }
        return r;
    }

    /** The firmware entries as {@code MSE 14.4.0}; an unknown ucode type is kept as its number. */
    public static List<String> firmwareNames(List<NvmlCalls.FirmwareVersion> fw) {
        List<String> out = new ArrayList<>();
        for (NvmlCalls.FirmwareVersion f : fw) {
            String type = NvmlCodes.ucodeTypeName(f.ucodeType());
            out.add((type == null ? "ucode type " + f.ucodeType() : type) + " " + f.major() + "." + f.minor() + "." + f.subMinor());
        }
        return out;
    }

    /** {@code nvmlDeviceGetGpuFabricInfo_v4}'s cliques as {@code type 0: 0x7ffe} (the type names' values are not in a header read). */
    public Reading<List<String>> fabricCliques(NvmlDevice d) {
        return read("nvmlDeviceGetGpuFabricInfo_v4", () -> calls.nvmlDeviceGetGpuFabricInfo_v4(d.index()), v -> {
            NativeReads.inRange((int) Math.min(v.numCliques(), Integer.MAX_VALUE), 0, 64, "numCliques");
            List<String> out = new ArrayList<>();
            for (NvmlCalls.Clique c : v.cliques()) {
                out.add("type " + c.type() + ": 0x" + Long.toHexString(c.id()));
            }
            return out;
        });
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
    public Reading<FabricReading> fabricInfo(NvmlDevice d) {
        for (int version : new int[] {3, 2}) {
            String call = "nvmlDeviceGetGpuFabricInfoV";
            Reading<FabricReading> r = read(call, () -> calls.nvmlDeviceGetGpuFabricInfoV(d.index(), version),
                    f -> fabric(call + " v" + version, f));
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
        }
        String call = "nvmlDeviceGetGpuFabricInfo";
        return read(call, () -> calls.nvmlDeviceGetGpuFabricInfo(d.index()), f -> fabric(call, f));
    }

    private static FabricReading fabric(String api, NvmlCalls.FabricStruct f) {
        byte[] uuid;
        try {
            uuid = HexFormat.of().parseHex(f.clusterUuid() == null ? "" : f.clusterUuid());
        } catch (IllegalArgumentException e) {
            throw new NativeReads.OutOfRange(String.valueOf(f.clusterUuid()), "cluster UUID is not hex");
        }
        if (uuid.length != 16) {
            throw new NativeReads.OutOfRange(String.valueOf(f.clusterUuid()), "cluster UUID is not 16 bytes");
        }
        return new FabricReading(api, f.state(), f.status(), f.cliqueId(), uuid, f.healthMask(), f.healthSummary());
    }

    @Override
    public void close() {
        calls.nvmlShutdown();
    }
}
