package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cluster.NodeCheckSummary;
import dev.fabricscope.cluster.read.NodeCheckReader;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster show} over a synthetic cluster folder of {@code check node} reports (copies of the DGX H100 sample,
 * checked with {@code --expect dgx-h100 --no-live}); one node has GPU3's link 7 down and mlx5_4 gone.
 */
class ClusterNodeCheckTest {

    @TempDir
    Path dir;

    private void checkedNode(MachineSnapshot s, String host, int index) throws Exception {
        Path snapshot = dir.resolve(host + ".snapshot");
        Files.writeString(snapshot, Json.write(SyntheticCluster.node(s, host, index)));
        CliTest.Run r = CliTest.run("check", "node", "--expect", "dgx-h100", "--no-live", "--snapshot", snapshot.toString(),
                "--json", "--out", dir.resolve(host + ".json").toString());
        assertTrue(r.code() == 0 || r.code() == 5, r.err());
        Files.delete(snapshot);
    }

    private void folder(boolean withFault) throws Exception {
        MachineSnapshot dgx = Samples.find("dgx-h100").orElseThrow().snapshot().get();
        checkedNode(dgx, "dgx-1", 1);
        checkedNode(withFault ? CheckNodeCommandTest.faulty() : dgx, "dgx-2", 2);
        checkedNode(dgx, "dgx-3", 3);
        // a node collected with the plain probe sits beside them: it has no check to fail
        SyntheticCluster.write(dir, SyntheticCluster.node(dgx, "dgx-4", 4), "dgx-4.json");
    }

    @Test
    void theNodeThatFailedItsCheckIsListedWithEachFailedExpectationAndExitsFive() throws Exception {
        folder(true);
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(ExitCodes.CHECK_FAILED, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("4 nodes, 32 GPUs: 1 node failed its check (dgx-2)"), lines.get(0));
        int at = lines.indexOf("Node checks: 1 of 3 checked node(s) failed:");
        assertTrue(at > 0, r.out());
        assertTrue(lines.get(at + 1).startsWith("  dgx-2: FAIL: 2 of "), lines.get(at + 1));
        assertTrue(lines.get(at + 2).startsWith("    FAIL NVLinks active: expected 18 per GPU") && lines.get(at + 2).contains("GPU3 17/18 (link 7 inactive)"),
                lines.get(at + 2));
        assertTrue(lines.get(at + 3).startsWith("    FAIL RDMA NICs: expected ") && lines.get(at + 3).contains("missing mlx5_4"), lines.get(at + 3));
        assertFalse(lines.get(at + 4).startsWith("    "), "only the failed expectations, one line each: " + lines.get(at + 4));
        assertFalse(r.out().contains("dgx-1: FAIL") || r.out().contains("dgx-3: FAIL"), r.out());

        CliTest.Run json = CliTest.run("cluster", "show", dir.toString(), "--json");
        assertEquals(ExitCodes.CHECK_FAILED, json.code());
        var tree = Json.mapper().readTree(json.out());
        assertEquals(3, tree.path("nodeChecks").size(), json.out());
        List<String> failedInJson = new java.util.ArrayList<>();
        tree.path("nodeChecks").forEach(c -> {
            if (c.path("status").asText().equals("FAILED")) {
                failedInJson.add(c.path("node").asText());
            }
        });
        assertEquals(List.of("dgx-2"), failedInJson);
    }

