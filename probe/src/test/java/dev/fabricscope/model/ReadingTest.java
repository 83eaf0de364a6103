package dev.fabricscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReadingTest {

    @Test
    void holdsExactlyOneOfValueOrWhy() {
        assertThrows(IllegalArgumentException.class, () -> new Reading<>(null, null));
        assertThrows(IllegalArgumentException.class, () -> new Reading<>(1, Missing.unavailable("x")));
    }

    @Test
    void missingNamesTheCallAndItsCode() {
        Reading<Boolean> r = Reading.missing(Missing.unsupported("nvmlDeviceGetNvLinkState", "NVML_ERROR_NOT_SUPPORTED", 3));
        assertFalse(r.isPresent());
        assertEquals("nvmlDeviceGetNvLinkState → NVML_ERROR_NOT_SUPPORTED (3)", r.missing().describe());
        assertEquals("unknown (nvmlDeviceGetNvLinkState → NVML_ERROR_NOT_SUPPORTED (3))", r.display());
        assertEquals("N/S", r.shortDisplay());
    }

    @Test
    void symbolMissingSaysWhichDriver() {
        Missing m = Missing.symbolMissing("nvmlDeviceGetGpuFabricInfoV", "525.60.13");
        assertEquals(Missing.Kind.SYMBOL_MISSING, m.kind());
        assertTrue(m.describe().contains("unsupported by driver 525.60.13"), m.describe());
    }

    @Test
    void mapKeepsTheReason() {
        Reading<Integer> r = Reading.missing(Missing.error("cuDeviceGetAttribute", "CUDA_ERROR_INVALID_VALUE", 1));
        assertEquals(r.missing(), r.map(v -> v != 0).missing());
        assertEquals(Boolean.TRUE, Reading.of(132).map(v -> v != 0).value());
    }
}
