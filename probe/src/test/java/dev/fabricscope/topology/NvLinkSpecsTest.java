package dev.fabricscope.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NvLinkSpecsTest {

    /** Generation and per-link per-direction GB/s from public specs (see NvLinkSpecs javadoc); link cap as NCCL's maxNvLinks. */
    @ParameterizedTest
    @CsvSource({
        "6.0, 1, 20.0, 4",      // P100
        "7.0, 2, 25.0, 6",      // V100
        "8.0, 3, 25.0, 12",     // A100
        "8.6, 3, 14.0625, 12",  // A40 / RTX 3090 bridge
        "8.9, 0, 0.0, 12",      // L40S: no NVLink
        "9.0, 4, 25.0, 18",     // H100 / H200
        "10.0, 5, 50.0, 18",    // B200 / GB200
        "10.3, 5, 50.0, 18",    // B300 / GB300
        "11.0, 0, 0.0, 18",     // Thor
        "12.0, 0, 0.0, 18",     // RTX PRO 6000 Blackwell
    })
    void generationBandwidthAndLinkCap(double cc, int generation, double gbps, int maxLinks) {
        assertEquals(generation, NvLinkSpecs.generation(cc));
        assertEquals(gbps, NvLinkSpecs.gbpsPerLinkPerDirection(cc));
        assertEquals(maxLinks, NvLinkSpecs.maxLinks(cc));
    }
}
