package dev.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.nvml.FabricDecoder;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Synthetic machines write NVML's answers in the snapshot's terms, without the probe's decoder; these tests hold them
 * to what that decoder makes of the same answers, so a sample still reads like a real probe.
 */
class SyntheticNvmlAnswersTest {

    @Test
    void notSupportedIsRecordedAsTheProbeRecordsIt() {
        for (String call : new String[] {"nvmlDeviceGetMigMode", "nvmlDeviceGetGpuFabricInfoV"}) {
            assertEquals(Nvml.missing(call, NvmlCodes.ERROR_NOT_SUPPORTED), SyntheticMachine.nvmlNotSupported(call));
        }
    }

    @Test
    void everySampleFabricIsWhatTheDecoderMakesOfItsAnswer() {
        Set<String> kinds = new TreeSet<>();
        List<Samples.Sample> synthetic = new ArrayList<>();
        SyntheticSamples.addTo((name, description, snapshot) -> synthetic.add(new Samples.Sample(name, description, snapshot)));
        for (Samples.Sample sample : synthetic) {
            for (Gpu g : sample.snapshot().get().gpus()) {
                FabricInfo f = g.fabric();
                String where = sample.name() + " " + g.pci();
                if (!f.state().isPresent()) {
                    kinds.add("call unsupported");
                    assertEquals(FabricDecoder.decode(Reading.missing(f.state().missing())), f, where);
                    assertEquals(SyntheticMachine.nvmlNotSupported("nvmlDeviceGetGpuFabricInfoV"), f.state().missing(), where);
                } else if (f.state().value().equals(FabricInfo.NOT_SUPPORTED)) {
                    kinds.add("state NOT_SUPPORTED");
                    assertEquals(FabricDecoder.decode(Reading.of(new Nvml.FabricReading(f.api().value(), 0,
                            NvmlCodes.SUCCESS, 0, new byte[16], 0L, 0))), f, where);
                } else {
                    kinds.add("state " + f.state().value());
                    FabricInfo decoded = FabricDecoder.decode(Reading.of(new Nvml.FabricReading(f.api().value(), 3,
                            NvmlCodes.SUCCESS, f.cliqueId().value(), uuidBytes(f.clusterUuid().value()),
                            f.healthMask().orElse(0L), healthCode(f.healthSummary().orElse(null)))));
                    assertEquals(decoded.api(), f.api(), where);
                    assertEquals(decoded.state(), f.state(), where);
                    assertEquals(decoded.status(), f.status(), where);
                    assertEquals(decoded.cliqueId(), f.cliqueId(), where);
                    assertEquals(decoded.clusterUuid(), f.clusterUuid(), where);
                    if (f.healthMask().isPresent()) {
                        assertEquals(decoded.healthMask(), f.healthMask(), where);
                    }
                    if (f.healthSummary().isPresent()) {
                        assertEquals(decoded.healthSummary(), f.healthSummary(), where);
                    }
                }
            }
        }
        assertEquals(Set.of("call unsupported", "state NOT_SUPPORTED", "state COMPLETED"), kinds);
    }

    private static int healthCode(String name) {
        if (name == null) {
            return 0;
        }
        for (Map.Entry<Integer, String> e : NvmlCodes.FABRIC_HEALTH_SUMMARY.entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        throw new AssertionError("not an nvmlGpuFabricHealthSummary name: " + name);
    }

    private static byte[] uuidBytes(String canonical) {
        String hex = canonical.replace("-", "");
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
