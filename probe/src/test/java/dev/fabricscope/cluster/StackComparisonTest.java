package dev.fabricscope.cluster;

import dev.fabricscope.cluster.read.ClusterReader;
import dev.fabricscope.cluster.read.SummaryReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.diff.ReportDiff;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.probe.PythonEnvFixture;
import dev.fabricscope.report.ReportDiffer;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cluster show and diff name the node whose torch / NCCL differs from the others. */
class StackComparisonTest {

    @TempDir
    Path tmp;

    /** The captured torch venv, with torch and its NCCL wheel at other versions on an outlier node. */
    private PythonStack stack(String name, String torch, String cuda, String nccl) throws Exception {
        Path root = PythonEnvFixture.install(tmp.resolve(name));
        Path sp = root.resolve(PythonEnvFixture.SITE.substring(1));
        Files.writeString(sp.resolve("torch/version.py"), "__version__ = '" + torch + "'\ncuda: Optional[str] = '" + cuda + "'\n");
        Files.writeString(sp.resolve("nvidia_nccl_cu13-2.28.9.dist-info/METADATA"), "Name: nvidia-nccl-cu13\nVersion: " + nccl + "\n");
        return PythonEnvFixture.read(root, List.of());
    }

    private static MachineSnapshot node(PythonStack stack) {
        // the synthetic node's host NCCL is a system library, so each venv's NCCL wheel decides
        MachineSnapshot s = Samples.find("dgx-h100").orElseThrow().snapshot().get();
        return s.withPythonStack(stack);
    }

    @Test
    void clusterShowNamesTheOutlierNode() throws Exception {
        PythonStack usual = stack("usual", "2.11.0+cu130", "13.0", "2.28.9");
        PythonStack old = stack("old", "2.10.0+cu129", "12.9", "2.27.7");
        List<ClusterNode> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(new ClusterNode("node" + i, "node" + i + ".json", node(i == 3 ? old : usual), null));
        }
        Inconsistency stack = ClusterAnalysis.inconsistencies(nodes).stream()
                .filter(x -> x.field().startsWith("Python stack")).findFirst().orElseThrow();
        assertEquals("torch 2.11.0+cu130 / CUDA 13.0 / NCCL 2.28.9", stack.majority());
        assertEquals(List.of("node3"), stack.outliers());
        assertEquals(List.of("node3"), stack.byValue().get("torch 2.10.0+cu129 / CUDA 12.9 / NCCL 2.27.7"));
    }

    /** cluster show reads node files as summaries: the stack line comes out as from the full snapshot. */
    @Test
    void theStackReadsAlikeFromNodeFiles() throws Exception {
        PythonStack usual = stack("usual", "2.11.0+cu130", "13.0", "2.28.9");
        PythonStack old = stack("old", "2.10.0+cu129", "12.9", "2.27.7");
        Path dir = tmp.resolve("cluster");
        for (int i = 1; i <= 4; i++) {
            MachineSnapshot s = ClusterFixtures.node(node(i == 3 ? old : usual), "node" + i, i);
            ClusterFixtures.write(dir, s, "node" + i + ".json");
            assertEquals(NodeSummary.of(s), SummaryReader.read(dir.resolve("node" + i + ".json")));
        }
        Inconsistency stack = ClusterAnalysis.analyse(dir.toString(), ClusterReader.read(dir)).inconsistencies().stream()
                .filter(x -> x.field().startsWith("Python stack")).findFirst().orElseThrow();
        assertEquals(List.of("node3"), stack.outliers());
        assertEquals("torch 2.11.0+cu130 / CUDA 13.0 / NCCL 2.28.9", stack.majority());
    }

    @Test
    void diffComparesTheStackOnlyWhereBothSidesReadIt() throws Exception {
        MachineSnapshot a = node(stack("a", "2.11.0+cu130", "13.0", "2.28.9"));
        MachineSnapshot b = node(stack("b", "2.10.0+cu129", "12.9", "2.27.7"));
        ReportDiff d = ReportDiffer.compare(a, "a", b, "b");
        ReportDiff.Change c = d.changes().stream().filter(x -> x.subject().equals("Python stack")).findFirst().orElseThrow();
        assertEquals("torch 2.11.0+cu130 / CUDA 13.0 / NCCL 2.28.9", c.before());
        assertEquals("torch 2.10.0+cu129 / CUDA 12.9 / NCCL 2.27.7", c.after());
        MachineSnapshot unread = Samples.find("dgx-h100").orElseThrow().snapshot().get();
        assertTrue(ReportDiffer.compare(a, "a", unread, "old").changes().stream().noneMatch(x -> x.subject().equals("Python stack")));
    }
}
