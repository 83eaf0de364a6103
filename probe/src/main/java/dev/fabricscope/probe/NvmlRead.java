package dev.fabricscope.probe;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.GpuHealth;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.Opened;
import dev.fabricscope.nativeapi.nvml.FabricDecoder;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.Nvml.NvmlDevice;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
import dev.fabricscope.topology.NvLinkSpecs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the probe reads from NVML, read in one go and NVML shut down after; {@link LiveProbe} joins it with what
 * CUDA read. {@code nvmlInit} waits for the whole of a running {@code cuInit} (docs/benchmarks.md, start-up round 2),
 * so NVML is opened first and {@code cuInit} started once it is open; the reads then run beside {@code cuInit}.
 */
record NvmlRead(Opened<Nvml> open, List<NvmlGpuRef> devices, Map<PciAddress, NvmlGpu> gpus,
                Map<List<PciAddress>, NvmlPair> pairs, Reading<String> driverVersion, Reading<String> nvmlVersion,
                Reading<String> cudaDriverVersion) {

    /** Reads all of NVML through {@code open} and shuts it down; an NVML that did not open reads as nothing. */
    static NvmlRead of(Opened<Nvml> open) {
        Nvml nvml = open.value();
        if (nvml == null) {
            return new NvmlRead(open, List.of(), Map.of(), Map.of(), null, null, null);
        }
        try {
            List<NvmlGpuRef> devices = nvmlDevices(nvml);
            Map<PciAddress, NvmlGpu> gpus = new HashMap<>();
            for (NvmlGpuRef d : devices) {
                gpus.put(d.pci, readNvmlGpu(nvml, d));
            }
            Map<List<PciAddress>, NvmlPair> pairs = readNvmlPairs(nvml, devices);
            return new NvmlRead(open, devices, gpus, pairs, nvml.driverVersion(), nvml.nvmlVersion(), nvml.cudaDriverVersion());
        } finally {
            nvml.close();
        }
    }

    record NvmlGpuRef(int index, NvmlDevice handle, PciAddress pci) {
    }

    /** What NVML says about one GPU. */
    record NvmlGpu(int index, Reading<String> uuid, Reading<String> name, Reading<String> serial,
                   Reading<String> architecture, Reading<String> computeCapability, Reading<Long> memory,
                   Reading<Integer> numa, Reading<String> cpuAffinity, Reading<String> mig, Reading<String> virt,
                   Reading<Boolean> persistence, LinkScan links, FabricInfo fabric, GpuHealth health,
                   dev.fabricscope.model.NvLinkSignals signals, dev.fabricscope.model.HostLink hostLink) {
    }

    /** What NVML says about one GPU pair. */
    record NvmlPair(Reading<String> pcie, Reading<String> read, Reading<String> write, Reading<String> nvlink,
                    Reading<String> atomics, Reading<String> prop) {
    }

    private static List<NvmlGpuRef> nvmlDevices(Nvml nvml) {
        List<NvmlGpuRef> out = new ArrayList<>();
        int n = nvml.deviceCount().orElse(0);
        for (int i = 0; i < n; i++) {
            Reading<NvmlDevice> h = nvml.handle(i);
            if (!h.isPresent()) {
                continue;
            }
            Reading<PciAddress> pci = nvml.pci(h.value());
            // Two devices answering one address would be one GPU twice: the first is kept.
            if (pci.isPresent() && out.stream().noneMatch(o -> o.pci.sameDevice(pci.value()))) {
                out.add(new NvmlGpuRef(i, h.value(), pci.value()));
            }
        }
        return out;
    }

    private static NvmlGpu readNvmlGpu(Nvml nvml, NvmlGpuRef d) {
        NvmlDevice h = d.handle;
        Reading<String> cc = nvml.computeCapability(h);
        // The host NUMA node nearest the GPU (nvidia-smi's "NUMA Affinity"). nvmlDeviceGetNumaNodeId names the GPU's
        // own memory node on Grace systems: kept as such (the host link), and only the fallback for the host node.
        Reading<Integer> numa = nvml.memoryAffinityNode(h);
        Reading<Integer> own = nvml.numaNodeId(h);
        if (!numa.isPresent() && own.isPresent()) {
            numa = own;
        }
        double ccNum = cc.isPresent() ? Double.parseDouble(cc.value()) : Double.NaN;
        LinkScan links = scanLinks(nvml, h, ccNum);
        FabricInfo fabric = FabricDecoder.decode(nvml.fabricInfo(h));
        return new NvmlGpu(d.index, nvml.uuid(h), nvml.name(h), nvml.serial(h), nvml.architecture(h), cc,
                nvml.memoryTotal(h), numa, nvml.cpuAffinity(h), nvml.migMode(h), nvml.virtualizationMode(h),
                nvml.persistenceMode(h), links, fabric, health(nvml, h), SignalProbe.read(nvml, h, links.links, fabric),
                HostLinkProbe.read(nvml, h, own));
    }

    /** ECC, remapped rows, retired pages, clocks events, power limits, PCIe link and recovery action: each on its own. */
    static GpuHealth health(Nvml nvml, NvmlDevice h) {
        Reading<boolean[]> ecc = nvml.eccMode(h);
        return new GpuHealth(ecc.map(v -> v[0]), ecc.map(v -> v[1]),
                nvml.totalEccErrors(h, false, false), nvml.totalEccErrors(h, true, false),
                nvml.totalEccErrors(h, false, true), nvml.totalEccErrors(h, true, true),
                nvml.remappedRows(h), nvml.retiredPages(h, 0), nvml.retiredPages(h, 1), nvml.clocksEventReasons(h),
                nvml.powerLimitWatts(h), nvml.enforcedPowerLimitWatts(h), nvml.pcieLink(h, false), nvml.pcieLink(h, true),
                nvml.recoveryAction(h));
    }

    private static Map<List<PciAddress>, NvmlPair> readNvmlPairs(Nvml nvml, List<NvmlGpuRef> devices) {
        Map<List<PciAddress>, NvmlPair> out = new HashMap<>();
        for (int i = 0; i < devices.size(); i++) {
            for (int j = i + 1; j < devices.size(); j++) {
                NvmlDevice a = devices.get(i).handle;
                NvmlDevice b = devices.get(j).handle;
                out.put(pairKey(devices.get(i).pci, devices.get(j).pci), new NvmlPair(nvml.commonAncestor(a, b),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_READ), nvml.p2pStatus(a, b, NvmlCodes.P2P_WRITE),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_NVLINK), nvml.p2pStatus(a, b, NvmlCodes.P2P_ATOMICS),
                        nvml.p2pStatus(a, b, NvmlCodes.P2P_PROP)));
            }
        }
        return out;
    }

    /** The key of a pair in {@link #pairs}: the lower address first. */
    static List<PciAddress> pairKey(PciAddress a, PciAddress b) {
        return a.compareTo(b) <= 0 ? List.of(a, b) : List.of(b, a);
    }

    /** A GPU's NVLink count and its links. */
    record LinkScan(Reading<Integer> count, List<NvLink> links) {
    }

    /**
     * Link count from {@code NVML_FI_DEV_NVLINK_LINK_COUNT} when the driver answers, else NCCL's per-architecture
     * maximum; an index past the device's links ({@code NVML_ERROR_INVALID_ARGUMENT}) ends the scan.
     */
    static LinkScan scanLinks(Nvml nvml, NvmlDevice h, double cc) {
        Reading<Long> fieldCount = nvml.fieldValues(h, new int[][] {{NvmlCodes.FI_NVLINK_LINK_COUNT, 0}}).get(0);
        if (fieldCount.isPresent() && (fieldCount.value() < 0 || fieldCount.value() > Nvml.MAX_LINKS)) {
            fieldCount = Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(NVML_FI_DEV_NVLINK_LINK_COUNT)",
                    String.valueOf(fieldCount.value()), "link count outside 0.." + Nvml.MAX_LINKS));
        }
        int limit = fieldCount.isPresent() ? fieldCount.value().intValue() : Math.min(Nvml.MAX_LINKS, NvLinkSpecs.maxLinks(cc));
        int generation = NvLinkSpecs.generation(cc);
        double gbps = NvLinkSpecs.gbpsPerLinkPerDirection(cc);
        List<NvLink> links = new ArrayList<>();
        for (int l = 0; l < limit; l++) {
            Reading<Boolean> active = nvml.nvLinkActive(h, l);
            if (!active.isPresent() && Integer.valueOf(NvmlCodes.ERROR_INVALID_ARGUMENT).equals(active.missing().codeValue())) {
                break;
            }
            Reading<Integer> gen = generation > 0 ? Reading.of(generation)
                    : Reading.missing(Missing.notApplicable("no NVLink generation known for compute capability " + cc));
            Reading<Double> bw = gbps > 0 ? Reading.of(gbps) : Reading.missing(Missing.notApplicable("no nominal bandwidth"));
            if (Boolean.TRUE.equals(active.value())) {
                links.add(new NvLink(l, active, nvml.nvLinkVersion(h, l), gen, nvml.nvLinkRemoteType(h, l),
                        nvml.nvLinkRemotePci(h, l), bw, null));
            } else {
                Missing why = active.isPresent() ? Missing.notApplicable("link inactive") : active.missing();
                links.add(new NvLink(l, active, Reading.missing(why), gen, Reading.missing(why), Reading.missing(why), bw));
            }
        }
        links = withErrors(nvml, h, withSpeeds(nvml, h, links));
        Reading<Integer> count;
        if (fieldCount.isPresent()) {
            count = Reading.of(fieldCount.value().intValue());
        } else if (links.stream().anyMatch(x -> x.active().isPresent())) {
            count = Reading.of((int) links.stream().filter(x -> x.active().isPresent()).count());
        } else {
            count = Reading.missing(fieldCount.missing());
        }
        return new LinkScan(count, links);
    }

    /** Every active link's speed in one {@code nvmlDeviceGetFieldValues} call (field 164, scope = link), as nvidia-smi reads it. */
    private static List<NvLink> withSpeeds(Nvml nvml, NvmlDevice h, List<NvLink> links) {
        List<NvLink> active = links.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
        if (active.isEmpty()) {
            return links;
        }
        int[][] fields = active.stream().map(l -> new int[] {NvmlCodes.FI_NVLINK_GET_SPEED, l.index()}).toArray(int[][]::new);
        List<Reading<Long>> speeds = nvml.fieldValues(h, fields);
        List<NvLink> out = new ArrayList<>();
        int k = 0;
        for (NvLink l : links) {
            if (Boolean.TRUE.equals(l.active().value())) {
                Reading<Long> v = speeds.get(k++);
                if (v.isPresent() && (v.value() <= 0 || v.value() > 10_000_000L)) {
                    v = Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(NVML_FI_DEV_NVLINK_GET_SPEED)", String.valueOf(v.value()),
                            "link speed outside 1..10,000,000 MB/s"));
                }
                out.add(new NvLink(l.index(), l.active(), l.versionCode(), l.generation(), l.remoteType(), l.remotePci(),
                        l.gbpsPerDirection(), v));
            } else {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * Each active link's error counters (0-4, as {@code nvidia-smi nvlink -e} and DCGM read them) and its data
     * throughput counters (fields 138/139, scope = link) in one field-values call.
     */
    private static List<NvLink> withErrors(Nvml nvml, NvmlDevice h, List<NvLink> links) {
        List<NvLink> active = links.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).toList();
        if (active.isEmpty()) {
            return links;
        }
        int[][] fields = new int[active.size() * 2][];
        for (int k = 0; k < active.size(); k++) {
            fields[2 * k] = new int[] {NvmlCodes.FI_NVLINK_THROUGHPUT_DATA_TX, active.get(k).index()};
            fields[2 * k + 1] = new int[] {NvmlCodes.FI_NVLINK_THROUGHPUT_DATA_RX, active.get(k).index()};
        }
        List<Reading<Long>> throughput = nvml.fieldValues(h, fields);
        List<NvLink> out = new ArrayList<>();
        int k = 0;
        for (NvLink l : links) {
            if (!Boolean.TRUE.equals(l.active().value())) {
                out.add(l);
                continue;
            }
            int i = l.index();
            Reading<Long> tx = nonNegative(throughput.get(2 * k), "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX");
            Reading<Long> rx = nonNegative(throughput.get(2 * k + 1), "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX");
            k++;
            out.add(l.withErrors(new NvLinkErrors(nvml.nvLinkErrorCounter(h, i, 0), nvml.nvLinkErrorCounter(h, i, 1),
                    nvml.nvLinkErrorCounter(h, i, 2), nvml.nvLinkErrorCounter(h, i, 3), nvml.nvLinkErrorCounter(h, i, 4), tx, rx)));
        }
        return out;
    }

    private static Reading<Long> nonNegative(Reading<Long> v, String field) {
        return v.isPresent() && v.value() < 0
                ? Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(" + field + ")", Long.toUnsignedString(v.value()), "counter beyond 2^63"))
                : v;
    }
}
