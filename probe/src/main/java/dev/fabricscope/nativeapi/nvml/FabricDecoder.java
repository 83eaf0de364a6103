package dev.fabricscope.nativeapi.nvml;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Reading;

/** Turns NVML's raw GPU fabric struct into readings. */
public final class FabricDecoder {
    private FabricDecoder() {
    }

    public static FabricInfo decode(Reading<Nvml.FabricReading> r) {
        if (!r.isPresent()) {
            return FabricInfo.unanswered(r.missing());
        }
        Nvml.FabricReading f = r.value();
        if (f.state() == 0) {
            // The call answered, but this GPU is not part of an NVLink fabric: the other fields mean nothing.
            return FabricInfo.outsideFabric(f.api(), NvmlCodes.returnName(f.status()));
        }
        String state = NvmlCodes.FABRIC_STATES.getOrDefault(f.state(), "UNKNOWN(" + f.state() + ")");
        Reading<Long> health = f.healthMask() == null
                ? Reading.missing(Missing.notApplicable("health mask needs nvmlGpuFabricInfo v2+ (" + f.api() + " answered)"))
                : Reading.of(f.healthMask());
        Reading<String> summary = f.healthSummary() == null
                ? Reading.missing(Missing.notApplicable("health summary needs nvmlGpuFabricInfo v3 (" + f.api() + " answered)"))
                : Reading.of(NvmlCodes.FABRIC_HEALTH_SUMMARY.getOrDefault(f.healthSummary(), "UNKNOWN(" + f.healthSummary() + ")"));
        return new FabricInfo(Reading.of(f.api()), Reading.of(state), Reading.of(NvmlCodes.returnName(f.status())),
                Reading.of(f.cliqueId()), Reading.of(uuid(f.clusterUuid())), health, summary);
    }

    /** 16 bytes → {@code 8-4-4-4-12} hex. */
    public static String uuid(byte[] b) {
        StringBuilder sb = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                sb.append('-');
            }
            sb.append(String.format("%02x", b[i] & 0xff));
        }
        return sb.toString();
    }

    /** Decodes one 2-bit/4-bit field of the health mask: 0 not supported, 1 true, 2 false. */
    public static int healthField(long mask, int shift, int width) {
        return (int) ((mask >>> shift) & width);
    }
}
