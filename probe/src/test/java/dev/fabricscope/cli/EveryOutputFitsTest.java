package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.check.api.PreflightResult;
import dev.fabricscope.json.Json;
import dev.fabricscope.render.CheckText;
import dev.fabricscope.samples.Samples;
import dev.fabricscope.samples.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 26: every text command, on every bundled sample and every captured trace, report, snapshot and check result,
 * fits 120 columns without a line over 120 and without a wrapped table row ({@link TerminalLayout} says what that
 * is). {@code --wide} and {@code --all} are exempt: they print everything, however wide.
 */
class EveryOutputFitsTest {

    @TempDir
    Path tmp;

    private final List<String> problems = new ArrayList<>();
    private int outputs;

    private void check(String what, String text) {
        assertFalse(text.isBlank(), what + " printed nothing");
        outputs++;
        problems.addAll(TerminalLayout.problems(what, text));
    }

    private void cli(String... args) {
        CliTest.Run r = CliTest.run(args);
        check(String.join(" ", args) + " (exit " + r.code() + ")", r.out().isBlank() ? r.err() : r.out());
    }

    static List<Path> captured(String name) throws Exception {
        try (Stream<Path> s = Files.walk(CapturedTraces.ROOT)) {
            return s.filter(p -> p.getFileName().toString().equals(name)).sorted().toList();
        }
    }

