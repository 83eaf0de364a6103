package dev.fabricscope.app.viewmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.diff.ReportDiff.Category;
import dev.fabricscope.diff.ReportDiff.Change;
import org.junit.jupiter.api.Test;

/** Compare colours by meaning: the values are the ones `fabricscope diff` prints for the bundled samples. */
class ChangeMeaningTest {

    private static ChangeMeaning of(Category c, String item, String a, String b) {
        return ChangeMeaning.of(new Change(c, "GPU0", item, a, b));
    }

    @Test
    void lostCapabilitiesAndLinksAreWorseAndTheirReturnBetter() {
        assertEquals(ChangeMeaning.WORSE, of(Category.FABRIC, "multicast", "yes", "no"));
        assertEquals(ChangeMeaning.BETTER, of(Category.FABRIC, "multicast", "no", "yes"));
        assertEquals(ChangeMeaning.WORSE, of(Category.NVLINK, "link 3 active", "yes", "no"));
        assertEquals(ChangeMeaning.WORSE, of(Category.NVLINK, "NVLinks", "18/18 active, NVLink4, 450 GB/s per direction, 18 to NVSwitch",
                "16/18 active, NVLink4, 400 GB/s per direction, 16 to NVSwitch"));
        assertEquals(ChangeMeaning.WORSE, of(Category.P2P, "NVLinks", "18", "0"));
        assertEquals(ChangeMeaning.WORSE, of(Category.P2P, "P2P over NVLink", "OK", "NS"));
        assertEquals(ChangeMeaning.WORSE, of(Category.GPUS, "present", "NVIDIA H100 80GB HBM3 (SM 9.0, 0000:43:00.0)", null));
    }

    @Test
    void verdictsRankErrorFallbackOk() {
        assertEquals(ChangeMeaning.WORSE, of(Category.VERDICTS, "outcome", "ok → custom", "fallback → nccl"));
        assertEquals(ChangeMeaning.BETTER, of(Category.VERDICTS, "outcome", "fallback → NVLS disabled", "ok → NVLS disabled"));
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.VERDICTS, "outcome", "ok → mnnvl", "ok → trtllm"));
        assertEquals(ChangeMeaning.WORSE, of(Category.VERDICTS, "outcome", "fallback → nccl", "error"));
    }

    @Test
    void readingsThatBecomeUnknownAreWorse() {
        assertEquals(ChangeMeaning.WORSE, of(Category.NVLINK, "link count", "18", "unknown (unsupported)"));
        assertEquals(ChangeMeaning.BETTER, of(Category.NVLINK, "link count", "unknown (unsupported)", "18"));
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.FABRIC, "fabric health", "unknown (unavailable)", "unknown (not applicable)"));
    }

    @Test
    void versionsNamesAndAddressesAreNeutral() {
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.VERSIONS, "driver version", "575.57.08", "580.126.20"));
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.VERSIONS, "driver version", "580.126.20", "575.57.08"));
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.GPUS, "model", "NVIDIA H100 80GB HBM3", "NVIDIA B200"));
        assertEquals(ChangeMeaning.NEUTRAL, of(Category.GPUS, "PCI address", "0000:1b:00.0", "0000:00:06.0"));
    }

    @Test
    void newWarningsAreWorseNewInfoNeutral() {
        assertEquals(ChangeMeaning.WORSE, ChangeMeaning.of(new Change(Category.FINDINGS, "x", "finding", null, "WARNING: NVLink down")));
        assertEquals(ChangeMeaning.BETTER, ChangeMeaning.of(new Change(Category.FINDINGS, "x", "finding", "ERROR: no driver", null)));
        assertEquals(ChangeMeaning.NEUTRAL, ChangeMeaning.of(new Change(Category.FINDINGS, "x", "finding", null, "INFO: CUDA multicast not supported")));
    }
}
