package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;

/** The CUDA driver readings the probe takes, by device ordinal; {@link CudaReader} takes them through the seam. */
public interface CudaReadings {
    Reading<String> driverVersion();

    Reading<Integer> deviceCount();

    Reading<PciAddress> pciBusId(int ordinal);

    Reading<Integer> attribute(int ordinal, int attribute);

    Reading<Boolean> canAccessPeer(int ordinal, int peerOrdinal);

    Reading<Integer> p2pAttribute(int ordinal, int peerOrdinal, int attribute);

    default Reading<Boolean> flag(int ordinal, int attribute) {
        return attribute(ordinal, attribute).map(v -> v != 0);
    }
}
