package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HtmlReportTest {

    @Test
    void oneSelfContainedFileWithTheFabricGraphInline() {
        String html = HtmlReport.render(ReportFixtures.report("dgx-h100"));
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        assertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"));
        assertEquals(1, HostileReportTest.count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), "the graph, inline");
        assertFalse(html.contains("<?xml"), "no XML prolog inside HTML");
        assertTrue(html.contains("NVS0") && html.contains("GPU7"), "the graph shows the switches and GPUs");
        assertFalse(html.contains("<script") || html.contains("<link") || html.contains("<img") || html.contains("<iframe"));
        assertFalse(html.contains("href=\"http:") || html.contains("xlink:href"));
        assertTrue(html.contains("@media print"));
        assertEquals(HostileReportTest.count(html, "<details open>"), HostileReportTest.count(html, "<details"), "details open for print");
        assertTrue(html.contains("<td class=\"nv\">NV18</td>"), "topology matrix");
        assertTrue(html.contains("<a href=\"https://github.com/example/synthetic/blob/0123456789abcdef0123456789abcdef01234567/python/x.py#L10-L12\">"));
    }

    @Test
    void aMachineWithoutGpusHasNoGraph() {
        var s = ReportFixtures.sample("h200-vm");
        var none = new dev.fabricscope.model.MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(), java.util.List.of(),
                java.util.List.of(), java.util.List.of(), s.environment(), s.findings());
        String html = HtmlReport.render(Reports.create(none, ReportAdvice.none("no GPUs"), ReportChecks.notRequested(),
                java.util.List.of("fabricscope"), ReportFixtures.WHEN));
        assertFalse(html.contains("<svg"));
        assertTrue(html.contains("No verdicts: no GPUs"));
    }

    @Test
    void theGraphOfAHostileReportIsTamed() throws Exception {
        Report r = HostileReportTest.hostile("gb200-nvl72-tray");
        String svg = FabricDrawing.svg(r.snapshot());
        assertTrue(svg.startsWith("<svg"));
        HostileReportTest.noInvisible(svg, "svg");
        assertFalse(svg.contains("<script"));
        assertTrue(svg.length() < 200_000, "long values cut: " + svg.length());
    }
}
