package dev.fabricscope.topology;

import dev.fabricscope.probe.TestGpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTest {

    private static final String[] SWITCHES = {"0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"};

    @Test
    void hgxBoardHasFourSwitchesAndNv18BetweenEveryPair() {
        List<Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            gpus.add(TestGpus.gpu(String.format("0000:%02x:00.0", 0x18 + i * 0x10), SWITCHES, new int[] {5, 4, 4, 5}, new String[0], 0));
        }
        List<NvSwitch> switches = Topology.switches(gpus);
        assertEquals(4, switches.size());
        assertEquals(List.of("NVS0", "NVS1", "NVS2", "NVS3"), switches.stream().map(NvSwitch::id).toList());
        assertEquals(8 * 5, switches.get(0).totalLinks());
        assertEquals(8 * 4, switches.get(1).totalLinks());
        Reading<Integer> n = Topology.nvLinksBetween(gpus.get(0), gpus.get(7));
        assertEquals(18, n.value());
        assertEquals("NV18", Topology.letter(n, Reading.of("SYS")).value());
    }

    @Test
    void bridgedPairCountsDirectLinksOnly() {
        Gpu a = TestGpus.gpu("0000:17:00.0", new String[0], new int[0], new String[] {"0000:65:00.0"}, 12);
        Gpu b = TestGpus.gpu("0000:65:00.0", new String[0], new int[0], new String[] {"0000:17:00.0"}, 12);
        Gpu c = TestGpus.gpu("0000:ca:00.0", new String[0], new int[0], new String[0], 0);
        assertEquals(12, Topology.nvLinksBetween(a, b).value());
        assertEquals(0, Topology.nvLinksBetween(a, c).value());
        assertEquals("PHB", Topology.letter(Topology.nvLinksBetween(a, c), Reading.of("PHB")).value());
        assertTrue(Topology.switches(List.of(a, b, c)).isEmpty());
    }

    @Test
    void hiddenSwitchAddressesPoolIntoOneSwitchOfUnknownCount() {
        Gpu a = TestGpus.gpu("0000:01:00.0", new String[] {null}, new int[] {18}, new String[0], 0);
        Gpu b = TestGpus.gpu("0000:02:00.0", new String[] {null}, new int[] {18}, new String[0], 0);
        List<NvSwitch> switches = Topology.switches(List.of(a, b));
        assertEquals(1, switches.size());
        assertFalse(switches.get(0).pci().isPresent());
        assertTrue(switches.get(0).pci().missing().describe().contains("count unknown"));
        assertEquals(18, Topology.nvLinksBetween(a, b).value());
    }

    @Test
    void inactiveLinksDoNotCount() {
        List<NvLink> links = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            links.add(TestGpus.link(i, NvLink.REMOTE_SWITCH, SWITCHES[0]));
        }
        links.add(TestGpus.inactive(17));
        Gpu a = TestGpus.gpu("0000:18:00.0", links);
        Gpu b = TestGpus.gpu("0000:2a:00.0", SWITCHES, new int[] {5, 4, 4, 5}, new String[0], 0);
        assertEquals(17, Topology.nvLinksBetween(a, b).value());
    }

    @Test
    void unreadableLinksGiveAnUnknownCountWithTheReasonAndFallBackToPcie() {
        List<NvLink> links = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
            links.add(TestGpus.unsupported(i));
        }
        Gpu a = TestGpus.gpu("0000:18:00.0", links);
        Gpu b = TestGpus.gpu("0000:2a:00.0", links);
        Reading<Integer> n = Topology.nvLinksBetween(a, b);
        assertFalse(n.isPresent());
        assertEquals(Missing.Kind.UNSUPPORTED, n.missing().kind());
        assertEquals("NODE", Topology.letter(n, Reading.of("NODE")).value());
    }
}
