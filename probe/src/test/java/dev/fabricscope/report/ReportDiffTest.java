package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.diff.ReportDiff.Category;
import dev.fabricscope.diff.ReportDiff.Change;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.DiffText;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportDiffTest {

    /** The DGX H100 sample report after a driver update that lost a link, multicast and one pair's P2P, and flipped a verdict. */
    static Report changed() throws Exception {
        ObjectNode t = Json.mapper().valueToTree(ReportFixtures.report("dgx-h100"));
        ObjectNode snap = (ObjectNode) t.get("snapshot");
        ((ObjectNode) snap.at("/driver/driverVersion")).put("value", "580.159.04");
        ((ObjectNode) snap.at("/driver/nccl/version")).put("value", "2.28.9");
        ((ObjectNode) snap.at("/gpus/3/nvLinks/7/active")).put("value", false);
        ((ObjectNode) snap.at("/gpus/5/cuda/multicast")).put("value", false);
        ((ObjectNode) snap.at("/pairs/0/p2pRead")).put("value", "TNS");
        ((ObjectNode) t.at("/advice/verdicts/1")).put("outcome", "error").put("errorClass", "RuntimeError").remove("resolved");
        ((ObjectNode) snap.at("/environment")).put("NCCL_DEBUG", "INFO");
        return ReportIO.parse(Json.write(t), "changed");
    }

    @Test
    void findsWhatMattersMostImportantFirst() throws Exception {
        Report a = ReportFixtures.report("dgx-h100");
        ReportDiff d = ReportDiffer.compare(a, "before.json", changed(), "after.json");
        List<Change> c = d.changes();
        assertEquals(Category.VERSIONS, c.get(0).category());
        assertEquals("580.126.20", c.get(0).before());
        assertEquals("580.159.04", c.get(0).after());
        assertTrue(has(d, Category.VERSIONS, "NCCL", "version", "2.28.3", "2.28.9"));
        assertTrue(has(d, Category.NVLINK, "GPU3", "link 7 active", "yes", "no"));
        assertTrue(has(d, Category.NVLINK, "GPU3", "NVLinks", "18/18 active, NVLink4, 450 GB/s per direction, 18 to NVSwitch",
                "17/18 active, NVLink4, 425 GB/s per direction, 17 to NVSwitch"));
        assertTrue(has(d, Category.FABRIC, "GPU5", "multicast", "yes", "no"));
        assertTrue(has(d, Category.P2P, "GPU0–GPU1", "P2P read", "OK", "TNS"));
        assertTrue(has(d, Category.VERDICTS, "vllm SYNTHETIC_ALLREDUCE", "outcome", "fallback → nccl", "error: RuntimeError"));
        assertTrue(has(d, Category.MACHINE, "environment", "NCCL_DEBUG", null, "INFO"));
        for (int i = 1; i < c.size(); i++) {
            assertTrue(c.get(i - 1).category().ordinal() <= c.get(i).category().ordinal(), "ordered: " + c);
        }
        assertEquals(8, c.size(), c.toString());
        String text = DiffText.render(d);
        assertTrue(text.indexOf("Driver, CUDA and NCCL versions") < text.indexOf("NVLink links and state"));
        assertTrue(text.indexOf("Peer-to-peer") < text.indexOf("Verdicts"), text);
        assertTrue(text.contains("8 differences"), text);
    }

    private static boolean has(ReportDiff d, Category cat, String subject, String item, String before, String after) {
        return d.changes().contains(new Change(cat, subject, item, before, after));
    }

    /** Issue 24: diff shows a service that stopped and NVLSM's installation (synthetic: the hgx-b200 sample's node edited). */
    @Test
    void servicesAndNvlsmChangesAreShown() {
        dev.fabricscope.model.MachineSnapshot s = dev.fabricscope.samples.Samples.find("hgx-b200").orElseThrow().snapshot().get();
        dev.fabricscope.model.Reading<String> none = dev.fabricscope.model.Reading.missing(
                dev.fabricscope.model.Missing.notApplicable("no unit of its own: nvidia-fabricmanager starts it"));
        java.util.function.Function<List<Integer>, dev.fabricscope.model.MachineSnapshot> withNvlsm = pids -> {
            List<dev.fabricscope.model.NodeInfo.ServiceState> services = new java.util.ArrayList<>(s.node().services());
            services.add(new dev.fabricscope.model.NodeInfo.ServiceState("nvlsm", none, dev.fabricscope.model.Reading.of(pids),
                    dev.fabricscope.model.Reading.missing(dev.fabricscope.model.Missing.notApplicable("no TCP port"))));
            return s.withNode(new dev.fabricscope.model.NodeInfo(s.node().nics(), s.node().gpuPcie(), services,
                    s.node().fabricManagerVersion(), dev.fabricscope.model.Reading.of(!pids.isEmpty())));
        };
        ReportDiff d = ReportDiffer.compare(withNvlsm.apply(List.of(4242)), "before", withNvlsm.apply(List.of()), "after");
        assertTrue(d.changes().stream().anyMatch(x -> x.subject().equals("node") && x.item().equals("nvlsm")
                && "running".equals(x.before()) && "not running".equals(x.after())), d.changes().toString());
        assertTrue(d.changes().stream().anyMatch(x -> x.item().equals("NVLSM installed") && "yes".equals(x.before())
                && "no".equals(x.after())), d.changes().toString());
        ReportDiff old = ReportDiffer.compare(s, "old", withNvlsm.apply(List.of()), "new");
        assertTrue(old.changes().stream().noneMatch(x -> x.item().toLowerCase(java.util.Locale.ROOT).contains("nvlsm")),
                "a snapshot that never read NVLSM says nothing of it: " + old.changes());
    }

    @Test
    void sameReportHasNoDifferences() {
        Report a = ReportFixtures.report("gb200-nvl72-tray");
        ReportDiff d = ReportDiffer.compare(a, "a", a, "b");
        assertTrue(d.identical(), d.changes().toString());
        assertTrue(DiffText.render(d).contains("No differences."));
    }

    @Test
    void differentMachinesShowModelAndComputeCapability() {
        ReportDiff d = ReportDiffer.compare(ReportFixtures.report("dgx-h100"), "h100", ReportFixtures.report("dgx-a100"), "a100");
        assertTrue(has(d, Category.GPUS, "GPU0", "compute capability", "9.0", "8.0"), d.byCategory().get(Category.GPUS).toString());
        assertTrue(has(d, Category.NVSWITCHES, "NVSwitches", "count", "4", "6"));
        assertTrue(d.changes().stream().anyMatch(x -> x.category() == Category.GPUS && x.item().equals("model")));
    }

    @Test
    void gpuCountChangeListsTheMissingGpus() {
        ReportDiff d = ReportDiffer.compare(ReportFixtures.report("rtx-pro-6000-2x"), "two", ReportFixtures.report("l40s-4x"), "four");
        assertTrue(has(d, Category.GPUS, "GPUs", "count", "2", "4"));
        assertTrue(d.changes().stream().anyMatch(x -> x.subject().equals("GPU3") && x.before() == null && x.after() != null));
    }

    @Test
    void jsonFormIsStable() throws Exception {
        ReportDiff d = ReportDiffer.compare(ReportFixtures.report("dgx-h100"), "before.json", changed(), "after.json");
        String json = Json.write(d);
        var tree = Json.mapper().readTree(json);
        assertEquals("versions", tree.at("/changes/0/category").asText());
        assertEquals("before.json", tree.at("/left/name").asText());
        assertTrue(tree.at("/changes/0/before").isTextual());
    }

    /** One Grace tray whose GPU2 lost C2C (its driver says disabled, one link counted): the diff names both. */
    @Test
    void aC2cChangeIsADifference() throws Exception {
        Report a = ReportFixtures.report("gb200-nvl72-tray");
        ObjectNode t = Json.mapper().valueToTree(a);
        ObjectNode link = (ObjectNode) t.at("/snapshot/gpus/2/hostLink");
        ((ObjectNode) link.get("c2cEnabled")).put("value", false);
        link.set("c2cLinkCount", Json.mapper().createObjectNode().put("value", 1));
        ReportDiff d = ReportDiffer.compare(a, "before", ReportIO.parse(Json.write(t), "after"), "after");
        List<String> what = d.changes().stream().map(ch -> ch.subject() + " " + ch.item() + ": " + ch.before() + " → " + ch.after()).toList();
        assertTrue(what.contains("GPU2 NVLink-C2C mode: enabled → disabled"), what.toString());
        assertTrue(what.contains("GPU2 C2C links: ? → 1"), what.toString());
        assertEquals(2, what.size(), what.toString());
    }

    @Test
    void snapshotsCompareAsBareReports() {
        var d = ReportDiffer.compare(ReportFixtures.sample("dgx-h100"), "a", ReportFixtures.sample("dgx-h100"), "b");
        assertTrue(d.identical(), d.changes().toString());
    }
}
