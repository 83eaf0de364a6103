package dev.fabricscope.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One NVLink's error counters ({@code nvmlDeviceGetNvLinkErrorCounter}, counters 0-4) and data throughput
 * ({@code NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX}, fields 138/139, scope = link, KiB since the driver loaded).
 * {@code nvidia-smi nvlink -e} prints only replay, recovery and CRC flit; CRC data and ECC data are read here too.
 */
public record NvLinkErrors(Reading<Long> replay, Reading<Long> recovery, Reading<Long> crcFlit, Reading<Long> crcData,
                           Reading<Long> eccData, Reading<Long> throughputTxKib, Reading<Long> throughputRxKib) {

    /** The counters by name, in {@code nvmlNvLinkErrorCounter_t} order. */
    public List<Counter> counters() {
        return List.of(new Counter("replay", replay), new Counter("recovery", recovery), new Counter("CRC flit", crcFlit),
                new Counter("CRC data", crcData), new Counter("ECC data", eccData));
    }

    /** Counters that read above zero, as {@code name=value}. */
    public List<String> nonZero() {
        List<String> out = new ArrayList<>();
        for (Counter c : counters()) {
            if (c.value().isPresent() && c.value().value() != 0) {
                out.add(c.name() + "=" + c.value().value());
            }
        }
        return out;
    }

    /** Replay or recovery errors: the counters that mean a link retrained or resent (CRC/ECC data are corrected). */
    public long serious() {
        return replay.orElse(0L) + recovery.orElse(0L);
    }

    public record Counter(String name, Reading<Long> value) {
    }
}
