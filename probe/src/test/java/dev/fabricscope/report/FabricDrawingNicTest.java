package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.samples.Samples;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The drawing in HTML reports comes from the same layout: the samples' NICs are in it, with their link in the tooltip. */
class FabricDrawingNicTest {

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void theReportsSvgHasEveryRdmaNicAndItsPcieEdge() {
        for (var c : new Object[][] {{"dgx-h100", 8}, {"hgx-b200", 8}, {"gb200-nvl72-tray", 4}}) {
            String svg = FabricDrawing.svg(Samples.find((String) c[0]).orElseThrow().snapshot().get());
            assertEquals(c[1], count(svg, "<g class=\"node nic\">"), c[0] + ": NIC boxes");
            assertEquals(c[1], count(svg, "<g class=\"edge pcie\"><title>mlx5_\\d+ → "), c[0] + ": one PCIe edge per NIC");
            assertTrue(svg.contains("Port 1: ACTIVE (LinkUp), 400 Gb/sec (4X NDR), InfiniBand"), c[0].toString());
        }
    }
}
