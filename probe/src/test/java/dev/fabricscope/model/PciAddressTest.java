package dev.fabricscope.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PciAddressTest {

    @Test
    void nvmlAndCudaFormsOfOneGpuAreTheSameDevice() {
        PciAddress nvml = PciAddress.parse("00000000:18:00.0");   // NVML: 8-digit domain, upper case
        PciAddress cuda = PciAddress.parse("0000:18:00.0");       // cuDeviceGetPCIBusId: 4-digit domain
        PciAddress nccl = PciAddress.parse("0000:18:00.0".toLowerCase());
        assertEquals(nvml, cuda);
        assertEquals(cuda, nccl);
        assertTrue(nvml.sameDevice(PciAddress.parse("0000:18:00.1")), "function is ignored when joining devices");
        assertFalse(nvml.sameDevice(PciAddress.parse("0001:18:00.0")), "domain matters");
    }

    @Test
    void printsCanonicalAndNvmlForms() {
        PciAddress p = PciAddress.parse("00000001:AB:1F.0");
        assertEquals("0001:ab:1f.0", p.toString());
        assertEquals("00000001:AB:1F.0", p.toNvmlString());
        assertEquals(p, PciAddress.parse(p.toString()));
    }

    @Test
    void shortFormWithoutDomain() {
        assertEquals(new PciAddress(0, 0x3b, 0, 0), PciAddress.parse("3b:00.0"));
    }

    @Test
    void rejectsGarbage() {
        assertThrows(IllegalArgumentException.class, () -> PciAddress.parse(""));
        assertThrows(IllegalArgumentException.class, () -> PciAddress.parse("fffffff:ffff:ff"));
        assertThrows(IllegalArgumentException.class, () -> PciAddress.parse("0000:100:00.0"));
        assertThrows(IllegalArgumentException.class, () -> PciAddress.parse(null));
    }

    @Test
    void ordersNumerically() {
        assertTrue(PciAddress.parse("0000:09:00.0").compareTo(PciAddress.parse("0000:0a:00.0")) < 0);
        assertTrue(PciAddress.parse("0000:ff:00.0").compareTo(PciAddress.parse("0001:00:00.0")) < 0);
    }
}
