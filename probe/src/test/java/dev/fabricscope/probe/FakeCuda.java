package dev.fabricscope.probe;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.cuda.CudaReadings;
import java.util.List;
import java.util.Map;

/** A CUDA driver for tests: devices in the order given (CUDA's order, not NVML's), attributes per device. */
final class FakeCuda implements CudaReadings {

    private final List<String> pciByOrdinal;
    private final Map<Integer, Integer> attributes;

    FakeCuda(List<String> pciByOrdinal, Map<Integer, Integer> attributes) {
        this.pciByOrdinal = pciByOrdinal;
        this.attributes = attributes;
    }

    @Override public Reading<String> driverVersion() { return Reading.of("13.0"); }
    @Override public Reading<Integer> deviceCount() { return Reading.of(pciByOrdinal.size()); }
    @Override public Reading<PciAddress> pciBusId(int ordinal) { return Reading.of(PciAddress.parse(pciByOrdinal.get(ordinal))); }

    @Override
    public Reading<Integer> attribute(int ordinal, int attribute) {
        if (attribute == 16) {
            return Reading.of(100 + ordinal);          // SM count encodes the ordinal, to check the PCI join
        }
        Integer v = attributes.get(attribute);
        return v != null ? Reading.of(v)
                : Reading.missing(Missing.error("cuDeviceGetAttribute(" + attribute + ")", "CUDA_ERROR_INVALID_VALUE", 1));
    }

    @Override public Reading<Boolean> canAccessPeer(int a, int b) { return Reading.of(true); }
    @Override public Reading<Integer> p2pAttribute(int a, int b, int attribute) { return Reading.of(attribute == 1 ? 0 : 1); }
}
