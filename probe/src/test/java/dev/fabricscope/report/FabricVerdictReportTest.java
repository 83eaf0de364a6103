package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.FabricVerdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The "links up, fabric up?" verdict of a report that holds checks (issue 24): the real 2×H200 NVSwitch report with
 * its P2P check, and the NVLink signals in Markdown, HTML and diff.
 */
class FabricVerdictReportTest {

    private static Report nvSwitchReport() throws Exception {
        return ReportIO.read(CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("report.json"));
    }

    @Test
    void measuredP2pAgainstTheLinksRatedSpeedConfirmsTrafficWhereTheStateFieldWasNotRead() throws Exception {
        Report r = nvSwitchReport();
        FabricVerdict v = ReportVerdicts.of(r).get(0);
        // the p2p check in that report.json: GPU0 → GPU1 394.8 GB/s; 18 active links at 26562 MB/s each (nvidia-smi nvlink -s: 26.562 GB/s)
        assertEquals(FabricVerdict.State.UP, v.state(), v.summary() + " " + v.evidence());
        assertTrue(v.evidence().contains("P2P GPU0 → GPU1 394.8 GB/s = 83% of 478.1 GB/s rated (18 links × their speed)"),
                v.evidence().toString());
        assertEquals(FabricVerdict.State.UNKNOWN, FabricVerdict.of(r.snapshot()).get(0).state(),
                "without the measurement the unread link state field leaves it unknown");
    }

    @Test
    void aCopyUnderATenthOfTheRatedSpeedIsNamedTrafficCrawling() throws Exception {
        MachineSnapshot s = nvSwitchReport().snapshot();
        FabricVerdict v = FabricVerdict.of(s, java.util.Map.of(0, new FabricVerdict.Measured(12.0, "GPU0 → GPU1"))).get(0);
        assertEquals(FabricVerdict.State.NOT_UP, v.state());
        assertTrue(v.causes().get(0).startsWith("traffic crawling: P2P GPU0 → GPU1 12.0 GB/s = 3% of 478.1 GB/s"), v.causes().toString());
    }

    @Test
    void markdownAndHtmlCarryTheVerdictAndTheSignals() throws Exception {
        Report r = nvSwitchReport();
        String md = MarkdownReport.render(r);
        assertTrue(md.contains("NVLink fabric verdict and signals"), md);
        assertTrue(md.contains("| GPU0 | UP | links up, fabric up |"), md);
        assertTrue(md.contains("| GPU | System BW | BW mode |"), md);
        String html = HtmlReport.render(r);
        assertTrue(html.contains("<summary>NVLink fabric verdict</summary>"), html);
        assertTrue(html.contains("<td>GPU0</td><td>UP</td>"), html);
    }

    @Test
    void diffNamesAChangedBandwidthModeAndTheVerdictItTurns() {
        MachineSnapshot a = CapturedTraces.replay(CapturedTraces.NVSWITCH_2GPU_RECORDED);
        Gpu g = a.gpus().get(0);
        NvLinkSignals x = g.signals();
        NvLinkSignals halved = new NvLinkSignals(Reading.of("HALF (3)"), x.bwMode(), x.supportedBwModes(), x.nvle(), x.firmware(),
                x.gfmState(), x.fabricCliques(), x.links());
        MachineSnapshot b = a.withGpus(List.of(g.withSignals(halved), a.gpus().get(1)));
        ReportDiff d = ReportDiffer.compare(a, "before", b, "after");
        assertTrue(d.changes().stream().anyMatch(c -> c.item().equals("NVLink bandwidth mode (system)") && "HALF (3)".equals(c.after())),
                d.changes().toString());
        assertTrue(d.changes().stream().anyMatch(c -> c.item().equals("links up, fabric up?") && c.after().startsWith("NOT_UP")
                && c.after().contains("machine-wide NVLink bandwidth mode HALF (3)")), d.changes().toString());
    }
}