    private static void subcommands(CommandLine cl, List<List<String>> out, List<String> path) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getValue().getCommandSpec().usageMessage().hidden()) {
                continue;
            }
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(p);
            subcommands(e.getValue(), out, p);
        }
    }

    @Test
    void everyCommandOnEverySampleTraceAndReportFitsWithoutWrappedRows() throws Exception {
        cli("samples");
        cli("--help");
        List<List<String>> commands = new ArrayList<>();
        subcommands(Main.commandLine(), commands, List.of());
        for (List<String> c : commands) {
            List<String> args = new ArrayList<>(c);
            args.add("--help");
            cli(args.toArray(String[]::new));
        }
        cli("advise", "--list-knobs");
        List<String> sources = new ArrayList<>();
        for (String name : Samples.names()) {
            sources.add("--sample=" + name);
        }
        for (String file : List.of("probe.json", "report.json", "node-report.json", "trace.json")) {
            for (Path p : captured(file)) {
                sources.add("--snapshot=" + p);
            }
        }
        for (String src : sources) {
            cli("show", src);
            cli("advise", src);
            cli("advise", src, "--tp=1");
            cli("check", "node", "--no-live", src);
            cli("check", "node", "--no-live", src, "--expect=dgx-h100");
            cli("check", "node", "--no-live", src, "--expect=gb200-nvl72-tray");
        }
        for (Path trace : captured("trace.json")) {
            cli("probe", "--replay", trace.toString());
        }
        for (String f : List.of("preflight.json", "preflight-ws8.json", "p2p.json", "allreduce.json", "allreduce-threads.json",
                "allreduce-timeout.json", "torch-allreduce.json")) {
            Class<? extends CheckResult> type = f.startsWith("preflight") ? PreflightResult.class
                    : f.startsWith("p2p") ? P2pResult.class : AllReduceResult.class;
            for (Path p : captured(f)) {
                check("check result " + p, CheckText.render(Json.mapper().readValue(Files.readString(p), type), false));
            }
        }
        List<String> names = Samples.names();
        for (String a : List.of("dgx-h100", "h200-vm", "gb200-nvl72-tray")) {
            for (String b : names) {
                cli("diff", sampleReport(a).toString(), sampleReport(b).toString());
            }
        }
        for (Path r : captured("report.json")) {
            cli("diff", r.toString(), sampleReport("dgx-h100").toString());
        }
        Path cluster = tmp.resolve("cluster");
        Files.createDirectories(cluster);
        int i = 0;
        for (String name : names) {
            i++;
            SyntheticCluster.write(cluster, SyntheticCluster.node(SyntheticCluster.sample(name), "node-" + name, i), name + ".json");
        }
        cli("cluster", "show", cluster.toString());
        cli("advise", "--cluster", cluster.toString());
        Path same = tmp.resolve("same");
        Files.createDirectories(same);
        for (int n = 1; n <= 4; n++) {
            SyntheticCluster.write(same, SyntheticCluster.node(SyntheticCluster.sample("gb200-nvl72-tray"), "rack1-tray0" + n, n),
                    "n" + n + ".json");
        }
        cli("cluster", "show", same.toString());
        cli("advise", "--cluster", same.toString());
        assertTrue(outputs > 150, "looked at " + outputs + " outputs");
        assertEquals(List.of(), problems, problems.size() + " problems in " + outputs + " outputs:\n" + String.join("\n", problems));
    }

    private Path sampleReport(String sample) {
        Path p = tmp.resolve(sample + ".json");
        if (!Files.exists(p)) {
            CliTest.Run r = CliTest.run("report", "--sample", sample, "--out", p.toString());
            assertEquals(0, r.code(), r.err());
        }
        return p;
    }

    @Test
    void theTablesTheIssueNamedFitByShorteningDroppingOrFolding() {
        String h100 = CliTest.run("show", "--sample", "dgx-h100").out();
        assertTrue(h100.contains("(CPU and NUMA affinity: the GPU table above; nvidia-smi's layout: --wide)"), h100);
        assertTrue(h100.contains("Cluster UUID: GPU0–7 00000000-0000-0000-0000-000000000000"), h100);
        String wide = CliTest.run("show", "--sample", "dgx-h100", "--wide").out();
        assertTrue(wide.contains("CPU Affinity    NUMA Affinity"), "--wide keeps nvidia-smi's layout");
        String trace = CliTest.run("probe", "--replay", CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("trace.json").toString()).out();
        assertTrue(trace.contains("Recovery  Persist\n") && trace.contains("(Vol, Agg c/u: ECC errors"), trace);
        assertTrue(trace.contains("the one pair, GPU0–1: OK/OK/OK/OK/NS"), "no 'all 1 pair': " + trace);
        String node = CliTest.run("check", "node", "--no-live", "--sample", "h200-vm", "--expect", "dgx-h100").out();
        assertTrue(node.lines().findFirst().orElseThrow().contains("and "), "failed names that do not fit are counted: " + node);
        String many = CliTest.run("check", "node", "--no-live", "--sample", "dgx-h100", "--expect", "h200-vm").out();
        assertTrue(many.contains("GPU0–7 yes"), "GPUs that measure the same fold: " + many);
        assertTrue(CliTest.run("advise", "--list-knobs").out().lines().anyMatch(l -> l.startsWith(" ".repeat(20))
                && l.strip().startsWith("cute")), "a long VALUES cell continues under its column");
    }

    @Test
    void aRowTailOnALineOfItsOwnIsAWrappedRowAndAnAlignedRowIsNot() {
        String wrapped = """
                GPU     VMM  POSIX-FD  Fabric handles  Multicast  RDMA  Fabric state  Clique  Cluster UUID
                    Health
                GPU0–7  yes  yes       yes             yes        yes   COMPLETED     0       00000000-0000
                """;
        assertEquals(1, TerminalLayout.problems("t", wrapped).size(), TerminalLayout.problems("t", wrapped).toString());
        String grouped = """
                  Impl     Mode   Size  busbw
                  nccl     plain  1 KiB  0.1
                           graph  1 KiB  0.2
                """;
        assertEquals(List.of(), TerminalLayout.problems("t", grouped), "an empty first cell under its column is no wrap");
        String prose = """
                h200-vm   CAPTURED: 1× NVIDIA H200 in a pass-through VM, driver 580.159.04 (NVLink hidden, no multicast)
                dgx-h100  SYNTHETIC: NVIDIA DGX H100, 8× H100 80GB HBM3 SXM5, 4 NVSwitches, 18 NVLink4 links per GPU, 8×
                          ConnectX-7 400 Gb/s one per GPU
                """;
        assertEquals(List.of(), TerminalLayout.problems("t", prose), "a two-column list's description wraps under itself");
        String detail = """
                  FALLBACK  VLLM_ALLREDUCE_USE_SYMM_MEM=1 (default)  → pynccl
                    says:   SymmMemCommunicator: symmetric memory multicast operations are not supported.
                """;
        assertEquals(List.of(), TerminalLayout.problems("t", detail), "a labelled detail under a verdict is no wrap");
        assertEquals(1, TerminalLayout.problems("t", "x".repeat(121)).size());
    }
}
