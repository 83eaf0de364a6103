package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.usecase.OpenSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 6: {@code show} of a saved report judges the machine again from its data on open; the findings the
 * file stored (an older version's, or edited) are not printed. On the captured reports of the H200 machines.
 */
class ShowJudgesAgainTest {

    private static final Path VM_REPORT = CapturedTraces.ROOT.resolve("h200-vm-2026-11-29-report/report.json");
    private static final Path NVSWITCH_REPORT = CapturedTraces.ROOT.resolve("h200-nvswitch-2gpu-2026-12-01/report.json");

    @Test
    void storedFindingsAreReplacedByThisVersionsJudgment(@TempDir Path dir) throws Exception {
        ObjectNode report = (ObjectNode) Json.mapper().readTree(VM_REPORT.toFile());
        ArrayNode stale = Json.mapper().createArrayNode();
        stale.addObject().put("severity", "ERROR").put("code", "stale").put("message", "a finding only the file holds");
        ((ObjectNode) report.get("snapshot")).set("findings", stale);
        Path file = dir.resolve("old.json");
        Files.writeString(file, Json.write(report));
        CliTest.Run r = CliTest.run("show", "--snapshot", file.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("a finding only the file holds"), r.out());
        assertTrue(r.out().contains("WARNING: GPU0 (0000:00:06.0): NVLink state not exposed: GPU is in a pass-through VM"), r.out());
        MachineSnapshot opened = OpenSnapshot.read(file);
        assertEquals(SnapshotAnalyzer.findings(opened), opened.findings());
    }

    @Test
    void aReadingChangedInTheFileIsJudgedAlthoughItsStoredFindingsSayNothing(@TempDir Path dir) throws Exception {
        ObjectNode report = (ObjectNode) Json.mapper().readTree(NVSWITCH_REPORT.toFile());
        ObjectNode fabric = (ObjectNode) report.get("snapshot").get("gpus").get(1).get("fabric");
        ((ObjectNode) fabric.get("healthSummary")).put("value", "UNHEALTHY");
        assertFalse(report.get("snapshot").get("findings").toString().contains("fabric-unhealthy"), "the file says nothing of it");
        Path file = dir.resolve("edited.json");
        Files.writeString(file, Json.write(report));
        CliTest.Run r = CliTest.run("show", "--snapshot", file.toString());
        // judged again: the health finding, and the per-GPU fabric verdict that it makes "links up, fabric not up"
        assertTrue(r.out().lines().findFirst().orElseThrow().contains("1 error, 1 warning, 3 info: GPU1: links up"), r.out());
        assertTrue(r.out().contains("WARNING: GPU1 (0000:00:07.0): GPU fabric health is UNHEALTHY."), r.out());
    }
}
