package dev.fabricscope.nativeapi;

import com.sun.jna.Pointer;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.NvmlMemoryBandwidth;
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
    private final Map<PciAddress, Pointer> handles = new LinkedHashMap<>();

    private NvmlGpus(Nvml nvml, String failure) {
        this.nvml = nvml;
        this.failure = failure;
        if (nvml == null) {
            return;
        }
        int count = nvml.deviceCount().orElse(0);
        for (int k = 0; k < count; k++) {
            Pointer h = nvml.handle(k).orElse(null);
            PciAddress pci = h == null ? null : nvml.pci(h).orElse(null);
            if (pci != null) {
                handles.put(pci, h);
            }
        }
    }

    /** Opens NVML; when it cannot, every reading says why. */
    public static NvmlGpus open() {
        Nvml.Result r = Nvml.open();
        return new NvmlGpus(r.nvml(), r.nvml() == null ? "NVML: " + r.failure() : null);
    }

    /** The PCI addresses NVML lists, in its order. */
    public List<PciAddress> devices() {
        return new ArrayList<>(handles.keySet());
    }

    private Reading<Pointer> handle(PciAddress pci) {
        if (nvml == null) {
            return Reading.unavailable(failure);
        }
        for (Map.Entry<PciAddress, Pointer> e : handles.entrySet()) {
            if (e.getKey().sameDevice(pci)) {
                return Reading.of(e.getValue());
            }
        }
        return Reading.unavailable("no NVML device with PCI address " + pci);
    }

    /** Device-wide used memory ({@code nvmlDeviceGetMemoryInfo}), bytes. */
    public Reading<Long> usedBytes(PciAddress pci) {
        Reading<Pointer> h = handle(pci);
        return h.isPresent() ? nvml.memoryUsed(h.value()) : Reading.missing(h.missing());
    }

    public Reading<Nvml.FabricReading> fabricInfo(PciAddress pci) {
        Reading<Pointer> h = handle(pci);
        return h.isPresent() ? nvml.fabricInfo(h.value()) : Reading.missing(h.missing());
    }

    public Reading<NvmlMemoryBandwidth.Peak> memoryPeak(PciAddress pci) {
        Reading<Pointer> h = handle(pci);
        return h.isPresent() ? NvmlMemoryBandwidth.read(h.value()) : Reading.missing(h.missing());
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