    @Test
    void whenEveryCheckedNodePassedTheFolderExitsZero() throws Exception {
        folder(false);
        CliTest.Run r = CliTest.run("cluster", "show", dir.toString());
        assertEquals(ExitCodes.OK, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Node checks: all 3 checked node(s) passed."), r.out());
        assertFalse(r.out().lines().findFirst().orElse("").contains("failed"), r.out());
    }

    @Test
    void theHeadIsReadOnlyFromNodeChecks() throws Exception {
        folder(true);
        NodeCheckSummary failed = NodeCheckReader.read("dgx-2", dir.resolve("dgx-2.json"));
        assertEquals("FAILED", failed.status());
        assertEquals(List.of("NVLinks active", "RDMA NICs"), failed.failed().stream().map(NodeCheckSummary.Failed::name).toList());
        assertFalse(NodeCheckReader.read("dgx-1", dir.resolve("dgx-1.json")).failedCheck());
        assertNull(NodeCheckReader.read("dgx-4", dir.resolve("dgx-4.json")), "a probe snapshot is no node check");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\":\"fabricscope-report\",\"check\":\"node\",\"status\":");
        assertNull(NodeCheckReader.read("broken", broken), "a cut file is the reader's to report, not a check result");
    }

    @Test
    void collectRunsCheckNodeOnEveryNodeAndShowListsTheFailures() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(CliTest.driverPresent(), "a live node check here would run the GPU checks");
        Path fake = dir.resolve("pdsh");
        // pdsh stand-in: runs the command locally for each host of -w, prefixing lines the way pdsh does
        Files.writeString(fake, """
                #!/bin/sh
                while [ $# -gt 1 ]; do case "$1" in -w) hosts="$2"; shift 2;; -u) shift 2;; -S) shift;; *) break;; esac; done
                cmd="$1"
                for h in $(echo "$hosts" | tr ',' ' '); do
                  sh -c "$cmd" 2>/tmp/pdsh-err.$$ | sed "s/^/$h: /"; sed "s/^/$h: /" /tmp/pdsh-err.$$ >&2; rm -f /tmp/pdsh-err.$$
                done
                """);
        Files.setPosixFilePermissions(fake, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> remote = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.fabricscope.cli.Main"));
        remote.addAll(dev.fabricscope.cluster.collect.NodeCollector.checkNodeArguments("dgx-h100"));
        assertEquals(List.of("check", "node", "--json", "--expect", "dgx-h100"), remote.subList(4, remote.size()));
        Path out = dir.resolve("collected");
        var r = new dev.fabricscope.cluster.collect.PdshCollector(out, remote, 300, "node01,node02", fake.toString()).collect();
        assertEquals(2, r.nodes().size(), r.toString());
        // no GPU here: each node's check ran and failed against the DGX H100 it was expected to be
        assertTrue(r.nodes().stream().allMatch(n -> n.status().equals("no-driver") && n.reason().contains("; check failed: FAIL")),
                r.toString());
        assertEquals(List.of("node01", "node02"), r.checkFailedNodes());
        assertEquals(ExitCodes.CHECK_FAILED, ClusterCommand.Collect.exitCode(r), "collect fails when a node check failed");
        assertTrue(dev.fabricscope.render.ClusterText.render(r, out.toString()).contains("Node checks failed on: node01, node02"));
        CliTest.Run shown = CliTest.run("cluster", "show", out.toString());
        assertEquals(ExitCodes.CHECK_FAILED, shown.code(), shown.out() + shown.err());
        assertTrue(shown.out().contains("Node checks: 2 of 2 checked node(s) failed:"), shown.out());
        assertTrue(shown.out().contains("    FAIL NVIDIA driver: expected loaded, measured NVIDIA driver not found"), shown.out());
        assertTrue(shown.out().contains("    FAIL GPU count: expected 8, measured 0: no GPU seen: no NVIDIA driver"), shown.out());
    }

    @Test
    void expectNeedsCheckNodeAndAKnownSampleOrFile() {
        Path out = dir.resolve("o");
        assertEquals(ExitCodes.USAGE, CliTest.run("cluster", "collect", "--pdsh", "a", "--expect", "dgx-h100", "--out", out.toString()).code());
        CliTest.Run bad = CliTest.run("cluster", "collect", "--pdsh", "a", "--check-node", "--expect", "no-such", "--out", out.toString());
        assertEquals(ExitCodes.USAGE, bad.code());
        assertTrue(bad.err().contains("neither a file nor a sample"), bad.err());
    }
}
