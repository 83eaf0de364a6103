package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.NodeAcceptance;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check node --expect dgx-h100}: the expectation part on the DGX H100 sample and on a copy with faults. */
class CheckNodeCommandTest {

    private static MachineSnapshot dgx() {
        return Samples.find("dgx-h100").orElseThrow().snapshot().get();
    }

    /** The sample with GPU3's link 7 down and mlx5_4 gone. */
    static MachineSnapshot faulty() {
        MachineSnapshot s = dgx();
        List<Gpu> gpus = new ArrayList<>(s.gpus());
        List<NvLink> links = new ArrayList<>(gpus.get(3).nvLinks());
        links.set(7, links.get(7).down());
        gpus.set(3, gpus.get(3).withLinks(links));
        List<Nic> nics = s.node().nics().value().stream().filter(n -> !n.name().equals("mlx5_4")).toList();
        return s.withGpus(gpus).withNode(new NodeInfo(Reading.of(nics), s.node().gpuPcie(), s.node().services()));
    }

    @Test
    void theSamplesNicsSitUnderTheirGpusPcieSwitchAsTopoMShowsThem() {
        MachineSnapshot s = dgx();
        assertEquals(8, s.node().rdmaNics().size());
        String text = SnapshotText.render(s);
        assertTrue(text.contains("NIC Legend:"), text);
        assertTrue(text.contains("NIC0: mlx5_0"), text);
        // GPU0 and NIC0 share a PCIe switch: PIX; NIC1 on another host bridge of socket 0: NODE; NIC4 across: SYS
        String gpu0 = text.lines().filter(l -> l.startsWith("GPU0 ") && l.contains(" X ")).findFirst().orElseThrow();
        List<String> cells = List.of(gpu0.trim().split("\\s+"));
        assertEquals(List.of("PIX", "NODE", "NODE", "NODE", "SYS", "SYS", "SYS", "SYS"), cells.subList(9, 17), gpu0);
        assertTrue(text.contains("nvidia-fabricmanager: running"), text);
    }

    @Test
    void theDgxH100SamplePassesItsOwnExpectations() {
        NodeAcceptance.Profile p = NodeAcceptance.profileOf(dgx(), "sample dgx-h100", 0.5);
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(p, dgx(), null);
        assertTrue(NodeAcceptance.passed(e), NodeAcceptance.summary(e) + "\n" + e);
        assertTrue(NodeAcceptance.summary(e).startsWith("PASS"), NodeAcceptance.summary(e));
        assertTrue(e.stream().anyMatch(x -> x.name().equals("RDMA NICs") && x.outcome() == NodeAcceptance.Outcome.PASS));
    }

    @Test
    void aCopyWithOneLinkDownAndOneNicMissingFailsNamingBoth() {
        NodeAcceptance.Profile p = NodeAcceptance.profileOf(dgx(), "sample dgx-h100", 0.5);
        List<NodeAcceptance.Expectation> e = NodeAcceptance.compare(p, faulty(), null);
        String summary = NodeAcceptance.summary(e);
        assertTrue(summary.startsWith("FAIL"), summary);
        assertTrue(summary.contains("NVLinks active") && summary.contains("RDMA NICs"), summary);
        NodeAcceptance.Expectation links = e.stream().filter(x -> x.name().equals("NVLinks active")).findFirst().orElseThrow();
        assertEquals("GPU3 17/18 (link 7 inactive)", links.measured());
        NodeAcceptance.Expectation nics = e.stream().filter(x -> x.name().equals("RDMA NICs")).findFirst().orElseThrow();
        assertTrue(nics.measured().contains("missing mlx5_4"), nics.measured());
        assertEquals(NodeAcceptance.Outcome.FAIL, nics.outcome());
    }

    @Test
    void theCommandPrintsTheSummaryFirstAndExitsFiveOnTheFaultyCopy(@TempDir Path dir) throws Exception {
        CliTest.Run ok = CliTest.run("check", "node", "--expect", "dgx-h100", "--sample", "dgx-h100");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertTrue(ok.out().startsWith("PASS"), ok.out());
        Path bad = dir.resolve("faulty.json");
        Files.writeString(bad, Json.write(faulty()));
        Path report = dir.resolve("node-report.json");
        CliTest.Run fail = CliTest.run("check", "node", "--expect", "dgx-h100", "--snapshot", bad.toString(), "--out", report.toString());
        assertEquals(5, fail.code(), fail.out() + fail.err());
        String first = fail.out().lines().findFirst().orElse("");
        assertTrue(first.startsWith("FAIL") && first.contains("NVLinks active") && first.contains("RDMA NICs"), fail.out());
        assertTrue(fail.out().contains("link 7 inactive") && fail.out().contains("missing mlx5_4"), fail.out());
        // the report to attach reads back as the node it checked
        MachineSnapshot back = SnapshotIO.read(report);
        assertEquals(7, back.node().rdmaNics().size());
        assertTrue(Files.readString(report).contains("\"status\" : \"FAILED\""), Files.readString(report));
    }
}
