package dev.fabricscope.nativeapi.nvml;

import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.Opened;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NVML readings the live checks take, keyed by PCI address so that callers never hold an NVML handle: device-wide
 * used memory (the memory audit), the fabric state (FlashInfer's test) and the DRAM peak. No CUDA context is created.
 */
public final class NvmlGpus implements AutoCloseable {

    private final Nvml nvml;
    private final String failure;
    private final Map<PciAddress, Nvml.NvmlDevice> handles = new LinkedHashMap<>();

    private NvmlGpus(Nvml nvml, String failure) {
        this.nvml = nvml;
        this.failure = failure;
        if (nvml == null) {
            return;
        }
        int count = nvml.deviceCount().orElse(0);
        for (int k = 0; k < count; k++) {
            Nvml.NvmlDevice h = nvml.handle(k).orElse(null);
            PciAddress pci = h == null ? null : nvml.pci(h).orElse(null);
            if (pci != null) {
                handles.put(pci, h);
            }
        }
    }

    /** Opens NVML; when it cannot, every reading says why. */
    public static NvmlGpus open() {
        return of(Nvml.open());
    }

    /** Opens NVML through a seam (the driver, or a trace being recorded or replayed). */
    public static NvmlGpus open(NvmlCalls calls) {
        return of(Nvml.open(calls));
    }

    private static NvmlGpus of(Opened<Nvml> r) {
        return new NvmlGpus(r.value(), r.isOpen() ? null : "NVML: " + r.failure());
    }

    /** The PCI addresses NVML lists, in its order. */
    public List<PciAddress> devices() {
        return new ArrayList<>(handles.keySet());
    }

    private Reading<Nvml.NvmlDevice> handle(PciAddress pci) {
        if (nvml == null) {
            return Reading.unavailable(failure);
        }
        for (Map.Entry<PciAddress, Nvml.NvmlDevice> e : handles.entrySet()) {
            if (e.getKey().sameDevice(pci)) {
                return Reading.of(e.getValue());
            }
        }
        return Reading.unavailable("no NVML device with PCI address " + pci);
    }

    /** Device-wide used memory ({@code nvmlDeviceGetMemoryInfo}), bytes. */
    public Reading<Long> usedBytes(PciAddress pci) {
        Reading<Nvml.NvmlDevice> h = handle(pci);
        return h.isPresent() ? nvml.memoryUsed(h.value()) : Reading.missing(h.missing());
    }

    public Reading<Nvml.FabricReading> fabricInfo(PciAddress pci) {
        Reading<Nvml.NvmlDevice> h = handle(pci);
        return h.isPresent() ? nvml.fabricInfo(h.value()) : Reading.missing(h.missing());
    }

    /**
     * Peak DRAM bandwidth: 2 (double data rate) × maximum memory clock × bus width / 8 (H100 SXM: 2619 MHz, 5120 bit →
     * 3.35 TB/s, the datasheet figure).
     */
    public record Peak(int memoryClockMhz, int busWidthBits, double bytesPerSecond) {
        public static double bytesPerSecond(int memoryClockMhz, int busWidthBits) {
            return 2.0 * memoryClockMhz * 1e6 * busWidthBits / 8.0;
        }
    }

    public Reading<Peak> memoryPeak(PciAddress pci) {
        Reading<Nvml.NvmlDevice> h = handle(pci);
        if (!h.isPresent()) {
            return Reading.missing(h.missing());
        }
        Reading<Integer> mhz = nvml.maxMemoryClockMhz(h.value());
        Reading<Integer> bits = nvml.memoryBusWidthBits(h.value());
        if (!mhz.isPresent() || !bits.isPresent()) {
            return Reading.missing((mhz.isPresent() ? bits : mhz).missing());
        }
        return Reading.of(new Peak(mhz.value(), bits.value(), Peak.bytesPerSecond(mhz.value(), bits.value())));
    }

    public boolean available() {
        return nvml != null;
    }

    @Override
    public void close() {
        if (nvml != null) {
            nvml.close();
        }
    }
}
