package dev.fabricscope.app;

import dev.fabricscope.report.ReportFormat;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.Reading;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.MakeReport;
import dev.fabricscope.usecase.RunCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * SYNTHETIC report files for the comparison's tests and screenshots: the bundled synthetic {@code dgx-h100} sample
 * (an 8-GPU DGX H100 as NVIDIA's DGX H100 user guide describes it) as node {@code dgx-h100-01}, before and after a
 * change: another driver, two NVLinks of GPU5 down, and CUDA multicast off. Both advised for TP 8 on one node.
 *
 * <p>{@code main(dir)} writes {@code before.json} and {@code after.json}.
 */
public final class ReportFiles {

    private ReportFiles() {
    }

    static final String HOST = "dgx-h100-01";

    static MachineSnapshot before() {
        return ClusterFolders.node(ClusterFolders.sample("dgx-h100"), HOST, 1);
    }

    static MachineSnapshot after() {
        MachineSnapshot s = ClusterFolders.withDriver(before(), ClusterFolders.OTHER_DRIVER);
        List<Gpu> gpus = new java.util.ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Gpu g = s.gpus().get(i);
            List<NvLink> links = g.nvLinks();
            if (i == 5) {
                links = links.stream().map(l -> l.index() == 3 || l.index() == 4 ? new NvLink(l.index(), Reading.of(false),
                        l.versionCode(), l.generation(), l.remoteType(), l.remotePci(), l.gbpsPerDirection()) : l).toList();
            }
            CudaAttributes c = g.cuda();
            CudaAttributes nc = new CudaAttributes(c.vmm(), c.posixFdHandles(), c.fabricHandles(), Reading.of(false),
                    c.gpuDirectRdma(), c.unifiedAddressing(), c.hostNumaId());
            gpus.add(new Gpu(g.pci(), g.uuid(), g.nvmlIndex(), g.cudaOrdinal(), g.name(), g.serial(), g.architecture(),
                    g.computeCapability(), g.smCount(), g.memoryTotalBytes(), g.numaNode(), g.cpuAffinity(), g.migMode(),
                    g.virtualizationMode(), g.persistenceMode(), nc, g.nvLinkCount(), links, g.fabric()));
        }
        return new MachineSnapshot(s.schemaVersion(), s.probe(), s.host(), s.driver(), gpus, s.nvSwitches(), s.pairs(),
                s.environment(), s.findings());
    }

    /** TP 8 on 1 node, every framework. */
    static final DeploymentRequest TP8 = new DeploymentRequest(List.of(), 8, 1, null, null, null, Map.of(), Map.of(), Map.of(), Map.of());

    /** Writes {@code s}'s JSON report (through the report package) to {@code file}. */
    static Path write(Path file, MachineSnapshot s) throws Exception {
        Files.createDirectories(file.toAbsolutePath().getParent());
        MakeReport reports = new MakeReport(new Advise(), RunCheck.inChildProcesses(() -> {
            throw new AssertionError("no checks");
        }), Clock.systemUTC());
        Files.writeString(file, reports.make(new MakeReport.Request(s, MakeReport.Origin.file(file), TP8, MakeReport.Checks.recorded(),
                null, ReportFormat.JSON, false)).text());
        return file;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        write(dir.resolve("before.json"), before());
        write(dir.resolve("after.json"), after());
    }
}
