package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PciAddress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Runs the live probe on a real GPU machine and holds it against nvidia-smi run at the same time. */
@Tag("gpu")
class LiveProbeGpuTest {

    private static List<String[]> nvidiaSmi(String query) throws Exception {
        Process p = new ProcessBuilder("nvidia-smi", "--query-gpu=" + query, "--format=csv,noheader,nounits").start();
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                rows.add(line.split("\\s*,\\s*"));
            }
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return rows;
    }

    @Test
    void probeAgreesWithNvidiaSmi() throws Exception {
        MachineSnapshot s = new LiveProbe(List.of("test"), null).probe();
        assertEquals(DriverInfo.Status.OK, s.driver().status(), s.driver().message());
        List<String[]> smi = nvidiaSmi("pci.bus_id,name,uuid,compute_cap,memory.total,driver_version,mig.mode.current");
        assertEquals(smi.size(), s.gpus().size());
        for (String[] row : smi) {
            Gpu g = s.gpu(PciAddress.parse(row[0])).orElseThrow(() -> new AssertionError("missing " + row[0]));
            assertEquals(row[1], g.name().value());
            assertEquals(row[2], g.uuid().value());
            assertEquals(row[3], g.computeCapability().value());
            assertEquals(Long.parseLong(row[4]), g.memoryTotalBytes().value() / (1024 * 1024));
            assertEquals(row[5], s.driver().driverVersion().value());
            assertTrue(g.cudaOrdinal().isPresent(), "joined with a CUDA device by PCI address");
            assertTrue(g.cuda().multicast().isPresent(), g.cuda().multicast().display());
            assertTrue(g.cuda().fabricHandles().isPresent(), g.cuda().fabricHandles().display());
            assertTrue(g.fabric().state().isPresent(), g.fabric().state().display());
            assertFalse(g.nvLinks().isEmpty() && !g.nvLinkCount().isPresent(), "NVLink readings recorded");
        }
        assertEquals(s.gpus().size() * (s.gpus().size() - 1) / 2, s.pairs().size());
    }
}
