package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.render.DiffText;
import dev.fabricscope.report.Redaction.Kind;
import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RedactorTest {

    static final String HOST = "gpu-node-17.corp.example.com";
    static final String USER = "alice.smith";
    static final String IP = "10.20.30.40";
    static final String IPV6 = "fe80::1a2b:3c4d:5e6f:7a8b";
    static final String MAC = "0c:42:a1:5e:2b:9f";
    static final String OTHER_UUID = "6f1c2a4e-93b7-4d2e-8a51-0c9e7f3b2d10";
    static final String CLUSTER = "8d3b7e52-1f0a-4c6e-9b2d-57a1e0c4f983";

    /**
     * The captured H200 snapshot with identifiers placed where a real machine shows them (host name, GPU serial and
     * UUID, cluster UUID, NCCL under a home folder, NCCL_COMM_ID, CUDA_VISIBLE_DEVICES by UUID prefix) and in free
     * text (findings, verdicts, check results, the command line).
     */
    static Report identified() {
        MachineSnapshot s = ReportFixtures.sample("h200-vm");
        Gpu g = s.gpus().get(0);
        String uuid = g.uuid().value();
        String serial = g.serial().value();
        FabricInfo f = g.fabric();
        FabricInfo fabric = new FabricInfo(f.api(), Reading.of("COMPLETED"), f.status(), Reading.of(3L), Reading.of(CLUSTER),
                f.healthMask(), f.healthSummary());
        Gpu gpu = new Gpu(g.pci(), g.uuid(), g.nvmlIndex(), g.cudaOrdinal(), g.name(), g.serial(), g.architecture(),
                g.computeCapability(), g.smCount(), g.memoryTotalBytes(), g.numaNode(), g.cpuAffinity(), g.migMode(),
                g.virtualizationMode(), g.persistenceMode(), g.cuda(), g.nvLinkCount(), g.nvLinks(), fabric);
        HostInfo h = s.host();
        HostInfo host = new HostInfo(Reading.of(HOST), h.os(), h.kernel(), h.architecture(), h.cpuModel(), h.logicalCpus(), h.numaNodes());
        String lib = "/home/" + USER + "/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2";
        var d = s.driver();
        var driver = new dev.fabricscope.model.DriverInfo(d.status(), d.message(), d.driverVersion(), d.cudaDriverVersion(),
                d.nvmlVersion(), new NcclInfo(Reading.of(lib), d.nccl().version(), List.of(lib, "/usr/lib/libnccl.so.2")),
                d.imexChannels(), d.cudaDeviceCount());
        Map<String, String> env = new TreeMap<>(s.environment());
        env.put("NCCL_COMM_ID", IP + ":29500");
        env.put("CUDA_VISIBLE_DEVICES", uuid.substring(0, 12));
        env.put("NCCL_SOCKET_IFNAME", "eth0");
        env.put("NCCL_DEBUG_FILE", "/Users/" + USER + "/nccl.%h.log");
        env.put("VLLM_HOST_IP", "gpu-node-18.corp.example.com");
        env.put("NCCL_IB_GID", IPV6);
        env.put("FABRICSCOPE_TEST_IB_GUID", "port 1 guid 0x0c42a10300a1b2c3");
        env.put("FABRICSCOPE_TEST_BOARD", "board part number 692-2G520-0200-000");
        List<dev.fabricscope.model.Finding> findings = new ArrayList<>(s.findings());
        findings.add(new dev.fabricscope.model.Finding(dev.fabricscope.model.Finding.Severity.WARNING, "test",
                "link to " + MAC + " on " + HOST.substring(0, HOST.indexOf('.')) + " (serial " + serial + ")", uuid));
        ProbeInfo p = s.probe();
        ProbeInfo probe = new ProbeInfo(p.toolVersion(), p.probedAt(), List.of("fabricscope", "probe", "--out", "/home/" + USER + "/p.json"),
                p.durationMs(), p.origin(), p.description());
        MachineSnapshot snap = new MachineSnapshot(s.schemaVersion(), probe, host, driver, List.of(gpu), s.nvSwitches(),
                s.pairs(), env, findings);
        List<Verdict> verdicts = new ArrayList<>(ReportFixtures.verdicts());
        Verdict v = verdicts.get(0);
        verdicts.set(0, new Verdict(v.framework(), v.knob(), v.value(), v.userSet(), v.outcome(), v.resolved(), v.errorClass(),
                "failed on " + HOST + " for " + uuid + " at " + IP, v.when(), "request " + OTHER_UUID, v.fix(), v.source(), v.version()));
        ObjectNode result = Json.mapper().createObjectNode();
        result.put("host", HOST).put("gpu", uuid).put("mac", MAC.toUpperCase()).put("cluster", CLUSTER.toUpperCase());
        ReportChecks checks = new ReportChecks(true, null, List.of(new ReportChecks.Entry("p2p", "PASSED",
                "synthetic: ran on " + HOST.substring(0, HOST.indexOf('.')), result)));
        return Reports.create(snap, ReportAdvice.of(verdicts, ReportFixtures.recommendations(), Map.of()), checks,
                List.of("fabricscope", "report", "--out", "/home/" + USER + "/r.json"), ReportFixtures.WHEN);
    }

    static Set<String> identifiers(Report r) {
        Gpu g = r.snapshot().gpus().get(0);
        return Set.of(HOST, "gpu-node-17", "corp.example.com", "gpu-node-18", USER, IP, IPV6, MAC, OTHER_UUID, CLUSTER,
                g.uuid().value(), g.uuid().value().substring(0, 12), g.uuid().value().substring(4), g.serial().value(),
                "0x0c42a10300a1b2c3", "692-2G520-0200-000");
    }

    @Test
    void noOriginalIdentifierSurvivesInAnyFormat() {
        Report original = identified();
        Report red = Redactor.redact(original);
        Map<String, String> outputs = new LinkedHashMap<>();
        outputs.put("json", ReportIO.toJson(red));
        outputs.put("markdown", MarkdownReport.render(red));
        outputs.put("html", HtmlReport.render(red).replace("<wbr>", ""));
        outputs.put("diff", DiffText.render(ReportDiffer.compare(red, "a", red, "b")));
        outputs.put("diff json", Json.write(ReportDiffer.compare(Redactor.redact(ReportFixtures.report("h200-vm")), "a", red, "b")));
        for (String id : identifiers(original)) {
            for (Map.Entry<String, String> o : outputs.entrySet()) {
                String lower = o.getValue().toLowerCase();
                for (String form : new java.util.LinkedHashSet<>(List.of(id, Escape.html(id), Escape.md(id, 1_000), id.toUpperCase()))) {
                    assertFalse(lower.contains(form.toLowerCase()), "'" + id + "' survives in the " + o.getKey() + " output");
                }
            }
        }
        // and the unredacted report does carry them (the test would prove nothing otherwise)
        String plain = ReportIO.toJson(original);
        for (String id : identifiers(original)) {
            assertTrue(plain.contains(id) || plain.toLowerCase().contains(id.toLowerCase()), id);
        }
    }

    @Test
    void listsTheKindsRedacted() {
        Report red = Redactor.redact(identified());
        assertTrue(red.redaction().applied());
        Set<Kind> kinds = red.redaction().kinds().stream().map(Redaction.Replaced::kind).collect(Collectors.toSet());
        assertEquals(Set.of(Kind.values()), kinds, red.redaction().describe());
        assertTrue(MarkdownReport.render(red).contains("redacted: "));
        assertTrue(HtmlReport.render(red).contains("redacted: "));
    }

    @Test
    void pseudonymsAreStableSoCrossReferencesMatch() {
        Report red = Redactor.redact(identified());
        MachineSnapshot s = red.snapshot();
        String uuid = s.gpus().get(0).uuid().value();
        assertTrue(uuid.startsWith("GPU-redacted-"), uuid);
        assertEquals(uuid, s.environment().get("CUDA_VISIBLE_DEVICES"), "a UUID prefix maps to its GPU's pseudonym");
        assertEquals(uuid, s.findings().get(s.findings().size() - 1).subject());
        String host = s.host().hostname().value();
        assertTrue(red.advice().verdicts().get(0).message().contains(host), red.advice().verdicts().get(0).message());
        assertEquals(red.checks().results().get(0).result().get("host").asText(), host);
        assertEquals(red.checks().results().get(0).result().get("gpu").asText(), uuid);
        String cluster = s.gpus().get(0).fabric().clusterUuid().value();
        assertEquals(cluster, red.checks().results().get(0).result().get("cluster").asText(), "case does not matter for UUIDs");
        assertTrue(s.gpus().get(0).fabric().inMnnvlDomain(), "a redacted cluster UUID still means a fabric domain");
        String nccl = s.driver().nccl().path().value();
        String user = nccl.substring("/home/".length(), nccl.indexOf('/', "/home/".length()));
        assertTrue(user.startsWith("user-"), nccl);
        assertTrue(s.environment().get("NCCL_DEBUG_FILE").startsWith("/Users/" + user + "/"), "same user, same pseudonym");
        assertTrue(s.environment().get("NCCL_COMM_ID").matches("ip-\\d+:29500"), s.environment().get("NCCL_COMM_ID"));
        assertEquals("eth0", s.environment().get("NCCL_SOCKET_IFNAME"));
        assertEquals(Redactor.redact(identified()), red, "redaction is deterministic");
    }

    @Test
    void keepsWhatIsNotIdentifying() {
        Report original = identified();
        Report red = Redactor.redact(original);
        MachineSnapshot a = original.snapshot();
        MachineSnapshot b = red.snapshot();
        assertEquals(a.driver().driverVersion(), b.driver().driverVersion());
        assertEquals(a.driver().nvmlVersion(), b.driver().nvmlVersion(), "version strings are not IP addresses");
        assertEquals(a.gpus().get(0).pci(), b.gpus().get(0).pci());
        assertEquals(a.gpus().get(0).name(), b.gpus().get(0).name());
        assertEquals(a.pairs(), b.pairs());
        assertEquals(a.host().kernel(), b.host().kernel());
        assertEquals(a.probe().probedAt(), b.probe().probedAt(), "times are not MAC or IPv6 addresses");
        assertEquals(original.advice().verdicts().get(1), red.advice().verdicts().get(1));
        assertNotEquals(a.host().hostname(), b.host().hostname());
    }

    @Test
    void redactsTheCapturedMachine() {
        Report original = ReportFixtures.report("h200-vm");
        Report red = Redactor.redact(original);
        Gpu g = original.snapshot().gpus().get(0);
        for (String out : List.of(ReportIO.toJson(red), MarkdownReport.render(red), HtmlReport.render(red).replace("<wbr>", ""))) {
            assertFalse(out.contains(g.uuid().value()), "GPU UUID");
            assertFalse(out.contains(g.uuid().value().substring(4)), "GPU UUID body");
            assertFalse(out.contains(g.serial().value()), "serial");
            assertFalse(out.contains("\"vm\""), "host name");
        }
        assertEquals("host-1", red.snapshot().host().hostname().value());
    }

    @Test
    void redactedReportReadsBack() throws Exception {
        Report red = Redactor.redact(identified());
        assertEquals(red, ReportIO.parse(ReportIO.toJson(red), "redacted"));
    }

    /** Identifiers that look like parts of parsed fields (a PCI domain, a compute capability) leave those fields alone. */
    @Test
    void identifiersThatLookLikeStructureKeepTheReportReadable() throws Exception {
        ObjectNode t = Json.mapper().valueToTree(ReportFixtures.report("dgx-h100"));
        ((ObjectNode) t.at("/snapshot/host/hostname")).put("value", "0000.example.org");
        ((ObjectNode) t.at("/snapshot/gpus/0/serial")).put("value", "9.0");
        ((ObjectNode) t.at("/snapshot/gpus/1/serial")).put("value", "1b:00");
        Report r = ReportIO.parse(Json.write(t), "odd");
        Report red = Redactor.redact(r);
        assertEquals(r.snapshot().gpus().get(0).pci(), red.snapshot().gpus().get(0).pci());
        assertEquals("9.0", red.snapshot().gpus().get(0).computeCapability().value());
        assertEquals(r.snapshot().pairs(), red.snapshot().pairs());
        assertEquals(r.snapshot().nvSwitches(), red.snapshot().nvSwitches());
        assertEquals("host-1", red.snapshot().host().hostname().value());
        assertEquals(red, ReportIO.parse(ReportIO.toJson(red), "again"));
        HostileReportTest.checkMarkdown(MarkdownReport.render(red));
        HtmlReport.render(red);
    }
}
