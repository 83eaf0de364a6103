package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.samples.Samples;
import org.junit.jupiter.api.Test;

/** The warm-up's machine exists (else it would warm nothing, silently) and a pass leaves nothing behind on stdout. */
class OutputWarmUpTest {

    @Test
    void theWarmUpSampleIsBundled() {
        assertTrue(Samples.find(OutputWarmUp.SAMPLE).isPresent(), OutputWarmUp.SAMPLE);
    }

    @Test
    void aPassPrintsNothing() {
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(seen));
        try {
            OutputWarmUp.run(true, true, false);
        } finally {
            System.setOut(out);
        }
        assertTrue(seen.size() == 0, seen.toString());
    }
}
